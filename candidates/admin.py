"""Django admin for the candidates app: a superuser's tool for repairs, with history on every model.

Result runs and their entries are read only here: a published run is a document (a change makes a new
run through ``candidates.services.results``), and nominations are written by ``candidates.services.nominations`` so the
engine's state and the rows stay in step.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.contenttypes.models import ContentType
from django.http import HttpRequest, HttpResponse
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
from contests.audit import log_access


class LoggedModelAdmin(admin.ModelAdmin):
    """For an admin whose pages show a full CPF, the racial option or the PcD condition: every page it
    renders (list, record and, with ``LoggedHistoryAdmin``, history and a past version) is logged like the
    workspace's sensitive views (LGPD)."""

    def _log(self, request: HttpRequest, object_id: str | None, page: str) -> None:
        obj = self.get_object(request, object_id) if object_id else None
        log_access(
            user=request.user,  # type: ignore[arg-type]  # the admin's user is authenticated
            obj=obj if obj is not None else ContentType.objects.get_for_model(self.model),
            action="view_sensitive",
            detail=f"administração: {page}",
            request=request,
        )

    def changelist_view(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        response = super().changelist_view(request, extra_context)
        if response.status_code == 200:
            self._log(request, None, f"lista de {self.model._meta.verbose_name_plural}")
        return response

    def change_view(
        self, request: HttpRequest, object_id: str, form_url="", extra_context=None
    ) -> HttpResponse:
        response = super().change_view(request, object_id, form_url, extra_context)
        if response.status_code == 200:
            self._log(request, object_id, f"{self.model._meta.verbose_name} aberto")
        return response


class LoggedHistoryAdmin(LoggedModelAdmin, SimpleHistoryAdmin):
    def history_view(self, request: HttpRequest, object_id: str, extra_context=None) -> HttpResponse:
        response = super().history_view(request, object_id, extra_context)
        if response.status_code == 200:
            self._log(request, object_id, "histórico")
        return response

    def history_form_view(
        self, request: HttpRequest, object_id: str, version_id: str, extra_context=None
    ) -> HttpResponse:
        response = super().history_form_view(request, object_id, version_id, extra_context)
        if response.status_code == 200:
            self._log(request, object_id, f"versão {version_id} do histórico")
        return response


# People, registrations, phases ---------------------------------------------------------------------------
# Tables of tens of thousands of rows: foreign keys by id, no full count on every page.


@admin.register(Candidate)
class CandidateAdmin(LoggedHistoryAdmin):
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
class RegistrationAdmin(LoggedHistoryAdmin):
    # The reserves are not columns or filters of the list: they show on a registration's page (logged).
    list_display = ("number", "candidate", "contest", "position", "status")
    list_filter = ("status",)
    list_select_related = ("candidate", "contest", "position")
    search_fields = ("=number", "candidate__full_name", "candidate__social_name", "=candidate__cpf")
    raw_id_fields = ("contest", "position", "candidate")
    inlines = (SelfDeclarationInline, PhaseResultInline)
    show_full_result_count = False


@admin.register(SelfDeclaration)
class SelfDeclarationAdmin(LoggedHistoryAdmin):
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
class ResultEntryAdmin(_ReadOnly, LoggedModelAdmin):
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
