"""Views of the procedure: ``staff`` (Jurídico, Auditoria) and ``portal`` (the candidate's private link)."""
