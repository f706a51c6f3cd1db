"""Publication of documents: a new immutable version (hashed, coded, signed when a certificate is
configured), its rectification, the edital's publication (which publishes the contest), verification.

Every public document published here is recorded as a publication (``contests.publication``), so the
public site shows it at once, whichever app published it; a restricted one (``RESTRICTED_KINDS``) is not:
the public never sees it."""

from __future__ import annotations

import datetime
import hashlib
import io
import mmap
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any, cast

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from contests import services as contest_services
from contests.audit import User, assign, audited_save
from contests.documents import certificates, edital, signing
from contests.documents.models import EDITAL_FIELDS, RESTRICTED_KINDS, Document, EditalText
from contests.documents.render import Stamp, new_code, page_count
from contests.documents.signatures import NoSignatory, signatory_for
from contests.models import Contest, Organization, Policy, Publication, Signatory, SigningCertificate
from contests.publication import publication_record


@transaction.atomic
def edital_text_save(*, contest: Contest, by: User | None, data: Mapping[str, Any]) -> EditalText:
    """Secretaria writes the edital's own sections; once the edital is published they change only through
    a rectification (the text is the next version's)."""
    text, _ = EditalText.objects.select_for_update().get_or_create(contest=contest)
    changed = assign(text, {key: data[key] for key in EDITAL_FIELDS if key in data})
    if changed:
        audited_save(text, by=by, reason="Texto do edital: " + ", ".join(changed))
    return text


def current_version(contest: Contest, kind: str, subject: str = "") -> Document | None:
    """The latest version of an act (the one no rectification replaced)."""
    return (
        Document.objects.filter(contest=contest, kind=kind, subject=subject, rectification__isnull=True)
        .order_by("-version")
        .first()
    )


def _unused_code() -> str:
    code = new_code()
    while Document.objects.filter(code=code).exists():
        code = new_code()
    return code


@dataclass(frozen=True)
class Prerendered:
    """An act rendered before its publication (a long list, by the task queue, outside any transaction):
    the code printed on it, the PDF, and the version it was rendered to follow (None: the first)."""

    code: str
    pdf: bytes
    previous_id: int | None


def document_prerender(
    *, contest: Contest, kind: str, subject: str = "", render: Callable[[Stamp], bytes]
) -> Prerendered:
    """Render an act with a fresh verification code, for ``document_publish(prerendered=...)`` to store
    later: the long rendering holds no lock, the publication checks again that nothing was published
    meanwhile."""
    previous = current_version(contest, kind, subject)
    code = _unused_code()
    return Prerendered(
        code=code,
        pdf=render(Stamp(code=code, draft=False)),
        previous_id=previous.pk if previous is not None else None,
    )


def _location() -> str:
    organization = Organization.current()
    return f"{organization.municipality}/{organization.state}" if organization else ""


# The publication a public document is (any other kind: a document publication).
PUBLICATION_KINDS = {
    Document.Kind.EDITAL: Publication.Kind.EDITAL,
    Document.Kind.RESULT_LIST: Publication.Kind.RESULT_LIST,
    Document.Kind.PROCEDURE_EFFECTS: Publication.Kind.PROCEDURE_EFFECTS,
    Document.Kind.HETERO_DRAW: Publication.Kind.HETEROIDENTIFICATION,
    Document.Kind.HETERO_CALL: Publication.Kind.HETEROIDENTIFICATION,
    Document.Kind.HETERO_RESULT: Publication.Kind.HETEROIDENTIFICATION,
}
# Kinds whose title names a procedure's party (RULES §7: the act is public, a feed of the contest's
# publications need not repeat the name): the publication says what kind of act it is, nothing more.
UNNAMED_KINDS = frozenset({Document.Kind.PROCEDURE_EFFECTS})


