from django.apps import AppConfig


class WorkspaceConfig(AppConfig):
    name = "workspace"
    verbose_name = "Área da equipe"

    def ready(self) -> None:
        # login: connects the lockout receiver of django-axes to the access log.
        # checks: the deployment check that several workers share their caches (check --deploy).
        from workspace import (
            checks,  # noqa: F401
            login,  # noqa: F401
        )
