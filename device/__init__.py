"""Ordvakt device application: composition root, state machine, touchscreen UI, persistence, CLI."""
