"""Clock readings and time controls as the notation writes them (docs/notation.md). Pure.

A reading (TIME-2) follows the sowing or decision it was taken after, in a brace of its
own, South's clock then North's: ``c1 {[%clk 1:29:58.250 1:30:00]}``. A time is
``H:MM:SS`` with ``.mmm`` when it is not whole seconds, so every number of milliseconds
has one spelling, and the writer's text reads back to the same bytes.

The ``TimeControl`` tag follows PGN's: stages joined by ``:``, each ``[moves/]seconds``
then ``+increment`` (Fischer) or ``d`` and the delay (Bronstein); seconds take a
``.mmm`` when they are not whole: ``[TimeControl "40/5400+30:1800+30"]``.
"""

from __future__ import annotations

import re
from typing import Any

CLOCK_OPENING = "[%clk"
_TIME = re.compile(r"(0|[1-9][0-9]{0,14}):([0-5][0-9]):([0-5][0-9])(?:\.([0-9]{3}))?")
_SECONDS = r"(?:0|[1-9][0-9]{0,15})(?:\.[0-9]{3})?"
_STAGE = re.compile(rf"(?:([1-9][0-9]{{0,17}})/)?({_SECONDS})(?:([+d])({_SECONDS}))?")
CLOCK_FORM = "{[%clk H:MM:SS H:MM:SS]}: South's clock, then North's, each with .mmm if need be"
TIME_CONTROL_FORM = "stages joined by ':', each [moves/]seconds[+increment or d delay], as 40/5400+30:1800+30"


def clock_text(clock: dict[str, int]) -> str:
    """The brace that records a reading: ``{[%clk 1:29:58.250 1:30:00]}``."""
    return "{" + f"{CLOCK_OPENING} {time_text(clock['south'])} {time_text(clock['north'])}" + "]}"


def time_text(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    text = f"{hours}:{minutes:02d}:{seconds:02d}"
    return text if millis == 0 else f"{text}.{millis:03d}"


def time_ms(text: str) -> int | None:
    """The milliseconds a time written ``H:MM:SS[.mmm]`` gives, else None."""
    match = _TIME.fullmatch(text)
    if match is None:
        return None
    hours, minutes, seconds, millis = match.groups()
    return ((int(hours) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + int(millis or 0)


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
