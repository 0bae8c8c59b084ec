"""Clock readings on events (TIME-2) and a game's time control (its metadata).

A reading is ``{"south": ms, "north": ms}``: each player's remaining time, in whole
milliseconds, just after the event that carries it. It records the clock; it is not a
rule and changes nothing in the state. Any two integers ≥ 0 are valid, in any order from
one event to the next (a clock may be set back, a time added): only the shape is checked.

A time control is ``{"stages": [stage, ...]}``; a stage is ``{"moves"?, "base_ms",
"increment_ms"?, "delay_ms"?}``: ``moves`` sowings by each player in ``base_ms`` (every
stage but the last, which runs to the end of the game, has them), each sowing adding
``increment_ms`` (Fischer) or first spending ``delay_ms`` off the clock (Bronstein), never
both. In a match (several rounds) one clock runs across the whole match. Pure: the
commands and the notation reader check both here, so every way in refuses the same.

The arbiter may stop both clocks and start them again (``clocks_paused`` with the reading
when stopped, ``clocks_resumed``): no rule, no move, like an annotation. ``clock_face`` is
the one view of a game's clocks every page and stream reads: the latest reading, when it
was taken, and which clock runs; a device ticks the running one itself from there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from recorder.errors import InvalidRecord
from recorder.rules.state import State
from recorder.rules.values import MAX_STORED_INT

from .events import ClocksPaused, Event

CLOCK_KEYS = ("south", "north")
STAGE_KEYS = ("moves", "base_ms", "increment_ms", "delay_ms")
MOST_STAGES = 10
TIME_CONTROL_FORM = "stages joined by ':', each [moves/]seconds[+increment or d delay], as 40/5400+30:1800+30"
_SECONDS = r"(?:0|[1-9][0-9]{0,15})(?:\.[0-9]{3})?"
_STAGE = re.compile(rf"(?:([1-9][0-9]{{0,17}})/)?({_SECONDS})(?:([+d])({_SECONDS}))?")
CLOCK_SHAPE = '{"south": ms, "north": ms}, each a whole number of milliseconds ≥ 0'


def is_reading(value: Any) -> bool:
    """A whole number of milliseconds: an int (not a bool, not a float), 0 to the store's largest."""
    return type(value) is int and 0 <= value <= MAX_STORED_INT


def checked_clock(value: Any) -> dict[str, int]:
    """TIME-2: ``value`` when it is a clock reading, else InvalidRecord naming ``clock``.

    A key missing or extra, a negative number, a float, a boolean, a string or ``null``
    makes the event invalid (GEN-31)."""
    if type(value) is dict and len(value) == 2 and is_reading(value.get("south")) and is_reading(value.get("north")):
        return {"south": value["south"], "north": value["north"]}  # a copy: the event owns its reading
    raise InvalidRecord(f"clock must be {CLOCK_SHAPE} (TIME-2)", field="clock")


def clock_of(command: dict[str, Any]) -> dict[str, int] | None:
    """A command's clock reading, checked; None when the command carries none (an explicit
    ``null`` is refused: it is not the same as no reading)."""
    if "clock" not in command:
        return None
    return checked_clock(command["clock"])


def latest_reading(moves: Iterable[tuple[int, Any]]) -> tuple[int, dict[str, int]] | None:
    """The latest clock reading among ``moves`` (``(seq, event)``, newest first, as
    ``reversed(game.moves)`` gives a game's effective moves), with its event's seq."""
    for seq, event in moves:
        clock = getattr(event, "clock", None)
        if clock is not None:
            return seq, clock
    return None


@dataclass(frozen=True)
class ClockStops:
    """The arbiter's latest pause or resume as the fold keeps it. A retraction withdraws
    moves, not these: the clocks stood still in the hall whatever happened on the board."""

    paused: bool = False
    seq: int | None = None  # the latest pause or resume
    reading: tuple[int, dict[str, int]] | None = None  # the latest reading one carried, with its seq

    def after(self, seq: int, event: Event) -> ClockStops:
        clock = getattr(event, "clock", None)
        reading = (seq, clock) if clock is not None else self.reading
        return ClockStops(paused=isinstance(event, ClocksPaused), seq=seq, reading=reading)


NO_STOPS = ClockStops()


