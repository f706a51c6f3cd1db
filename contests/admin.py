"""Django admin for the contests app: a superuser's tool for repairs, with history on every model.

Staff work in the workspace (``contests.views``), whose writes go through the services. The admin is
open to superusers only, and its login is throttled like the workspace's.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from contests.login import ThrottledAdminAuthenticationForm
from contests.models import AccessLog, Contest, Holiday, Organization, Policy, Position, VacancyOpening


def _superuser_only(request: HttpRequest) -> bool:
    return request.user.is_active and request.user.is_superuser


admin.site.has_permission = _superuser_only  # type: ignore[method-assign]  # superusers only
admin.site.login_form = ThrottledAdminAuthenticationForm
admin.site.site_header = "Cotas – administração do sistema"
admin.site.site_title = "Cotas"
admin.site.index_title = "Administração (somente superusuários)"


@admin.register(Policy)
class PolicyAdmin(SimpleHistoryAdmin):
    list_display = ["name", "version", "jurisdiction", "act_kind", "act_number", "percent", "threshold"]
    list_filter = ["act_kind", "nomination_order"]
    search_fields = ["name", "slug", "jurisdiction", "act_number"]
    raw_id_fields = ["previous_version"]


@admin.register(Organization)
class OrganizationAdmin(SimpleHistoryAdmin):
    list_display = ["name", "municipality", "state"]


@admin.register(Holiday)
class HolidayAdmin(SimpleHistoryAdmin):
    list_display = ["date", "name", "kind", "period", "recurring"]
    list_filter = ["kind", "recurring"]
    date_hierarchy = "date"
    search_fields = ["name"]


class PositionInline(admin.TabularInline):
    model = Position
    extra = 0
    fields = ["code", "title", "post_kind"]
    show_change_link = True


@admin.register(Contest)
class ContestAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "status", "policy", "edital_date", "homologation_date"]
    list_filter = ["status", "policy"]
    search_fields = ["title", "number", "slug"]
    inlines = [PositionInline]


class VacancyOpeningInline(admin.TabularInline):
    model = VacancyOpening
    extra = 0
    fields = ["kind", "count", "date", "act"]


@admin.register(Position)
class PositionAdmin(SimpleHistoryAdmin):
    list_display = ["code", "title", "contest", "post_kind"]
    list_filter = ["post_kind"]
    search_fields = ["code", "title", "contest__title"]
    list_select_related = ["contest"]
    inlines = [VacancyOpeningInline]


@admin.register(VacancyOpening)
class VacancyOpeningAdmin(SimpleHistoryAdmin):
    list_display = ["position", "kind", "count", "date", "act"]
    list_filter = ["kind"]
    list_select_related = ["position"]
    search_fields = ["position__code", "position__title", "act"]


@admin.register(AccessLog)
class AccessLogAdmin(admin.ModelAdmin):
    """Append-only: the admin can read the log, never write or erase it."""

    list_display = ["at", "user", "action", "object_repr", "detail", "ip_address"]
    list_filter = ["action", "content_type"]
    search_fields = ["object_repr", "user__username", "detail"]
    date_hierarchy = "at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
