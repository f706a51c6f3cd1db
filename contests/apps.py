from django.apps import AppConfig


class ContestsConfig(AppConfig):
    name = "contests"
    verbose_name = "Concursos e políticas"

    def ready(self) -> None:
        # login: connects the lockout receiver of django-axes to the access log.
        from contests import (
            login,  # noqa: F401
            public_pages,
        )
        from contests.documents.models import Document, EditalText
        from contests.models import Contest, Organization, Position, VacancyOpening

        # The public site's stored pages are stale once any of these changes (contests/public_pages.py).
        public_pages.connect([Contest, Position, VacancyOpening, Organization, EditalText, Document])
