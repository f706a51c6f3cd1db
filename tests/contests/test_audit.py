"""The audited models' ``history``: one manager class per model, made once (``audit.KeptHistoryDescriptor``),
still reading the model's whole history or one row's."""

from __future__ import annotations

import pytest
from django.apps import apps
from simple_history.manager import HistoryDescriptor, HistoryManager

from contests.audit import KeptHistoryDescriptor, audited_save
from contests.models import Contest
from tests.builders import make_contest


def _audited() -> list[type]:
    return [model for model in apps.get_models() if isinstance(vars(model).get("history"), HistoryDescriptor)]


def test_every_audited_model_makes_its_history_manager_class_once():
    audited = _audited()
    assert len(audited) > 20  # the domain's models, the policies and contests among them
    for model in audited:
        assert type(vars(model)["history"]) is KeptHistoryDescriptor, model
        assert type(model.history) is type(model.history), model
        assert isinstance(model.history, HistoryManager)


@pytest.mark.django_db
def test_the_kept_manager_reads_the_model_s_history_and_one_row_s(cast):
    first, second = make_contest(), make_contest()
    first.title = "Concurso com título corrigido"
    audited_save(first, by=cast["manager"], reason="Título corrigido")
    assert first.history.count() == 2 and second.history.count() == 1
    assert first.history.first().history_change_reason == "Título corrigido"
    assert first.history.first().history_user == cast["manager"]
    assert Contest.history.filter(id__in=[first.pk, second.pk]).count() == 3
