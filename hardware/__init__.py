"""Ordvakt hardware edge: buttons, buzzer, LEDs, cameras. Back-ends are chosen at construction."""
