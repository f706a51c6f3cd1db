from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("workspace.urls")),
    path("", include("portal.urls")),
    path("", include("candidates.urls")),
    path("", include("declarations.urls")),
    path("", include("contests.urls")),
]