# Who signs each kind of document: the authority the organisation records for that kind of act
# (DESIGN.md point 11; ``Signatory``). A procedure's acts pick theirs by act (``declarations.procedure.documents``:
# the decision on appeal by the superior authority).
SIGNATORY_KINDS = {
    Document.Kind.EDITAL: Signatory.Kind.EDITAL,
    Document.Kind.RESULT_LIST: Signatory.Kind.RESULT_LIST,
    Document.Kind.NOMINATION_ACT: Signatory.Kind.NOMINATION_ACT,
    Document.Kind.PROCEDURE_ACT: Signatory.Kind.PROCEDURE,
    Document.Kind.PROCEDURE_EFFECTS: Signatory.Kind.PROCEDURE_EFFECTS,
    Document.Kind.HETERO_DRAW: Signatory.Kind.HETEROIDENTIFICATION,
    Document.Kind.HETERO_CALL: Signatory.Kind.HETEROIDENTIFICATION,
    Document.Kind.HETERO_RESULT: Signatory.Kind.HETEROIDENTIFICATION,
    Document.Kind.HETERO_MINUTES: Signatory.Kind.HETEROIDENTIFICATION,
}


def signer_initial(kind: str) -> dict[str, str]:
    """The publication form's initial signer for a document of ``kind``: the authority the organisation
    assigns to that kind of act, in office today (empty when there is none: the form asks)."""
    try:
        block = signatory_for(SIGNATORY_KINDS[Document.Kind(kind)], on=timezone.localdate())
    except NoSignatory:
        return {"signer_name": "", "signer_office": ""}
    return {"signer_name": block.name, "signer_office": block.office}


EDITAL_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{3})*|\d+)/(\d{4})$")


def _number_key(number: str) -> tuple[int, int] | None:
    """``"3/2026"`` → ``(2026, 3)``; None when it is not an edital number."""
    match = EDITAL_NUMBER.match(number.strip())
    return (int(match.group(2)), int(match.group(1).replace(".", ""))) if match else None


def suggested_edital_number(year: int) -> str:
    """The next number of the organisation's editais in ``year``: one after the highest used by a
    published act or by a contest's opening edital ("3/2026" after the Edital de Abertura nº 2/2026)."""
    used = [
        key[1]
        for number in Document.objects.exclude(number="").values_list("number", flat=True)
        if (key := _number_key(number)) is not None and key[0] == year
    ]
    used += [
        int(number)
        for number in Contest.objects.filter(year=year).values_list("number", flat=True)
        if str(number).isdigit()
    ]
    return f"{max(used, default=0) + 1}/{year}"


def edital_number_or_next(number: str) -> str:
    """The number typed, or (left empty) the next one of this year (``suggested_edital_number``)."""
    return number.strip() or suggested_edital_number(timezone.localdate().year)


def edital_number_refusal(number: str, *, contest: Contest, kind: str, subject: str) -> str:
    """Why ``number`` cannot number a new act (``""`` when it can): not in the form "3/2026", or already
    the number of another act or of a contest's opening edital."""
    key = _number_key(number)
    if key is None:
        return "Informe o número do edital no formato número/ano, ex.: 3/2026."
    year, value = key
    others = Document.objects.exclude(contest=contest, kind=kind, subject=subject).exclude(number="")
    if any(_number_key(other) == key for other in others.values_list("number", flat=True)):
        return f"O Edital nº {value}/{year} já foi publicado: informe outro número."
    if Contest.objects.filter(year=year, number=str(value)).exists():
        return f"O Edital nº {value}/{year} é o edital de abertura de um concurso: informe outro número."
    return ""


def _document_publication(document: Document, by: User | None) -> None:
    if document.kind in RESTRICTED_KINDS or document.contest is None:  # a policy's act: no contest's feed
        return
    kind = PUBLICATION_KINDS.get(Document.Kind(document.kind), Publication.Kind.DOCUMENT)
    if document.kind in UNNAMED_KINDS:
        title = document.get_kind_display()
        if document.version > 1:
            title += f": versão {document.version}"
    elif document.version > 1:
        kind = Publication.Kind.RECTIFICATION
        title = f"Retificação {document.version - 1} de {document.title}"
    else:
        title = document.title
    publication_record(
        contest=document.contest, kind=kind, title=title, by=by, url=document.get_absolute_url()
    )


