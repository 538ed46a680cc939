# SPDX-License-Identifier: GPL-3.0-or-later
"""The synthetic scene generator and board location on raw frames: synthetic scenes of three board styles,
the jheidel room photos (hand-measured truth in tests/data/jheidel; skipped without ../shared/data), a
board turned between frames. The whole scene set runs in bench/vision_scenes.py; this is a fast subset."""

import tomllib
from pathlib import Path

import numpy as np
import pytest

from vision.errors import BoardNotFound
from vision.find import find_grid
from vision.locate import Locator, locate_structure
from vision.profile import load_profile
from vision.synthetic import BOARD_STYLES, STYLES, background, corner_error, in_room, render_scene, synthetic_game

TRUTH = Path(__file__).parent / "data" / "jheidel" / "truth.toml"
JHEIDEL = Path(__file__).resolve().parents[2] / "shared" / "data" / "photos" / "jheidel"
GCG = Path(__file__).resolve().parents[2] / "shared" / "data" / "gcg" / "woogles"
SMALL = (800, 600)


def test_a_seed_always_gives_the_same_scene_and_its_truth_is_consistent():
    a, b = render_scene(4, frame_size=SMALL), render_scene(4, frame_size=SMALL)
    assert np.array_equal(a.image, b.image) and a.truth.to_dict() == b.truth.to_dict()
    assert not np.array_equal(a.image, render_scene(5, frame_size=SMALL).image)
    t = a.truth
    assert a.image.shape == (SMALL[1], SMALL[0], 3)
    assert len(t.rows) == t.grid == BOARD_STYLES[t.style].grid and all(len(r) == t.grid for r in t.rows)
    # The grid is wholly in view and fills 25-100 % of the frame (its larger side 0.5-1.0 of the shorter side).
    assert (t.corners >= 0).all() and (t.corners[:, 0] <= SMALL[0]).all() and (t.corners[:, 1] <= SMALL[1]).all()
    span = max(np.ptp(t.corners[:, 0]), np.ptp(t.corners[:, 1])) / min(SMALL)
    assert 0.49 <= span <= 1.01
    blank = render_scene(9, frame_size=SMALL, rows=["a" + "." * 14] + ["." * 15] * 14, style="classic").truth
    assert blank.visible_rows()[0][0] == "?" and blank.rows[0][0] == "a"


def test_a_photo_laid_in_a_room_keeps_its_table_and_pose_across_a_game():
    """vision.synthetic.in_room: one seed, one table and pose; the photo number only adds its own noise or a
    small nudge, and the board in the frame is the photo (a plain green square on a wooden table: where it lies
    is where green outweighs red)."""
    photo = np.zeros((300, 300, 3), np.uint8)
    photo[..., 1] = 230
    a, b = (in_room(photo, seed=3, photo=1, frame_size=SMALL) for _ in range(2))
    assert np.array_equal(a, b) and a.shape == (SMALL[1], SMALL[0], 3)

    def board_mask(image: np.ndarray) -> np.ndarray:
        green, red = image[..., 1].astype(int), image[..., 2].astype(int)
        return green > red + 60

    masks = [board_mask(in_room(photo, seed=3, photo=k, frame_size=SMALL)) for k in range(8)]
    # The board fills 0.6-0.8 of the shorter side (a square turned and tilted: a quarter to half of the frame).
    assert all(0.1 < m.mean() < 0.6 for m in masks)
    overlaps = [(m & masks[0]).sum() / masks[0].sum() for m in masks[1:]]
    assert min(overlaps) > 0.9, overlaps  # nudged by a third of a cell at most
    other = board_mask(in_room(photo, seed=4, photo=1, frame_size=SMALL))
    assert (other & masks[0]).sum() / masks[0].sum() < 0.9  # another game, another pose


