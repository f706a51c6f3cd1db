"""A contest's publications as an Atom feed (public, anonymous): what the public saw change and where, newest
first, so that candidates, the press and other sites follow a contest without reloading its page.

Only public facts: each entry is a ``Publication`` (its title never carries a CPF nor the name of a
procedure's party, ``contests.publication``), for a contest whose edital is published (a draft is a 404, like
its page). Links are absolute from ``PUBLIC_BASE_URL`` (the address printed on the documents), never from the
request's host, so the feed is the same for everyone and is served from the public cache like the other
pages, stale as soon as a new publication commits.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.views.decorators.http import require_http_methods

from contests.models import Contest, Organization, Publication
from contests.selectors import contest_publications
from portal.pages import Page, serve
from portal.views.frame import published_contest

ENTRIES = 50


def absolute(url: str) -> str:
    return settings.PUBLIC_BASE_URL + url


class ContestPublicationsFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, slug: str) -> Contest:
        return published_contest(slug)

    def title(self, contest: Contest) -> str:
        return f"Publicações do concurso {contest.number}/{contest.year}: {contest.title}"

    def subtitle(self, contest: Contest) -> str:
        return (
            "Edital e retificações, resultados, nomeações e o que lhes acontece, vagas e situação do concurso, "
            "à medida que são publicados."
        )

    def link(self, contest: Contest) -> str:
        return absolute(reverse("public:contest", args=[contest.slug]))

    def feed_url(self, contest: Contest) -> str:
        return absolute(reverse("public:contest_feed", args=[contest.slug]))

    def author_name(self) -> str:
        organization = Organization.current()
        return organization.name if organization else "Portal de concursos"

    def items(self, contest: Contest) -> list[Publication]:
        return contest_publications(contest, limit=ENTRIES)

    def item_title(self, item: Publication) -> str:
        return item.title

    def item_description(self, item: Publication) -> str:
        return f"{item.get_kind_display()}, em {timezone.localtime(item.at):%d/%m/%Y %H:%M}."

    def item_link(self, item: Publication) -> str:
        return absolute(item.url or reverse("public:contest", args=[item.contest.slug]))  # type: ignore[union-attr]

    def item_guid(self, item: Publication) -> str:
        return f"{self.link(item.contest)}#publicacao-{item.pk}"  # type: ignore[arg-type]

    item_guid_is_permalink = False

    def item_pubdate(self, item: Publication) -> datetime.datetime:
        return item.at

    def item_updateddate(self, item: Publication) -> datetime.datetime:
        return item.at


@require_http_methods(["GET", "HEAD"])
def contest_feed(request: HttpRequest, slug: str) -> HttpResponse:
    return serve(request, key=f"feed:{slug}", build=lambda: _feed_page(request, slug))


def _feed_page(request: HttpRequest, slug: str) -> Page:
    feed = ContestPublicationsFeed()
    contest = feed.get_object(request, slug)
    generator = feed.get_feed(contest, request)
    latest = generator.latest_post_date()
    return Page(
        generator.writeString("utf-8").encode(), content_type=Atom1Feed.content_type, last_modified=latest
    )
