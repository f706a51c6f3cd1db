"""Staff workspace of the contests app: thin function views (access, form, service, redirect or render).

One module per screen family; this package re-exports the views for ``contests.urls`` and the access
helpers other apps use (``from contests.views import get_contest_for_user, staff_view``).
"""

from contests.views.access import (
    PAGE_SIZE,
    AuthenticatedHttpRequest,
    form_data,
    get_contest_for_user,
    get_opening_for_user,
    get_position_for_user,
    staff_view,
)
from contests.views.contests import (
    PositionRow,
    contest_create,
    contest_detail,
    contest_edit,
    contest_extend_validity,
    contest_history,
    contest_homologate,
    contest_list,
    contest_status,
    reservation_row,
)
from contests.views.organization import (
    accesslog_list,
    holiday_create,
    holiday_delete,
    holiday_edit,
    holiday_list,
    organization_settings,
)
from contests.views.policies import policy_create, policy_detail, policy_edit, policy_list, policy_new_version
from contests.views.positions import (
    opening_create,
    opening_delete,
    opening_edit,
    position_create,
    position_detail,
    position_edit,
    position_history,
    reservation_preview,
)

__all__ = [
    "PAGE_SIZE",
    "AuthenticatedHttpRequest",
    "PositionRow",
    "accesslog_list",
    "contest_create",
    "contest_detail",
    "contest_edit",
    "contest_extend_validity",
    "contest_history",
    "contest_homologate",
    "contest_list",
    "contest_status",
    "form_data",
    "get_contest_for_user",
    "get_opening_for_user",
    "get_position_for_user",
    "holiday_create",
    "holiday_delete",
    "holiday_edit",
    "holiday_list",
    "opening_create",
    "opening_delete",
    "opening_edit",
    "organization_settings",
    "policy_create",
    "policy_detail",
    "policy_edit",
    "policy_list",
    "policy_new_version",
    "position_create",
    "position_detail",
    "position_edit",
    "position_history",
    "reservation_preview",
    "reservation_row",
    "staff_view",
]
