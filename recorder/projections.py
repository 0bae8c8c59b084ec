"""The projections beside the event store, rebuilt from the events and checked against them.

- the games list (recorder/games/games_list.py): one row per game, ``summary_of`` its fold;
- the notation cache (recorder/games/caches.py): each game's effective line as
  ``write_game`` writes it, at the version it was written for;
- the position index (recorder/games/caches.py): the key of every position each game
  reached (recorder/rules/position_text.py), for ``recorder search``;
- each game's result changes (``game_results``, recorder/games/results.py): the event
  that finished it, that made it unfinished again, that gave another result;
- the player registry (recorder/players/registry.py): each player's row and search keys,
  which tournament entrant is which player, and the rating lists (recorder/ratings);
- each event's stored line (``events.line``): its canonical JSON, the bytes an NDJSON
  export writes (not rebuildable, since events are immutable, but checked).

``rebuild`` walks every game stream in id order, a batch at a time (memory flat, one
short write transaction per batch, so recording goes on); ``check`` compares what is
stored with what the events give and yields one line per disagreement.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .core import chain
from .core.game import history
from .core.position_digest import key_digest
from .games.caches import NotationCache
from .games.games_list import as_stored
from .games.service import Recorder, result_changes, stored_pairs, summary_of
from .games.tables import PLAYER_KEY_COLUMNS, SUMMARY_COLUMNS
from .notation.writer import write_game
from .rules.position_text import key_of, reached
from .store import GAME, StoredEvent

BATCH = 500


@dataclass(frozen=True)
class Derived:
    """What the projections hold for one game, computed from its events alone."""

    game_id: str
    version: int
    summary: dict
    notation: str
    positions: list[tuple[int, str]]
    results: list[tuple[int, str, str | None]]  # (seq, recorded_at, result) of each change of its result


def derive(game_id: str, events: list[StoredEvent]) -> Derived:
    pairs = list(stored_pairs(events))
    folds = list(history(game_id, pairs))
    results = [(events[i].seq, events[i].recorded_at, result) for i, result in result_changes(None, folds)]
    return Derived(game_id, events[-1].seq, summary_of(folds[-1]), write_game(pairs), reached(folds), results)


def game_ids(recorder: Recorder, batch: int = BATCH) -> Iterator[list[str]]:
    """Every game stream's id, in id order, ``batch`` at a time."""
    after = None
    while True:
        ids = recorder.store.stream_ids(GAME, after=after, limit=batch)
        if not ids:
            return
        yield ids
        after = ids[-1]


def rebuild(recorder: Recorder, progress: Callable[[int], None] = lambda n: None) -> int:
    """Rewrite the games list, the notation cache and the position index from the events;
    returns the number of games."""
    notations, total = NotationCache(recorder.store), 0
    queued = recorder.positions.last_pending()  # of games stored before now: rewritten below
    for ids in game_ids(recorder):
        read = ((game_id, recorder.store.read(game_id)) for game_id in ids)
        derived = [derive(game_id, events) for game_id, events in read if events]  # an emptied stream: verify's
        recorder.games.replace([(d.game_id, d.summary) for d in derived])
        notations.put([(d.game_id, d.version, d.notation) for d in derived])
        recorder.positions.replace([(d.game_id, d.positions) for d in derived])
        recorder.results.replace([(d.game_id, d.results) for d in derived])
        total += len(ids)
        progress(len(ids))
    recorder.games.drop_orphans()
    notations.drop_orphans()
    recorder.positions.drop_orphans()
    recorder.results.drop_orphans()
    recorder.positions.drop_pending(queued)
    rebuild_registry(recorder)
    return total


def rebuild_registry(recorder: Recorder) -> None:
    """The registry's rows, its tournament entries and the rating lists, from the events."""
    from .players.service import Players
    from .ratings.service import Ratings
    from .tournaments.service import Tournaments

    Players(recorder).rebuild()
    Tournaments(recorder).rebuild_entries()
    Ratings(recorder).rebuild()


