"""The app's addresses, one list per sub-domain, all under the ``declarations`` namespace."""

from django.urls import include, path

from declarations.views import hetero_draw, hetero_portal, hetero_staff, heteroidentification

app_name = "declarations"

urlpatterns = [
    path("", include("declarations.procedure.urls")),
    *heteroidentification.urlpatterns,
    *hetero_staff.urlpatterns,
    *hetero_draw.urlpatterns,
    *hetero_portal.urlpatterns,
]
