"""The procedure's addresses: Jurídico's case screens and the candidate's private link (``declarations``
namespace, set by ``declarations.urls``)."""

from django.urls import path

from declarations.procedure.views import candidate, confirm, receipts, staff

CASE = "processos/<int:year>/<int:number>/"
LINK = "processo/<str:token>/"

urlpatterns = [
    path("processos/", staff.procedure_list, name="list"),
    path("processos/instaurar/", staff.procedure_open_choose, name="open_choose"),
    path("processos/instaurar/<int:registration_pk>/", staff.procedure_open, name="open"),
    path(CASE, staff.procedure_detail, name="detail"),
    path(CASE + "atos/<str:kind>/", confirm.act_create, name="act"),
    path(CASE + "intimacao/", staff.notify, name="notify"),
    path(CASE + "intimacao/<str:kind>/", staff.notify, name="notify_kind"),
    path(CASE + "intimacao/<int:pk>/ciencia/", staff.receipt, name="receipt"),
    path(CASE + "intimacao/<int:pk>/carta/", staff.notice_letter, name="notice_letter"),
    path(CASE + "efeitos/", confirm.effects, name="effects"),
    path(CASE + "ministerio-publico/", staff.referral, name="referral"),
    path(CASE + "links/", staff.link_create, name="link_create"),
    path(CASE + "links/<int:pk>/revogar/", staff.link_revoke, name="link_revoke"),
    path(CASE + "documentos/<int:pk>/", staff.act_document, name="document"),
    path(CASE + "documentos/<int:pk>/texto.<str:fmt>", staff.act_document_text, name="document_text"),
    path(CASE + "anexos/<int:pk>/", staff.attachment_download, name="attachment"),
    path(CASE + "protocolos/<int:pk>/", receipts.staff_receipt, name="receipt_pdf"),
    path(LINK, candidate.portal, name="portal"),
    path(LINK + "protocolos/<int:pk>/", receipts.portal_receipt, name="portal_receipt"),
    path(LINK + "ciencia/<int:pk>/", confirm.acknowledge, name="portal_acknowledge"),
    path(LINK + "manifestacao/", candidate.file, name="portal_file"),
    path(LINK + "procurador/", candidate.representative, name="portal_representative"),
    path(LINK + "documentos/<int:pk>/", candidate.document, name="portal_document"),
    path(LINK + "anexos/<int:pk>/", candidate.download, name="portal_download"),
]