def document_publish(
    *,
    contest: Contest | None,
    kind: str,
    title: str,
    render: Callable[[Stamp], bytes],
    by: User | None,
    signer_name: str,
    signer_office: str,
    subject: str = "",
    number: str = "",
    gazette_edition: str = "",
    gazette_page: str = "",
    previous: Document | None = None,
    summary: str = "",
    record: bool = True,
    prerendered: Prerendered | None = None,
    publish: bool = True,
    policy: Policy | None = None,
) -> Document:
    """Render the act with its verification code, sign it (when a certificate is configured), hash it and
    store it as a new immutable version, recorded as a publication unless its kind is restricted.
    ``publish`` False (a rehearsal: a confirmation page saying what an act will do): the same checks, then
    the version it would be, unsaved, with its title and signer; nothing rendered, signed, timestamped nor
    stored.
    ``previous``: the version this one rectifies. ``record`` False: the caller records the publication
    itself, in the same transaction (a procedure's effects: one line per effect, naming the position).
    ``prerendered``: the act already rendered (``document_prerender``), refused if another version came out
    since. ``policy`` (with ``contest`` None): an act of the law itself (its reports)."""
    if not signer_name.strip() or not signer_office.strip():
        raise ValidationError("Informe o nome e o cargo de quem assina o ato.")
    if previous is not None:
        previous = Document.objects.select_for_update().get(pk=previous.pk)
        if Document.objects.filter(previous=previous).exists():
            raise ValidationError("Esta versão já foi retificada: retifique a versão mais recente.")
        if not summary.strip():
            raise ValidationError("Resuma o que a retificação altera.")
    if not publish:
        return Document(
            contest=contest,
            policy=policy,
            kind=kind,
            subject=subject,
            title=title,
            version=previous.version + 1 if previous else 1,
            previous=previous,
            signer_name=signer_name.strip(),
            signer_office=signer_office.strip(),
        )
    if prerendered is None:
        code = _unused_code()
        pdf = render(Stamp(code=code, draft=False))
    else:
        if prerendered.previous_id != (previous.pk if previous is not None else None):
            raise ValidationError(
                "Outra versão deste documento foi publicada enquanto o PDF era gerado: nada foi publicado. "
                "Confira a versão publicada antes de publicar de novo."
            )
        if Document.objects.filter(code=prerendered.code).exists():
            raise ValidationError("O código de verificação já foi usado: gere o documento de novo.")
        code, pdf = prerendered.code, prerendered.pdf
    subject_name = ""
    if signing.configured():
        label = f"{title} – versão {previous.version + 1 if previous else 1}"
        try:
            pdf = signing.sign_pdf(pdf, reason=label, location=_location(), name=signer_name)
            subject_name = signing.signer_subject()
        except signing.SigningError as error:  # no key to sign with: nothing is published, and why
            raise ValidationError(f"O documento não pôde ser assinado: {error}") from None
    document = Document(
        contest=contest,
        policy=policy,
        kind=kind,
        subject=subject,
        title=title,
        number=number.strip(),
        version=previous.version + 1 if previous else 1,
        previous=previous,
        rectification_summary=summary.strip(),
        pdf=pdf,
        sha256=hashlib.sha256(pdf).hexdigest(),
        code=code,
        published_at=timezone.now(),
        published_by=by,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
        signer_name=signer_name.strip(),
        signer_office=signer_office.strip(),
        signed=bool(subject_name),
        signature_subject=subject_name,
        pages=page_count(pdf),
    )
    document.full_clean()
    document.save()
    if record:
        _document_publication(document, by)
    return document


def _edital_report_refusal(contest: Contest, on: datetime.date) -> None:
    report = edital.check(contest, on=on)
    if not report.ok:
        raise ValidationError([f"{problem.where}: {problem.message}" for problem in report.blocking])


