"""The access matrix of every URL: each pattern of the resolver × each role × GET and POST, in one table.

``MATRIX`` below says what each member of the cast (and anonymous) gets from each URL, with the records of
``tests.builders.make_world`` as its arguments and an empty POST. A URL pattern missing from the table fails
``test_every_url_pattern_is_in_the_matrix``: whoever adds a screen says here who may open it. Admin and
static files are excluded by prefix (the admin has its own permission system; superusers only).

Notation, one column per role in ``ROLES`` order: a status code, ``login`` for a redirect to the login
page, ``302`` for any other redirect. ``no-store`` is also checked on every answer to a logged-in user. Each request runs in a savepoint rolled back after it, so an allowed POST (a
deletion, a discard) does not change what the next request sees.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.builders import make_cast
from tests.module_data import built_once
from tests.url_arguments import arguments, build_world

ROLES = ("anonymous", "outsider", "clerk", "legal", "commission", "manager", "auditor")
EXCLUDED_PREFIXES = ("admin/", "static/", "media/")

# fmt: off
# Columns:                                              anon  outs clerk legal  comm   mgr audit
MATRIX: dict[str, dict[str, str]] = {
    # Letters with access codes (issue 19): a POST that answers with the PDF, Secretaria only.
    "candidates:access_letters":             {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:contest_audit_trail":        {"GET":  "login   403   200   403   403   200   200",
                                              "POST": "login   403   200   403   403   200   200"},
    "candidates:contest_nominations":        {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "candidates:import_cancel":              {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:import_commit":              {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:import_mapping":             {"GET":  "login   403   302   403   403   403   403",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:import_only_positions":      {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:import_preview":             {"GET":  "login   403   302   403   403   403   403",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:import_template":           {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:import_upload":              {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:nomination_call":            {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:nomination_detail":          {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "candidates:nomination_end_of_list":     {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:nomination_letter":          {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:seat_notice_letter":         {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:nomination_list":            {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "candidates:nomination_no_show":         {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:nomination_open_vacancies":  {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:nomination_statement":       {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "candidates:nomination_took_office":     {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:nomination_withdraw":        {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:phase_create":               {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:phase_cut_preview":          {"GET":  "login   403   400   403   403   400   400",
                                              "POST": "  405   405   405   405   405   405   405"},
    "candidates:phase_delete":               {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:phase_edit":                 {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:phase_list":                 {"GET":  "login   403   200   403   403   200   200",
                                              "POST": "login   403   200   403   403   200   200"},
    "candidates:phase_minimum_score":        {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:phase_move":                 {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:registration_access_code":   {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:registration_access_letter": {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:registration_correct":       {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:registration_create":        {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:registration_declaration":   {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:registration_detail":        {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "candidates:registration_edit":          {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:registration_give_up":       {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:registration_list":          {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "candidates:registration_racial_option": {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   200   403   403   403   403"},
    "candidates:registration_status":        {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:result_compare":             {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "candidates:result_compute":             {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:result_detail":              {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "candidates:result_discard":             {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   403   403   403   403"},
    "candidates:result_list":                {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "candidates:result_publish":             {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   403   403   302   403"},
    "contests:accesslog_list":               {"GET":  "login   403   403   403   403   200   200",
                                              "POST": "login   403   403   403   403   200   200"},
    # The organisation's authorities and who signs each kind of act: Gestão records them, readers see them.
    "contests:authority_create":             {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   200   403"},
    "contests:authority_edit":               {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   200   403"},
    "contests:authority_end":                {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   200   403"},
    "contests:authority_list":               {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "contests:signatories_edit":             {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   302   403"},
    "contests:create":                       {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "contests:detail":                       {"GET":  "login   403   200   200   200   200   200",
                                              "POST": "login   403   200   200   200   200   200"},
    "contests:edit":                         {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "contests:extend_validity":              {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   200   403"},
    "contests:history":                      {"GET":  "login   403   200   403   403   200   200",
                                              "POST": "login   403   200   403   403   200   200"},
    "contests:holiday_create":               {"GET":  "login   403   403   200   403   200   403",
                                              "POST": "login   403   403   200   403   200   403"},
    "contests:holiday_delete":               {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   302   403"},
    "contests:holiday_edit":                 {"GET":  "login   403   403   200   403   200   403",
                                              "POST": "login   403   403   200   403   200   403"},
    "contests:holiday_list":                 {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "contests:homologate":                   {"GET":  "login   403   403   403   403   302   403",
                                              "POST": "login   403   403   403   403   302   403"},
    "contests:list":                         {"GET":  "login   403   200   200   200   200   200",
                                              "POST": "login   403   200   200   200   200   200"},
    "contests:opening_create":               {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "contests:opening_delete":               {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   302   403   403   403   403"},
    "contests:opening_edit":                 {"GET":  "login   403   302   403   403   403   403",
                                              "POST": "login   403   302   403   403   403   403"},
    "contests:organization":                 {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   403   403   403   200   403"},
    "contests:policy_create":                {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   200   403"},
    "contests:policy_detail":                {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "contests:policy_edit":                  {"GET":  "login   403   403   403   403   302   403",
                                              "POST": "login   403   403   403   403   302   403"},
    "contests:policy_list":                  {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "contests:policy_new_version":           {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   200   403"},
    "contests:position_create":              {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "contests:position_detail":              {"GET":  "login   403   200   200   200   200   200",
                                              "POST": "login   403   200   200   200   200   200"},
    "contests:position_edit":                {"GET":  "login   403   200   403   403   403   403",
                                              "POST": "login   403   200   403   403   403   403"},
    "contests:position_history":             {"GET":  "login   403   200   403   403   200   200",
                                              "POST": "login   403   200   403   403   200   200"},
    "contests:reservation_preview":          {"GET":  "login   403   400   400   400   400   400",
                                              "POST": "  405   405   405   405   405   405   405"},
    # The signing certificate (issue 20): the organisation's readers see which one signs, Gestão uploads it.
    "contests:signing_certificate":          {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   403   403   403   200   403"},
    "contests:status":                       {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   403   403   403   403"},
    # The law's report (issue 23): aggregates for Gestão and Auditoria (and the role Monitoramento, not in
    # the cast); the filed reports, which Gestão records.
    "monitoring:report":                     {"GET":  "login   403   403   403   403   200   200",
                                              "POST": "login   403   403   403   403   200   200"},
    "monitoring:filed":                      {"GET":  "login   403   403   403   403   200   200",
                                              "POST": "login   403   403   403   403   200   403"},
    # The report as an act: Gestão (and Monitoramento, not in the cast) generate and publish it.
    "monitoring:generate":                   {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   200   403"},
    "declarations:act":                      {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:attachment":               {"GET":  "login   403   403   200   403   403   200",
                                              "POST": "login   403   403   200   403   403   200"},
    # Court orders (issue 22): Jurídico records them and changes their status; Secretaria (which complies)
    # and Auditoria read; nothing public.
    "declarations:court_orders":             {"GET":  "login   403   200   200   403   403   200",
                                              "POST": "login   403   200   200   403   403   200"},
    "declarations:court_order_create":       {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:court_order":              {"GET":  "login   403   200   200   403   403   200",
                                              "POST": "login   403   200   200   403   403   200"},
    "declarations:court_order_status":       {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   200   403   403   403"},
    # Complying (issue 22): GET shows what it does (the service rehearsed), POST ("Confirmar") complies.
    "declarations:court_order_comply":       {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   302   403   403   403"},
    "declarations:court_order_file":         {"GET":  "login   403   200   200   403   403   200",
                                              "POST": "login   403   200   200   403   403   200"},
    "declarations:detail":                   {"GET":  "login   403   403   200   403   403   200",
                                              "POST": "login   403   403   200   403   403   200"},
    "declarations:document":                 {"GET":  "login   403   403   200   403   403   200",
                                              "POST": "login   403   403   200   403   403   200"},
    "declarations:document_text":            {"GET":  "login   403   403   200   403   403   200",
                                              "POST": "login   403   403   200   403   403   200"},
    # Applying the effects: GET shows what they do (the service rehearsed), POST ("Confirmar") applies them.
    "declarations:effects":                  {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   302   403   403   403"},
    # A file of a candidate's appeal: Jurídico, Auditoria and the appeal commission's members (none in the
    # world: 404 once the role may look).
    "declarations:hetero_appeal_attachment": {"GET": "login   403   403   404   404   403   404",
                                              "POST": "login   403   403   404   404   403   404"},
    "declarations:hetero_second_call":       {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_apply":             {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "declarations:hetero_attendance":        {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "declarations:hetero_apply_many":        {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "declarations:hetero_attendance_many":   {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "declarations:hetero_no_conflict_many":  {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_member_access":     {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_member_access_email": {"GET": "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "declarations:hetero_member_access_letter": {"GET": "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    # A member's first access (the printed code) and the set-password link: the token is the credential.
    "declarations:hetero_first_access":      {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  200   200   200   200   200   200   200"},
    "declarations:hetero_password_set":      {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  200   200   200   200   200   200   200"},
    "declarations:hetero_close":             {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "public:hetero_draw":                    {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  200   200   200   200   200   200   200"},
    "declarations:hetero_opinion":           {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   403   200   403   403"},
    "declarations:hetero_session":           {"GET":  "login   403   403   200   200   403   200",
                                              "POST": "login   403   403   200   200   403   200"},
    "declarations:hetero_sessions":          {"GET":  "login   403   403   200   200   403   200",
                                              "POST": "login   403   403   200   200   403   200"},
    "declarations:hetero_status":            {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "declarations:hetero_call":              {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_call_publish":      {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_commission_form":   {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_contest":           {"GET":  "login   403   403   200   403   403   200",
                                              "POST": "login   403   403   200   403   403   200"},
    "declarations:hetero_document":          {"GET":  "login   403   403   200   403   403   200",
                                              "POST": "login   403   403   200   403   403   200"},
    # The act's text for the official gazette: the access of its PDF.
    "declarations:hetero_document_text":     {"GET":  "login   403   403   200   403   403   200",
                                              "POST": "login   403   403   200   403   403   200"},
    "declarations:hetero_draw_announce":     {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_draw_perform":      {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_draw_publish":      {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_minutes_publish":   {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_no_conflict":       {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_no_conflict_file":  {"GET":  "login   403   403   404   403   403   404",
                                              "POST": "login   403   403   404   403   403   404"},
    "declarations:hetero_result_letter":     {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "declarations:hetero_notify":            {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    # A verification's private links, revocable (issue 25, N2): Jurídico only.
    "declarations:hetero_links":             {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   302   403   403   403"},
    # The candidate's private link to the heteroidentification result: the signed token is the credential.
    "declarations:hetero_portal":            {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  200   200   200   200   200   200   200"},
    "declarations:hetero_portal_appeal":     {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "  200   200   200   200   200   200   200"},
    "declarations:hetero_result_publish":    {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_session_record":    {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:hetero_session_create":    {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:link_create":              {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:link_revoke":              {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "declarations:list":                     {"GET":  "login   403   403   200   403   403   200",
                                              "POST": "login   403   403   200   403   403   200"},
    "declarations:notify":                   {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:notify_kind":              {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:open_choose":              {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    "declarations:open":                     {"GET":  "login   403   403   200   403   403   403",
                                              "POST": "login   403   403   200   403   403   403"},
    # The candidate's private page: the signed link is the credential, whoever holds it (no account).
    "declarations:portal":                   {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  200   200   200   200   200   200   200"},
    # The acknowledgement: GET shows the period it starts, POST ("Confirmar a ciência") records it.
    "declarations:portal_acknowledge":       {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  302   302   302   302   302   302   302"},
    "declarations:portal_document":          {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  200   200   200   200   200   200   200"},
    "declarations:portal_download":          {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  200   200   200   200   200   200   200"},
    "declarations:portal_file":              {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "  302   302   302   302   302   302   302"},
    "declarations:portal_representative":    {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "  302   302   302   302   302   302   302"},
    "declarations:notice_letter":            {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   200   403   403   403"},
    # A filing's protocol receipt (PDF): who reads the case, and the holder of the private link.
    "declarations:receipt_pdf":              {"GET":  "login   403   403   200   403   403   200",
                                              "POST": "login   403   403   200   403   403   200"},
    "declarations:portal_receipt":           {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  200   200   200   200   200   200   200"},
    "declarations:receipt":                  {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "declarations:referral":                 {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   302   403   403   403"},
    "health":                                {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "home":                                  {"GET":  "login   200   200   200   200   200   200",
                                              "POST": "login   200   200   200   200   200   200"},
    "login":                                 {"GET":  "  200   302   302   302   302   302   302",
                                              "POST": "  200   302   302   302   302   302   302"},
    "logout":                                {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login login login login login login login"},
    "password_change":                       {"GET":  "login   200   200   200   200   200   200",
                                              "POST": "login   200   200   200   200   200   200"},
    "password_change_done":                  {"GET":  "login   200   200   200   200   200   200",
                                              "POST": "login   405   405   405   405   405   405"},
    # The documents: Gestão publishes; the verification pages are public.
    "candidates:nomination_act":             {"GET":  "login   403   404   404   403   404   404",
                                              "POST": "login   403   404   404   403   404   404"},
    "candidates:result_document_publish":    {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   403   403   403   302   403"},
    "candidates:result_pdf_job":             {"GET":  "  405   405   405   405   405   405   405",
                                              "POST": "login   403   302   302   403   302   302"},
    "candidates:result_export":              {"GET":  "login   403   200   200   403   200   200",
                                              "POST": "login   403   200   200   403   200   200"},
    "contests:edital_draft_pdf":             {"GET":  "login   403   200   403   403   200   200",
                                              "POST": "login   403   200   403   403   200   200"},
    "contests:edital_draft_text":            {"GET":  "login   403   200   403   403   200   200",
                                              "POST": "login   403   200   403   403   200   200"},
    "contests:edital_edit":                  {"GET":  "login   403   200   403   403   200   200",
                                              "POST": "login   403   302   403   403   403   403"},
    "contests:edital_publish":               {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   200   403"},
    "contests:edital_rectify":               {"GET":  "login   403   403   403   403   200   403",
                                              "POST": "login   403   403   403   403   200   403"},
    # A background job's page and its file: who asked, or who may see what it produces (404 otherwise).
    "contests:job":                          {"GET":  "login   403   200   200   404   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "contests:job_output":                   {"GET":  "login   403   200   200   404   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:document_pdf":                   {"GET":  "  404   404   404   404   404   404   404",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:document_text":                  {"GET":  "  404   404   404   404   404   404   404",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:verify":                         {"GET":  "  404   404   404   404   404   404   404",
                                              "POST": "  404   404   404   404   404   404   404"},
    "public:verify_home":                    {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    # The public portal: anonymous, the same for everyone; a draft is a 404 (see its tests).
    "public:home":                           {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:accessibility":                  {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:privacy":                        {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:data_dictionary":                {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    # A law's report's open data: only a published report has it (no such code in this world: 404).
    "public:law_report_data":                {"GET":  "  404   404   404   404   404   404   404",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:contest":                        {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:run":                            {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:list":                           {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:list_data":                      {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:nominations":                    {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:nominations_data":               {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    "public:contest_feed":                   {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  405   405   405   405   405   405   405"},
    # The candidate's own page: open to anyone, answered only with the inscription number and the code.
    "public:candidate":                      {"GET":  "  200   200   200   200   200   200   200",
                                              "POST": "  200   200   200   200   200   200   200"},
}
# fmt: on


def url_patterns(patterns=None, prefix: str = "", namespace: str | None = None):
    """(name, route, pattern) of every URL pattern the resolver knows, namespaces joined."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace
            joined = f"{namespace}:{inner}" if namespace and inner else inner or namespace
            yield from url_patterns(pattern.url_patterns, prefix + str(pattern.pattern), joined)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            yield name, prefix + str(pattern.pattern), pattern


