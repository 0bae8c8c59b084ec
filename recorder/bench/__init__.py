"""``recorder bench``: the project's own performance figures, printed next to their targets.

Sections (``--only``): ``engine`` (random legal playouts per registered variant),
``api`` (append throughput and latency under gunicorn with 16 recording clients),
``read`` (latest state of a 10-event vs a 1,000-event game) and ``export`` (games per
second and peak memory for 1,000 and 10,000 games) and ``dossier`` (the appeal dossier of a
1,500-event game: build time and size, and its offline check) and ``pairing`` (time per Swiss
round by the Dutch system at 16, 100, 500 and 1,000 players, and identity with a
FIDE-endorsed engine over the reference corpus by field size) and ``cost`` (every per-game
endpoint on a 12,151-event game with 6,000 retractions vs a plain 1,500-event game, and
appends to other games while four expensive reads run) and ``live`` (how soon a recorded
move reaches open live streams under gthread workers, and what they cost an append) and
``players`` (10,000 registry players and 100,000 rated games: the rating lists
rebuilt, a new result in this month's list, player searches) and ``archive`` (100,000
games exported, imported, verified, listed and searched by position; not run by
default). Every run uses fixed seeds, fresh
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
