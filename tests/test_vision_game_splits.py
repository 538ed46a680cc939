# SPDX-License-Identifier: GPL-3.0-or-later
"""Photos alone, read move by move: a tile of the last move the reader missed is no withdrawal, a photo after
a covered one is split into no more moves than photos (a stray left out first), a letter the tile counts
talked away comes back when only it makes the words, and words laid to be read from another side of the
board are looked up the other way round once the game shows they read so."""

from pathlib import Path

import numpy as np

from engine.board import Board
from engine.game import Game
from engine.moves import PlacedTile, Placement
from engine.rules import Rules
from engine.squares import Square
from vision.classifier import LetterGuess
from vision.diff import DiffProblem, Proposal, ProposalKind, propose
from vision.glyphs import Glyph
from vision.occupancy import CellState, Occupancy
from vision.reader import BoardReading, ReadingStatus, TileReading
from vision.replay import Glimpse, ReadingDirection, Turn, _prefer_words, _split, _split_shown

RULES = Rules.scrabble("en")


def read(square: Square, *top: tuple[str, float]) -> TileReading:
    return TileReading(square, Glyph(np.zeros((24, 24), np.float32), 0.9, 0.5), LetterGuess(tuple(top)))


def blank(square: Square) -> TileReading:
    return TileReading(square, Glyph(None, 0.9, 0.0), None)


def laid(board: Board, tiles: list[PlacedTile]) -> Placement:
    placement = Placement.from_tiles(tiles, board)
    for t in placement.tiles:
        board[t.square] = t.cell
    return placement


def reading_of(squares: set[Square], tiles: list[TileReading]) -> BoardReading:
    state = np.full((15, 15), CellState.EMPTY, dtype=object)
    for sq in squares:
        state[sq.row, sq.col] = CellState.TILE
    occupancy = Occupancy(state, np.zeros((15, 15)), np.ones((15, 15)))
    return BoardReading(ReadingStatus.OK, None, occupancy, {t.square: t for t in tiles})


def a_turn() -> Turn:
    return Turn(Path("image-1.png"), Proposal(ProposalKind.PLACEMENT), "", 0.0)


def test_a_tile_of_the_last_move_read_as_empty_is_not_a_withdrawal_when_that_makes_no_legal_move():
    """Classic game 101, photo 6: the blank of REN?ROL was not seen, so the last move was taken as withdrawn
    and ARAM beside it as one move with REN_ROL's other tiles: ten tiles in no line, every later photo
    stuck. Taken as misread, the photo holds ARAM beside the whole last move."""
    board = Board(15)
    laid(board, [PlacedTile(Square(7, 7 + i), ch) for i, ch in enumerate("CAT")])
    last = laid(board, [PlacedTile(Square(7 + i, 6), ch, blank=ch == "?") for i, ch in enumerate("RE?")])
    seen = {sq for sq, _ in board} - {Square(9, 6)}  # the blank on G10 reads as an empty square
    still = [read(Square(7, 6), ("R", 0.98), ("B", 0.9)), read(Square(8, 6), ("E", 0.98), ("F", 0.9))]
    new = [read(Square(8, 7 + i), (ch, 0.98), ("Q", 0.5)) for i, ch in enumerate("AN")]  # AN under AT
    proposal = propose(reading_of(seen | {t.square for t in new}, [*still, *new]), board, RULES,
                       last_placement=last)
    assert proposal.kind is ProposalKind.REMOVED
    assert proposal.problems & DiffProblem.NOT_A_WITHDRAWAL
    assert proposal.placement is not None
    assert [(t.square, t.letter) for t in proposal.placement.letter_tiles] == [(Square(8, 7), "A"), (Square(8, 8), "N")]
    # Part of the last move gone and its other squares holding a legal move: withdrawn, the squares reused.
    reused = [read(Square(7, 6), ("O", 0.98), ("Q", 0.5)), read(Square(8, 6), ("X", 0.98), ("Q", 0.5))]
    withdrawn = propose(reading_of(seen, reused), board, RULES, last_placement=last)
    assert withdrawn.kind is ProposalKind.REMOVED and not withdrawn.problems & DiffProblem.NOT_A_WITHDRAWAL
    assert withdrawn.placement is not None
    assert [t.letter for t in withdrawn.placement.letter_tiles] == ["O", "X"]


