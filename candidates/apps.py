from django.apps import AppConfig


class CandidatesConfig(AppConfig):
    name = "candidates"
    verbose_name = "Candidatos, listas e nomeações"

    def ready(self) -> None:
        from candidates.edital import edital_seat_order
        from contests.documents import seats

        # The edital numbers the seats as the nominations will (RULES §4): the allocation engine, in this
        # app, is handed to contests, which never imports it.
        seats.use_seat_order(edital_seat_order)
