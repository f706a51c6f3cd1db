"""A test chain shaped like ICP-Brasil's, made with ``cryptography`` once per test session: a root ("AC Raiz
de Teste ICP-Brasil"), an intermediate authority, and an A1 leaf certificate of a municipal body (e-CNPJ
style subject), packed in a PKCS#12 file with its chain. Also a stranger root (another hierarchy), an
expired A1 certificate and a TSA, for the negative cases. Deterministic names; keys are fresh."""

from __future__ import annotations

import datetime
import functools
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

PASSWORD = "senha-do-a1"
LEAF_CN = "CAMARA MUNICIPAL DE TESTE:12345678000199"
ROOT_CN = "AC Raiz de Teste ICP-Brasil"


@dataclass(frozen=True)
class Chain:
    root_pem: bytes
    intermediate_pem: bytes
    leaf_pem: bytes
    pkcs12: bytes  # the A1 file: leaf key and certificate, with the intermediate and the root
    expired_pkcs12: bytes  # an A1 of the same chain whose validity ended
    stranger_root_pem: bytes  # a root of another hierarchy
    leaf_key: rsa.RSAPrivateKey
    leaf: x509.Certificate
    intermediate: x509.Certificate
    intermediate_key: rsa.RSAPrivateKey
    root: x509.Certificate
    tsa: x509.Certificate
    tsa_key: rsa.RSAPrivateKey


def _name(cn: str, *units: str) -> x509.Name:
    attributes = [
        x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "ICP-Brasil"),
    ]
    attributes += [x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, unit) for unit in units]
    attributes.append(x509.NameAttribute(NameOID.COMMON_NAME, cn))
    return x509.Name(attributes)


def _key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _certificate(
    subject: x509.Name,
    key: rsa.RSAPrivateKey,
    issuer: x509.Name,
    issuer_key: rsa.RSAPrivateKey,
    *,
    serial: int,
    ca: bool,
    start: datetime.datetime,
    days: int,
    eku: list | None = None,
) -> x509.Certificate:
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(serial)
        .not_valid_before(start)
        .not_valid_after(start + datetime.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False
        )
    )
    if ca:
        usage = x509.KeyUsage(False, False, False, False, False, True, True, False, False)
    else:  # an A1's: digital signature, non-repudiation, key encipherment; its issuer's CRL declared
        usage = x509.KeyUsage(True, True, True, False, False, False, False, False, False)
        point = x509.DistributionPoint(
            [x509.UniformResourceIdentifier("http://acteste.example/lcr/ac-intermediaria.crl")],
            None,
            None,
            None,
        )
        builder = builder.add_extension(x509.CRLDistributionPoints([point]), critical=False)
    builder = builder.add_extension(usage, critical=True)
    if eku:
        builder = builder.add_extension(
            x509.ExtendedKeyUsage(eku), critical=eku == [ExtendedKeyUsageOID.TIME_STAMPING]
        )
    return builder.sign(issuer_key, hashes.SHA256())


def _pem(certificate: x509.Certificate) -> bytes:
    return certificate.public_bytes(serialization.Encoding.PEM)


def _pack(key, certificate, chain) -> bytes:
    return pkcs12.serialize_key_and_certificates(
        b"a1", key, certificate, chain, serialization.BestAvailableEncryption(PASSWORD.encode())
    )


@functools.cache
def chain() -> Chain:
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    start = now - datetime.timedelta(days=30)
    root_key, intermediate_key, leaf_key, old_key, stranger_key, tsa_key = (_key() for _ in range(6))
    root_name = _name(ROOT_CN, "Instituto Nacional de Tecnologia da Informação - ITI")
    root = _certificate(root_name, root_key, root_name, root_key, serial=1, ca=True, start=start, days=3650)
    intermediate_name = _name("AC Intermediária de Teste v5", "Autoridade Certificadora Raiz Brasileira v10")
    intermediate = _certificate(
        intermediate_name, intermediate_key, root_name, root_key, serial=2, ca=True, start=start, days=1825
    )
    leaf = _certificate(
        _name(LEAF_CN, "Secretaria da Receita Federal do Brasil - RFB", "RFB e-CNPJ A1", "AR Teste"),
        leaf_key,
        intermediate_name,
        intermediate_key,
        serial=0x1A2B3C4D,
        ca=False,
        start=start,
        days=365,
        eku=[ExtendedKeyUsageOID.CLIENT_AUTH, ExtendedKeyUsageOID.EMAIL_PROTECTION],
    )
    expired = _certificate(
        _name(LEAF_CN, "RFB e-CNPJ A1"),
        old_key,
        intermediate_name,
        intermediate_key,
        serial=0x99,
        ca=False,
        start=start - datetime.timedelta(days=800),
        days=365,
    )
    stranger_name = _name("AC Raiz Estranha de Teste", "Outra hierarquia")
    stranger = _certificate(
        stranger_name, stranger_key, stranger_name, stranger_key, serial=3, ca=True, start=start, days=3650
    )
    tsa = _certificate(
        _name("ACT de Teste", "Carimbo do tempo"),
        tsa_key,
        intermediate_name,
        intermediate_key,
        serial=4,
        ca=False,
        start=start,
        days=365,
        eku=[ExtendedKeyUsageOID.TIME_STAMPING],
    )
    return Chain(
        root_pem=_pem(root),
        intermediate_pem=_pem(intermediate),
        leaf_pem=_pem(leaf),
        pkcs12=_pack(leaf_key, leaf, [intermediate, root]),
        expired_pkcs12=_pack(old_key, expired, [intermediate, root]),
        stranger_root_pem=_pem(stranger),
        leaf_key=leaf_key,
        leaf=leaf,
        intermediate=intermediate,
        intermediate_key=intermediate_key,
        root=root,
        tsa=tsa,
        tsa_key=tsa_key,
    )
