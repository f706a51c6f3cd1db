from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "portal"
    verbose_name = "Portal público"

    def ready(self) -> None:
        from candidates.models import Nomination, ResultRun
        from contests.documents.models import Document, EditalText
        from contests.models import Contest, Organization, Position, VacancyOpening
        from portal import pages

        # The stored pages are stale once any of what they read changes (portal/pages.py). The portal
        # watches the domain's models: the domain apps never import the portal.
        pages.connect(
            [Contest, Position, VacancyOpening, Organization, EditalText, Document, ResultRun, Nomination]
        )
