from declarations.views import hetero_draw, hetero_portal, hetero_staff, heteroidentification, portal, staff

app_name = "declarations"

urlpatterns = [
    *staff.urlpatterns,
    *portal.urlpatterns,
    *heteroidentification.urlpatterns,
    *hetero_staff.urlpatterns,
    *hetero_draw.urlpatterns,
    *hetero_portal.urlpatterns,
]
