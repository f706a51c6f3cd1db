from django.apps import AppConfig


class DeclarationsConfig(AppConfig):
    name = "declarations"
    verbose_name = "Autodeclarações e processos"

    def ready(self) -> None:
        # The procedure's and the commission's law is part of every policy version: the policy's services and
        # screens (in contests, which cannot import this app) carry it once it is registered.
        from candidates import court_cases, organization_deadline
        from candidates import trail as contest_trail
        from contests import policy_parts
        from declarations import calendars, law, trail
        from declarations.courts import selectors as court_selectors

        policy_parts.register(law.PART)
        # A preliminary list's appeal deadline and a reinstated candidate's new deadline for a missed phase
        # are counted by the deadline engine (in this app).
        organization_deadline.use(calendars.organization_last_day)
        # Nominations held under a court order not yet final are precarious: the act cites the case, the public
        # order says "sub judice" (issue 22).
        court_cases.use(court_selectors.precarious_cases)
        # The procedures and the heteroidentification are part of the contest's audit trail.
        contest_trail.register_part("declarations", trail.contest_entries)
