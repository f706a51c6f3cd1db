from django.urls import path

from contests import views
from contests.views import authorities, documents, jobs, signing

app_name = "contests"

urlpatterns = [
    path("concursos/", views.contest_list, name="list"),
    path("concursos/novo/", views.contest_create, name="create"),
    path("concursos/<slug:slug>/", views.contest_detail, name="detail"),
    path("concursos/<slug:slug>/editar/", views.contest_edit, name="edit"),
    path("concursos/<slug:slug>/situacao/", views.contest_status, name="status"),
    path("concursos/<slug:slug>/homologar/", views.contest_homologate, name="homologate"),
    path("concursos/<slug:slug>/prorrogar-validade/", views.contest_extend_validity, name="extend_validity"),
    path("concursos/<slug:slug>/historico/", views.contest_history, name="history"),
    path("concursos/<slug:slug>/previa-da-reserva/", views.reservation_preview, name="reservation_preview"),
    path("concursos/<slug:slug>/cargos/novo/", views.position_create, name="position_create"),
    path("concursos/<slug:slug>/cargos/<int:pk>/", views.position_detail, name="position_detail"),
    path("concursos/<slug:slug>/cargos/<int:pk>/editar/", views.position_edit, name="position_edit"),
    path("concursos/<slug:slug>/cargos/<int:pk>/historico/", views.position_history, name="position_history"),
    path("concursos/<slug:slug>/cargos/<int:pk>/vagas/nova/", views.opening_create, name="opening_create"),
    path(
        "concursos/<slug:slug>/cargos/<int:pk>/vagas/<int:opening_pk>/editar/",
        views.opening_edit,
        name="opening_edit",
    ),
    path(
        "concursos/<slug:slug>/cargos/<int:pk>/vagas/<int:opening_pk>/excluir/",
        views.opening_delete,
        name="opening_delete",
    ),
    path("politicas/", views.policy_list, name="policy_list"),
    path("politicas/nova/", views.policy_create, name="policy_create"),
    path("politicas/<slug:slug>/", views.policy_detail, name="policy_detail"),
    path("politicas/<slug:slug>/editar/", views.policy_edit, name="policy_edit"),
    path("politicas/<slug:slug>/nova-versao/", views.policy_new_version, name="policy_new_version"),
    path("organizacao/", views.organization_settings, name="organization"),
    path("organizacao/autoridades/", authorities.authority_list, name="authority_list"),
    path("organizacao/autoridades/nova/", authorities.authority_create, name="authority_create"),
    path("organizacao/autoridades/<int:pk>/editar/", authorities.authority_edit, name="authority_edit"),
    path("organizacao/autoridades/<int:pk>/encerrar/", authorities.authority_end, name="authority_end"),
    path("organizacao/autoridades/quem-assina/", authorities.signatories_edit, name="signatories_edit"),
    path("organizacao/certificado/", signing.signing_certificate, name="signing_certificate"),
    path("organizacao/feriados/", views.holiday_list, name="holiday_list"),
    path("organizacao/feriados/novo/", views.holiday_create, name="holiday_create"),
    path("organizacao/feriados/<int:pk>/editar/", views.holiday_edit, name="holiday_edit"),
    path("organizacao/feriados/<int:pk>/excluir/", views.holiday_delete, name="holiday_delete"),
    path("concursos/<slug:slug>/edital/", documents.edital_edit, name="edital_edit"),
    path("concursos/<slug:slug>/edital/minuta.pdf", documents.edital_draft_pdf, name="edital_draft_pdf"),
    path(
        "concursos/<slug:slug>/edital/minuta-texto.<str:fmt>",
        documents.edital_draft_text,
        name="edital_draft_text",
    ),
    path("concursos/<slug:slug>/edital/publicar/", documents.edital_publish_view, name="edital_publish"),
    path("concursos/<slug:slug>/edital/retificar/", documents.edital_rectify_view, name="edital_rectify"),
    path("registro-de-acessos/", views.accesslog_list, name="accesslog_list"),
    path("tarefas/<uuid:pk>/", jobs.job_detail, name="job"),
    path("tarefas/<uuid:pk>/arquivo/", jobs.job_file, name="job_output"),
]
