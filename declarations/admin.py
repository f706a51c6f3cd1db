"""Django admin for declarations (superusers only, like every admin page): the procedure's and the commission's
law of each policy version, locked with its policy."""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from contests.models import POLICY_LOCKED
from declarations.models import ProcedureLaw


@admin.register(ProcedureLaw)
class ProcedureLawAdmin(SimpleHistoryAdmin):
    """A version's law is made with the version (the policy's services and admin), is never deleted (the
    policy's pages read it; it protects its policy from deletion too) and changes only while no published
    contest uses the version, like the policy."""

    list_display = [
        "policy",
        "non_confirmation",
        "falsity_effect",
        "appeal_instances",
        "hetero_commission_size",
    ]
    list_select_related = ["policy"]
    search_fields = ["policy__name", "policy__slug"]
    raw_id_fields = ["policy"]

    def get_readonly_fields(self, request: HttpRequest, obj=None) -> list[str]:
        return ["policy"] if obj is not None else []

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        if obj is not None and obj.pk and obj.policy.is_used_by_published_contest():
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ProcedureLaw, form, change: bool) -> None:
        # Also reached by a revert from the history page, which asks no change permission.
        if ProcedureLaw.objects.get(pk=obj.pk).policy.is_used_by_published_contest():
            raise PermissionDenied(POLICY_LOCKED)
        super().save_model(request, obj, form, change)
