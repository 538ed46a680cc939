# SPDX-License-Identifier: GPL-3.0-or-later
"""The live page: a read-only web view of the game on the device, served by its own process.

:mod:`device.live.state` reads the kiosk's SQLite database read-only and turns the newest game into
the JSON a viewer sees (racks only after the end); :mod:`device.live.server` serves the page, that
JSON (pushed over SSE, or polled), and the finished games' downloads. Nothing here can write.
"""
