# SPDX-License-Identifier: GPL-3.0-or-later
"""What whole synthetic games read from their photos alone needed (bench/vision_games.py runs the games):
a letter inside the outline shaded round its tile, a turned I, a photo holding two moves after a covered
one ordered by what the covered photo still showed, and a close call between two letters settled by the
dictionary (a clear reading stands, so a phony stays a phony)."""

from pathlib import Path

import numpy as np
import pytest

from engine.board import Board
from engine.moves import PlacedTile, Placement
from engine.rules import Rules
from engine.squares import Square
from vision.classifier import LetterClassifier, LetterGuess
from vision.diff import Proposal, ProposalKind, copy_bars, split_moves
from vision.glyphs import CROP_PAD, Glyph, extract
from vision.locate import Geometry
from vision.profile import load_profile
from vision.reader import BoardReader, TileReading
from vision.replay import (
    Glimpse,
    Turn,
    _contradictions,
    _line_cuts,
    _owners,
    _plausible_reading,
    _prefer_words,
    _without_strays,
)
from vision.synthetic import BOARD_STYLES, GCG_DIR, corner_error, render_scene, synthetic_game, tile_image

RULES = Rules.scrabble("en")
CELL = 40


def tile_crop(letter: str, *, quarter_turns: int = 0, seed: int = 0) -> np.ndarray:
    """A tile crop as the reader cuts it: the tile (with its darker rim) on the board's colour around it."""
    style = BOARD_STYLES["alfapet"]
    pad = int(round(CROP_PAD * CELL))
    crop = np.empty((CELL + 2 * pad, CELL + 2 * pad, 3), np.uint8)
    crop[:] = style.plain
    tile = tile_image(letter, CELL - 4, style, np.random.default_rng(seed), value=1)
    crop[pad + 2 : pad + CELL - 2, pad + 2 : pad + CELL - 2] = np.rot90(tile, quarter_turns)
    return crop