def clock_face(game: Any, at_of: Callable[[int], str | None]) -> dict[str, Any] | None:
    """The clocks of ``game`` (a ``core.game.FoldedGame``, which imports this module) as
    every view shows them: None without a time control or a
    reading, else the latest reading (the first stage's base time before any), which clock
    runs (the player to move; none when paused, over, or before the first move), whether
    paused, and the seq and time (``at_of(seq)``) of the latest reading, pause or resume:
    a device ticks the running clock down from ``at`` by its own clock."""
    control = game.setup.metadata.get("time_control")
    latest = game.moves.latest_reading
    stops = game.stops
    if stops.reading is not None and (latest is None or stops.reading[0] > latest[0]):
        latest = stops.reading
    if latest is None:
        if control is None:
            return None
        base = control["stages"][0]["base_ms"]
        latest = (1, {"south": base, "north": base})  # the setup's control, before any reading
    seq = max(latest[0], stops.seq or 0)
    face: dict[str, Any] = dict(latest[1])
    face.update(running=_running(game), paused=stops.paused, at=at_of(seq), seq=seq)
    return face


def _running(game: Any) -> str | None:
    state: State = game.state
    if game.stops.paused or state.game_over or not game.moves or state.to_move is None:
        return None
    return state.to_move.json


class ThinkTimes:
    """Each sowing's think time, the events of a game's effective line fed in order: what
    the sowing cost its player's clock, ``before - after + added``, where ``before`` is
    his clock's previous reading (the first stage's base time before any), ``after`` the
    sowing's own, and ``added`` the increment (Fischer) and, as a stage ends, the next
    stage's base time. With a delay (Bronstein) it is what the clock ran past the delay.
    Unknown (None) without both readings, after a sowing of his recorded without one, or
    when the arbiter set a clock forward (the difference is then no time spent)."""

    def __init__(self, control: dict[str, Any] | None):
        self.stages = control["stages"] if control is not None else []
        base = self.stages[0]["base_ms"] if self.stages else None
        self.last: dict[str, int | None] = {"south": base, "north": base}
        self.sowings = {"south": 0, "north": 0}

    def after(self, event: Event) -> int | None:
        """The think time of ``event`` when it is a sowing with a reading that says it."""
        clock: dict[str, int] | None = getattr(event, "clock", None)
        used = None
        side = getattr(event, "player", None) if event.type == "sowed" else None
        if side is not None:
            self.sowings[side] += 1
            before = self.last[side]
            if clock is not None and before is not None:
                used = before - clock[side] + self._added(self.sowings[side])
                used = used if used >= 0 else None
        if clock is not None:
            self.last = {"south": clock["south"], "north": clock["north"]}
        elif side is not None:
            self.last[side] = None  # his clock ran unrecorded: his next difference spans two sowings
        return used

    def _added(self, sowing: int) -> int:
        """What the ``sowing``-th sowing of a player added to his clock (the time control's)."""
        done = 0
        for index, stage in enumerate(self.stages):
            if "moves" not in stage or sowing <= done + stage["moves"]:
                ends = "moves" in stage and sowing == done + stage["moves"]
                following: int = self.stages[index + 1]["base_ms"] if ends else 0
                increment: int = stage.get("increment_ms", 0)
                return increment + following
            done += stage["moves"]
        return 0


def checked_time_control(value: Any) -> dict[str, Any]:
    """A time control that can exist, else InvalidRecord naming ``time_control``."""
    if type(value) is not dict or set(value) != {"stages"}:
        raise _bad_control('a time control is {"stages": [...]}, one stage or more')
    stages = value["stages"]
    if type(stages) is not list or not 1 <= len(stages) <= MOST_STAGES:
        raise _bad_control(f"stages holds 1 to {MOST_STAGES} stages")
    for index, stage in enumerate(stages):
        _check_stage(stage, index, last=index == len(stages) - 1)
    return value


