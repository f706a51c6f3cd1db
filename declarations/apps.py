from django.apps import AppConfig


class DeclarationsConfig(AppConfig):
    name = "declarations"
    verbose_name = "Autodeclarações e processos"

    def ready(self) -> None:
        # The procedure's and the commission's law is part of every policy version: the policy's services and
        # screens (in contests, which cannot import this app) carry it once it is registered.
        from candidates import documents as candidate_documents
        from candidates import trail as contest_trail
        from contests import policy_parts
        from declarations import calendars, law, trail

        policy_parts.register(law.PART)
        # A preliminary list states its appeal deadline, counted by the deadline engine (in this app).
        candidate_documents.use_deadline(calendars.organization_last_day)
        # The procedures and the heteroidentification are part of the contest's audit trail.
        contest_trail.register_part("declarations", trail.contest_entries)
