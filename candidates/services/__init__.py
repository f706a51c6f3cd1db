"""Writes, by topic: ``registrations`` (candidates, registrations, declarations, phases, scores),
``imports`` (the organiser's files), ``results`` (result runs), ``nominations`` (calls and their
effects), and ``status`` (the one service that changes a registration's status and syncs its seats)."""