def test_the_truth_corner_a1_follows_the_board_when_it_is_turned():
    """The same board turned by a quarter: corners[0] (square A1's corner) moves a quarter round the board."""
    kw = {"frame_size": SMALL, "style": "classic", "yaw": 0.0, "tilt": 0.0, "fill": 0.8, "hand": False,
          "shadow": False, "stray": 0}
    upright, turned = render_scene(11, board_turns=0, **kw).truth, render_scene(11, board_turns=1, **kw).truth
    centre = upright.corners.mean(axis=0)
    a1 = upright.corners[0] - centre
    rotated = np.array([-a1[1], a1[0]])  # a quarter turn clockwise on screen (y down)
    assert np.allclose(turned.corners[0] - turned.corners.mean(axis=0), rotated, atol=2.0)


@pytest.mark.parametrize(("seed", "style"), [(3, "classic"), (22, "tournament"), (8, "alfapet")])
def test_the_grid_is_found_in_a_raw_synthetic_frame(seed, style):
    scene = render_scene(seed, style=style)
    geom = locate_structure(scene.image)
    assert geom.grid == scene.truth.grid
    assert corner_error(geom.corners, scene.truth.corners, scene.truth.grid) <= 0.25


@pytest.mark.parametrize("seed", [3025, 3029])
def test_an_older_board_with_dark_tiles_is_located_and_read_from_scratch(seed):
    """The vintage style (white lines on tan squares like the board2014 photos, dark wooden tiles with light letters),
    which the scene sets do not cycle through and no profile was measured on, read with the classic profile: scene
    3025 (50 tiles) and 3029 (44 tiles under a shadow band) have every tile found and every letter read. (Not so
    every scene: see the README on the vintage scenes.)"""
    from engine.rules import Rules
    from vision.locate import reading_rows
    from vision.profile import load_profile
    from vision.reader import BoardReader

    scene = render_scene(seed, style="vintage")
    reading = BoardReader(load_profile("classic-scrabble"), Rules.scrabble("en").tileset).read(scene.image)
    assert corner_error(reading.geometry.corners, scene.truth.corners, 15) <= 0.25
    got = np.array([list(row) for row in reading_rows(reading)])
    truth = np.array([list(row) for row in scene.truth.visible_rows()])
    assert min(int((np.rot90(truth, k) != got).sum()) for k in range(4)) == 0


@pytest.mark.parametrize("seed", [27, 37, 38, 59])
def test_boards_on_wood_grain_and_a_17x17_board_are_located_from_scratch(seed):
    """Tuning-set frames that used to fail: wood grain taken for grid lines (27 classic, 37 tournament,
    38 Alfapet, each on wood) and a 15x15 grid found inside the 17x17 Alfapet board (59, on carpet)."""
    scene = render_scene(seed, style=("classic", "tournament", "alfapet")[seed % 3])
    assert scene.truth.background == ("carpet" if seed == 59 else "wood")
    geom = locate_structure(scene.image)
    assert geom.grid == scene.truth.grid
    assert corner_error(geom.corners, scene.truth.corners, scene.truth.grid) <= 0.25


@pytest.mark.parametrize("seed", [54, 465, 483])
def test_a_board_under_a_shadow_band_or_amid_strong_wood_grain_is_located(seed):
    """Tuning-set frames that used to fail, all classic boards on wood: 54 has a shadow band across the board
    (the true placement looked asymmetric, and one three cells off won); 465 and 483 were not found (the wood
    grain's segments set the line directions searched)."""
    scene = render_scene(seed, style="classic")
    assert scene.truth.background == "wood" and scene.truth.shadow == (seed == 54)
    geom = locate_structure(scene.image)
    assert geom.grid == scene.truth.grid
    assert corner_error(geom.corners, scene.truth.corners, scene.truth.grid) <= 0.25


