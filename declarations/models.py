"""Self-declarations and what challenges them (see DESIGN.md): built by a later issue."""
