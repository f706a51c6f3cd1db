"""The public site's addresses (namespace ``public``): anonymous, the same for everyone (the candidate's own
page answers only with an inscription number and its access code)."""

from django.urls import path

from portal.views import candidate, contests, draw, feed, lists, nominations, open_data, verification

app_name = "public"

CONTEST = "publico/concursos/<slug:slug>/"
RUN = CONTEST + "resultados/<int:run_pk>/"

urlpatterns = [
    path("", contests.home, name="home"),
    path("acessibilidade/", contests.accessibility, name="accessibility"),
    path("privacidade/", contests.privacy, name="privacy"),
    path(CONTEST, contests.contest_page, name="contest"),
    path(CONTEST + "publicacoes.atom", feed.contest_feed, name="contest_feed"),
    path(RUN, lists.run_page, name="run"),
    path(RUN + "cargos/<int:pk>/<str:list_slug>/", lists.list_page, name="list"),
    path(RUN + "cargos/<int:pk>/<str:list_slug>.<str:fmt>", open_data.list_data, name="list_data"),
    path(CONTEST + "cargos/<int:pk>/nomeacoes/", nominations.nominations_page, name="nominations"),
    path(
        CONTEST + "cargos/<int:pk>/nomeacoes.<str:fmt>", open_data.nominations_data, name="nominations_data"
    ),
    path("dados-abertos/", open_data.data_dictionary, name="data_dictionary"),
    path("publico/minha-inscricao/", candidate.candidate_lookup, name="candidate"),
    path("heteroidentificacao/sorteios/<int:pk>/", draw.draw_page, name="hetero_draw"),
    path("verificar/", verification.verify_home, name="verify_home"),
    path("verificar/<str:code>/", verification.verify, name="verify"),
    path("verificar/<str:code>/documento.pdf", verification.document_pdf, name="document_pdf"),
    path("verificar/<str:code>/texto.<str:fmt>", verification.document_text, name="document_text"),
]