def test_a_photo_after_a_covered_one_is_split_into_no_more_moves_than_photos_a_stray_left_out():
    """Tournament game 1, photo 25 (after a covered photo): a letterless fleck by the board's edge made the
    two moves three, the fleck one of them, and the fleck stayed in the game."""
    board = Board(15)
    laid(board, [PlacedTile(Square(7, 7 + i), ch) for i, ch in enumerate("CAT")])
    first = [read(Square(8 + i, 7), (ch, 0.98), ("Q", 0.5)) for i, ch in enumerate("OW")]  # COW down from C
    second = [read(Square(8 + i, 9), (ch, 0.98), ("Q", 0.5)) for i, ch in enumerate("OE")]  # TOE down from T
    fleck = blank(Square(6, 10))  # diagonal to the T: no tile beside it
    proposal = Proposal(ProposalKind.CONFLICT, new_tiles=(*first, *second, fleck))
    turn = a_turn()
    found = _split(proposal, board, RULES, None, turn, [None], 2)
    assert found is not None
    parts, owners = found
    assert sorted(sorted(t.square for t in p.letter_tiles) for p in parts) == [
        [Square(8, 7), Square(9, 7)], [Square(8, 9), Square(9, 9)]]
    assert owners == (0, 1)
    assert any("stray on K7" in note for note in turn.notes)
    # One move and the fleck (tournament game 0, photo 2; photo 1 showed only the fleck): that one move,
    # not cut in two to fill both photos' turns.
    one = _split(Proposal(ProposalKind.CONFLICT, new_tiles=(*first, fleck)), board, RULES, None, a_turn(), [None], 2)
    assert one is not None
    assert [sorted(t.square for t in p.letter_tiles) for p in one[0]] == [[Square(8, 7), Square(9, 7)]]


def test_a_letter_the_tile_counts_talked_away_comes_back_when_only_it_makes_the_words():
    """MAWS read MABS: an earlier misread used the set's last W, so the counts chose B; the W read first
    makes the word, the B does not."""
    board = Board(15)
    laid(board, [PlacedTile(Square(3, 3 + i), ch) for i, ch in enumerate("WOW")])  # two of the set's two Ws
    laid(board, [PlacedTile(Square(4 + i, 3), ch) for i, ch in enumerate("IT")])
    squares = [Square(7, 4 + i) for i in range(4)]
    readings = {squares[0]: read(squares[0], ("M", 0.97), ("N", 0.9)),
                squares[1]: read(squares[1], ("A", 0.97), ("R", 0.8)),
                squares[2]: read(squares[2], ("W", 0.96), ("B", 0.95)),
                squares[3]: read(squares[3], ("S", 0.97), ("B", 0.8))}
    mabs = Placement.from_tiles([PlacedTile(sq, ch) for sq, ch in zip(squares, "MABS", strict=True)], board)
    turn = a_turn()
    chosen = _prefer_words(mabs, readings, board, RULES, {"MAWS", "WOW", "IT"}.__contains__, turn)
    assert "".join(t.letter for t in chosen.tiles) == "MAWS"
    # A letter the reader did not read first still keeps within the counts.
    readings[squares[2]] = read(squares[2], ("B", 0.96), ("W", 0.95))
    assert _prefer_words(mabs, readings, board, RULES, {"MAWS"}.__contains__, a_turn()) is mabs


def test_words_that_read_backwards_as_the_letters_stand_are_looked_up_the_other_way_round():
    words = {"CAT", "DOG", "TOGS", "TIDE", "GOT"}.__contains__
    direction = ReadingDirection(words)
    assert direction("CAT") and not direction("TAC")
    game = Game(RULES, ["a", "b"])
    for word, row in (("TAC", 3), ("GOD", 5), ("SGOT", 7)):
        game.play(Placement.from_tiles([PlacedTile(Square(row, 7 + i), ch) for i, ch in enumerate(word)],
                                       game.board), check=False)
    direction.learn(game.events)
    assert direction.backward == 3 and direction.either_way
    assert direction("EDIT"[::-1]) and direction("CAT")
    # Words that read as they stand outweigh them: the dictionary is used as it is.
    for word, row in (("TIDE", 9), ("CAT", 11), ("DOG", 13), ("GOT", 1)):
        game.play(Placement.from_tiles([PlacedTile(Square(row, 7 + i), ch) for i, ch in enumerate(word)],
                                       game.board), check=False)
    direction.learn(game.events)
    assert direction.forward == 4 and not direction.either_way and not direction("TAC")


def test_a_photo_that_holds_one_turn_leaves_out_the_one_tile_that_is_no_part_of_its_move():
    """Alfapet game 100, photo 19: a stray I beside a tile on the board's edge made EOJ two moves on one
    photo, and the players' turns went wrong for the rest of the game."""
    from vision.replay import _one_move_of

    board = Board(15)
    laid(board, [PlacedTile(Square(7, 7 + i), ch) for i, ch in enumerate("CAT")])
    move = [read(Square(8 + i, 7), (ch, 0.98), ("Q", 0.5)) for i, ch in enumerate("OW")]  # COW down from C
    stray = read(Square(6, 9), ("I", 0.98), ("J", 0.9))  # above the T: beside a tile, in no line with the move
    single = _one_move_of(Proposal(ProposalKind.CONFLICT, new_tiles=(*move, stray)), board, RULES)
    assert single is not None
    placement, dropped = single
    assert dropped == [Square(6, 9)]
    assert [(t.square, t.letter) for t in placement.letter_tiles] == [(Square(8, 7), "O"), (Square(9, 7), "W")]
    # Either end of an L of three tiles could be the odd one out: not one way only, left to the split.
    corner = [read(sq, ("A", 0.98), ("Q", 0.5)) for sq in (Square(5, 7), Square(6, 7), Square(6, 8))]
    assert _one_move_of(Proposal(ProposalKind.CONFLICT, new_tiles=tuple(corner)), board, RULES) is None


