"""People, registrations, results, lists and nominations (see DESIGN.md)."""
