"""The one PDF pipeline (DESIGN.md): documents generated from data, checked, published, signed, verified.

- ``chapter``  PURE: the edital's reservation chapter written from the policy's parameters;
- ``checks``   PURE: the pre-publication check (placeholders, schedule, policy in force, consistency);
- ``models``   ``EditalText`` (what the clerk writes) and ``Document`` (a published version, immutable);
- ``render``   WeasyPrint (templates under ``templates/pdf/``), chunked rendering for long lists;
- ``signing``  PAdES signatures with pyHanko, and their verification;
- ``edital``   the edital's content from the contest's data (quota engine and seat schedule);
- ``services`` publication, rectification and verification of a file.

This package's ``__init__`` imports nothing, so that the pure modules stay importable without Django.
"""