def staff_patterns() -> dict[str, str]:
    found = {}
    for name, route, _ in url_patterns():
        if route.startswith(EXCLUDED_PREFIXES):
            continue
        assert name, f"URL sem nome: {route}"
        found[name] = route
    return found


def outcome(response) -> str:
    if response.status_code == 302:
        return "login" if response["Location"].startswith(reverse("login")) else "302"
    return str(response.status_code)


def test_every_url_pattern_is_in_the_matrix():
    patterns = staff_patterns()
    missing = sorted(set(patterns) - set(MATRIX))
    gone = sorted(set(MATRIX) - set(patterns))
    assert not missing, f"URLs sem linha na matriz de permissões (diga quem pode abri-las): {missing}"
    assert not gone, f"Linhas da matriz sem URL: {gone}"
    for name, row in MATRIX.items():
        assert set(row) == {"GET", "POST"}, name
        for method, cells in row.items():
            assert len(cells.split()) == len(ROLES), (name, method)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """Built once for the module (tests/module_data.py); each request runs in a savepoint rolled back."""
    yield from built_once(
        django_db_blocker,
        lambda settings: build_world(make_cast(), settings, tmp_path_factory.mktemp("world")),
    )


@pytest.mark.parametrize("who", ROLES)
def test_permission_matrix(who, cast, world):
    client = Client()
    if who != "anonymous":
        client.force_login(cast[who])
    column = ROLES.index(who)
    wrong = []
    for name, route in sorted(staff_patterns().items()):
        url = reverse(name, kwargs=arguments(name, route, world))
        for method in ("GET", "POST"):
            if who != "anonymous" and "_auth_user_id" not in client.session:
                client.force_login(cast[who])  # after the logout URL's rolled-back logout
            with transaction.atomic():
                response = client.get(url) if method == "GET" else client.post(url, {})
                transaction.set_rollback(True)
            got = outcome(response)
            expected = MATRIX.get(name, {}).get(method, "? " * len(ROLES)).split()[column]
            if got != expected:
                wrong.append(f"{method} {name} ({url}): esperado {expected}, veio {got}")
            if who != "anonymous" and "no-store" not in response.get("Cache-Control", ""):
                wrong.append(f"{method} {name}: sem Cache-Control no-store")
    assert not wrong, "\n".join(wrong)
