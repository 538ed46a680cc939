# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt timer``: the game clocks standalone, on the console or on GPIO buttons and buzzer.

Keys stand in for the buttons (one key press at a time on a terminal, or lines of keys on a pipe):

* ``ordskifte``: space = start the turn / word made, ``n`` = no word (pass the turn), ``p`` = pause
* ``chess``: ``1``..``4`` = that player's button, space = the player on turn, ``p`` = pause for a
  challenge, ``f`` = end of game (final readings and time penalties)
* ``keywords``: space = flip the timer, ``p`` = pause
* ``q`` quits.

``--until-expiry`` runs one turn and exits when it runs out, printing the elapsed time it measured.
GPIO buttons and buzzer are used when the ``[hardware]`` table of ``--config`` (default: the
configuration file, if it exists) configures them; ``--console`` ignores them.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import queue
import select
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from engine.clocks import (
    ChessClock,
    ClockEvent,
    ClockEventKind,
    ClockState,
    RoundTimer,
    TurnTimer,
    format_ms,
)
from engine.inputs import seconds_argument
from hardware.buzzer import ConsoleBuzzer, Pattern, SilentBuzzer, open_buzzer
from hardware.config import BuzzerKind, HardwareConfig
from hardware.errors import ConfigurationError
from hardware.events import ButtonEvent, ButtonEventKind, ButtonRole

MODES = ("ordskifte", "chess", "keywords")
DEFAULT_SECONDS = {"ordskifte": 60.0, "chess": 25 * 60.0, "keywords": 30.0}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "timer",
        help="Ordskifte turn timer, chess clock or Keywords round timer on the console or GPIO",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--mode", choices=MODES, default="ordskifte", help="which clock (default ordskifte)")
    p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    length = p.add_mutually_exclusive_group()
    length.add_argument("--seconds", type=seconds_argument(86400), metavar="S",
                        help="turn/round length or chess time per player")
    length.add_argument("--minutes", type=seconds_argument(1440, unit="minutes"), metavar="M",
                        help="the same in minutes")
    p.add_argument("--until-expiry", action="store_true",
                   help="run one turn, exit when it runs out and print the measured elapsed time")
    p.add_argument("--config", type=Path, metavar="FILE",
                   help="TOML file whose [hardware] table sets GPIO buttons/buzzer "
                        "(default: $ORDVAKT_CONFIG or ~/.config/ordvakt/config.toml when it exists)")
    p.add_argument("--console", action="store_true", help="ignore GPIO settings: keys and the terminal bell only")
    p.add_argument("--quiet", action="store_true", help="no terminal bell")
    p.set_defaults(func=run)


# -- configuration -------------------------------------------------------------------------------


