"""Views of heteroidentification: ``sessions`` (the session page: members' opinions, attendance, closing,
results), ``staff`` (Jurídico's per-contest screens: commissions, calls, publications), ``draw`` (announce and
perform a draw), ``candidate`` (the private link to the result) and ``public`` (the draw's public page)."""