def test_a_photo_that_holds_one_turn_never_cuts_its_move_short():
    """Classic game 1001, photo 4: a tile at one end of the move left out made a shorter legal move, and the
    rest of the move went with the next photo's."""
    from vision.replay import _one_move_of

    board = Board(15)
    laid(board, [PlacedTile(Square(7, 7 + i), ch) for i, ch in enumerate("CAT")])
    move = [read(Square(8 + i, 7), (ch, 0.98), ("Q", 0.5)) for i, ch in enumerate("OWL")]  # COWL down from C
    laid(board, [PlacedTile(Square(12, 8), "A")])
    beyond = read(Square(12, 7), ("S", 0.98), ("B", 0.9))  # in the move's column past a gap, beside the A
    assert _one_move_of(Proposal(ProposalKind.CONFLICT, new_tiles=(*move, beyond)), board, RULES) is None


def test_a_photo_of_one_turn_leaves_out_a_tile_read_less_surely_when_the_rest_makes_valid_words():
    """Alfapet game 1008, photo 23 (held out): a dark premium square beside a tile read as an I, its occupancy only
    0.09 below the other new tiles' (not weak by WEAK_MARGIN_GAP), made the photo two moves, AI and the real one."""
    board = Board(15)
    laid(board, [PlacedTile(Square(7, 7 + i), ch) for i, ch in enumerate("CAT")])
    phantom = read(Square(8, 8), ("I", 0.98), ("L", 0.9))  # under the A: AI
    move = [read(Square(7, 10), ("E", 0.98), ("F", 0.9)), read(Square(7, 11), ("R", 0.98), ("P", 0.9))]  # CATER
    margins = {Square(8, 8): 0.81, Square(7, 10): 0.98, Square(7, 11): 0.90}
    reading = reading_of(set(margins) | {sq for sq, _ in board}, [phantom, *move])
    for sq, margin in margins.items():
        reading.occupancy.margin[sq.row, sq.col] = margin
    proposal = Proposal(ProposalKind.CONFLICT, new_tiles=(phantom, *move))

    def split_with(words: set[str]) -> tuple[list[Placement], Turn]:
        turn = a_turn()
        turn.reading = reading
        found = _split(proposal, board, RULES, words.__contains__, turn, [], 1)
        assert found is not None
        return found[0], turn

    parts, turn = split_with({"CAT", "CATER", "AI"})
    assert [[t.square for t in p.letter_tiles] for p in parts] == [[Square(7, 10), Square(7, 11)]]
    assert any("I9 left out" in note for note in turn.notes)
    # Where the rest makes no valid word, no tile is talked away: the photo stays two moves.
    parts, turn = split_with({"CAT", "AI"})
    assert sorted(len(p.letter_tiles) for p in parts) == [1, 2]
    assert not any("left out" in note for note in turn.notes)


def test_one_move_after_a_covered_photo_is_two_turns_when_the_covered_photo_showed_part_of_it():
    """Held-out synthetic game 1016, photos 24-25: a hand over the board on photo 24, which still showed the O of
    BOO; photo 25 added the N of BOON. The two tiles make one legal move, so they were taken as one move and photo
    24 as a pass. What the covered photo showed splits them: BOO on photo 24, BOON on photo 25."""
    board = Board(15)
    laid(board, [PlacedTile(Square(7, 7 + i), ch) for i, ch in enumerate("BO")])
    o, n = Square(7, 9), Square(7, 10)
    tiles = (read(o, ("O", 0.98), ("Q", 0.5)), read(n, ("N", 0.98), ("Q", 0.5)))
    proposal = Proposal(ProposalKind.PLACEMENT, placement=Placement.from_tiles(
        [PlacedTile(o, "O"), PlacedTile(n, "N")], board), new_tiles=tiles)
    turn = a_turn()
    found = _split_shown(proposal, board, RULES, None, turn, [Glimpse(frozenset({o}), frozenset({n}))])
    assert found is not None
    parts, owners = found
    assert [[t.square for t in p.letter_tiles] for p in parts] == [[o], [n]]
    assert owners == (0, 1)
    assert any("split into 2 moves" in note for note in turn.notes)
    # A covered photo that showed nothing of the move, or both its squares still empty, or no board: one move.
    for seen in (Glimpse(frozenset(), frozenset()), Glimpse(frozenset(), frozenset({o, n})), None):
        assert _split_shown(proposal, board, RULES, None, a_turn(), [seen]) is None
    # Only the N seen: no legal move starts with it (it touches no tile), so the move stays one.
    assert _split_shown(proposal, board, RULES, None, a_turn(), [Glimpse(frozenset({n}), frozenset({o}))]) is None
