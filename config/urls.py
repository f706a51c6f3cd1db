from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("workspace.urls")),
    path("", include("portal.urls")),
    path("", include("candidates.urls")),
    path("", include("declarations.urls")),
    path("", include("contests.urls")),
    path("", include("monitoring.urls")),
]

# Error pages that answer 503 rather than 500 when the database is down (workspace.views.errors).
handler400 = "workspace.views.errors.bad_request"
handler403 = "workspace.views.errors.permission_denied"
handler404 = "workspace.views.errors.page_not_found"
