"""The public site's addresses (namespace ``public``): anonymous, the same for everyone (the candidate's own
page answers only with an inscription number and its access code)."""

from django.urls import path, register_converter

from portal.views import (
    candidate,
    contests,
    draw,
    feed,
    law_data,
    lists,
    nominations,
    open_data,
    verification,
)

app_name = "public"


class CanonicalId:
    """An id as the site writes it: no zero padding, no sign, at most 18 digits. ``<id:…>`` also took
    ``/resultados/0001/``, the same page under endless addresses, each stored apart by the public cache
    (issue 25, N1): such an address is a 404 now."""

    regex = "[1-9][0-9]{0,17}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(int(value))


register_converter(CanonicalId, "id")

CONTEST = "publico/concursos/<slug:slug>/"
RUN = CONTEST + "resultados/<id:run_pk>/"

urlpatterns = [
    path("", contests.home, name="home"),
    path("acessibilidade/", contests.accessibility, name="accessibility"),
    path("privacidade/", contests.privacy, name="privacy"),
    path(CONTEST, contests.contest_page, name="contest"),
    path(CONTEST + "publicacoes.atom", feed.contest_feed, name="contest_feed"),
    path(RUN, lists.run_page, name="run"),
    path(RUN + "cargos/<id:pk>/<str:list_slug>/", lists.list_page, name="list"),
    path(RUN + "cargos/<id:pk>/<str:list_slug>.<str:fmt>", open_data.list_data, name="list_data"),
    path(CONTEST + "cargos/<id:pk>/nomeacoes/", nominations.nominations_page, name="nominations"),
    path(CONTEST + "cargos/<id:pk>/nomeacoes.<str:fmt>", open_data.nominations_data, name="nominations_data"),
    path("dados-abertos/", open_data.data_dictionary, name="data_dictionary"),
    path(
        "dados-abertos/relatorios-da-lei/<str:code>.<str:fmt>",
        law_data.law_report_data,
        name="law_report_data",
    ),
    path("publico/minha-inscricao/", candidate.candidate_lookup, name="candidate"),
    path("heteroidentificacao/sorteios/<id:pk>/", draw.draw_page, name="hetero_draw"),
    path("verificar/", verification.verify_home, name="verify_home"),
    path("verificar/<str:code>/", verification.verify, name="verify"),
    path("verificar/<str:code>/documento.pdf", verification.document_pdf, name="document_pdf"),
    path("verificar/<str:code>/texto.<str:fmt>", verification.document_text, name="document_text"),
]
