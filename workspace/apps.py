from django.apps import AppConfig


class WorkspaceConfig(AppConfig):
    name = "workspace"
    verbose_name = "Área da equipe"

    def ready(self) -> None:
        # login: connects the lockout receiver of django-axes to the access log.
        from workspace import login  # noqa: F401