def load_hardware_config(path: Path | None) -> HardwareConfig:
    """The ``[hardware]`` table of ``path`` (or of the default configuration file if it exists)."""
    if path is None:
        from device.paths import config_file

        path = config_file()
        if not path.is_file():
            return HardwareConfig()
    from device.config import read_config_text

    if not path.exists():
        raise ConfigurationError(f"--config {str(path)!r}: no such file")
    try:
        data = tomllib.loads(read_config_text(path))
    except FileNotFoundError:
        raise ConfigurationError(f"--config {str(path)!r}: no such file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigurationError(f"{path}: not valid TOML: {exc}") from None
    return HardwareConfig.from_mapping(data.get("hardware", {}), source=str(path))


def make_clock(mode: str, players: int, seconds: float | None) -> TurnTimer | ChessClock | RoundTimer:
    length = DEFAULT_SECONDS[mode] if seconds is None else seconds
    if mode == "ordskifte":
        return TurnTimer(length, players=players)
    if mode == "chess":
        return ChessClock(length / 60, players=players, warnings=(120, 30, 10))
    return RoundTimer(length, players=players)


# -- the session: keys/buttons in, clock events to the buzzer, a status line out -----------------


class TimerSession:
    """Drives one clock from keys and button events; no I/O except the buzzer and ``out``."""

    def __init__(self, mode: str, clock: TurnTimer | ChessClock | RoundTimer, buzzer: Any, out: TextIO) -> None:
        self.mode = mode
        self.clock = clock
        self.buzzer = buzzer
        self.out = out
        self.done = False
        self.expired_at_ms: int | None = None

    def start(self, now: float) -> None:
        if isinstance(self.clock, TurnTimer):
            self.clock.start(now)
        elif isinstance(self.clock, ChessClock):
            self.clock.start(now, player=0)
        else:
            self.clock.press(now)

    def key(self, key: str, now: float) -> None:
        clock = self.clock
        if key == "q":
            self.finish(now)
            return
        if key == "p":
            if clock.paused:
                clock.resume(now)
            else:
                clock.pause(now)
            return
        if isinstance(clock, TurnTimer):
            if key in (" ", "\n", "w"):
                if clock.state(now) is ClockState.IDLE:
                    clock.start(now)
                elif not clock.paused:
                    clock.word_made(now)
                    self.buzzer.play(Pattern.WORD_ACCEPTED)
            elif key == "n":
                clock.end_turn(now)
                self.buzzer.play(Pattern.TURN_OVER)
        elif isinstance(clock, ChessClock):
            if key in (" ", "\n"):
                clock.press(now)
            elif key.isdigit() and 1 <= int(key) <= clock.players:
                clock.press(now, player=int(key) - 1)
            elif key == "f":
                self.finish(now)
        elif key in (" ", "\n") and not clock.paused:
            clock.press(now)

    def button(self, event: ButtonEvent, now: float) -> None:
        """GPIO buttons map onto the same actions as keys."""
        if event.kind is ButtonEventKind.HOLD and event.role is ButtonRole.MENU:
            self.finish(now)
        if event.kind is not ButtonEventKind.PRESS:
            return
        player = event.role.player
        if event.role is ButtonRole.CHALLENGE:
            self.key("p", now)
        elif player is not None and isinstance(self.clock, ChessClock):
            self.key(str(player + 1), now)
        elif player is not None or event.role is ButtonRole.CONFIRM:
            self.key(" ", now)
        elif event.role is ButtonRole.UNDO and isinstance(self.clock, TurnTimer):
            self.key("n", now)

    def tick(self, now: float) -> list[ClockEvent]:
        events = self.clock.poll(now)
        for event in events:
            if event.kind is ClockEventKind.WARNING:
                self.buzzer.play(Pattern.TICK)
            elif event.kind is ClockEventKind.EXPIRED:
                self.buzzer.play(Pattern.TIMES_UP if isinstance(self.clock, ChessClock) else Pattern.TURN_OVER)
                if self.expired_at_ms is None:
                    self.expired_at_ms = event.at_ms
            elif event.kind is ClockEventKind.OVERTIME_LIMIT:
                self.buzzer.play(Pattern.TIMES_UP)
                self.finish(now)
        return events

    def finish(self, now: float) -> None:
        if isinstance(self.clock, ChessClock) and not self.done:
            result = self.clock.finish(now)
            readings = "  ".join(f"P{i + 1} {format_ms(ms)}" for i, ms in enumerate(result.readings_ms))
            self.out.write(f"\nfinal: {readings}\n")
            for penalty in result.penalties:
                self.out.write(
                    f"time penalty: P{penalty.player + 1} -{penalty.points} "
                    f"({format_ms(-penalty.overtime_ms)} overtime)\n"
                )
            if result.lost_on_time is not None:
                self.out.write(f"P{result.lost_on_time + 1} lost on time\n")
        self.done = True

    def status(self, now: float) -> str:
        clock = self.clock
        paused = "  [paused]" if clock.paused else ""
        if isinstance(clock, ChessClock):
            cells = []
            for i, ms in enumerate(clock.readings_ms(now)):
                mark = ">" if clock.active == i else " "
                cells.append(f"{mark}P{i + 1} {format_ms(ms):>6}")
            return "  ".join(cells) + paused
        state = clock.state(now)
        waiting = "  (press to start)" if state in (ClockState.IDLE, ClockState.EXPIRED) else ""
        return f"P{clock.player + 1}  {format_ms(clock.remaining_ms(now)):>5}{waiting}{paused}"


# -- console I/O ----------------------------------------------------------------------------------


@contextlib.contextmanager
def single_keys(stream: TextIO) -> Iterator[bool]:
    """Put a terminal into cbreak mode (keys without Enter); yields whether it is a terminal."""
    if not stream.isatty():
        yield False
        return
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield True
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_keys(stream: TextIO, timeout: float) -> str | None:
    """Keys typed within ``timeout`` seconds ("" if none); ``None`` at end of input."""
    try:
        ready, _, _ = select.select([stream], [], [], max(0.0, timeout))
    except (OSError, ValueError):  # not selectable (closed, or a test's StringIO)
        time.sleep(max(0.0, timeout))
        return ""
    if not ready:
        return ""
    data = os.read(stream.fileno(), 64).decode(errors="replace")
    return data if data else None


def process_start(now: float) -> float:
    """When this process started, on the ``time.monotonic()`` scale (Linux ``/proc``, 10 ms steps),
    so that interpreter start-up (about 0.1 s, mostly imports) counts as part of the first turn; ``now``
    where that is unknown."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        started_boot = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: start time in clock ticks
        since_start = time.clock_gettime(time.CLOCK_BOOTTIME) - started_boot
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - since_start if 0 <= since_start < 5 else now


def run(args: argparse.Namespace) -> int:
    config = load_hardware_config(args.config)  # bad settings fail here, before anything starts
    seconds = args.seconds if args.minutes is None else args.minutes * 60
    clock = make_clock(args.mode, args.players, seconds)
    use_gpio = not args.console
    out = sys.stdout

    if use_gpio and config.buzzer in (BuzzerKind.ACTIVE, BuzzerKind.PASSIVE):
        buzzer: Any = open_buzzer(config)
    elif args.quiet:
        buzzer = SilentBuzzer()
    else:
        buzzer = ConsoleBuzzer(out)
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = None
    if use_gpio and config.buttons:
        from hardware.buttons import Buttons

        buttons = Buttons(config, events=events)

    session = TimerSession(args.mode, clock, buzzer, out)
    try:
        with single_keys(sys.stdin) as terminal:
            return _loop(session, args, events, terminal)
    finally:
        if buttons is not None:
            buttons.close()
        buzzer.close()


def _loop(session: TimerSession, args: argparse.Namespace, events: queue.Queue[ButtonEvent], terminal: bool) -> int:
    out = session.out
    live = out.isatty()
    started = time.monotonic()
    if args.until_expiry:
        started = process_start(started)
    started = _whole_ms(started, up=True)
    session.start(started)
    stdin_open = not args.until_expiry or terminal
    shown = ""
    if not live and not args.until_expiry:
        out.write(session.status(started) + "\n")
    while not session.done:
        now = _whole_ms(time.monotonic(), up=False)
        for event in session.tick(now):
            if not live and event.kind is not ClockEventKind.WARNING:
                out.write(f"P{event.player + 1}: time is up ({event.kind.value})\n")
        if args.until_expiry and session.expired_at_ms is not None:
            elapsed = time.monotonic() - started
            newline = "\n" if live else ""
            out.write(f"{newline}expired after {elapsed:.3f} s (time.monotonic since the command started)\n")
            out.flush()
            if not isinstance(session.buzzer, ConsoleBuzzer):
                session.buzzer.wait(3.0)  # let a real buzzer finish sounding
            return 0
        status = session.status(now)
        if status != shown and live:
            out.write("\r" + status + "\x1b[K")
            out.flush()
        shown = status
        while not events.empty():
            session.button(events.get_nowait(), time.monotonic())
        # Sleep at most to the next tenth of a second, and never past the expiry in --until-expiry.
        wait = 0.1
        if args.until_expiry and not session.clock.paused:
            wait = min(wait, _ms_to_expiry(session, time.monotonic()) / 1000)
        if stdin_open:
            keys = read_keys(sys.stdin, wait)
            if keys is None:
                stdin_open = False
                continue
            if not terminal:
                keys = keys.replace("\n", "")  # a pipe sends lines; only a terminal's Enter is a key
            for key in keys.lower():
                session.key(key, time.monotonic())
            if keys and not live and not session.done:
                out.write(session.status(time.monotonic()) + "\n")
        else:
            time.sleep(max(0.0, wait))
    if live:
        out.write("\n")
    return 0


def _whole_ms(seconds: float, *, up: bool) -> float:
    """``seconds`` on a whole millisecond: the clocks count whole ones and round to the nearest, so a start
    rounded up and readings rounded down keep a clock from calling time up to a millisecond before real time."""
    ms = math.ceil(seconds * 1000) if up else math.floor(seconds * 1000)
    return ms / 1000


def _ms_to_expiry(session: TimerSession, now: float) -> int:
    clock = session.clock
    if isinstance(clock, ChessClock):
        return max(0, clock.remaining_ms(now))
    return clock.remaining_ms(now)