def _check_stage(stage: Any, index: int, *, last: bool) -> None:
    where = f"stage {index + 1}"
    if type(stage) is not dict or not set(stage) <= set(STAGE_KEYS) or "base_ms" not in stage:
        raise _bad_control(f"{where} is an object with base_ms and any of moves, increment_ms, delay_ms")
    for key in ("base_ms", "increment_ms", "delay_ms"):
        if key in stage and not is_reading(stage[key]):
            raise _bad_control(f"{where}: {key} is a whole number of milliseconds ≥ 0")
    if "increment_ms" in stage and "delay_ms" in stage:
        raise _bad_control(f"{where} has an increment (Fischer) or a delay (Bronstein), not both")
    if last and "moves" in stage:
        raise _bad_control(f"{where}, the last, runs to the end of the game: it has no moves")
    if not last and not (type(stage.get("moves")) is int and 1 <= stage["moves"] <= MAX_STORED_INT):
        raise _bad_control(f"{where} names its moves, a whole number ≥ 1 (only the last stage runs to the end)")
    if stage["base_ms"] == 0 and not (stage.get("increment_ms") or stage.get("delay_ms")):
        raise _bad_control(f"{where} gives no time: a base of 0 needs an increment or a delay")


def _bad_control(detail: str) -> InvalidRecord:
    return InvalidRecord(f"time_control: {detail}", field="time_control")


# -- A time control as text: the notation's TimeControl tag, TRF's record 122 ---------------
# PGN's form: stages joined by ``:``, each ``[moves/]seconds`` then ``+increment`` (Fischer)
# or ``d`` and the delay (Bronstein); seconds take ``.mmm`` when they are not whole:
# ``40/5400+30:1800+30``. One spelling per time control, so a text written reads back the same.


def time_control_text(control: dict[str, Any]) -> str:
    """A time control (``core.clocks``) as the TimeControl tag's value."""
    return ":".join(_stage_text(stage) for stage in control["stages"])


def _stage_text(stage: dict[str, int]) -> str:
    text = f"{stage['moves']}/" if "moves" in stage else ""
    text += _seconds_text(stage["base_ms"])
    if "increment_ms" in stage:
        text += "+" + _seconds_text(stage["increment_ms"])
    if "delay_ms" in stage:
        text += "d" + _seconds_text(stage["delay_ms"])
    return text


def _seconds_text(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    return str(seconds) if millis == 0 else f"{seconds}.{millis:03d}"


# -- A time control in words: the CLI's, in English. The pages write it in the reader's
# language with the same wording (static/js/clock.js, timeControlText).


def time_control_words(control: dict[str, Any]) -> str:
    """The stages joined by ", then ", each "[N moves in ]BASE[ + INCREMENT]", a delay
    (Bronstein) written "BASE + DELAY delay"; the cases are in tests/test_time_control_words.py."""
    return ", then ".join(_stage_words(stage) for stage in control["stages"])


def _stage_words(stage: dict[str, int]) -> str:
    words = _duration_words(stage["base_ms"])
    if "increment_ms" in stage:
        words += f" + {_duration_words(stage['increment_ms'])}"
    if "delay_ms" in stage:
        words += f" + {_duration_words(stage['delay_ms'])} delay"
    if "moves" not in stage:
        return words
    return f"{stage['moves']} move{'s' * (stage['moves'] != 1)} in {words}"


def _duration_words(ms: int) -> str:
    """Whole minutes as minutes (a base time as chess writes it), else seconds, with the
    milliseconds as decimals when there are any, thousands grouped (as the pages' English)."""
    if ms % 60_000 == 0:
        return f"{ms // 60_000} min"
    seconds, millis = divmod(ms, 1000)
    return f"{seconds:,} s" if millis == 0 else f"{seconds:,}.{millis:03d}".rstrip("0") + " s"


def time_control_of(text: str) -> dict[str, Any] | None:
    """The time control a TimeControl tag's value writes, else None. What can exist (a
    last stage without moves, a base that gives time) is ``core.clocks``' to check."""
    stages = []
    for part in text.split(":"):
        match = _STAGE.fullmatch(part)
        if match is None:
            return None
        moves, base, sign, extra = match.groups()
        stage: dict[str, int] = {} if moves is None else {"moves": int(moves)}
        stage["base_ms"] = _ms(base)
        if sign is not None:
            stage["increment_ms" if sign == "+" else "delay_ms"] = _ms(extra)
        stages.append(stage)
    return {"stages": stages}


def _ms(seconds: str) -> int:
    whole, _, millis = seconds.partition(".")
    return int(whole) * 1000 + int(millis or 0)
