from django.apps import AppConfig


class ContestsConfig(AppConfig):
    name = "contests"
    verbose_name = "Concursos e políticas"

    def ready(self) -> None:
        # login: connects the lockout receiver of django-axes to the access log.
        from contests import login  # noqa: F401
