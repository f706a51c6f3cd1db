from django.apps import AppConfig


class CandidatesConfig(AppConfig):
    name = "candidates"
    verbose_name = "Candidatos, listas e nomeações"
