from django.apps import AppConfig


class CandidatesConfig(AppConfig):
    name = "candidates"
    verbose_name = "Candidatos, listas e nomeações"

    def ready(self) -> None:
        # The public site's stored pages are stale once a run is published or a nomination recorded.
        from candidates.models import Nomination, ResultRun
        from contests import public_pages

        public_pages.connect([ResultRun, Nomination])
