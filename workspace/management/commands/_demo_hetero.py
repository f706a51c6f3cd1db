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
from contests.documents.signatures import signatory_for
from contests.models import Contest, Signatory
from declarations.hetero import draw_services, member_access
from declarations.hetero import rules as hetero_rules
from declarations.hetero import services as heteroidentification_services
from declarations.hetero.documents import Signer, draw_publish
from declarations.hetero.services import MemberInput
from declarations.models import Commission, Procedure
from declarations.procedure import services as procedure_services
from declarations.procedure.rules import Means

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

# The procedure: a fictitious complaint on a racial-reserve registration of the Angra contest.
PROCEDURE_CANDIDATE = "Célia Maria Nascimento"
PROCEDURE_FACTS = (
    "Denúncia fictícia, para demonstração: afirma-se que a candidata não seria socialmente reconhecida "
    "como parda. Nenhum fato real é descrito; os nomes são inventados."
)
PROCEDURE_COMPLAINANT = "Denunciante fictício (demonstração)"


def seed_heteroidentification(contest: Contest, by: User, *, password: str | None = None) -> list[str]:
    """Announce and perform the draw of ``contest``'s first commission (with the ``comissao`` demo user in
    it), give every other member drawn an account (with ``password``, the demo's), publish the draw,
    schedule a session and call the racial-reserve candidates, if any. Nothing if the contest has a
    commission already, or if the ``comissao`` user does not exist (DEBUG off)."""
    user = User.objects.filter(username=COMMISSION_USER).first()
    if user is None or Commission.objects.filter(contest=contest).exists():
        return []
    done: list[str] = []
    now = timezone.now()
    today = timezone.localdate(now)
    pool = [
        MemberInput(
            name=name,
            office=office,
            gender=gender,
            colour=colour,
            user=user if name.startswith("Conceição") else None,
        )
        for name, office, gender, colour in POOL
    ]
    # Who signs the commission's public acts: the authority the demo organisation assigns to them.
    block = signatory_for(Signatory.Kind.HETEROIDENTIFICATION, on=today)
    signer = Signer(name=block.name, office=block.office)
    announcement = draw_services.draw_announce(
        contest=contest,
        kind=hetero_rules.Kind.FIRST,
        pool=pool,
        seed_source=SEED_SOURCE,
        seed_known_on=today,
        by=by,
        now=now,
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
    starts_at = timezone.make_aware(
        datetime.datetime.combine(today + datetime.timedelta(days=SESSION_IN_DAYS), datetime.time(9))
    )
    session = heteroidentification_services.session_schedule(
        commission=commission, starts_at=starts_at, place=SESSION_PLACE, by=by
    )
    done.append(f"sessão de heteroidentificação em {starts_at:%d/%m/%Y} ({contest.slug})")
    if Registration.objects.filter(
        contest=contest, racial_reserve=True, status=Registration.Status.ACTIVE
    ).exists():
        called = heteroidentification_services.candidates_call(session=session, by=by)
        done.append(f"{len(called)} candidatos chamados à sessão")
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
    return [f"processo {procedure} aberto em {contest.slug}, com intimação pessoal"]
