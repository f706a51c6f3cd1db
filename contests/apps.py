from django.apps import AppConfig


class ContestsConfig(AppConfig):
    name = "contests"
    verbose_name = "Concursos e políticas"

    def ready(self) -> None:
        from contests import audit

        # Every audited model's ``history`` makes its manager class once (``audit.KeptHistoryDescriptor``).
        audit.keep_history_managers()
