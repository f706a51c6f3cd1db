"""The staff's addresses for registrations, imports, results, nominations and the audit trail (namespace
``candidates``)."""

from django.urls import path

from candidates.views import imports, letters, nominations, phases, registrations, results, trail

app_name = "candidates"

IMPORTS = "concursos/<slug:slug>/importacao/"
NOMINATIONS = "concursos/<slug:slug>/cargos/<int:pk>/nomeacoes/"
REGISTRATIONS = "concursos/<slug:slug>/inscricoes/"
PHASES = "concursos/<slug:slug>/fases/"

urlpatterns = [
    # registrations
    path(REGISTRATIONS, registrations.registration_list, name="registration_list"),
    path(f"{REGISTRATIONS}cartas-codigo/", letters.access_letters, name="access_letters"),
    path(f"{REGISTRATIONS}nova/", registrations.registration_create, name="registration_create"),
    path(f"{REGISTRATIONS}<int:pk>/", registrations.registration_detail, name="registration_detail"),
    path(
        f"{REGISTRATIONS}<int:pk>/comunicacoes/<int:notice_pk>/carta/",
        registrations.seat_notice_letter,
        name="seat_notice_letter",
    ),
    path(f"{REGISTRATIONS}<int:pk>/editar/", registrations.registration_edit, name="registration_edit"),
    path(
        f"{REGISTRATIONS}<int:pk>/situacao/",
        registrations.registration_status,
        name="registration_status",
    ),
    path(
        f"{REGISTRATIONS}<int:pk>/codigo-de-acesso/",
        registrations.registration_access_code,
        name="registration_access_code",
    ),
    path(
        f"{REGISTRATIONS}<int:pk>/carta-codigo/",
        letters.registration_access_letter,
        name="registration_access_letter",
    ),
    path(
        f"{REGISTRATIONS}<int:pk>/autodeclaracao/",
        registrations.registration_declaration,
        name="registration_declaration",
    ),
    path(
        f"{REGISTRATIONS}<int:pk>/autodeclaracao/opcao/",
        registrations.registration_racial_option,
        name="registration_racial_option",
    ),
    path(
        f"{REGISTRATIONS}<int:pk>/autodeclaracao/renuncia/",
        registrations.registration_give_up,
        name="registration_give_up",
    ),
    path(
        f"{REGISTRATIONS}<int:pk>/autodeclaracao/correcao/",
        registrations.registration_correct,
        name="registration_correct",
    ),
    # imports
    path(IMPORTS, imports.import_upload, name="import_upload"),
    path(f"{IMPORTS}colunas/", imports.import_mapping, name="import_mapping"),
    path(f"{IMPORTS}previa/", imports.import_preview, name="import_preview"),
    path(f"{IMPORTS}importar/", imports.import_commit, name="import_commit"),
    path(f"{IMPORTS}cancelar/", imports.import_cancel, name="import_cancel"),
    path(
        f"{IMPORTS}so-cargos-do-concurso/",
        imports.import_only_contest_positions,
        name="import_only_positions",
    ),
    path(f"{IMPORTS}modelo.xlsx", imports.import_template, name="import_template"),
    # phases
    path(PHASES, phases.phase_list, name="phase_list"),
    path(f"{PHASES}nova/", phases.phase_create, name="phase_create"),
    path(f"{PHASES}previa-do-corte/", phases.phase_cut_preview, name="phase_cut_preview"),
    path(f"{PHASES}nota-final-minima/", phases.phase_minimum_score, name="phase_minimum_score"),
    path(f"{PHASES}<int:pk>/editar/", phases.phase_edit, name="phase_edit"),
    path(f"{PHASES}<int:pk>/mover/", phases.phase_move, name="phase_move"),
    path(f"{PHASES}<int:pk>/excluir/", phases.phase_delete, name="phase_delete"),
    # results
    path("concursos/<slug:slug>/listas/", results.result_list, name="result_list"),
    path("concursos/<slug:slug>/listas/calcular/", results.result_compute, name="result_compute"),
    path("concursos/<slug:slug>/listas/<int:run_pk>/", results.result_detail, name="result_detail"),
    path(
        "concursos/<slug:slug>/listas/<int:run_pk>/publicar/", results.result_publish, name="result_publish"
    ),
    path(
        "concursos/<slug:slug>/listas/<int:run_pk>/descartar/", results.result_discard, name="result_discard"
    ),
    path(
        "concursos/<slug:slug>/listas/<int:run_pk>/comparar/", results.result_compare, name="result_compare"
    ),
    path(
        "concursos/<slug:slug>/listas/<int:run_pk>/lista.<str:fmt>",
        results.result_export,
        name="result_export",
    ),
    path(
        "concursos/<slug:slug>/listas/<int:run_pk>/lista-pdf/", results.result_pdf_job, name="result_pdf_job"
    ),
    path(
        "concursos/<slug:slug>/listas/<int:run_pk>/documento/",
        results.result_document_publish,
        name="result_document_publish",
    ),
    # nominations
    path("concursos/<slug:slug>/nomeacoes/", nominations.contest_nominations, name="contest_nominations"),
    path(NOMINATIONS, nominations.nomination_list, name="nomination_list"),
    path(NOMINATIONS + "convocar/", nominations.nomination_call, name="nomination_call"),
    path(NOMINATIONS + "ato/", nominations.nomination_act, name="nomination_act"),
    path(
        NOMINATIONS + "abrir-vagas/",
        nominations.nomination_open_vacancies,
        name="nomination_open_vacancies",
    ),
    path(NOMINATIONS + "<int:nomination_pk>/", nominations.nomination_detail, name="nomination_detail"),
    path(
        NOMINATIONS + "<int:nomination_pk>/posse/",
        nominations.nomination_took_office,
        name="nomination_took_office",
    ),
    path(
        NOMINATIONS + "<int:nomination_pk>/desistencia/",
        nominations.nomination_withdraw,
        name="nomination_withdraw",
    ),
    path(
        NOMINATIONS + "<int:nomination_pk>/sem-posse/",
        nominations.nomination_no_show,
        name="nomination_no_show",
    ),
    path(
        NOMINATIONS + "<int:nomination_pk>/fim-da-lista/",
        nominations.nomination_end_of_list,
        name="nomination_end_of_list",
    ),
    path(
        NOMINATIONS + "<int:nomination_pk>/termo/",
        nominations.nomination_statement,
        name="nomination_statement",
    ),
    path(
        NOMINATIONS + "<int:nomination_pk>/carta/",
        nominations.nomination_letter,
        name="nomination_letter",
    ),
    # trail
    path("concursos/<slug:slug>/trilha-de-auditoria/", trail.contest_audit_trail, name="contest_audit_trail"),
]