@pytest.mark.parametrize("seed", [7, 207])
def test_a_grid_whose_directions_came_from_the_background_is_searched_again_within_itself(seed):
    """Tuning-set frames that used to be found 1.8 and 0.6 cell off: the background's segments outvoted the
    grid's own in one line direction, so the lattice was fitted in a skewed picture and its lines showed
    weakly; the directions measured again from the segments on the grid found put it right."""
    scene = render_scene(seed, style=("classic", "tournament", "alfapet")[seed % 3])
    geom = locate_structure(scene.image)
    assert geom.grid == scene.truth.grid
    assert corner_error(geom.corners, scene.truth.corners, scene.truth.grid) <= 0.25


def test_a_lattice_that_is_no_grid_by_its_own_evidence_is_searched_for_again_at_the_work_size():
    """Synthetic classic game 1011, photo 2 (held out until it failed): a board a third of the frame on strongly
    grained wood. In the segments at SEGMENT_SIDE the grain won with a lattice 1.5 cells off whose lines showed
    beyond its ring more than across it; the thin-line segments at the work picture's size find the grid."""
    from vision.find import Pyramid, grid_evidence, is_grid

    frame = synthetic_game(1011, style="classic", moves=2).frames[1]
    assert frame.truth.background == "wood"
    found = find_grid(frame.image)
    assert found.grid == 15
    assert corner_error(found.corners, frame.truth.corners, 15) <= 0.25
    assert is_grid(found.evidence)
    # The evidence it carries is the evidence of its corners in the copy it was searched in.
    grey = Pyramid(frame.image).grey(1)  # 1600 x 1200 is searched at 800 x 600
    assert grid_evidence(grey, found.corners * 0.5, 15) == pytest.approx(found.evidence, abs=0.02)


def test_a_board_amid_wood_grain_stronger_than_one_of_its_directions_is_found():
    """Seed 6026 (from a held-out range, looked at since): an Alfapet board on strongly grained wood, whose
    grain gave two direction peaks stronger than one of the grid's; with three peaks tried the grid's own pair
    was never searched and no board was found."""
    scene = render_scene(6026, style="alfapet")
    assert scene.truth.background == "wood"
    geom = locate_structure(scene.image)
    assert geom.grid == scene.truth.grid
    assert corner_error(geom.corners, scene.truth.corners, scene.truth.grid) <= 0.25


@pytest.mark.skipif(not GCG.is_dir(), reason=f"needs the GCG records in {GCG}")
def test_a_board_with_tiles_along_two_edges_is_not_refused():
    """Synthetic tournament game 1000, photo 24: the top row and the right column are full of tiles, which hide
    the lines across the grid's outer ring (0.14); a refusal that looked at that ring took it for no board."""
    frame = synthetic_game(1000, style="tournament", moves=24).frames[23]
    found = find_grid(frame.image)
    assert found.grid == 15


def test_no_grid_is_found_in_noise_or_on_a_bare_table():
    rng = np.random.default_rng(0)
    pictures = [rng.integers(0, 256, (600, 800, 3), dtype=np.uint8)]
    pictures += [background(kind, (600, 800), np.random.default_rng(i)) for i, kind in enumerate(("wood", "carpet"))]
    for picture in pictures:
        with pytest.raises(BoardNotFound, match="no board grid found"):
            find_grid(picture)


@pytest.mark.parametrize("seed", range(108, 118))
def test_no_grid_is_found_on_bare_2mp_tables_of_wood_cloth_or_carpet(seed):
    """A lattice fitted to wood grain (seeds 111, 113 and 116 once gave one) is refused: its lines show faintly
    across its cells (vision.find.GRID_LINES)."""
    for kind in ("wood", "carpet", "cloth"):
        with pytest.raises(BoardNotFound, match="no board grid found"):
            find_grid(background(kind, (1200, 1600), np.random.default_rng(seed)))


