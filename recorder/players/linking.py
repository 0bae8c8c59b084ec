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

from recorder.games.service import Recorder
from recorder.store import TOURNAMENT, every_stream_id
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
    where: str  # a tournament id, or a game id
    number: int | None  # the entrant's number; None for a game
    name: str
    player_id: str
    side: str | None = None  # south or north, for a game


def tournament_ids(recorder: Recorder) -> Iterator[str]:
    return every_stream_id(recorder.store, TOURNAMENT)


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
    seated: dict[str, set[str]] = {}  # a game's players linked so far: one player is never both sides
    for game_id, side, name, found in unnamed_games(recorder, players):
        if len(found) == 1 and found[0] not in seated.get(game_id, set()):
            if not dry_run:
                players.link_game(found[0], game_id, side, recorded_by=recorded_by)
            seated.setdefault(game_id, set()).add(found[0])
            linked.append(Linked(game_id, None, name, found[0], side))
        else:
            unlinked.append(Unlinked(game_id, None, side, name, found))
    return linked, unlinked


def unnamed_games(recorder: Recorder, players: Players) -> Iterator[tuple[str, str, str, list[str]]]:
    """(game id, side, name, candidates) of each side of a game outside tournaments that
    names no registry player and is linked to none."""
    for game_id in recorder.games.iter_ids(oldest_first=True):
        row = recorder.games.row(game_id)
        if row is None or row["tournament_id"] is not None:
            continue
        meta = row["metadata"] or "{}"
        for side in ("south", "north"):
            if f'"{side}_player"' in meta or players.tables.linked_to(game_id, side) is not None:
                continue
            ids = [c["player_id"] for c in players.tables.same_names([search_key(row[side])])]
            yield game_id, side, row[side], ids
