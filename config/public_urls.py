"""The public site's addresses (namespace ``public``): the portal's home and fixed pages (contests app), the
contests' pages, results, nominations and open data (candidates app), a contest's publications as an Atom
feed (``contests/views/feed.py``). Each app keeps its views in ``views/public.py``; this module only gathers
them under one namespace."""

from candidates.views.public import public_urlpatterns as candidate_pages
from contests.views.feed import public_urlpatterns as feed_pages
from contests.views.public import public_urlpatterns as contest_pages

app_name = "public"

urlpatterns = [*contest_pages, *candidate_pages, *feed_pages]
