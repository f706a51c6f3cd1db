"""Views of heteroidentification (the procedure's are in ``declarations.procedure.views``)."""
