"""The organisation's authorities and who signs each kind of act (DESIGN point 11): the term in force, the
delegation printed as the competence (Lei 9.784 art. 14 §3º), the clear refusal when nobody may sign, and the
Gestão screens through the rendered pages."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from contests import services
from contests.documents.services import signer_initial
from contests.documents.signatures import NoSignatory, SignatureBlock, signatory_for, signature_block
from contests.models import Authority, Document, Signatory
from tests.access import ROLES, assert_access
from tests.builders import make_signatory
from tests.pages import forms_on, post_form

pytestmark = pytest.mark.django_db
D = datetime.date
READERS = {"clerk", "legal", "manager", "auditor"}


def authority(**overrides) -> Authority:
    data = {
        "name": "Ana Souza",
        "office": "Presidente da Câmara Municipal",
        "competence": "Lei Orgânica do Município, art. 35",
        "valid_from": D(2025, 1, 1),
        "valid_until": D(2026, 12, 31),
    }
    return services.authority_save(by=None, data=data | overrides)


# The model and the services ---------------------------------------------------------------------------------


def test_the_term_includes_both_ends():
    ana = authority()
    assert not ana.in_force(D(2024, 12, 31))
    assert ana.in_force(D(2025, 1, 1)) and ana.in_force(D(2026, 12, 31))
    assert not ana.in_force(D(2027, 1, 1))
    assert authority(name="Bruno", valid_until=None).in_force(D(2040, 1, 1))


def test_a_term_cannot_end_before_it_starts_and_says_so_in_portuguese():
    with pytest.raises(ValidationError) as refused:
        authority(valid_from=D(2026, 1, 1), valid_until=D(2025, 12, 31))
    assert refused.value.message_dict["valid_until"] == [
        "O fim do exercício não pode ser anterior ao início (“em exercício desde”)."
    ]
    assert not Authority.objects.filter(name="Ana Souza").exists()


def test_art14_par3_a_delegate_signs_by_delegation_and_the_block_says_so():
    delegate = authority(
        name="Luciana Barreto",
        office="Secretária Municipal de Administração",
        competence="Decreto nº 100/2025",
        delegated=True,
    )
    assert delegate.signature_competence == "Por delegação de competência: Decreto nº 100/2025"
    block = signature_block("Luciana Barreto", "Secretária Municipal de Administração", on=D(2026, 3, 2))
    assert block == SignatureBlock(
        "Luciana Barreto",
        "Secretária Municipal de Administração",
        "Por delegação de competência: Decreto nº 100/2025",
    )
    # An act of delegation that already says so is printed as recorded.
    said = authority(name="Rui", competence="Portaria nº 12/2025 (delegação de competência)", delegated=True)
    assert said.signature_competence == "Portaria nº 12/2025 (delegação de competência)"


def test_the_signature_block_takes_the_competence_of_the_term_covering_the_acts_date():
    authority()
    authority(valid_from=D(2027, 1, 1), valid_until=None, competence="Lei Orgânica, art. 35 (reeleição)")
    on = signature_block(" Ana Souza ", "Presidente da Câmara Municipal", on=D(2026, 6, 1))
    assert on.competence == "Lei Orgânica do Município, art. 35"
    assert signature_block("Ana Souza", "Presidente da Câmara Municipal", on=D(2027, 2, 1)).competence == (
        "Lei Orgânica, art. 35 (reeleição)"
    )
    assert signature_block("Ana Souza", "Presidente da Câmara Municipal", on=D(2024, 6, 1)).competence == ""
    # A substitute typed on a publication form is printed as typed.
    assert signature_block("João", "Vice-Presidente no exercício", on=D(2026, 6, 1)) == SignatureBlock(
        "João", "Vice-Presidente no exercício"
    )


def test_signatory_for_names_the_kind_when_nobody_is_assigned():
    with pytest.raises(NoSignatory) as refused:
        signatory_for(Signatory.Kind.RESULT_LIST, on=D(2026, 6, 1))
    assert str(refused.value.message) == (
        "Nenhuma autoridade foi designada para assinar: Listas de classificação. A Gestão a designa em "
        "Organização › Autoridades."
    )


def test_signatory_for_refuses_an_authority_out_of_office_on_the_acts_date():
    ana = authority()
    services.signatories_save(by=None, data={Signatory.Kind.EDITAL: ana}, today=D(2026, 6, 1))
    assert signatory_for(Signatory.Kind.EDITAL, on=D(2026, 6, 1)) == SignatureBlock(
        "Ana Souza", "Presidente da Câmara Municipal", "Lei Orgânica do Município, art. 35"
    )
    with pytest.raises(NoSignatory, match=r"não está em exercício em 01/01/2027"):
        signatory_for(Signatory.Kind.EDITAL, on=D(2027, 1, 1))


def test_only_an_authority_in_office_may_be_assigned_and_nothing_changes_otherwise():
    ana, old = authority(), authority(name="Velho", valid_from=D(2020, 1, 1), valid_until=D(2024, 12, 31))
    with pytest.raises(ValidationError) as refused:
        services.signatories_save(
            by=None, data={Signatory.Kind.EDITAL: ana, Signatory.Kind.RESULT_LIST: old}, today=D(2026, 6, 1)
        )
    assert refused.value.message_dict[Signatory.Kind.RESULT_LIST] == [
        "Velho, Presidente da Câmara Municipal não está em exercício hoje (01/06/2026): designe uma "
        "autoridade em exercício."
    ]
    assert not Signatory.objects.filter(kind=Signatory.Kind.EDITAL).exists()


def test_the_publication_forms_are_prefilled_with_the_authority_in_office_today():
    assert signer_initial(Document.Kind.NOMINATION_ACT) == {"signer_name": "", "signer_office": ""}
    make_signatory(Signatory.Kind.NOMINATION_ACT, "Ana Souza", "Presidente")
    assert signer_initial(Document.Kind.NOMINATION_ACT) == {
        "signer_name": "Ana Souza",
        "signer_office": "Presidente",
    }
    Authority.objects.filter(name="Ana Souza").update(valid_until=D(2020, 12, 31))
    assert signer_initial(Document.Kind.NOMINATION_ACT) == {"signer_name": "", "signer_office": ""}


# The Gestão screens ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_authority_screens_access(client_for, who):
    assert_access(client_for, who, reverse("contests:authority_list"), READERS)
    assert_access(client_for, who, reverse("contests:authority_create"), {"manager"})
    assert_access(client_for, who, reverse("contests:signatories_edit"), {"manager"})


def test_manager_records_an_authority_assigns_it_and_ends_its_term_through_the_pages(client_for, cast):
    client = client_for("manager")
    new = reverse("contests:authority_create")
    fill = {
        "name": "Ana Souza",
        "office": "Presidente da Câmara Municipal",
        "competence": "Lei Orgânica do Município, art. 35",
        "valid_from": "01/01/2025",
        "valid_until": "",
    }
    # A term that ends before it starts: the page says why, nothing is recorded.
    page = post_form(client, new, {**fill, "valid_until": "31/12/2024"}).content.decode()
    assert "O fim do exercício não pode ser anterior ao início" in page
    assert not Authority.objects.exists() or not Authority.objects.filter(name="Ana Souza").exists()
    response = post_form(client, new, fill, follow=True)
    assert "Autoridade registrada." in response.content.decode()
    ana = Authority.objects.get(name="Ana Souza")
    assert ana.history.get().history_user == cast["manager"]

    # Assign it to the edital and the result lists.
    assign = reverse("contests:signatories_edit")
    form = next(f for f in forms_on(client.get(assign).content.decode()) if "edital" in f.visible)
    assert str(ana.pk) in form.controls["edital"].options
    post_form(client, assign, {"edital": str(ana.pk), "result_list": str(ana.pk)})
    assert Signatory.objects.get(kind=Signatory.Kind.EDITAL).authority == ana
    assert (
        Signatory.objects.get(kind=Signatory.Kind.RESULT_LIST).history.get().history_user == cast["manager"]
    )
    listing = client.get(reverse("contests:authority_list")).content.decode()
    assert "Ana Souza, Presidente da Câmara Municipal" in listing
    assert "Lei Orgânica do Município, art. 35" in listing

    # Edit it: the competence becomes a delegation, in the history.
    edit = reverse("contests:authority_edit", args=[ana.pk])
    post_form(client, edit, {"competence": "Portaria nº 12/2025", "delegated": "on"})
    ana.refresh_from_db()
    assert ana.delegated and ana.history.first().history_change_reason == "Autoridade: competence, delegated"

    # End the term: the page warns what it still signs; the date cannot precede the start.
    end = reverse("contests:authority_end", args=[ana.pk])
    page = client.get(end).content.decode()
    assert "Esta autoridade ainda assina: Edital e retificações; Listas de classificação" in page
    page = post_form(client, end, {"valid_until": "31/12/2024"}).content.decode()
    assert "O fim do exercício não pode ser anterior ao início" in page
    post_form(client, end, {"valid_until": "31/05/2025"})
    ana.refresh_from_db()
    assert ana.valid_until == D(2025, 5, 31) and ana.history.first().history_user == cast["manager"]
    listing = client.get(reverse("contests:authority_list")).content.decode()
    assert "Fora de exercício hoje" in listing

    # Out of office: keeping it on a kind is refused with the reason.
    page = post_form(client, assign, {"edital": str(ana.pk)}).content.decode()
    assert re.search(r"Ana Souza, Presidente da Câmara Municipal não está em exercício hoje", page)


def test_readers_see_the_authorities_without_the_writing_links(client_for, cast):
    make_signatory(Signatory.Kind.EDITAL, "Ana Souza", "Presidente", competence="Lei Orgânica")
    page = client_for("auditor").get(reverse("contests:authority_list")).content.decode()
    assert "Ana Souza" in page and "Lei Orgânica" in page
    assert "Nova autoridade" not in page and "Designar quem assina" not in page and "Encerrar" not in page


def test_the_authority_list_does_not_grow_in_queries(client_for, cast):
    from tests.queries import assert_queries_do_not_grow

    ana = authority()
    services.signatories_save(by=None, data={Signatory.Kind.EDITAL: ana}, today=D(2026, 6, 1))

    def add_authorities():
        for n in range(8):
            added = authority(name=f"Autoridade {n}", valid_until=None)
            services.signatories_save(
                by=None,
                data={Signatory.Kind.values[n % len(Signatory.Kind.values)]: added},
                today=D(2026, 6, 1),
            )

    assert_queries_do_not_grow(client_for("manager"), reverse("contests:authority_list"), add_authorities)