def test_the_locator_keeps_a1_when_the_board_is_turned_between_moves():
    kw = {"style": "classic", "yaw": 8.0, "tilt": 12.0, "fill": 0.8, "hand": False, "shadow": False, "stray": 0}
    locator = Locator(load_profile("classic-scrabble"))
    offsets = []
    for turns in (0, 1, 3):
        scene = render_scene(21, board_turns=turns, **kw)
        geom = locator(scene.image)
        truth = scene.truth.corners
        # Which truth corner the locator calls corners[0]: the same one of the board's every time.
        offsets.append(min(range(4), key=lambda k: np.abs(np.roll(geom.corners, -k, axis=0) - truth).max()))
        assert corner_error(geom.corners, truth, 15) <= 0.25
    assert len(set(offsets)) == 1, offsets
    assert locator.turns == 2


@pytest.mark.skipif(not GCG.is_dir(), reason=f"needs the GCG records in {GCG}")
def test_a_synthetic_game_shows_the_record_move_by_move():
    game = synthetic_game(2, style="alfapet", moves=3, frame_size=SMALL)
    assert len(game.frames) == 3 and game.gcg.count("\n>") == 3
    tiles = [sum(ch != "." for row in f.truth.rows for ch in row) for f in game.frames]
    # Tiles laid per record line, counted from the GCG text itself: the letters of a placement that are
    # not played through ('.'); an exchange or a pass lays none.
    laid = 0
    for line, count in zip([ln for ln in game.gcg.splitlines() if ln.startswith(">")], tiles, strict=True):
        fields = line.split()
        if len(fields) >= 4 and any(ch.isdigit() for ch in fields[2]) and fields[2][0] not in "-(":
            laid += sum(ch != "." for ch in fields[3])
        assert count == laid, line
    assert tiles[-1] > 0
    # 15x15 records are laid one cell in on the 17x17 board: its outer ring stays empty.
    rows = game.frames[-1].truth.rows
    assert rows[0] == rows[-1] == "." * 17 and all(r[0] == r[-1] == "." for r in rows)


def _jheidel():
    if not JHEIDEL.is_dir():
        pytest.skip(f"needs the jheidel photos in {JHEIDEL}")
    return tomllib.loads(TRUTH.read_text(encoding="utf-8"))


def test_jheidel_truth_is_complete():
    truth = tomllib.loads(TRUTH.read_text(encoding="utf-8"))
    assert len(truth["photos"]) == 54 and sum("corners" in p for p in truth["photos"]) == 8
    read_by_eye = [p for p in truth["photos"] if "rows" in p]
    assert len(read_by_eye) == 10 and all(len(p["rows"]) == 15 and all(len(r) == 15 for r in p["rows"])
                                          for p in read_by_eye)
    assert len(truth["final"]["rows"]) == 15 and all(len(r) == 15 for r in truth["final"]["rows"])
    assert (TRUTH.parent / "LICENSE.txt").read_text(encoding="utf-8").startswith("The MIT License")


@pytest.mark.parametrize("name", ["IMG_20151016_165320.jpg", "IMG_20151016_170737.jpg", "IMG_20151016_170800.jpg"])
def test_jheidel_room_photo_grid_matches_the_hand_measured_corners(name):
    import cv2

    photo = next(p for p in _jheidel()["photos"] if p["file"].endswith(name))
    frame = cv2.imread(str(JHEIDEL / photo["file"]), cv2.IMREAD_COLOR)
    geom = locate_structure(frame)
    assert geom.grid == 15
    assert corner_error(geom.corners, photo["corners"], 15) <= 0.25


@pytest.mark.parametrize("name", ["IMG_20141025_163920.jpg", "IMG_20141025_163929.jpg", "IMG_20141025_164035.jpg"])
def test_jheidel_older_board_matches_its_hand_measured_corners(name):
    """163929, seen from low: the far half's grid lines are too thin to give line segments in the shrunk picture,
    so the lines crossing each other covered only the near half of the board, the lattice was searched in that
    part, and a grid of half the row pitch was laid over the near half (0.3 cell of the corners right, the rest
    up to 7 cells off). The long lines of the other direction reach the far edge; the search region now does."""
    import cv2

    photo = next(p for p in _jheidel()["photos"] if p["file"].endswith(name))
    geom = locate_structure(cv2.imread(str(JHEIDEL / photo["file"]), cv2.IMREAD_COLOR))
    assert geom.grid == 15
    assert corner_error(geom.corners, photo["corners"], 15) <= 0.25


