"""Heteroidentification, the commission's check of a self-declaration (RULES §5; ADC 41): ``rules`` (pure:
composition, majority, final result, consequence), ``draw`` (pure: the auditable draw of members),
``services`` (every write; the draw's two steps in ``draw_services``), ``selectors`` (the reads),
``documents`` (the published acts), ``tasks`` (the result's e-mail), ``forms``, ``views`` and ``urls``."""
