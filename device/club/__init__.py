# SPDX-License-Identifier: GPL-3.0-or-later
"""Many boards, one event: every device on one MQTT broker, one director's view.

The device side never talks to the network from the kiosk process. Triggers in the kiosk's own
SQLite database copy every move into an *outbox* in the same transaction that stores the move
(:mod:`device.club.outbox`); a separate process, ``ordvakt club link`` (:mod:`device.club.link`),
publishes the outbox to the broker and marks each message sent only after the broker acknowledged
it (QoS 1). A broker outage or a pulled plug therefore loses nothing; a message re-sent after a crash
carries the same sequence number, so the director counts it once.

Topics (``<event>`` and ``<board>`` from the configuration)::

    ordvakt/<event>/<board>/status   retained  "online" / "offline" (the last will)
    ordvakt/<event>/<board>/state    retained  JSON snapshot: kind, players, scores, clocks, board, seq
    ordvakt/<event>/<board>/move     QoS 1     JSON: seq, type (game/move/undo/result), player, move, score, totals
    ordvakt/<event>/<board>/result   retained  JSON: final scores, who started, round, table
    ordvakt/<event>/cmd/<board>      QoS 1     to the board: names, round, table, tsh player numbers

The director (``ordvakt club serve``, :mod:`device.club.director`) subscribes to an event, keeps
every board's moves exactly once in its own database, and serves a read-only page with the boards,
standings per round, GCG downloads and the round's results as tsh entry lines
(:mod:`device.club.web`). :mod:`device.club.broker` writes a Mosquitto configuration with TLS, one
credential per board and an ACL that lets a board write only under its own topic.
"""
