"""Ordvakt rules engine: tiles, boards, moves, scoring, games, records, clocks, lexicons. Pure Python."""
