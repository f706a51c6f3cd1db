from django.apps import AppConfig


class DeclarationsConfig(AppConfig):
    name = "declarations"
    verbose_name = "Autodeclarações e processos"
