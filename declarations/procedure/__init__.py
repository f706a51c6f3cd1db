"""The procedure on a suspected false self-declaration (RULES §5; Lei 9.784): ``rules`` (pure: the lawful
next acts), ``services`` (every write), ``selectors`` (the screens' reads), ``documents`` (the acts' PDFs),
``tasks`` (the notice's e-mail), ``forms``, ``views`` and ``urls``."""