@pytest.mark.parametrize("name", ["IMG_20141025_163920.jpg", "IMG_20141025_163929.jpg", "IMG_20141025_164052.jpg"])
def test_jheidel_older_board_on_a_tablecloth_is_taken_as_15x15_without_a_grid_size(name):
    """The board2014 photos: its printed rim once made the lattice search take the grid as 17x17. On 163929 a
    row of tiles along the rim shows lines beyond the grid as clear as its own (a test asking for fewer lines
    beyond the grid than across its edge refused it)."""
    import cv2

    photo = next(p for p in _jheidel()["photos"] if p["file"].endswith(name))
    assert photo["grid_in_view"]
    geom = locate_structure(cv2.imread(str(JHEIDEL / photo["file"]), cv2.IMREAD_COLOR))
    assert geom.grid == 15


def test_the_pruned_placement_search_picks_what_the_full_search_picks():
    """vision.find._window_scores(best_only=True) works out a placement's median only where its bound lets it
    win: on the line crossings of real and synthetic pictures (the grid with eight cells around it, so
    hundreds of placements of either size) its best placement, score and line contrast are the full search's."""
    import cv2

    from vision import find

    pictures = []
    for name in ("IMG_20151016_165320.jpg", "IMG_20151016_170800.jpg"):
        photo = next(p for p in _jheidel()["photos"] if p["file"].endswith(name))
        pictures.append((cv2.imread(str(JHEIDEL / photo["file"]), cv2.IMREAD_COLOR), photo["corners"], 15))
    for seed, style in ((3, "alfapet"), (7, "classic")):
        scene = render_scene(seed, style=style)
        pictures.append((scene.image, scene.truth.corners, scene.truth.grid))
    cell, margin = 10, 8
    for image, corners, n in pictures:
        side = (n + 2 * margin) * cell
        inner = np.float32([[0, 0], [n, 0], [n, n], [0, n]]) * cell + margin * cell
        hom = cv2.getPerspectiveTransform(np.float32(corners), inner)
        grey = cv2.warpPerspective(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), hom, (side, side))
        resp = find.axis_responses(grey, 5)
        lines = np.arange(n + 2 * margin + 1, dtype=np.float64) * cell
        cross_v = find._crossings(resp[0], lines, lines, cell, cell)
        cross_h = find._crossings(resp[1], lines, lines, cell, cell, transposed=True)
        for size in find.GRIDS:
            full, full_line = find._window_scores(cross_v, cross_h, size)
            pruned, pruned_line = find._window_scores(cross_v, cross_h, size, best_only=True)
            best = np.unravel_index(int(np.argmax(full)), full.shape)
            assert np.unravel_index(int(np.argmax(pruned)), pruned.shape) == best
            assert pruned[best] == full[best] and pruned_line[best] == full_line[best]
            assert np.isfinite(pruned).sum() < np.isfinite(full).sum()


@pytest.mark.parametrize("seed", [140, 202])
def test_a_small_board_on_strong_grain_is_found_in_the_work_pictures_thin_lines(seed):
    """Seeds 140 (cloth) and 202 (wood): the board fills a third of the frame, and in the segments of the
    shrunk picture the grain outvotes its lines, so no grid was found there."""
    scene = render_scene(seed, style=STYLES[seed % 3])
    found = find_grid(scene.image)
    assert found.grid == scene.truth.grid
    assert corner_error(found.corners, scene.truth.corners, found.grid) < 0.25
