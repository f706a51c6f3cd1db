"""Django admin for the candidates app: a superuser's tool for repairs, with history on every model.

Result runs and their entries are read only here: a published run is a document (a change makes a new
run through ``candidates.services.results``), and nominations are written by ``candidates.services.nominations`` so the
engine's state and the rows stay in step.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from candidates.models import (
    AllocationLedger,
    Candidate,
    ImportMapping,
    Nomination,
    Phase,
    PhaseResult,
    Registration,
    ResultEntry,
    ResultRun,
    SelfDeclaration,
    TieBreakCriterion,
)

# People, registrations, phases ---------------------------------------------------------------------------
# Tables of tens of thousands of rows: foreign keys by id, no full count on every page.


@admin.register(Candidate)
class CandidateAdmin(SimpleHistoryAdmin):
    list_display = ("full_name", "social_name", "cpf", "birth_date")
    search_fields = ("full_name", "social_name", "=cpf")
    show_full_result_count = False


class SelfDeclarationInline(admin.StackedInline):
    model = SelfDeclaration
    extra = 0


class PhaseResultInline(admin.TabularInline):
    model = PhaseResult
    extra = 0
    raw_id_fields = ("phase",)


@admin.register(Registration)
class RegistrationAdmin(SimpleHistoryAdmin):
    list_display = ("number", "candidate", "contest", "position", "status", "racial_reserve", "pcd_reserve")
    list_filter = ("status", "racial_reserve", "pcd_reserve")
    list_select_related = ("candidate", "contest", "position")
    search_fields = ("=number", "candidate__full_name", "candidate__social_name", "=candidate__cpf")
    raw_id_fields = ("contest", "position", "candidate")
    inlines = (SelfDeclarationInline, PhaseResultInline)
    show_full_result_count = False


@admin.register(SelfDeclaration)
class SelfDeclarationAdmin(SimpleHistoryAdmin):
    list_display = ("registration", "category", "declared_on", "status")
    list_filter = ("status", "category")
    raw_id_fields = ("registration",)
    show_full_result_count = False


@admin.register(Phase)
class PhaseAdmin(SimpleHistoryAdmin):
    list_display = ("contest", "order", "name", "weight", "max_score", "pass_mark", "cutoff")
    list_select_related = ("contest",)


@admin.register(PhaseResult)
class PhaseResultAdmin(SimpleHistoryAdmin):
    list_display = ("registration", "phase", "score", "absent")
    raw_id_fields = ("registration", "phase")
    show_full_result_count = False


@admin.register(TieBreakCriterion)
class TieBreakCriterionAdmin(SimpleHistoryAdmin):
    list_display = ("contest", "order", "kind", "phase")


@admin.register(ImportMapping)
class ImportMappingAdmin(SimpleHistoryAdmin):
    list_display = ("contest",)


# Results and nominations ---------------------------------------------------------------------------------


class _ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(ResultRun)
class ResultRunAdmin(_ReadOnly, SimpleHistoryAdmin):
    list_display = ["number", "contest", "position", "kind", "status", "computed_at", "published_at"]
    list_filter = ["kind", "status"]
    search_fields = ["contest__title", "contest__slug"]
    raw_id_fields = ["contest", "position", "previous"]


@admin.register(ResultEntry)
class ResultEntryAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = ["run", "position", "list", "rank", "general_rank", "number", "name", "score"]
    list_filter = ["list"]
    search_fields = ["number", "name"]
    raw_id_fields = ["run", "position", "registration"]


@admin.register(Nomination)
class NominationAdmin(_ReadOnly, SimpleHistoryAdmin):
    list_display = [
        "position",
        "order",
        "seat",
        "seat_kind",
        "source_list",
        "registration",
        "status",
        "act_number",
    ]
    list_filter = ["status", "seat_kind", "source_list"]
    search_fields = ["registration__number", "act_number"]
    raw_id_fields = ["position", "registration", "run"]


@admin.register(AllocationLedger)
class AllocationLedgerAdmin(_ReadOnly, SimpleHistoryAdmin):
    list_display = ["position", "run", "version"]
    raw_id_fields = ["position", "run"]
