from declarations.views import portal, staff

app_name = "declarations"

urlpatterns = [*staff.urlpatterns, *portal.urlpatterns]
