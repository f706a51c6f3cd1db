"""Views of the procedure: ``staff`` (Jurídico, Auditoria) and ``candidate`` (the private link)."""
