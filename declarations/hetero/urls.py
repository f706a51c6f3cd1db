"""Heteroidentification's addresses: the sessions, Jurídico's per-contest screens, the draw, the candidate's
private link (``declarations`` namespace; the draw's public page is the portal's, set by ``declarations.urls``)."""

from django.urls import path

from declarations.hetero.views import absences, access, appeals, candidate, draw, links, sessions, staff

HETERO = "heteroidentificacao/"
CONTEST = HETERO + "concursos/<slug:slug>/"
SESSION = HETERO + "sessoes/<int:pk>/"
VERIFICATION = HETERO + "verificacoes/<int:pk>/"
RESULT = HETERO + "resultado/<str:token>/"

urlpatterns = [
    path(HETERO, sessions.session_list, name="hetero_sessions"),
    path(SESSION, sessions.session_detail, name="hetero_session"),
    path(VERIFICATION + "parecer/", sessions.opinion_record, name="hetero_opinion"),
    path(VERIFICATION + "aplicar/", sessions.result_apply, name="hetero_apply"),
    path(VERIFICATION + "comparecimento/", sessions.attendance, name="hetero_attendance"),
    path(SESSION + "comparecimento/", sessions.attendance_many, name="hetero_attendance_many"),
    path(SESSION + "aplicar/", sessions.apply_many, name="hetero_apply_many"),
    path(SESSION + "encerrar/", sessions.session_close, name="hetero_close"),
    path(CONTEST + "situacao/", sessions.status, name="hetero_status"),
    path(HETERO + "documentos/<int:pk>/", staff.document_pdf, name="hetero_document"),
    path(HETERO + "documentos/<int:pk>/texto.<str:fmt>", staff.document_text, name="hetero_document_text"),
    path(CONTEST, staff.contest_page, name="hetero_contest"),
    path(CONTEST + "comissoes/nova/", staff.commission_form, name="hetero_commission_form"),
    path(CONTEST + "sessoes/nova/", staff.session_create, name="hetero_session_create"),
    path(CONTEST + "publicar-resultado/", staff.result_publish, name="hetero_result_publish"),
    path(HETERO + "membros/<int:pk>/declaracao/", staff.no_conflict_upload, name="hetero_no_conflict"),
    path(
        HETERO + "membros/<int:pk>/declaracao/arquivo/",
        staff.no_conflict_file,
        name="hetero_no_conflict_file",
    ),
    path(HETERO + "comissoes/<int:pk>/declaracoes/", staff.no_conflict_many, name="hetero_no_conflict_many"),
    path(HETERO + "membros/<int:pk>/acesso/", access.member_access_page, name="hetero_member_access"),
    path(
        HETERO + "membros/<int:pk>/acesso/email/",
        access.member_access_email,
        name="hetero_member_access_email",
    ),
    path(
        HETERO + "membros/<int:pk>/acesso/carta/",
        access.member_access_letter,
        name="hetero_member_access_letter",
    ),
    path(HETERO + "primeiro-acesso/", access.first_access, name="hetero_first_access"),
    path(HETERO + "definir-senha/<uidb64>/<token>/", access.password_set, name="hetero_password_set"),
    path(SESSION + "chamar/", staff.call, name="hetero_call"),
    path(SESSION + "presenca-e-gravacao/", staff.session_record, name="hetero_session_record"),
    path(SESSION + "publicar-convocacao/", staff.call_publish, name="hetero_call_publish"),
    path(SESSION + "publicar-ata/", staff.minutes_publish, name="hetero_minutes_publish"),
    path(HETERO + "sorteios/<int:pk>/publicar/", staff.draw_publish, name="hetero_draw_publish"),
    path(VERIFICATION + "comunicar/", staff.notify, name="hetero_notify"),
    path(VERIFICATION + "segunda-chamada/", absences.second_call, name="hetero_second_call"),
    path(VERIFICATION + "carta/", staff.result_letter, name="hetero_result_letter"),
    path(VERIFICATION + "links/", links.verification_links, name="hetero_links"),
    path(CONTEST + "sorteios/anunciar/", draw.draw_announce, name="hetero_draw_announce"),
    path(HETERO + "avisos/<int:pk>/sortear/", draw.draw_perform, name="hetero_draw_perform"),
    path(HETERO + "recursos/anexos/<int:pk>/", appeals.appeal_attachment, name="hetero_appeal_attachment"),
    path(RESULT, candidate.portal, name="hetero_portal"),
    path(RESULT + "recurso/", candidate.appeal, name="hetero_portal_appeal"),
]
