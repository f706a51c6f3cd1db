"""The one PDF pipeline (DESIGN.md): documents generated from data, checked, published, signed, verified.

- ``chapter``  PURE: the edital's reservation chapter written from the policy's parameters;
- ``checks``   PURE: the pre-publication check (placeholders, schedule, policy in force, consistency);
- ``models``   ``EditalText`` (what the clerk writes) and ``Document`` (a published version, immutable);
- ``render``   WeasyPrint (templates under ``templates/pdf/``), the pagination of long lists;
- ``fastlist`` the middle pages of a long list written straight as PDF, in WeasyPrint's look;
- ``signing``  PAdES signatures with pyHanko (policy, timestamp), and their verification (trust store);
- ``signers``  who holds the key: the pluggable backends (A1 certificate, PKCS#11 token, remote service);
- ``remote``   ``RemoteSigner``, the pyHanko signer of a remote signing service;
- ``certificates`` the uploaded A1 read and checked, encrypted at rest; the trust store's roots;
- ``edital``   the edital's content from the contest's data (quota engine and seat schedule);
- ``services`` publication, rectification and verification of a file.

This package's ``__init__`` imports nothing, so that the pure modules stay importable without Django.
"""