def check(recorder: Recorder, progress: Callable[[int], None] = lambda n: None) -> Iterator[str]:
    """One line per disagreement between a projection and the events (none: all agree)."""
    notations = NotationCache(recorder.store)
    pending = recorder.positions.count_pending()
    if pending:  # each game's positions are compared once they are all indexed
        yield f"position index: {pending} positions wait to be indexed (an import stopped before its end)"
    for ids in game_ids(recorder):
        for game_id in ids:
            events = recorder.store.read(game_id)
            if not events:  # only a write behind the service's back empties a stream (recorder verify says so)
                yield f"streams: {game_id}: the streams table names it, the events table holds none of its events"
                continue
            derived = derive(game_id, events)
            yield from _check_row(recorder, derived, events)
            yield from _check_notation(notations, derived)
            if not pending and recorder.positions.of_game(game_id) != digests(derived.positions):
                yield f"position index: {game_id}: the positions indexed differ from those its events reach"
            if recorder.results.of_game(game_id) != derived.results:
                yield f"game results: {game_id}: the result changes stored differ from its events'"
            yield from _check_lines(recorder, game_id, events)
        progress(len(ids))
    listed = set(recorder.games.iter_ids())
    for ids in game_ids(recorder):
        listed.difference_update(ids)
    yield from (f"games list: {game_id}: a row without a game" for game_id in sorted(listed))
    yield from check_registry(recorder)


def check_registry(recorder: Recorder) -> Iterator[str]:
    from .players.service import Players
    from .ratings.service import Ratings
    from .tournaments.service import Tournaments

    yield from Players(recorder).check()
    yield from Tournaments(recorder).check_entries()
    yield from Ratings(recorder).check()


def digests(positions: list[tuple[int, str]]) -> list[tuple[int, tuple[int, int]]]:
    """A game's positions as the index holds them: (seq, key digest)."""
    return [(seq, key_digest(key)) for seq, key in positions]


def _check_row(recorder: Recorder, derived: Derived, events: list[StoredEvent]) -> Iterator[str]:
    row = recorder.games.row(derived.game_id)
    if row is None:
        yield f"games list: {derived.game_id}: no row"
        return
    expected = {**as_stored(derived.summary), "created_at": events[0].recorded_at}
    for column in (*SUMMARY_COLUMNS, *PLAYER_KEY_COLUMNS, "created_at"):
        stored, given = row[column], expected.get(column)
        if column == "metadata":  # compared as values: a row written before canonical JSON still agrees
            stored, given = (None if text is None else json.loads(text) for text in (stored, given))
        if stored != given:
            yield f"games list: {derived.game_id}: {column} is {stored!r}, the events give {given!r}"


def _check_notation(notations: NotationCache, derived: Derived) -> Iterator[str]:
    stored = notations.stored(derived.game_id)
    if stored is not None and stored[0] == derived.version and stored[1] != derived.notation:
        yield f"notation cache: {derived.game_id}: the text of version {derived.version} differs from its events'"


def _check_lines(recorder: Recorder, game_id: str, events: list[StoredEvent]) -> Iterator[str]:
    for event, line in zip(events, recorder.store.event_lines(game_id)):
        if line != chain.event_text(event, linked=True):
            yield f"event lines: {game_id}: event {event.seq}'s stored line is not its canonical JSON"


def _reading_at(recorder: Recorder, game_id: str, seq: int) -> dict | None:
    """The clock reading (TIME-2) the event ``seq`` carried, if it carried one: the clocks
    as they stood when the position came about."""
    event = recorder.store.read(game_id, after=seq - 1, upto=seq)
    return event[0].payload.get("clock") if event else None


def search(
    recorder: Recorder, text: str, *, limit: int = 100, horizon: Callable[[str], int | None] = lambda game_id: None
) -> dict:
    """Where a position occurred: every game and event after which the board stood so (the
    first six fields of the position text), with the game's variant, options and players,
    and the clock reading the event carried, if any (``clock``).
    ``truncated`` says that more than ``limit`` occurrences exist. ``horizon(game_id)``:
    the last event of the game the reader may see (None: all; a broadcast delay)."""
    key = key_of(text)
    hits = recorder.positions.find_visible(key, limit + 1, horizon)
    occurrences = []
    for game_id, seq in hits[:limit]:
        setup = recorder.setup_of(game_id)
        occurrence = {
            "game_id": game_id,
            "seq": seq,
            "variant": getattr(setup, "variant", None),
            "options": getattr(setup, "options", None),
            "south": getattr(setup, "south", None),
            "north": getattr(setup, "north", None),
        }
        clock = _reading_at(recorder, game_id, seq)
        occurrences.append(occurrence if clock is None else {**occurrence, "clock": clock})
    return {"position": key, "occurrences": occurrences, "truncated": len(hits) > limit}