def test_letters_on_rendered_alfapet_boards_are_cut_out_not_the_outline_round_their_tiles():
    """Warped from a rendered photo, an Alfapet tile's shaded rim is a ring of ink about a cell wide around
    the letter: taken for the letter it made C read F, U read E (HEAD read 142 of these 152 tiles)."""
    n = BOARD_STYLES["alfapet"].grid
    words = ["COTQUEAN", "JUMBLING", "WHIZZED", "FLAPJACK", "OXYGENS"]
    rows = [("..." + words[r // 3] + "." * n)[:n] if r % 3 == 1 and r // 3 < len(words) else "." * n
            for r in range(n)]
    rules = Rules.scrabble("en", layout="alfapet-17")
    right = total = 0
    for seed in range(100, 104):
        scene = render_scene(seed, style="alfapet", rows=rows, board_turns=0, letter_turns=0, hand=False,
                             shadow=False, stray=0)
        reader = BoardReader(load_profile("alfapet-17"), rules.tileset)
        squares = [Square(r, c) for r in range(n) for c in range(n) if rows[r][c] != "."]
        tiles = reader.read_tiles(scene.image, Geometry(scene.truth.corners.astype(np.float32), n, 0.0), squares)
        for sq in squares:
            guess = tiles[sq].guess
            right += guess is not None and guess.letter == rows[sq.row][sq.col]
            total += 1
            assert tiles[sq].glyph.height < 0.8  # a rim round the tile is about a whole cell tall
    assert right >= 0.96 * total, (right, total)


@pytest.mark.parametrize("quarter_turns", [1, 3])
def test_an_i_laid_across_is_a_letter_not_a_blank(quarter_turns):
    glyph = extract(tile_crop("I", quarter_turns=quarter_turns), CELL)
    assert glyph.image is not None
    upright = Glyph(np.ascontiguousarray(np.rot90(glyph.image, -quarter_turns)), glyph.contrast, glyph.height)
    assert LetterClassifier(RULES.tileset.alphabet).classify(upright).letter == "I"


def board_with(word: str, row: int, col: int) -> Board:
    board = Board(15)
    placement = Placement.from_tiles([PlacedTile(Square(row, col + i), ch) for i, ch in enumerate(word)], board)
    for t in placement.tiles:
        board[t.square] = t.cell
    return board


def across(word: str, row: int, col: int, board: Board) -> Placement:
    return Placement.from_tiles([PlacedTile(Square(row, col + i), ch) for i, ch in enumerate(word)], board)


def down(word: str, row: int, col: int, board: Board) -> Placement:
    return Placement.from_tiles([PlacedTile(Square(row + i, col), ch) for i, ch in enumerate(word)], board)


def glimpse(board_size: int, tiles: set[Square], hidden: set[Square]) -> Glimpse:
    every = {Square(r, c) for r in range(board_size) for c in range(board_size)}
    return Glimpse(frozenset(tiles - hidden), frozenset(every - tiles - hidden))


def test_two_moves_on_one_photo_are_ordered_by_what_the_covered_photo_before_it_showed():
    board = board_with("CAT", 7, 7)
    first = down("OW", 8, 7, board)  # C-O-W down from the C, not touching the other move
    after = board.copy()
    for t in first.tiles:
        after[t.square] = t.cell
    second = down("RE", 8, 9, after)  # T-R-E down from the T
    played = {Square(7, c) for c in (7, 8, 9)}
    first_squares = {t.square for t in first.letter_tiles}
    # The covered photo shows CAT and the first move; a hand hides a corner far away.
    seen = glimpse(15, played | first_squares, {Square(0, 0), Square(0, 1)})
    assert _contradictions([first, second], [seen, None], (0, 1)) == 0
    assert _contradictions([second, first], [seen, None], (0, 1)) == 4
    # Only the one move on the last photo: the covered photo owns it when it shows it, else the last photo.
    assert _owners([first], [seen], 2) == (0,)
    assert _owners([second], [seen], 2) == (1,)
    # A hand over the move's squares: nothing contradicts either, the latest photo is taken.
    hidden = glimpse(15, played, first_squares)
    assert _owners([first], [hidden], 2) == (1,)


def reading(square: Square, *top: tuple[str, float]) -> TileReading:
    glyph = Glyph(np.zeros((24, 24), np.float32), 0.9, 0.5)
    return TileReading(square, glyph, LetterGuess(tuple(top)))


def turn() -> Turn:
    return Turn(Path("image-1.png"), Proposal(ProposalKind.PLACEMENT), "", 0.0)


def test_a_close_call_between_two_letters_is_settled_by_the_dictionary():
    board = Board(15)
    squares = [Square(7, 6 + i) for i in range(3)]
    read = Placement.from_tiles([PlacedTile(sq, ch) for sq, ch in zip(squares, "CAT", strict=True)], board)
    words = {"COT"}.__contains__
    close = {squares[0]: reading(squares[0], ("C", 0.97), ("G", 0.96)),
             squares[1]: reading(squares[1], ("A", 0.95), ("O", 0.94), ("Q", 0.9)),
             squares[2]: reading(squares[2], ("T", 0.98), ("I", 0.8))}
    t = turn()
    assert "".join(x.letter for x in _prefer_words(read, close, board, RULES, words, t).tiles) == "COT"
    assert "A->O" in t.notes[0]
    # The O looked much less like the tile than the A: CAT stands (a phony is read as the phony it is).
    clear = {**close, squares[1]: reading(squares[1], ("A", 0.97), ("O", 0.8))}
    assert _prefer_words(read, clear, board, RULES, words, turn()) is read
    # A valid word is never changed, however close the second letter.
    assert _prefer_words(read, close, board, RULES, {"CAT", "COT"}.__contains__, turn()) is read


def test_a_swap_that_mends_the_main_word_is_taken_though_a_cross_word_stays_unknown():
    """A word list lacks some words a game plays (LÄSE, a cross-word of a room-low photo game): the letter
    that mends the main word must not wait for the cross-word too."""
    board = Board(15)
    board[Square(6, 6)] = PlacedTile(Square(6, 6), "Z").cell
    squares = [Square(7, 6 + i) for i in range(3)]
    read = Placement.from_tiles([PlacedTile(sq, ch) for sq, ch in zip(squares, "CQT", strict=True)], board)
    close = {squares[0]: reading(squares[0], ("C", 0.97), ("G", 0.8)),
             squares[1]: reading(squares[1], ("Q", 0.95), ("A", 0.94)),
             squares[2]: reading(squares[2], ("T", 0.98), ("I", 0.8))}
    t = turn()
    chosen = _prefer_words(read, close, board, RULES, {"CAT"}.__contains__, t)
    assert "".join(x.letter for x in chosen.tiles) == "CAT"
    assert "Q->A" in t.notes[0] and "leave 1 of 2 invalid words" in t.notes[0]
    # No swap makes fewer invalid words: the reading stands.
    assert _prefer_words(read, close, board, RULES, {"CIT"}.__contains__, turn()) is read


def test_a_swap_that_trades_one_unknown_word_for_another_is_not_taken():
    """Synthetic game 1005: ETOH (missing from the list) with OI below its O (missing too); O read by 0.008 over Q.
    Q makes QI a word and leaves ETQH unknown: fewer invalid words, but the word through the swapped tile is
    still none, so the reading stands."""
    board = Board(15)
    board[Square(8, 7)] = PlacedTile(Square(8, 7), "I").cell
    squares = [Square(7, 5 + i) for i in range(4)]
    read = Placement.from_tiles([PlacedTile(sq, ch) for sq, ch in zip(squares, "ETOH", strict=True)], board)
    close = {sq: reading(sq, (ch, 0.98), ("X", 0.8)) for sq, ch in zip(squares, "ETOH", strict=True)}
    close[squares[2]] = reading(squares[2], ("O", 0.989), ("Q", 0.981), ("D", 0.94))
    assert _prefer_words(read, close, board, RULES, {"QI"}.__contains__, turn()) is read
    # With ETQH a word too, the swap makes every word it touches valid and is taken.
    t = turn()
    assert _prefer_words(read, close, board, RULES, {"QI", "ETQH"}.__contains__, t) is not read and "O->Q" in t.notes[0]


def test_a_lost_umlaut_is_restored_when_the_marked_letter_makes_the_word():
    """Dots and rings are a letter's smallest strokes, the first lost on a tile seen small or from low
    (MÜHST read MUHST): the marked form counts as a close reading whenever the reader ranked it at all."""
    rules = Rules.scrabble("sv")
    board = Board(15)
    squares = [Square(7, 6 + i) for i in range(3)]
    read = Placement.from_tiles([PlacedTile(sq, ch) for sq, ch in zip(squares, "BAT", strict=True)], board)
    ranked = {squares[0]: reading(squares[0], ("B", 0.97), ("R", 0.8)),
              squares[1]: reading(squares[1], ("A", 0.95), ("R", 0.85), ("Å", 0.7)),
              squares[2]: reading(squares[2], ("T", 0.98), ("I", 0.8))}
    t = turn()
    chosen = _prefer_words(read, ranked, board, rules, {"BÅT"}.__contains__, t)
    assert "".join(x.letter for x in chosen.tiles) == "BÅT"
    assert "A->Å" in t.notes[0]
    # Not among the reader's candidates: no mark is invented.
    unranked = {**ranked, squares[1]: reading(squares[1], ("A", 0.95), ("R", 0.85))}
    assert _prefer_words(read, unranked, board, rules, {"BÅT"}.__contains__, turn()) is read
    # A word the letters read already make is never changed.
    assert _prefer_words(read, ranked, board, rules, {"BAT", "BÅT"}.__contains__, turn()) is read


def test_the_bar_a_copy_beyond_the_sets_count_must_clear():
    rules = Rules.scrabble("de")  # one P, one Ü, six R
    board = Board(15)
    for square, letter, blank in ((Square(7, 7), "P", False), (Square(7, 8), "Ü", False), (Square(7, 9), "R", False),
                                  (Square(7, 10), "Y", True), (Square(7, 11), "X", False)):
        board[square] = PlacedTile(square, letter, blank=blank).cell
    guesses = {Square(7, 7): LetterGuess((("P", 0.9), ("F", 0.891))),   # game04's F read P by a hair
               Square(7, 8): LetterGuess((("U", 0.9), ("Ü", 0.88))),    # a Ü the dictionary chose over U
               Square(7, 9): LetterGuess((("R", 0.9), ("P", 0.5))),
               Square(7, 10): LetterGuess((("Y", 0.9), ("V", 0.5)))}    # a blank: no copy of the set's Y
    # R has copies left, the blank is no Y, X was never read (so sure): only P and Ü have a bar.
    assert copy_bars(board, guesses, rules) == pytest.approx({"P": 0.009, "Ü": 1.0, "X": 1.0})
    # Two copies of the one P on the board: the surer one is the bar.
    board[Square(8, 7)] = PlacedTile(Square(8, 7), "P").cell
    guesses[Square(8, 7)] = LetterGuess((("P", 0.9), ("R", 0.84)))
    assert copy_bars(board, guesses, rules)["P"] == pytest.approx(0.06)


def test_the_copy_a_surer_one_displaced_is_named_afterwards():
    """Room-low game04: FINNEN's F read P by 0.009 (PINNEN is a word too), and the set's one P came later, read
    by 0.06. The later P stood over the count; the P of PINNEN, the least sure copy, is the F it nearly read."""
    from engine.game import Game
    from vision.replay import ReplayResult, _mend_overcounts

    rules = Rules.scrabble("de")  # one P
    game = Game(rules, ["a", "b"])
    result = ReplayResult(game)
    first = across("PINNEN", 7, 4, game.board)
    second = down("PUD", 8, 9, game.board)  # hangs from the last N, no tile on the first move's squares
    guesses = {t.square: LetterGuess(((t.letter, 0.9), ("X", 0.5))) for t in (*first.tiles, *second.tiles)}
    guesses[Square(7, 4)] = LetterGuess((("P", 0.9), ("F", 0.891), ("E", 0.8)))
    guesses[Square(8, 9)] = LetterGuess((("P", 0.93), ("R", 0.87)))
    turns = []
    for number, placement in enumerate((first, second), start=1):
        before = game.board.copy()
        event = game.play(placement, check=False)
        turns.append(Turn(Path(f"image-{number}.png"), Proposal(ProposalKind.PLACEMENT),
                          f"{placement.notation(before)} {event.score:+d}", 0.0, events=[event], before=before))
    result.turns = turns
    scores_before = result.game.scores
    _mend_overcounts(result, rules, guesses, {"FINNEN", "PINNEN", "PUD"}.__contains__)
    assert [t.letter for t in result.turns[0].events[0].move.tiles] == list("FINNEN")
    assert result.turns[0].text.startswith("8E FINNEN") and "C15" not in result.turns[0].text
    assert f"{Square(7, 4).name} P->F afterwards" in result.turns[0].notes[0]
    assert result.turns[1].events[0].move == second and not result.turns[1].notes
    # P and F are worth 4 each in German: the scores stand, and every event belongs to the rebuilt game.
    assert result.game.scores == scores_before and result.game.events == [t.events[0] for t in result.turns]
    # A dictionary without FINNEN keeps PINNEN: the change would make a word invalid.
    game = Game(rules, ["a", "b"])
    kept = ReplayResult(game, [Turn(Path("image-1.png"), Proposal(ProposalKind.PLACEMENT), "", 0.0,
                                    events=[game.play(first, check=False)], before=Board(15)),
                               Turn(Path("image-2.png"), Proposal(ProposalKind.PLACEMENT), "", 0.0,
                                    events=[game.play(second, check=False)], before=game.board.copy())])
    _mend_overcounts(kept, rules, guesses, {"PINNEN", "PUD"}.__contains__)
    assert kept.game is game and kept.turns[0].events[0].move == first


def test_two_moves_along_one_row_are_split_where_the_row_breaks():
    """Two moves in the same row with an empty square between them (classic game 1002, photos 10 and 11): no
    second line to split along; the row's tiles are cut in two runs, each a legal move, either first."""
    board = board_with("CAT", 7, 7)
    for t in down("TO", 7, 13, board).tiles:
        board[t.square] = t.cell
    tiles = [PlacedTile(Square(7, c), ch) for c, ch in ((5, "A"), (6, "B"), (11, "E"), (12, "S"))]
    assert split_moves(tiles, board, RULES, 2) == []
    cuts = [[{t.square.col for t in p.letter_tiles} for p in split] for split in _line_cuts(tiles, board, RULES, None)]
    assert sorted(map(sorted, cuts[0])) == [[5, 6], [11, 12]]
    assert sorted(cuts, key=lambda c: min(c[0])) == [[{5, 6}, {11, 12}], [{11, 12}, {5, 6}]]


def test_a_letterless_cell_off_the_moves_line_is_left_out_of_a_photo_that_holds_one_move():
    """A photo after a clear one holds one turn: a cell read as a tile without a letter, away from the move's
    line (tournament game 1002 photo 19: a blank on 14N beside AQUIVER), is not a second move."""
    board = board_with("CAT", 7, 7)
    move = [reading(Square(8 + i, 8), (ch, 0.97), ("Q", 0.5)) for i, ch in enumerate("XE")]  # A-X-E down
    stray = TileReading(Square(13, 1), Glyph(None, 0.9, 0.0), None)
    proposal = Proposal(ProposalKind.CONFLICT, new_tiles=(*move, stray))
    single = _without_strays(proposal, board, RULES)
    assert single is not None
    placement, dropped = single
    assert dropped == [Square(13, 1)]
    assert [(t.square, t.letter) for t in placement.letter_tiles] == [(Square(8, 8), "X"), (Square(9, 8), "E")]
    # A lettered tile with no tile beside it (a fleck, a stray tile) cannot be part of any move: left out too.
    fleck = reading(Square(2, 2), ("Z", 0.97), ("Q", 0.5))
    single = _without_strays(Proposal(ProposalKind.CONFLICT, new_tiles=(*move, fleck)), board, RULES)
    assert single is not None and single[1] == [Square(2, 2)]
    # Two lettered moves (the other one beside CAT's C) are not one move with a stray: left to the split.
    other = reading(Square(6, 7), ("Z", 0.97), ("Q", 0.5))
    assert _without_strays(Proposal(ProposalKind.CONFLICT, new_tiles=(*move, other)), board, RULES) is None


@pytest.mark.skipif(not GCG_DIR.is_dir(), reason=f"needs the woogles records in {GCG_DIR}")
def test_a_photo_whose_grid_was_found_cells_off_is_located_again_from_its_lines():
    """Classic development game 0, photo 11: the board's colours put the grid 2.3 cells off (every tile
    seemed moved, the photo "covered"), and the photo before a two-move photo then showed nothing to order
    the two moves by. The lines alone find it; the replay reads the photo on that grid."""
    game = synthetic_game(0, style="classic", moves=11)
    reader = BoardReader(load_profile("classic-scrabble"), RULES.tileset)
    before = reader.read(game.frames[9].image)
    assert before.geometry is not None
    assert corner_error(before.geometry.corners, game.frames[9].truth.corners, 15) < 0.25
    board = Board(15)
    for sq, tile in before.tiles.items():
        board[sq] = PlacedTile(sq, tile.guess.letter if tile.guess is not None else "?",
                               blank=tile.guess is None).cell
    reading = _plausible_reading(reader, game.frames[10].image, board, None)
    assert reading.geometry is not None
    assert corner_error(reading.geometry.corners, game.frames[10].truth.corners, 15) < 0.25
    assert not reading.hidden
    assert set(before.tiles) <= reading.occupied()


@pytest.mark.parametrize("style", ["classic", "alfapet"])
def test_a_blank_tile_is_not_read_as_the_edge_of_its_outline(style):
    """A blank lying a little off its cell shows its shaded edge near the crop's middle: a darker threshold
    broke that outline and one side of it was read as an I (classic dev game 1: RERUN read R?RIN; before
    the fix 10 of 105 classic and 28 of 135 Alfapet blanks here read as letters)."""
    n = BOARD_STYLES[style].grid
    rows = ["".join("e" if (r + c) % 3 == 0 else "." for c in range(n)) if r % 2 else "." * n for r in range(n)]
    rules = Rules.scrabble("en", layout=BOARD_STYLES[style].layout)
    squares = [Square(r, c) for r in range(n) for c in range(n) if rows[r][c] != "."]
    for seed in range(200, 203):
        scene = render_scene(seed, style=style, rows=rows, board_turns=0, letter_turns=0, hand=False,
                             shadow=False, stray=0)
        reader = BoardReader(load_profile({"classic": "classic-scrabble", "alfapet": "alfapet-17"}[style]),
                             rules.tileset)
        tiles = reader.read_tiles(scene.image, Geometry(scene.truth.corners.astype(np.float32), n, 0.0), squares)
        assert [sq.name for sq in squares if tiles[sq].guess is not None] == []


def test_a_photo_that_cannot_be_split_twice_in_a_row_is_taken_as_one_move_and_the_game_goes_on():
    """Alfapet dev game 3: a tile read on the corner square stayed on every later photo, so no photo after it
    could be split into legal moves and the rest of the game piled up. The first such photo waits for the next
    one (a hand may have moved); the second is taken as one move, unchecked."""
    from vision.replay import MAX_MOVES_PER_PHOTO, _as_one_move, _stalled

    def waiting(kind: ProposalKind) -> Turn:
        return Turn(Path("image-1.png"), Proposal(kind), kind.value, 0.0)

    assert not _stalled([])
    assert not _stalled([waiting(ProposalKind.COVERED)])
    assert _stalled([waiting(ProposalKind.CONFLICT)])
    assert _stalled([waiting(ProposalKind.COVERED)] * (MAX_MOVES_PER_PHOTO - 1))
    board = board_with("CAT", 7, 7)
    scattered = (reading(Square(8, 8), ("X", 0.97), ("Q", 0.5)), reading(Square(0, 0), ("I", 0.9), ("J", 0.8)),
                 TileReading(Square(3, 12), Glyph(None, 0.9, 0.0), None))
    forced = _as_one_move(Proposal(ProposalKind.CONFLICT, new_tiles=scattered), board)
    assert forced is not None
    assert sorted((t.square, t.letter, t.blank) for t in forced.letter_tiles) == [
        (Square(0, 0), "I", False), (Square(3, 12), "?", True), (Square(8, 8), "X", False)]


def test_a_board_moved_after_a_long_word_laid_across_a_short_one_keeps_its_squares():
    """Synthetic tournament game 8002: after the first move (4 tiles), the board moves and a 7-letter word is
    laid across it. Under a wrong quarter turn the long word covers the short one's squares too, so the tiles'
    squares alone kept the wrong turn (the second move read as ZX.F + CP....O); the letters read before tell."""
    game = synthetic_game(8002, style="tournament", moves=2)
    reader = BoardReader(load_profile("scrabscrap"), game.rules.tileset)
    first = reader.read(game.frames[0].image)
    assert reader.locator.relocations == 1 and len(first.tiles) == 4
    second = reader.read(game.frames[1].image)
    assert reader.locator.relocations == 2, "the board moved between the moves: it is located again"
    for sq, tile in first.tiles.items():
        assert sq in second.tiles, f"{sq.name}: a tile of the first move is not where it was"
        assert second.tiles[sq].guess.letter == tile.guess.letter
    assert len(second.tiles) == 10


def test_premium_squares_whose_print_shows_as_ink_are_not_the_first_move_s_tiles():
    """Synthetic Alfapet game 1000, photo 1 (the board on a red table, one 4-tile move): on the grid as
    located, the print of 6 of the 16 x4 squares showed as much ink as a letter. Taken for letters, they set
    the tiles' colour: the x4 squares were read as tiles and the four real tiles as a hand over the board."""
    game = synthetic_game(1000, style="alfapet", moves=1)
    rules = Rules.scrabble("en", layout="alfapet-17")
    reading = BoardReader(load_profile("alfapet-17"), rules.tileset).read(game.frames[0].image)
    assert not reading.hidden
    assert sorted(tile.symbol for tile in reading.tiles.values()) == sorted("IBOG")
