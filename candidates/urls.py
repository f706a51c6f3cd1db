from candidates.views import imports, nominations, public, registrations, results, trail

app_name = "candidates"

urlpatterns = [
    *registrations.urlpatterns,
    *imports.urlpatterns,
    *results.urlpatterns,
    *nominations.urlpatterns,
    *trail.urlpatterns,
    *public.urlpatterns,
]
