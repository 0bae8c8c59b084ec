"""The recording service: commands in, events stored, games folded. No Flask, no SQL.

The API and the CLI both call this. It loads a game by folding its stored events
(``game.replay``), keeps the latest fold per game in the records' one cache
(``records.Folds``: derived, always safe to drop; a kept fold is brought up to the stored
version by the events after it), decides commands, and appends the resulting events with
the version it decided on through the records' one write loop (``records.append_retrying``),
so a stale decision is a conflict, never a fork.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from recorder import limits
from recorder.core import commands
from recorder.core.chain import canonical_json
from recorder.core.events import Event, event_from_record
from recorder.core.game import FoldedGame, apply_event, history, replay, start_game
from recorder.errors import PreconditionRequired, UnknownGame, VersionConflict
from recorder.records import Folds, append_retrying
from recorder.rules.position_text import reached
from recorder.store import (
    GAME,
    Idempotency,
    NewEvent,
    ProjectionWrite,
    StoreBackend,
    StoredEvent,
    StoredEvents,
)

from .game_tables import GameTables
from .games_list import GamesList

CACHE_SIZE = 2048


@dataclass(frozen=True)
class Recorded:
    """What an append produced: the stored events and the game after them."""

    events: Sequence[StoredEvent]
    game: FoldedGame
    replayed: bool = False


def fingerprint(method: str, path: str, body) -> str:
    """What an Idempotency-Key is bound to: the request's method, path and JSON body."""
    return hashlib.sha256(canonical_json([method, path, body]).encode()).hexdigest()


def new_game_id() -> str:
    return secrets.token_hex(6)


def stored_pairs(events) -> Iterator[tuple[int, Event]]:
    return ((e.seq, event_from_record(e.type, e.payload)) for e in events)


def _each_fold(game: FoldedGame, events: list[Event]) -> Iterator[FoldedGame]:
    """The game after each of a command's events (a decision may record more than one)."""
    for event in events:
        game = apply_event(game, event, game.version + 1)
        yield game


@dataclass(frozen=True)
class Folded:
    """A game's latest fold and the bytes its stored events hold (``limits.bytes_per_game``)."""

    game: FoldedGame
    size: int

    @property
    def version(self) -> int:
        return self.game.version


def stored_bytes(events: Sequence[StoredEvent]) -> int:
    """The bytes the store holds for these events' payloads: their canonical JSON in UTF-8."""
    texts = events.texts if isinstance(events, StoredEvents) else [canonical_json(e.payload) for e in events]
    return sum(len(text.encode()) for text in texts)


def new_bytes(events: Sequence[Event]) -> int:
    """The bytes new events' payloads will take once stored."""
    return sum(len(canonical_json(e.payload()).encode()) for e in events)


def _require_recorder(recorded_by: object) -> None:
    """Every stored event names who recorded it (docs/security.md)."""
    if not isinstance(recorded_by, str) or not recorded_by:
        raise ValueError("an event needs the name of who recorded it")


