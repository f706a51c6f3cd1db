from django.apps import AppConfig


class ContestsConfig(AppConfig):
    name = "contests"
    verbose_name = "Concursos e políticas"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        # login: connects the lockout receiver of django-axes to the access log.
        from contests import (
            login,  # noqa: F401
            public_pages,
            text_search,
        )
        from contests.documents.models import Document, EditalText
        from contests.models import Contest, Organization, Position, VacancyOpening

        # Name search without accents on SQLite (contests/text_search.py).
        connection_created.connect(text_search.register_sqlite, dispatch_uid="cotas-fold")
        # The public site's stored pages are stale once any of these changes (contests/public_pages.py).
        public_pages.connect([Contest, Position, VacancyOpening, Organization, EditalText, Document])
