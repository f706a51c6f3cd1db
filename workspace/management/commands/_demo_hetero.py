"""What the Comissão and the Jurídico demo users find to do, for ``seed_demo``: the Santa Maria contest's
heteroidentification commission, drawn from an announced pool with a fixed public seed, and a session
scheduled some days after the day the seed runs; and one procedure opened, with its notice, on a registration
of the Angra contest. Everything through the services, as Jurídico and the commission would; every person
is fictitious.

Each step is skipped when what it creates exists already (a commission of the contest, a procedure on the
registration), so running ``seed_demo`` again changes nothing.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.utils import timezone

from candidates.models import Registration
from contests.models import Contest
from declarations import links
from declarations.calendars import organization_calendar
from declarations.hetero import draw_services, member_access
from declarations.hetero import rules as hetero_rules
from declarations.hetero import services as heteroidentification_services
from declarations.hetero.documents import Signer, call_publish, draw_publish, minutes_publish, result_publish
from declarations.hetero.services import MemberInput
from declarations.models import Commission, CommissionMember, Procedure, ProcedureLink, Session, Verification
from declarations.procedure import services as procedure_services
from declarations.procedure.notices import Means

# The pool announced for the draw: 7 fictitious people, diverse in gender and colour, for the policy's 5
# seats. Conceição is the ``comissao`` demo user; every other member drawn gets an account in the Comissão
# role as Jurídico creates it (``member_access``), with the demo password, so each can record opinions.
POOL = (
    ("Conceição Comissão", "Analista Legislativa", "feminino", "preta"),
    ("Benedito Quirino Alves", "Assessor Jurídico", "masculino", "pardo"),
    ("Marta Rocha Figueiredo", "Técnica Legislativa", "feminino", "branca"),
    ("Jurandir Potiguara Lima", "Professor da rede municipal", "masculino", "indígena"),
    ("Aparecida dos Anjos Silva", "Conselheira municipal da igualdade racial", "feminino", "parda"),
    ("Rafael Okabe Nunes", "Assistente Legislativo", "masculino", "amarelo"),
    ("Tereza Cristina Bastos", "Procuradora da Câmara", "feminino", "preta"),
)
COMMISSION_USER = "comissao"
# The fixed public seed: with it, the draw (sha256-rank-v1) picks Conceição among the 5; a test pins it.
SEED = "Demonstração: semente fixa 2026-0001"
SEED_SOURCE = "Semente fixa da demonstração (num concurso real: o resultado de uma loteria federal)"
SESSION_IN_DAYS = 14  # the session is scheduled this many days after the day the seed runs
SESSION_PLACE = "Plenarinho da Câmara Municipal, Rua da Demonstração, 100 (endereço fictício)"
# The session already held: this many days before the day the seed runs, with the first racial-reserve
# candidates (by inscription) called to it.
HELD_DAYS_AGO = 30
HELD_CALLED = 4
OPINION = (
    "Fenótipo observado na sessão (cor da pele, textura do cabelo, traços faciais) compatível com a "
    "autodeclaração (parecer fictício, para demonstração)."
)

# The procedure: a fictitious complaint on a racial-reserve registration of the Angra contest.
PROCEDURE_CANDIDATE = "Célia Maria Nascimento"
PROCEDURE_FACTS = (
    "Denúncia fictícia, para demonstração: afirma-se que a candidata não seria socialmente reconhecida "
    "como parda. Nenhum fato real é descrito; os nomes são inventados."
)
PROCEDURE_COMPLAINANT = "Denunciante fictício (demonstração)"

# A second procedure, told from its opening to its public act of effects (every act of the flow, the appeal to
# the superior authority included), on another racial-reserve registration of the same contest.
CONCLUDED_CANDIDATE = "Joana D'Arc Ferreira"
CONCLUDED_DAYS_AGO = 75  # opened this many days before the day the seed runs
CONCLUDED_FACTS = (
    "Apuração de ofício, para demonstração: a documentação apresentada na inscrição não permitiu confirmar a "
    "autodeclaração. Nenhum fato real é descrito; os nomes são inventados."
)
# (days after the opening, act, outcome, text): the candidate's filings and the administration's acts; a
# decision is notified in person.
CONCLUDED_ACTS = (
    (5, "defence", "", "Defesa da candidata (fictícia): reafirma a autodeclaração."),
    (6, "instruction_closed", "", ""),
    (6, "closing_notice", "", ""),
    (8, "final_statement", "", "Alegações finais da candidata (fictícias)."),
    (10, "report", "", "Relatório da comissão processante (fictício), com proposta de decisão."),
    (
        15,
        "decision",
        "falsity",
        "Falsidade da autodeclaração confirmada: fundamentos de fato e de direito (texto fictício).",
    ),
    (16, "decision_notice", "", ""),
    (20, "appeal", "", "Recurso da candidata (fictício) contra a decisão."),
    (22, "reconsideration", "falsity", "Decisão mantida em juízo de reconsideração; recurso encaminhado."),
    (
        40,
        "superior_decision",
        "falsity",
        "Recurso conhecido e não provido pela autoridade superior (fictício).",
    ),
    (41, "decision_notice", "", ""),
    (60, "final", "", "Certidão: decorrido o prazo sem recurso, a decisão tornou-se definitiva."),
)


def _pool(user: User) -> list[MemberInput]:
    """The announced pool; Conceição is the ``comissao`` user, and a person who sits on another demo
    commission already keeps the account made for her there."""
    accounts = dict(
        CommissionMember.objects.filter(user__isnull=False).values_list("name", "user").order_by("pk")
    )
    users = User.objects.in_bulk(list(accounts.values()))
    return [
        MemberInput(
            name=name,
            office=office,
            gender=gender,
            colour=colour,
            user=user if name.startswith("Conceição") else users.get(accounts.get(name, 0)),
        )
        for name, office, gender, colour in POOL
    ]


def _draw(
    contest: Contest, by: User, *, user: User, password: str | None, now: datetime.datetime, signer: Signer
) -> tuple[Commission, list[str]]:
    """Announce, perform and publish the draw of ``contest``'s first commission at ``now`` (the announcement
    the day before, the draw at ``now``), and give every member drawn without an account one (with ``password``)."""
    done: list[str] = []
    today = timezone.localdate(now)
    announcement = draw_services.draw_announce(
        contest=contest,
        kind=hetero_rules.Kind.FIRST,
        pool=_pool(user),
        seed_source=SEED_SOURCE,
        seed_known_on=today,
        by=by,
        now=now - datetime.timedelta(days=1),  # the seed's date is strictly after the notice's day
        signer=signer,
    )
    formed = draw_services.draw_perform(
        announcement=announcement,
        seed=SEED,
        formed_on=today,
        act_reference="Portaria 12/2026 (demonstração)",
        by=by,
        now=now,
    )
    assert formed.draw is not None
    draw_publish(record=formed.draw, by=by, signer=signer)
    commission = formed.commission
    done.append(
        f"comissão de heteroidentificação de {contest.slug} sorteada ({commission.members.count()} membros)"
    )
    for member in commission.members.filter(user__isnull=True).order_by("name"):
        account = member_access.member_account_create(
            member=member, username=member_access.username_for(member.name), email="", by=by
        )
        if password:
            account.set_password(password)
            account.save(update_fields=["password"])
        done.append(f"usuário {account.username} (Comissão), membro {member.name}")
    return commission, done


def seed_heteroidentification_held(
    contest: Contest, by: User, *, signer: Signer, password: str | None = None
) -> list[str]:
    """A session of ``contest``'s first commission held some weeks ago, so that its acts can be read: the
    commission drawn before it (notice and record), the call of the first racial-reserve candidates
    (``HELD_CALLED``) published, their attendance (one absent), every present member's reasoned opinion,
    the session closed, its minutes (restricted) and the list of confirmed self-declarations published.
    Nothing if the contest has a commission already, has no racial-reserve registration, or if the
    ``comissao`` user does not exist (DEBUG off)."""
    user = User.objects.filter(username=COMMISSION_USER).first()
    registrations = list(
        Registration.objects.filter(contest=contest, racial_reserve=True, status=Registration.Status.ACTIVE)
        .select_related("candidate")
        .order_by("number")[:HELD_CALLED]
    )
    if user is None or not registrations or Commission.objects.filter(contest=contest).exists():
        return []
    now = timezone.now()
    drawn_at = now - datetime.timedelta(days=HELD_DAYS_AGO + 10)
    commission, done = _draw(contest, by, user=user, password=password, now=drawn_at, signer=signer)
    held_on = timezone.localdate(now) - datetime.timedelta(days=HELD_DAYS_AGO)
    starts_at = timezone.make_aware(datetime.datetime.combine(held_on, datetime.time(9)))
    session = heteroidentification_services.session_schedule(
        commission=commission, starts_at=starts_at, place=SESSION_PLACE, by=by
    )
    called = heteroidentification_services.candidates_call(
        session=session, by=by, registrations=registrations
    )
    call = call_publish(session=session, by=by, signer=signer)
    absent = called[-1]  # the last one called did not come (the minutes say so; no opinion on them)
    heteroidentification_services.attendance_record_many(
        session=session, attended=[v.pk for v in called if v.pk != absent.pk], by=by
    )
    members = list(commission.members.select_related("user").order_by("name"))
    for verification in called:
        if verification.pk == absent.pk:
            continue
        for member in members:
            assert member.user is not None
            heteroidentification_services.opinion_record(
                verification=verification, user=member.user, confirms=True, reasons=OPINION
            )
    closed_at = timezone.make_aware(datetime.datetime.combine(held_on, datetime.time(11, 30)))
    session = heteroidentification_services.session_close(
        session=session,
        by=by,
        now=closed_at,
        calendar=organization_calendar([held_on.year, held_on.year + 1]),
    )
    # The minutes are signed by the members present; the first of them is recorded as its signer.
    first = session.present.order_by("name").first()
    minutes = minutes_publish(
        session=session, by=by, signer=Signer(first.name, first.office) if first else signer
    )
    result = result_publish(contest=contest, by=by, signer=signer, today=timezone.localdate(now))
    done.append(
        f"sessão de heteroidentificação de {held_on:%d/%m/%Y} em {contest.slug}: convocação ({call.code}), "
        f"ata ({minutes.code}) e resultado ({result.code}) publicados"
    )
    return done


def seed_heteroidentification(
    contest: Contest, by: User, *, signer: Signer, password: str | None = None
) -> list[str]:
    """Announce and perform the draw of ``contest``'s first commission (with the ``comissao`` demo user in
    it) unless a held session formed it already (``seed_heteroidentification_held``), give every other
    member drawn an account (with ``password``, the demo's), publish the draw, schedule a session and call
    the racial-reserve candidates not called yet, if any, publishing the call. Nothing if the contest's
    commission has a session still to be held, or if the ``comissao`` user does not exist (DEBUG off)."""
    user = User.objects.filter(username=COMMISSION_USER).first()
    if user is None or Session.objects.filter(commission__contest=contest, closed_at__isnull=True).exists():
        return []
    done: list[str] = []
    now = timezone.now()
    today = timezone.localdate(now)
    commission = Commission.objects.filter(contest=contest, kind=hetero_rules.Kind.FIRST).first()
    if commission is None:
        commission, done = _draw(contest, by, user=user, password=password, now=now, signer=signer)
    starts_at = timezone.make_aware(
        datetime.datetime.combine(today + datetime.timedelta(days=SESSION_IN_DAYS), datetime.time(9))
    )
    session = heteroidentification_services.session_schedule(
        commission=commission, starts_at=starts_at, place=SESSION_PLACE, by=by
    )
    done.append(f"sessão de heteroidentificação em {starts_at:%d/%m/%Y} ({contest.slug})")
    called_already = Verification.objects.filter(session__commission=commission).values("registration")
    if (
        Registration.objects.filter(contest=contest, racial_reserve=True, status=Registration.Status.ACTIVE)
        .exclude(pk__in=called_already)
        .exists()
    ):
        called = heteroidentification_services.candidates_call(session=session, by=by)
        call = call_publish(session=session, by=by, signer=signer)
        done.append(f"{len(called)} candidatos chamados à sessão (convocação {call.code})")
    return done


def seed_procedure(contest: Contest, by: User) -> list[str]:
    """Open a procedure on the registration of ``PROCEDURE_CANDIDATE`` in ``contest`` and notify her in
    person today, so that the defence deadline runs. Nothing if she has a procedure already or is missing."""
    registration = Registration.objects.filter(
        contest=contest, candidate__full_name=PROCEDURE_CANDIDATE
    ).first()
    if registration is None or Procedure.objects.filter(registration=registration).exists():
        return []
    today = timezone.localdate()
    procedure = procedure_services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.COMPLAINT,
        facts=PROCEDURE_FACTS,
        complainant=PROCEDURE_COMPLAINANT,
        by=by,
        today=today,
    )
    procedure_services.notice_send(
        procedure=procedure,
        by=by,
        today=today,
        means=Means.IN_PERSON,
        text="Ciência pessoal da instauração, com prazo para a defesa (demonstração).",
    )
    # The candidate joins a document through her private link: the filing gets its protocol receipt.
    candidate = registration.candidate
    link, _token = links.link_issue(
        procedure=procedure,
        holder=ProcedureLink.Holder.CANDIDATE,
        name=candidate.display_name,
        by=by,
        now=timezone.now(),
    )
    filed = procedure_services.candidate_file(
        link=link,
        kind="evidence",
        text="Junto declaração escolar que me identifica como parda (demonstração).",
        uploads=(),
        now=timezone.now(),
    )
    return [
        f"processo {procedure} aberto em {contest.slug}, com intimação pessoal e uma prova protocolada "
        f"({filed.receipt})"
    ]


def seed_procedure_concluded(contest: Contest, by: User) -> list[str]:
    """A procedure on ``CONCLUDED_CANDIDATE``'s registration told to its end, some weeks ago: opening,
    notice, defence, instruction, report, decision of falsity and its notice, appeal, reconsideration,
    the superior authority's decision and its notice, the certificate that the decision is final, and the
    public act of its effects (the elimination). Nothing if she has a procedure already or is missing."""
    registration = Registration.objects.filter(
        contest=contest, candidate__full_name=CONCLUDED_CANDIDATE
    ).first()
    if registration is None or Procedure.objects.filter(registration=registration).exists():
        return []
    opened_on = timezone.localdate() - datetime.timedelta(days=CONCLUDED_DAYS_AGO)
    procedure = procedure_services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.EX_OFFICIO,
        facts=CONCLUDED_FACTS,
        by=by,
        today=opened_on,
    )
    procedure_services.notice_send(procedure=procedure, by=by, today=opened_on, means=Means.IN_PERSON)
    day = opened_on
    for days, kind, outcome, text in CONCLUDED_ACTS:
        day = opened_on + datetime.timedelta(days=days)
        if kind in ("closing_notice", "decision_notice"):
            procedure_services.notice_send(
                procedure=procedure, by=by, today=day, kind=kind, means=Means.IN_PERSON
            )
        else:
            procedure_services.act_record(
                procedure=procedure, kind=kind, by=by, today=day, outcome=outcome, text=text
            )
    effects = procedure_services.effects_apply(procedure=procedure, by=by, today=day)
    assert effects.document is not None
    return [
        f"processo {procedure} concluído em {contest.slug}: decisão definitiva e ato público dos efeitos "
        f"({effects.document.code})"
    ]
