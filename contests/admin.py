"""Django admin for the contests app: a superuser's tool for repairs, with history on every model.

Staff work in the workspace (``contests.views``), whose writes go through the services. The admin is
open to superusers only, and its login is throttled like the workspace's.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from contests import policy_parts
from contests.models import (
    POLICY_LOCKED,
    AccessLog,
    Contest,
    Holiday,
    Organization,
    Policy,
    Position,
    VacancyOpening,
)


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's login: for superusers only (everyone else uses the workspace). django-axes throttles it as
    it does the workspace's (its backend comes first in ``AUTHENTICATION_BACKENDS``)."""

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "invalid_login": "Usuário ou senha incorretos, ou a conta não é de administrador do sistema.",
    }

    def confirm_login_allowed(self, user: User) -> None:
        super().confirm_login_allowed(user)
        if not user.is_superuser:
            raise ValidationError(self.error_messages["invalid_login"], code="invalid_login")


def _superuser_only(request: HttpRequest) -> bool:
    return request.user.is_active and request.user.is_superuser


admin.site.has_permission = _superuser_only  # type: ignore[method-assign]  # superusers only
admin.site.login_form = AdminLoginForm
admin.site.site_header = "Cotas – administração do sistema"
admin.site.site_title = "Cotas"
admin.site.index_title = "Administração (somente superusuários)"


@admin.register(Policy)
class PolicyAdmin(SimpleHistoryAdmin):
    """A policy used by a contest whose edital was published is read-only here too: make a new version."""

    list_display = ["name", "version", "jurisdiction", "act_kind", "act_number", "percent", "threshold"]
    list_filter = ["act_kind", "nomination_order"]
    search_fields = ["name", "slug", "jurisdiction", "act_number"]
    raw_id_fields = ["previous_version"]

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        if obj is not None and obj.pk and obj.is_used_by_published_contest():
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        if obj is not None and obj.pk and obj.is_used_by_published_contest():
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Policy, form, change: bool) -> None:
        # Also reached by a revert from the history page, which asks no change permission.
        if change and Policy.objects.get(pk=obj.pk).is_used_by_published_contest():
            raise PermissionDenied(POLICY_LOCKED)
        super().save_model(request, obj, form, change)
        if not change:  # a version has its parts from the start (the procedure's law, with the defaults)
            for part in policy_parts.parts():
                by = request.user if request.user.is_authenticated else None
                part.create(policy=obj, by=by, data={}, copy_from=None)


@admin.register(Organization)
class OrganizationAdmin(SimpleHistoryAdmin):
    list_display = ["name", "municipality", "state"]


@admin.register(Holiday)
class HolidayAdmin(SimpleHistoryAdmin):
    list_display = ["date", "name", "kind", "period", "recurring"]
    list_filter = ["kind", "recurring"]
    date_hierarchy = "date"
    search_fields = ["name"]


def _edital_published(obj) -> bool:
    """Whether ``obj`` (a contest, position or vacancy opening) belongs to a contest whose edital is out."""
    if obj is None or not obj.pk:
        return False
    contest = obj if isinstance(obj, Contest) else getattr(obj, "contest", None) or obj.position.contest
    return Contest.objects.get(pk=contest.pk).edital_published


class PositionInline(admin.TabularInline):
    model = Position
    extra = 0
    fields = ["code", "title", "post_kind"]
    show_change_link = True

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return not _edital_published(obj) and super().has_delete_permission(request, obj)


# Moved only by the workspace's services, checked against contests/lifecycle.py; the dates are permanent.
LIFECYCLE_FIELDS = ("status", "edital_published_on", "homologation_date")
# Fixed once the edital is published (contests.services.contest_update says why).
PUBLISHED_FIELDS = ("policy", "slug")


@admin.register(Contest)
class ContestAdmin(SimpleHistoryAdmin):
    """The status and the lifecycle's dates are read-only; the policy and address too once published."""

    list_display = ["__str__", "status", "policy", "edital_date", "edital_published_on", "homologation_date"]
    list_filter = ["status", "policy"]
    search_fields = ["title", "number", "slug"]
    inlines = [PositionInline]

    def get_readonly_fields(self, request: HttpRequest, obj=None) -> list[str]:
        fields = [*super().get_readonly_fields(request, obj), *LIFECYCLE_FIELDS]
        if _edital_published(obj):
            fields += PUBLISHED_FIELDS
        return fields

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return not _edital_published(obj) and super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Contest, form, change: bool) -> None:
        # A revert from the history page saves an old copy whole: the lifecycle is kept as it stands.
        if change:
            stored = Contest.objects.get(pk=obj.pk)
            kept = [*LIFECYCLE_FIELDS, *(PUBLISHED_FIELDS if stored.edital_published else ())]
            attnames = [field.attname for field in Contest._meta.concrete_fields if field.name in kept]
            if any(getattr(obj, name) != getattr(stored, name) for name in attnames):
                messages.warning(
                    request,
                    "A situação, as datas de publicação e de homologação (e, com o edital publicado, a "
                    "política e o identificador) não mudam por aqui: foram mantidas como estavam.",
                )
            for name in attnames:
                setattr(obj, name, getattr(stored, name))
        super().save_model(request, obj, form, change)


class VacancyOpeningInline(admin.TabularInline):
    model = VacancyOpening
    extra = 0
    fields = ["kind", "count", "date", "act"]

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return not _edital_published(obj) and super().has_delete_permission(request, obj)


@admin.register(Position)
class PositionAdmin(SimpleHistoryAdmin):
    list_display = ["code", "title", "contest", "post_kind"]
    list_filter = ["post_kind"]
    search_fields = ["code", "title", "contest__title"]
    list_select_related = ["contest"]
    inlines = [VacancyOpeningInline]

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return not _edital_published(obj) and super().has_delete_permission(request, obj)


@admin.register(VacancyOpening)
class VacancyOpeningAdmin(SimpleHistoryAdmin):
    list_display = ["position", "kind", "count", "date", "act"]
    list_filter = ["kind"]
    list_select_related = ["position"]
    search_fields = ["position__code", "position__title", "act"]

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return not _edital_published(obj) and super().has_delete_permission(request, obj)


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
