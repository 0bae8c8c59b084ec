"""Linking the names already recorded to registry players, without rewriting anything.

A tournament's entrant named by his name alone is linked by an ``entrant_linked`` event
on the tournament's stream when exactly one registry player (not merged) has the same
name (the same search key: case, spacing and diacritics aside) and, when the entry gives
a federation, that federation. Every other entrant is listed with his candidates for an
arbiter to decide. Games outside tournaments are listed only: a game's setup is its
first event and never changes (a new game may name its players, ``south_player``).
No hash chain changes: the only writes are new events on tournament streams.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from recorder.service import Recorder
from recorder.store import TOURNAMENT
from recorder.tournaments.service import Tournaments

from . import search_key
from .service import Players


@dataclass(frozen=True)
class Unlinked:
    """A name no registry player was linked to, and the candidates an arbiter may pick."""

    where: str  # a tournament id, or a game id
    number: int | None  # the entrant's number; None for a game
    side: str | None  # south or north, for a game
    name: str
    candidates: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Linked:
    tournament_id: str
    number: int
    name: str
    player_id: str


def tournament_ids(recorder: Recorder) -> Iterator[str]:
    after = None
    while batch := recorder.store.stream_ids(TOURNAMENT, after=after, limit=1000):
        yield from batch
        after = batch[-1]


def link_names(recorder: Recorder, players: Players, *, recorded_by: str, dry_run: bool = False):
    """Link every exact match; returns (linked, unlinked)."""
    tournaments = Tournaments(recorder)
    linked: list[Linked] = []
    unlinked: list[Unlinked] = []
    for tournament_id in tournament_ids(recorder):
        t = tournaments.tournament(tournament_id)
        entered = {e.player_id for e in t.entrants if e.player_id is not None}
        for entrant in t.entrants:
            if entrant.player_id is not None:
                continue
            candidates = [
                c
                for c in players.tables.same_names([search_key(entrant.name)])
                if c["player_id"] not in entered and entrant.federation in (None, "", c["federation"])
            ]
            if len(candidates) == 1:
                player_id = candidates[0]["player_id"]
                if not dry_run:
                    tournaments.link(tournament_id, entrant.number, player_id, recorded_by=recorded_by)
                entered.add(player_id)
                linked.append(Linked(tournament_id, entrant.number, entrant.name, player_id))
            else:
                ids = [c["player_id"] for c in players.tables.same_names([search_key(entrant.name)])]
                unlinked.append(Unlinked(tournament_id, entrant.number, None, entrant.name, ids))
    unlinked += list(unnamed_games(recorder, players))
    return linked, unlinked


def unnamed_games(recorder: Recorder, players: Players) -> Iterator[Unlinked]:
    """Games outside tournaments whose sides name no registry player, with the candidates."""
    for game_id in recorder.games.iter_ids(oldest_first=True):
        row = recorder.games.row(game_id)
        if row is None or row["tournament_id"] is not None:
            continue
        meta = row["metadata"] or "{}"
        for side in ("south", "north"):
            if f'"{side}_player"' in meta:
                continue
            ids = [c["player_id"] for c in players.tables.same_names([search_key(row[side])])]
            yield Unlinked(game_id, None, side, row[side], ids)
