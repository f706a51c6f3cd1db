"""One record of each kind every staff and public URL addresses, and each URL's arguments taken from it:
shared by the permission matrix and the form fuzz test, so that a new URL is reached by both."""

from __future__ import annotations

import datetime

from tests.builders import make_job, make_procedure_world, make_world
from tests.declarations.courts_world import make_courts_world
from tests.declarations.hetero_world import make_hetero_world


def build_world(cast, settings, tmp_path) -> dict:
    settings.MEDIA_ROOT = tmp_path
    store = settings.STORAGES["procedures"]
    options = {**store["OPTIONS"], "location": tmp_path / "procedures"}
    settings.STORAGES = {**settings.STORAGES, "procedures": {**store, "OPTIONS": options}}
    world = make_world(cast)
    nominee = world["position"].registrations.get(number="N2")  # has a self-declaration
    job = make_job(world["contest"], cast["clerk"])
    return (
        world
        | make_procedure_world(cast, nominee)
        | make_hetero_world(cast, world["contest"])
        | make_courts_world(cast, world["contest"], nominee)
        | {"job": job, "seat_notice": _seat_notice(world["registration"])}
    )


def _seat_notice(registration):
    from candidates.models import SeatNotice

    return SeatNotice.objects.create(
        registration=registration, kind="held", reason="Liminar.", issued_on=datetime.date(2026, 6, 1)
    )


def arguments(name: str, route: str, world: dict) -> dict:
    """The URL's keyword arguments, taken from the world by parameter name (and screen family)."""
    route = route.replace("<id:", "<int:")  # the public site's canonical ids (portal/urls.py) are ints too
    kwargs = {}
    if route.startswith("tarefas/"):
        return {"pk": world["job"].pk}
    if "<slug:slug>" in route:
        kwargs["slug"] = world["policy"].slug if route.startswith("politicas/") else world["contest"].slug
    if "texto.<str:fmt>" in route:  # an act's text for the official gazette, beside its PDF
        kwargs["fmt"] = "txt"
    if route.startswith(("processos/", "processo/")):
        return procedure_arguments(route, world) | kwargs
    if route.startswith("ordens-judiciais/"):
        return {"pk": world["court_order"].pk} if "<int:pk>" in route else {}
    if route.startswith("heteroidentificacao/"):
        return hetero_arguments(route, world) | kwargs
    if "<int:pk>" in route:
        if "feriados" in route:
            kwargs["pk"] = world["holiday"].pk
        elif "autoridades" in route:
            kwargs["pk"] = world["authority"].pk
        elif "inscricoes" in route:
            kwargs["pk"] = world["registration"].pk
        elif "fases" in route:
            kwargs["pk"] = world["phase"].pk
        else:
            kwargs["pk"] = world["position"].pk
    if "<int:run_pk>" in route:
        kwargs["run_pk"] = world["run"].pk
    if "<int:opening_pk>" in route:
        kwargs["opening_pk"] = world["opening"].pk
    if "<str:list_slug>" in route:
        kwargs["list_slug"] = "racial"
    if "<str:fmt>" in route:
        kwargs.setdefault("fmt", "csv")
    if "<str:code>" in route:
        kwargs["code"] = "ABCD-2345"  # no such document: the page says so (404), for anyone
    if "<int:notice_pk>" in route:
        kwargs["notice_pk"] = world["seat_notice"].pk
    if "<int:nomination_pk>" in route:
        # The withdrawal statement exists only on the withdrawn nomination.
        kwargs["nomination_pk"] = world["withdrawn" if route.endswith("termo/") else "nomination"].pk
    return kwargs


def procedure_arguments(route: str, world: dict) -> dict:
    """The procedure screens' arguments: the case's year and number, or the candidate's token; an act,
    an attachment or a link by the screen's family."""
    kwargs: dict = {}
    procedure = world["procedure"]
    if "<int:year>" in route:
        kwargs.update(year=procedure.year, number=procedure.number)
    if "<str:token>" in route:
        kwargs["token"] = world["token"]
    if "<int:registration_pk>" in route:
        kwargs["registration_pk"] = world["procedure"].registration.pk
    if "<str:kind>" in route:
        kwargs["kind"] = "notice" if "intimacao" in route else "evidence"
    if "<int:pk>" in route:
        if "anexos" in route:
            kwargs["pk"] = world["attachment"].pk
        elif "protocolos" in route:
            kwargs["pk"] = world["receipt"].pk
        elif "links" in route:
            kwargs["pk"] = world["link"].pk
        else:
            kwargs["pk"] = (
                world["procedure"].acts.get(kind="opening").pk
                if "documentos" in route
                else world["notice"].pk
            )
    return kwargs


def hetero_arguments(route: str, world: dict) -> dict:
    """The heteroidentification screens' arguments: a session, a verification, a draw, a draw's notice, a
    member or the candidate's token by the screen."""
    if "<str:token>" in route:
        return {"token": world["hetero_token"]}
    if "<uidb64>" in route:  # a member's set-password link (a made-up one: the page says it is not valid)
        return {"uidb64": "MQ", "token": "cz1234-0123456789abcdef0123456789abcdef"}
    if "<int:pk>" not in route:
        return {}
    if "sorteios" in route:
        return {"pk": world["draw"].pk}
    if "avisos" in route:
        return {"pk": world["draw_announcement"].pk}
    if "membros" in route:
        return {"pk": world["member"].pk}
    if "comissoes" in route:
        return {"pk": world["member"].commission_id}
    if "documentos" in route:
        return {"pk": world["hetero_document"].pk}
    return {"pk": world["verification" if "verificacoes" in route else "hetero_session"].pk}
