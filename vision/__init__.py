# SPDX-License-Identifier: GPL-3.0-or-later
"""Ordvakt vision: read a board from a camera frame and propose the move (OpenCV + numpy; uses engine only).

Facade for the device::

    from vision.profile import load_profile
    from vision.reader import BoardReader
    from vision.diff import propose

    reader = BoardReader(load_profile("scrabscrap"), rules.tileset)   # keep one per board/session
    reading = reader.read(frame, cells=[])          # locate (cached), occupancy; read no letters yet
    proposal = propose(reading, game.board, rules, last_placement=last, reader=reader, frame=frame)
    # proposal.kind: PLACEMENT / UNCHANGED / REMOVED / CONFLICT / COVERED (wait for a clear frame) / NO_BOARD
    # proposal.problems (DiffProblem flags), .engine_problems (engine ProblemCode flags), .messages,
    # .placement, .score, .words, .blanks (need the player's letter), .candidates (top letters if unsure)
    gate = StillFrameGate(reader.profile, locator=reader.locator)   # from vision.stability
    still = gate.feed(frame)                        # None until several frames agree (no hand, no moving shadow)
    reader.learn(proposal.new_tiles, confirmed_letters)   # after the player confirms; instant
    reader.classifier.save_learned(path) / .load_learned(path)   # keep the players' own tiles

Modules: colour (white balance), find (the grid from its lines anywhere in a raw frame, no colours assumed),
locate (profile-guided first guess checked by find's structure test, grid-line refinement, cached Locator
that follows a moved or turned board), synthetic (seeded test scenes and games with truth), occupancy
(frame-adapted per-cell classes), glyphs (letter cut-out, features), classifier (nearest neighbours on
font-rendered + learned glyphs), reader, diff, replay (folder of photos -> game), calibrate (profile from
a photo), variants (altered photos for tests), tesseract_reader (comparison only), fonts (model builder).
"""
