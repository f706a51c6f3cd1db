"""What the public portal shows for the demo, for ``seed_demo``: a concluded contest of the demo organisation
with its edital published as a document, fictitious registrations with scores, the preliminary and the final
result published with their signed lists, the contest homologated and the first nominations made with their
act (Portaria) published, today (the deadlines to take office run from
today: the demo never opens on deadlines that ended months ago). Everything through the services, as a
clerk would.

The organisation's contest in progress stays without registrations: the browser test of the clerk imports
the example file into it.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal

from candidates.documents import nomination_act_publish, result_run_publish_with_document
from candidates.models import Nomination, Phase, ResultRun
from candidates.services import registrations as registration_services
from candidates.services.nominations import nominations_call
from candidates.services.results import result_run_compute
from candidates.validators import cpf_with_check_digits
from contests import services as contest_services
from contests.audit import User
from contests.documents.services import edital_publish
from contests.models import Contest

D = datetime.date
NOMINATED = (5, 2)  # how many of each position's list (in the contest's order of positions) are nominated

# Fictitious people (no real CPF on purpose: the numbers are generated). name, social name, reserve
# ("parda"/"preta" for the racial reserve, "pcd", or ""), objective score. The accents are there on
# purpose: the portal's search finds "Conceicao" in "Conceição".
AGAD = (
    ("Ana Lúcia Gonçalves", "", "", "92.50"),
    ("João Conceição dos Santos", "", "parda", "90.00"),
    ("Márcia Antônia Ribeiro", "", "", "88.75"),
    ("Carlos Henrique Souza", "Carla Souza", "", "87.00"),
    ("Beatriz Araújo Lima", "", "preta", "85.25"),
    ("Sérgio Brandão Peixoto", "", "", "84.00"),
    ("Luíza Fernandes Prado", "", "pcd", "81.50"),
    ("Raimundo Nonato Assunção", "", "parda", "80.00"),
    ("Patrícia Gomes Teixeira", "", "", "78.25"),
    ("Otávio Simões Barreto", "", "", "77.00"),
    ("Helena Cristina Magalhães", "", "preta", "75.50"),
    ("Vinícius Ramos Câmara", "", "", "74.00"),
    ("Iara Potiguara da Silva", "", "parda", "72.75"),
    ("Rogério Tavares Melo", "", "pcd", "70.00"),
    ("Fátima Regina Oliveira", "", "", "68.50"),
    ("Antônio Carlos Jobim Neto", "", "", "66.00"),
    ("Célia Maria Nascimento", "", "parda", "63.25"),
    ("Gustavo Lemos Frota", "", "", "61.00"),
    ("Joana D'Arc Ferreira", "", "preta", "58.50"),
    ("Wellington Dias Pacheco", "", "", "55.00"),
    ("Cecília Meireles Costa", "", "", "47.00"),  # below the pass mark of 50: on no list
)
ACS = (
    ("Francisca Chagas Moreira", "", "parda", "83.00"),
    ("Edson Arantes Batista", "", "", "81.00"),
    ("Rosângela Bezerra Lopes", "", "", "79.50"),
    ("Damião Cordeiro Falcão", "", "preta", "71.00"),
    ("Irene Guimarães Sá", "", "", "65.00"),
)


PEOPLE = (AGAD, ACS)  # the people of the first and the second position of a portal contest


def seed_portal(
    contest: Contest,
    by: User | None,
    *,
    today: datetime.date,
    people: Sequence[Sequence[tuple[str, str, str, str]]] = PEOPLE,
    acts: Mapping[str, str],
    signer: tuple[str, str],
) -> list[str]:
    """Publish the demo contest's edital, register and score ``people`` (one tuple per position, in the
    contest's order of positions), publish the final result, homologate and make the first nominations,
    ``today``. For a contest created in this run only (idempotence is the caller's: it calls this once, when
    it created the contest). ``acts``: ``gazette``, ``homologation``, ``nomination``, ``nomination_gazette``;
    ``signer``: (name, office) of who signs the lists and the nomination act."""
    signer_name, signer_office = signer
    done: list[str] = []
    edital = edital_publish(contest=contest, by=by, gazette_edition=acts["gazette"])
    done.append(f"edital publicado {contest.slug} (código {edital.code})")
    phase = Phase.objects.get(contest=contest, order=1)
    positions = list(contest.positions.order_by("pk"))
    registered_on = contest.registration_start or contest.edital_date or today
    serial = 0
    for position, position_people in zip(positions, people, strict=False):
        for name, social, reserve, score in position_people:
            serial += 1
            candidate_data = {
                "full_name": name,
                "social_name": social,
                "cpf": cpf_with_check_digits(f"{700000000 + serial * 7919:09d}"),
                "birth_date": D(1980, 1, 1) + datetime.timedelta(days=97 * serial),
                "email": f"pessoa{serial}@exemplo.example",
            }
            registration = registration_services.registration_register(
                contest=contest,
                by=by,
                candidate_data=candidate_data,
                data={
                    "position": position,
                    "number": f"{contest.year}{serial:04d}",
                    "registered_on": registered_on,
                    "pcd_reserve": reserve == "pcd",
                },
                racial_category=reserve if reserve in ("parda", "preta") else None,
            )
            registration_services.phase_result_set(
                registration=registration, phase=phase, by=by, score=Decimal(score)
            )
    done.append(f"{serial} inscrições com notas em {contest.slug}")
    # The preliminary list, open to appeals, then the final one (no appeal changed it): both published as
    # signed acts, as a clerk publishes them.
    for kind in (ResultRun.Kind.PRELIMINARY, ResultRun.Kind.FINAL):
        run = result_run_compute(contest=contest, by=by, kind=kind)
        if kind == ResultRun.Kind.FINAL:
            # The demo tells a past story: its final list came out a week before the homologation of today.
            contest_services.contest_record_final_result(
                contest=contest, by=by, on=today - datetime.timedelta(days=7)
            )
        run, document = result_run_publish_with_document(
            run=run,
            kind=kind,
            by=by,
            signer_name=signer_name,
            signer_office=signer_office,
            gazette_edition=acts["gazette"],
        )
        done.append(
            f"resultado {run.get_kind_display().lower()} publicado em {contest.slug} ({document.code})"
        )
    contest_services.contest_homologate(
        contest=Contest.objects.get(pk=contest.pk), by=by, date=today, act=acts["homologation"]
    )
    done.append(f"concurso {contest.slug} homologado")
    for position, count in zip(positions, NOMINATED, strict=False):
        nominations_call(
            position=position,
            count=count,
            act_number=acts["nomination"],
            act_date=today,
            gazette_edition=acts["nomination_gazette"],
            by=by,
            today=today,
        )
    nominated = Nomination.objects.filter(position__contest=contest).count()
    act = nomination_act_publish(
        contest=contest,
        act_number=acts["nomination"],
        by=by,
        signer_name=signer_name,
        signer_office=signer_office,
        gazette_edition=acts["nomination_gazette"],
    )
    done.append(f"{nominated} nomeações em {contest.slug} ({acts['nomination']}, ato {act.code})")
    return done
