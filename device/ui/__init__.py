# SPDX-License-Identifier: GPL-3.0-or-later
"""Touchscreen UI: View model (view.py), pygame renderer, input adapter, strings."""
