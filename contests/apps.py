from django.apps import AppConfig


class ContestsConfig(AppConfig):
    name = "contests"
    verbose_name = "Concursos e políticas"
