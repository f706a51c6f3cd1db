from candidates.views import imports, nominations, registrations, results, trail

app_name = "candidates"

urlpatterns = [
    *registrations.urlpatterns,
    *imports.urlpatterns,
    *results.urlpatterns,
    *nominations.urlpatterns,
    *trail.urlpatterns,
]
