"""``recorder bench``: the project's own performance figures, printed next to their targets.

Sections (``--only``): ``engine`` (random legal playouts per registered variant),
``api`` (append throughput and latency under gunicorn with 16 recording clients),
``read`` (latest state of a 10-event vs a 1,000-event game), ``export`` (games per
second and peak memory for 1,000 and 10,000 games) and ``archive`` (100,000 games
exported, imported, verified, listed and searched by position; not run by default). Every run uses fixed seeds, fresh
temporary databases and loopback only, and is bounded in time and in requests.
Figures are printed, never asserted: the tests pin behaviour, this pins speed.
"""

from __future__ import annotations

from collections.abc import Callable

from .plan import SECTIONS, Plan, parse_sections

__all__ = ["Plan", "parse_sections", "run"]


def run(sections: tuple[str, ...], plan: Plan, echo: Callable[[str], None]) -> None:
    from . import report

    for section in SECTIONS:
        if section in sections:
            getattr(report, section)(plan, echo)
