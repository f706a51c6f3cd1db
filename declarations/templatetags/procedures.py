"""``{% registration_procedures registration %}``: the status of a registration's procedures on its page,
and of those on the same person's other registrations. Secretaria sees the status only; Jurídico and
Auditoria also get the link to the case (RULES §7). ``candidates`` may not import ``declarations``: its
template loads this tag, the panel ``declarations`` adds to the registration page."""

from __future__ import annotations

from django import template

from declarations.procedure import selectors

register = template.Library()


@register.inclusion_tag("declarations/includes/registration_procedures.html", takes_context=True)
def registration_procedures(context, registration) -> dict:
    user = context["request"].user
    if not user.has_perm("declarations.view_procedure_status"):
        return {"show": False}
    return {
        "show": True,
        "registration": registration,
        "procedures": selectors.registration_procedures(registration),
        "others": selectors.person_other_procedures(registration),
        "can_view": user.has_perm("declarations.view_procedure"),
        "can_open": user.has_perm("declarations.conduct_procedure")
        and (registration.racial_reserve or hasattr(registration, "self_declaration")),
    }