class Recorder:
    def __init__(
        self,
        store: StoreBackend,
        games: GamesList | None = None,
        *,
        max_events_per_game: int | None = None,
        max_bytes_per_game: int | None = None,
    ):
        """``games`` is the games list beside the store, written with each append; by
        default the one on the SQLite store's own file. ``max_events_per_game`` and
        ``max_bytes_per_game``: the ceilings (default $RECORDER_MAX_EVENTS_PER_GAME or
        20,000, $RECORDER_MAX_BYTES_PER_GAME or 4 MiB)."""
        self.store = store
        self.max_events_per_game = max_events_per_game or limits.events_per_game()
        self.max_bytes_per_game = max_bytes_per_game or limits.bytes_per_game()
        self.tables = GameTables(store, games)
        self.games, self.positions, self.results = self.tables.games, self.tables.positions, self.tables.results
        self.folds: Folds[Folded] = Folds(CACHE_SIZE)  # derived: dropping them loses nothing

    def _refuse_other_streams(self, game_id: str) -> None:
        """Tournaments share the store with games; a stream of another type is no game."""
        if self.folds.latest(game_id) is None and self.store.stream_type(game_id) not in (None, GAME):
            raise UnknownGame(f"no game {game_id!r}", game_id=game_id)

    # -- Reading --------------------------------------------------------------------

    def game(self, game_id: str) -> FoldedGame:
        """The latest fold of a game: the cached one, brought up to the stored version."""
        return self._folded(game_id).game

    def _folded(self, game_id: str) -> Folded:
        self._refuse_other_streams(game_id)
        version = self.store.version(game_id)
        if version == 0:
            raise UnknownGame(f"no game {game_id!r}", game_id=game_id)
        cached = self.folds.latest(game_id)
        if cached is not None and cached.game.version == version:
            return cached
        if cached is not None and cached.game.version < version:
            game, events = cached.game, self.store.read(game_id, after=cached.game.version)
            for seq, event in stored_pairs(events):
                game = apply_event(game, event, seq)
            folded = Folded(game, cached.size + stored_bytes(events))
        else:
            events = self.store.read(game_id)
            folded = Folded(replay(game_id, stored_pairs(events)), stored_bytes(events))
        self.folds.keep(game_id, folded)
        return folded

    def setup_of(self, game_id: str) -> Event | None:
        """A game's setup event (immutable): from the state cache when the game is there,
        else its first stored event; None when there is no such game. Per-request checks
        such as the tournament guard use it instead of reading the store."""
        cached = self.folds.latest(game_id)
        if cached is not None:
            return cached.game.setup
        if self.store.stream_type(game_id) != GAME:
            return None
        first = self.store.read(game_id, upto=1)
        return event_from_record(first[0].type, first[0].payload) if first else None

    def game_at(self, game_id: str, at: int | None) -> FoldedGame:
        """The game after event ``at`` (1 is the setup); the latest when ``at`` is None."""
        if at is None:
            return self.game(game_id)
        self._refuse_other_streams(game_id)
        events = self.store.read(game_id, upto=at)
        if not events:
            raise UnknownGame(f"no game {game_id!r}", game_id=game_id)
        return replay(game_id, stored_pairs(events))

    def history(self, game_id: str) -> Iterator[FoldedGame]:
        self._refuse_other_streams(game_id)
        events = self.store.read(game_id)
        if not events:
            raise UnknownGame(f"no game {game_id!r}", game_id=game_id)
        return history(game_id, stored_pairs(events))

    def events(self, game_id: str) -> list[StoredEvent]:
        self._refuse_other_streams(game_id)
        events = self.store.read(game_id)
        if not events:
            raise UnknownGame(f"no game {game_id!r}", game_id=game_id)
        return events

    # -- Writing --------------------------------------------------------------------

    def create_game(self, body: dict, *, recorded_by: str, idempotency: Idempotency | None = None) -> Recorded:
        _require_recorder(recorded_by)
        original = self._replayed(idempotency)
        if original is not None:
            return original
        setup = commands.decide_create(body)
        game_id = body.get("game_id") or new_game_id()
        game = start_game(game_id, setup)
        size = new_bytes([setup])
        limits.check_game_bytes(size, self.max_bytes_per_game, game=game_id)
        result = self.store.append(
            game_id,
            0,
            [NewEvent(setup.type, setup.payload())],
            recorded_by=recorded_by,
            idempotency=idempotency,
            projection=self.projections(game, [game], None),
        )
        if result.replayed:
            # A concurrent request with the same key won: its game, not the id chosen here.
            return Recorded(
                result.events, self.game_at(result.events[0].stream_id, result.events[-1].seq), replayed=True
            )
        self.folds.keep(game.game_id, Folded(game, size))
        return Recorded(result.events, game)

    def record(
        self,
        game_id: str,
        command: dict,
        *,
        expected_version: int | None,
        recorded_by: str,
        idempotency: Idempotency | None = None,
    ) -> Recorded:
        """Decide a command on the version its recorder saw and append its events there.

        A command naming no version is refused (428): deciding it on whatever is latest
        could apply a sowing to a position its recorder never saw."""
        if expected_version is None:
            raise PreconditionRequired(
                'send the version you last saw: If-Match: "N" (the game\'s ETag) or expected_version',
                field="If-Match",
            )
        _require_recorder(recorded_by)
        original = self._replayed(idempotency)
        if original is not None:
            return original

        def attempt() -> Recorded:
            folded = self._folded(game_id)
            if expected_version != folded.game.version:
                raise VersionConflict(
                    f"the game is at version {folded.game.version}, not {expected_version}",
                    expected=expected_version,
                    actual=folded.game.version,
                )
            return self._append(folded, command, recorded_by, idempotency)

        return append_retrying(attempt, lambda: self._replayed(idempotency), expected_version)

    def _replayed(self, idempotency: Idempotency | None) -> Recorded | None:
        """A retry of a request already stored: its original events, nothing new stored."""
        if idempotency is None:
            return None
        events = self.store.replayed(idempotency)
        if not events:
            return None
        return Recorded(events, self.game_at(events[0].stream_id, events[-1].seq), replayed=True)

    def _append(self, folded: Folded, command: dict, recorded_by, idempotency) -> Recorded:
        game = folded.game
        events, after = commands.execute(game, command)
        limits.check_game_events(game.version + len(events), self.max_events_per_game, game=game.game_id)
        size = folded.size + new_bytes(events)
        limits.check_game_bytes(size, self.max_bytes_per_game, game=game.game_id)
        folds = [after] if len(events) == 1 else list(_each_fold(game, events))
        result = self.store.append(
            game.game_id,
            game.version,
            [NewEvent(e.type, e.payload()) for e in events],
            recorded_by=recorded_by,
            idempotency=idempotency,
            projection=self.projections(after, folds, result_of(game)),
        )
        if result.replayed:
            return Recorded(
                result.events, self.game_at(result.events[0].stream_id, result.events[-1].seq), replayed=True
            )
        self.folds.keep(after.game_id, Folded(after, size))
        return Recorded(result.events, after)

    def projections(self, after: FoldedGame, folds: list[FoldedGame], before: str | None) -> ProjectionWrite:
        """What an append writes beside its events, in its transaction: the game's row in
        the games list, the positions after each new event (``folds``) and the changes of
        its result (``before``: the result before the append)."""
        return self.tables.write(summary_of(after), reached(folds), result_changes(before, folds))

    def drop_cache(self) -> None:
        self.folds.clear()


def result_of(game: FoldedGame) -> str | None:
    """The game's result, None while it is not finished."""
    return game.state.result.name if game.state.game_over else None


def result_changes(before: str | None, folds: Sequence[FoldedGame]) -> list[tuple[int, str | None]]:
    """(index, result) of each game of ``folds`` (the game after each new event) whose
    result differs from the one before it: the rows ``game_results`` gains."""
    found = []
    for index, game in enumerate(folds):
        result = result_of(game)
        if result != before:
            found.append((index, result))
            before = result
    return found


def summary_of(game: FoldedGame) -> dict:
    """The game's row in the list projection, derived from its setup and state."""
    setup, state = game.setup, game.state
    meta = setup.metadata
    return {
        "variant": setup.variant,
        "south": setup.south,
        "north": setup.north,
        "event": meta.get("event"),
        "site": meta.get("site"),
        "date": meta.get("date"),
        "round": meta.get("round"),
        "tournament_id": meta.get("tournament_id"),
        "board": meta.get("board"),
        "status": "finished" if state.game_over else "in_progress",
        "result": state.result.name if state.game_over else None,
        "metadata": meta,
    }
