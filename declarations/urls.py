from declarations.views import heteroidentification, portal, staff

app_name = "declarations"

urlpatterns = [*staff.urlpatterns, *portal.urlpatterns, *heteroidentification.urlpatterns]