def _edital_document(
    contest: Contest,
    *,
    on: datetime.date,
    by: User | None,
    gazette_edition: str,
    gazette_page: str,
    previous: Document | None = None,
    summary: str = "",
    signer_name: str = "",
    signer_office: str = "",
) -> Document:
    """The edital as it stands now, checked on ``on`` (the check blocks), published as a document: the
    first version, or a rectification of ``previous``. Signed by ``signer_name``/``signer_office`` when
    given (the publication form, prefilled with the edital's signer), else by the edital's."""
    _edital_report_refusal(contest, on)
    text = edital.edital_text_for(contest)
    if signer_name.strip() and signer_office.strip():
        text.signer_name, text.signer_office = signer_name.strip(), signer_office.strip()
    rectification = (
        edital.Rectification(number=previous.version, on=timezone.localdate(), summary=summary)
        if previous is not None
        else None
    )
    return document_publish(
        contest=contest,
        kind=Document.Kind.EDITAL,
        title=edital.edital_title(contest),
        render=lambda stamp: edital.render_edital(contest, stamp, rectification=rectification),
        by=by,
        signer_name=text.signer_name,
        signer_office=text.signer_office,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
        previous=previous,
        summary=summary,
    )


@transaction.atomic
def edital_publish(
    *,
    contest: Contest,
    by: User | None,
    gazette_edition: str = "",
    gazette_page: str = "",
    on: datetime.date | None = None,
    signer_name: str = "",
    signer_office: str = "",
) -> Document:
    """Publish the edital: the check must pass; the contest leaves draft through its lifecycle (which
    records the publication date for good). A published edital changes only by rectification."""

    contest = Contest.objects.select_for_update().select_related("policy").get(pk=contest.pk)
    if current_version(contest, Document.Kind.EDITAL):
        raise ValidationError("O edital já foi publicado: corrija-o por retificação.")
    day = on or contest.edital_date
    document = _edital_document(
        contest,
        on=day,
        by=by,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
        signer_name=signer_name,
        signer_office=signer_office,
    )
    if contest.status == Contest.Status.DRAFT:
        # One publication: the edital's (recorded with its document), which the new status only follows.
        contest_services.contest_set_status(
            contest=contest, status=Contest.Status.PUBLISHED, by=by, on=day, record_publication=False
        )
    return document


@transaction.atomic
def edital_rectify(
    *,
    contest: Contest,
    by: User | None,
    summary: str,
    gazette_edition: str = "",
    gazette_page: str = "",
    signer_name: str = "",
    signer_office: str = "",
) -> Document:
    """A rectification: the edital as it stands now, checked again, as a new version of the published one."""
    contest = Contest.objects.select_for_update().select_related("policy").get(pk=contest.pk)
    previous = current_version(contest, Document.Kind.EDITAL)
    if previous is None:
        raise ValidationError("O edital ainda não foi publicado: não há o que retificar.")
    return _edital_document(
        contest,
        on=contest.edital_published_on or contest.edital_date,
        by=by,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
        previous=previous,
        summary=summary,
        signer_name=signer_name,
        signer_office=signer_office,
    )


@dataclass(frozen=True)
class Verification:
    """What an uploaded file is: the published version it matches (or none), and its signature."""

    sha256: str
    document: Document | None
    expected: Document | None  # the document whose code was asked about
    # Checked only for a file identical to a published version: an unknown file is refused by its hash
    # alone, so an anonymous upload of junk costs a hash, never a PDF parse (None: not checked).
    signature: signing.SignatureReport | None

    @property
    def matches(self) -> bool:
        if self.document is None:
            return False
        if self.expected is None:
            return True
        return (
            self.document.contest_id == self.expected.contest_id
            and self.document.kind == self.expected.kind
            and (self.document.subject == self.expected.subject)
        )


CHUNK = 64 * 1024


class TooLarge(ValidationError):
    """The upload passed the size limit while it was read."""


def _digest(stream: IO[bytes], max_bytes: int | None) -> str:
    """SHA-256 of ``stream`` read in chunks, refusing it as soon as it passes ``max_bytes``."""
    digest = hashlib.sha256()
    total = 0
    while chunk := stream.read(CHUNK):
        total += len(chunk)
        if max_bytes is not None and total > max_bytes:
            raise TooLarge(
                f"O arquivo passa de {max_bytes // (1024 * 1024)} MB: não é um documento publicado aqui."
            )
        digest.update(chunk)
    return digest.hexdigest()


