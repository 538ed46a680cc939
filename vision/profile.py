# SPDX-License-Identifier: GPL-3.0-or-later
"""Board profiles: what a physical board looks like, as a small editable TOML file.

A profile says how many squares the grid has, which premium layout it carries (an engine layout name),
where the grid sits inside the board's coloured area (``grid_inset``, fractions of the area's width and
height: top, right, bottom, left) and the colour of each kind of square, of the tiles and of stop tiles,
measured after :func:`vision.colour.normalise` (BGR, 0-255). Built-ins live in ``vision/data/profiles``;
``ordvakt calibrate`` writes new ones from a photo of the empty board.

>>> p = load_profile("scrabscrap")
>>> p.grid, p.layout
(15, 'scrabble-15')
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from vision.errors import ProfileError

PROFILE_DIR = Path(__file__).parent / "data" / "profiles"

#: Square classes a profile may colour; the keys match engine premium codes ("." plain, "*" centre).
SQUARE_CLASSES = (".", "*", "L2", "L3", "L4", "W2", "W3", "W4", "M2")


@dataclass(frozen=True)
class BoardProfile:
    name: str
    grid: int
    layout: str
    #: Colour of the board's surface around and between the squares (used to find the board).
    surface: tuple[int, int, int]
    #: Square class -> colour of an empty square of that class.
    squares: Mapping[str, tuple[int, int, int]]
    tile: tuple[int, int, int]
    stop: tuple[int, int, int] | None = None
    #: Fractions of the located board area outside the grid: top, right, bottom, left.
    grid_inset: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    provisional: bool = False
    description: str = ""
    source: str = field(default="", compare=False)

    def square_colour(self, premium_code: str) -> tuple[int, int, int]:
        """Colour of an empty square of that premium class (plain when the profile does not know it)."""
        return self.squares.get(premium_code, self.squares["."])

    def to_toml(self) -> str:
        def bgr(c: tuple[int, int, int]) -> str:
            return f"[{int(c[0])}, {int(c[1])}, {int(c[2])}]"

        lines = [
            "# Ordvakt board profile. Colours are BGR 0-255 measured after white balancing the frame.",
            f"name = {json.dumps(self.name, ensure_ascii=False)}",
            f"description = {json.dumps(self.description, ensure_ascii=False)}",
            f"grid = {self.grid}",
            f'layout = "{self.layout}"',
            f"provisional = {'true' if self.provisional else 'false'}",
            "# Part of the board's coloured area outside the grid lines: top, right, bottom, left (fractions).",
            "grid_inset = [" + ", ".join(f"{v:.4f}" for v in self.grid_inset) + "]",
            f"surface = {bgr(self.surface)}",
            f"tile = {bgr(self.tile)}",
        ]
        if self.stop is not None:
            lines.append(f"stop = {bgr(self.stop)}")
        lines.append("")
        lines.append("[squares]")
        lines.append('# "." plain, "*" centre, L2/L3/L4 letter and W2/W3/W4 word premiums, M2 minus squares')
        for key in SQUARE_CLASSES:
            if key in self.squares:
                lines.append(f'"{key}" = {bgr(self.squares[key])}')
        return "\n".join(lines) + "\n"

    def save(self, path: Path) -> None:
        Path(path).write_text(self.to_toml(), encoding="utf-8")


def _colour(value: object, what: str, source: str) -> tuple[int, int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(isinstance(v, int | float) and 0 <= v <= 255 for v in value)
    ):
        raise ProfileError(f"{source}: {what} = {value!r} is not a colour; write [B, G, R] with values 0-255")
    return (int(value[0]), int(value[1]), int(value[2]))


def profile_from_mapping(data: Mapping, source: str = "<profile>") -> BoardProfile:
    try:
        grid = data["grid"]
        squares_raw = data["squares"]
        if grid not in (15, 17) and not (isinstance(grid, int) and 5 <= grid <= 25):
            raise ProfileError(f"{source}: grid = {grid!r} is not a board size; use 15 or 17")
        if "." not in squares_raw:
            raise ProfileError(f'{source}: [squares] has no "." (plain square) colour; add one')
        unknown = set(squares_raw) - set(SQUARE_CLASSES)
        if unknown:
            raise ProfileError(
                f"{source}: unknown square classes {sorted(unknown)!r} in [squares]; use {SQUARE_CLASSES!r}"
            )
        inset = tuple(float(v) for v in data.get("grid_inset", (0, 0, 0, 0)))
        if len(inset) != 4 or not all(0 <= v < 0.3 for v in inset):
            raise ProfileError(f"{source}: grid_inset = {inset!r} needs four fractions between 0 and 0.3")
        return BoardProfile(
            name=str(data.get("name", Path(source).stem)),
            grid=int(grid),
            layout=str(data["layout"]),
            surface=_colour(data["surface"], "surface", source),
            squares={k: _colour(v, f"squares.{k}", source) for k, v in squares_raw.items()},
            tile=_colour(data["tile"], "tile", source),
            stop=_colour(data["stop"], "stop", source) if "stop" in data else None,
            grid_inset=inset,  # type: ignore[arg-type]
            provisional=bool(data.get("provisional", False)),
            description=str(data.get("description", "")),
            source=source,
        )
    except KeyError as exc:
        raise ProfileError(f"{source}: missing key {exc.args[0]!r}; see vision/data/profiles for examples") from None


def available_profiles() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def load_profile(name_or_path: str | Path) -> BoardProfile:
    """Load a built-in profile by name, or a profile file by path."""
    path = Path(name_or_path)
    if not path.suffix:
        path = PROFILE_DIR / f"{name_or_path}.toml"
    if not path.is_file():
        raise ProfileError(
            f"no board profile {str(name_or_path)!r}; built-ins are {available_profiles()!r}, "
            "or give the path of a .toml file made by 'ordvakt calibrate'"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{str(path)!r} is not a valid TOML profile: {exc}") from None
    return profile_from_mapping(data, source=str(path))
