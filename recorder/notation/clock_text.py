"""Clock readings and time controls as the notation writes them (docs/notation.md). Pure.

A reading (TIME-2) follows the sowing or decision it was taken after, in a brace of its
own, South's clock then North's: ``c1 {[%clk 1:29:58.250 1:30:00]}``. A time is
``H:MM:SS`` with ``.mmm`` when it is not whole seconds, so every number of milliseconds
has one spelling, and the writer's text reads back to the same bytes.

The arbiter's pause and resume of the clocks are braces of their own, where they were
recorded: ``{[%pause 1:29:58.250 1:30:00]}`` (the reading when stopped) and ``{[%resume]}``
(or ``{[%resume H:MM:SS H:MM:SS]}`` when the reading changed).

The ``TimeControl`` tag is a time control's text (``core.clocks.time_control_text``).
"""

from __future__ import annotations

import re

CLOCK_OPENING = "[%clk"
_TIME = re.compile(r"(0|[1-9][0-9]{0,14}):([0-5][0-9]):([0-5][0-9])(?:\.([0-9]{3}))?")
CLOCK_FORM = "{[%clk H:MM:SS H:MM:SS]}: South's clock, then North's, each with .mmm if need be"
PAUSE_OPENING, RESUME_OPENING = "[%pause", "[%resume"
STOP_FORM = "{[%pause H:MM:SS H:MM:SS]}, {[%resume]} or {[%resume H:MM:SS H:MM:SS]}"


def clock_text(clock: dict[str, int]) -> str:
    """The brace that records a reading: ``{[%clk 1:29:58.250 1:30:00]}``."""
    return "{" + f"{CLOCK_OPENING} {time_text(clock['south'])} {time_text(clock['north'])}" + "]}"


def stop_text(paused: bool, clock: dict[str, int] | None) -> str:
    """The brace that records a pause (with its reading) or a resume (with one if any)."""
    opening = PAUSE_OPENING if paused else RESUME_OPENING
    times = "" if clock is None else f" {time_text(clock['south'])} {time_text(clock['north'])}"
    return "{" + opening + times + "]}"


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
