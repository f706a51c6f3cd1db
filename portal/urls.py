"""The public site's addresses (namespace ``public``): the portal's home and fixed pages, the verification
of a document, the contests' pages, results, nominations and open data, the candidate's own page."""

from portal.views.contests import public_urlpatterns as contest_pages
from portal.views.lists import public_urlpatterns as list_pages

app_name = "public"

urlpatterns = [*contest_pages, *list_pages]
