"""The app's addresses, one list per sub-domain, all under the ``declarations`` namespace."""

from django.urls import include, path

app_name = "declarations"

urlpatterns = [
    path("", include("declarations.procedure.urls")),
    path("", include("declarations.hetero.urls")),
    path("", include("declarations.courts.urls")),
]
