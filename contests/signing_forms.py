"""The signing certificate's form (issue 20): apart from ``contests.forms`` to keep each module readable."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from contests.documents import certificates
from contests.forms import StaffFormMixin


class SigningCertificateForm(StaffFormMixin, forms.Form):
    """The body's A1 certificate (PKCS#12) and its password: checked here (``certificates.read_pkcs12``),
    stored by ``signing_certificate_replace``. The password is never shown back."""

    certificate = forms.FileField(
        label="Arquivo do certificado (.pfx ou .p12)",
        help_text="Certificado A1 do órgão (ICP-Brasil), com a chave privada.",
        widget=forms.ClearableFileInput(attrs={"accept": ".pfx,.p12,application/x-pkcs12"}),
    )
    certificate_password = forms.CharField(
        label="Senha do certificado",
        strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )

    def clean(self) -> dict:
        data = super().clean() or {}
        upload, password = data.get("certificate"), data.get("certificate_password")
        if upload is None or password is None:
            return data
        if upload.size > certificates.MAX_PKCS12_BYTES:
            self.add_error(
                "certificate",
                f"O arquivo passa de {certificates.MAX_PKCS12_BYTES // 1024} KB: não é um certificado A1.",
            )
            return data
        content = upload.read()
        try:
            certificates.read_pkcs12(content, password, now=timezone.now())
        except certificates.CertificateError as error:
            self.add_error("certificate_password" if error.field == "password" else "certificate", str(error))
        data["content"] = content
        return data