def verify_file(
    *,
    data: bytes | None = None,
    stream: IO[bytes] | None = None,
    code: str | None = None,
    max_bytes: int | None = None,
) -> Verification:
    """Compare a file with every published version (by SHA-256); ``code``: the document the visitor came
    from (any of its versions counts as a match, each verified by its own hash).

    The file comes as ``data`` or as a binary ``stream`` (an upload, spooled to disk by Django when
    large): the stream is hashed in chunks and refused with ``TooLarge`` as soon as it passes
    ``max_bytes``, never read whole into memory. The signature is checked (from the stream) only when the
    hash matches a published version: a file that matches none is not ours, whatever it claims."""
    if stream is None:
        stream = io.BytesIO(data or b"")
    stream.seek(0)
    digest = _digest(stream, max_bytes)
    stream.seek(0)
    expected = Document.objects.filter(code=code).defer("pdf").first() if code else None
    document = Document.objects.filter(sha256=digest).select_related("contest").defer("pdf").first()
    return Verification(
        sha256=digest,
        document=document,
        expected=expected,
        signature=_signature(stream) if document is not None else None,
    )


def _signature(stream: IO[bytes]) -> signing.SignatureReport:
    """The signature check of ``stream``: a file on disk (a large upload) is memory-mapped, since pyHanko's
    many small reads on a real file are about twenty times slower; the operating system pages it in."""
    try:
        fileno = stream.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        return signing.signature_report(stream)
    if not os.fstat(fileno).st_size:
        return signing.signature_report(b"")
    with mmap.mmap(fileno, 0, access=mmap.ACCESS_READ) as view:
        return signing.signature_report(cast(IO[bytes], MappedFile(view)))


class MappedFile(io.RawIOBase):
    """A read-only binary stream over a memory-mapped file (what pyHanko's reader needs of a stream)."""

    def __init__(self, view: mmap.mmap) -> None:
        super().__init__()
        self.view = view

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self.view.seek(offset, whence)  # type: ignore[arg-type]
        return self.view.tell()

    def tell(self) -> int:
        return self.view.tell()

    def read(self, size: int | None = -1) -> bytes:
        return self.view.read(-1 if size is None else size)

    def readline(self, size: int | None = -1) -> bytes:
        return self.view.readline() if size is None or size < 0 else self.view.readline()[:size]

    def readinto(self, buffer) -> int:
        data = self.view.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


# The signing certificate (issue 20) ----------------------------------------------------------------------


@transaction.atomic
def signing_certificate_replace(
    *, data: bytes, password: str, by: User | None, now: datetime.datetime | None = None
) -> SigningCertificate:
    """Gestão's A1 certificate (PKCS#12) becomes the one that signs: checked (``certificates.read_pkcs12``),
    stored encrypted with its password. The one it replaces stays as a row (who, when, which certificate)
    with its secrets erased. A refused file changes nothing (``ValidationError`` on ``certificate`` or
    ``certificate_password``)."""
    now = now or timezone.now()
    try:
        info = certificates.read_pkcs12(data, password, now=now)
    except certificates.CertificateError as error:
        field = "certificate_password" if error.field == "password" else "certificate"
        raise ValidationError({field: str(error)}) from None
    previous = SigningCertificate.objects.select_for_update().filter(active=True).first()
    if previous is not None:
        previous.active = False
        previous.replaced_at = now
        previous.pkcs12 = previous.password = b""
        audited_save(previous, by=by, reason=f"Substituído pelo certificado de série {info.serial}")
    certificate = SigningCertificate(
        pkcs12=certificates.encrypt(data),
        password=certificates.encrypt(password.encode()),
        subject=info.subject,
        common_name=info.common_name,
        issuer=info.issuer,
        serial=info.serial,
        not_before=info.not_before,
        not_after=info.not_after,
        uploaded_at=now,
        uploaded_by=by,
    )
    try:
        with transaction.atomic():
            audited_save(certificate, by=by, reason="Certificado de assinatura enviado")
    except IntegrityError:  # another upload won the race for the one active certificate
        raise ValidationError(
            {"certificate": "Outro certificado foi instalado ao mesmo tempo: confira a tela e envie de novo."}
        ) from None
    return certificate
