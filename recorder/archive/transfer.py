"""Archives: many games in and out at once, as notation text or as NDJSON event logs.

Import checks each game completely in memory first: the notation through
``notation_reader`` (every move decided by ``commands.decide`` as live recording does),
an NDJSON log through ``ndjson.verify_log`` (hash chain, then every event re-decided).
Only then are all of the game's events appended in ONE store append at expected version
0, so a refused game stores nothing and the others are unaffected. Each game gets a
``GameReport`` saying what was imported or why it was refused.

Export streams: game ids come from the games list (``GamesList.iter_ids``) in batches, each game is read,
written and handed on before the next is read, so memory stays flat however many games
the archive holds. No Flask here; the API and the CLI share this module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from recorder.core.events import GameCreated
from recorder.core.game import Game, history
from recorder.errors import NotationError, RecorderError, VersionConflict
from recorder.notation.grammar import ParsedGame, parse
from recorder.notation.reader import read_game
from recorder.notation.writer import write_archive, write_game
from recorder.rules.position_text import reached
from recorder.service import new_game_id, stored_pairs, summary_of
from recorder.store import EventStore, GamesList, NewEvent, ProjectionWrite
from recorder.store.caches import NotationCache, PositionIndex
from recorder.tournaments import is_tournament_id

from .frame import NDJSON_HEADER, check_notation, frame_notation, ndjson_lines, ndjson_terminator
from .ndjson import EventLog, read_logs, verify_log

log = logging.getLogger(__name__)
CACHE_BATCH = 200  # notation texts stored per transaction when an export fills the cache
Authorize = Callable[[str | None, GameCreated], str | None]


def _anyone(game_id: str | None, setup: GameCreated) -> str | None:
    return None


@dataclass
class GameReport:
    """What happened to one game of an archive."""

    index: int
    status: str  # "imported" or "refused"
    game_id: str | None = None
    events: int = 0
    players: dict = field(default_factory=dict)
    error: dict | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"index": self.index, "status": self.status}
        if self.game_id is not None:
            out["game_id"] = self.game_id
        if self.status == "imported":
            out["events"] = self.events
        if self.players:
            out["players"] = self.players
        if self.error is not None:
            out["error"] = self.error
        return out


def error_json(error: RecorderError) -> dict:
    """The refusal as the report shows it: title, detail and where."""
    out = {"title": error.title, "detail": error.detail}
    out.update({k: v for k, v in error.extra.items() if v is not None and k != "tags"})
    return out


def _as_decided(command: dict) -> dict:
    return command


class Archive:
    """Import and export over one event store."""

    def __init__(
        self,
        store: EventStore,
        *,
        games: GamesList | None = None,
        recorded_by: str | None = None,
        authorize: Authorize = _anyone,
        check_command: Callable[[dict], dict] = _as_decided,
        fill_cache: bool = False,
    ):
        """``check_command`` passes each command through the HTTP boundary's schema first
        (the API and CLI give ``api.archive.schema_check``, so imported commands meet
        exactly the limits live ones do). ``authorize(game_id, setup)`` may refuse a game
        (raising a RecorderError) or name who records it; the API uses it for games that
        belong to a tournament."""
        self.store = store
        self.games = games if games is not None else GamesList(store)  # type: ignore[arg-type]
        self.notations = NotationCache(store)  # type: ignore[arg-type]
        self.positions = PositionIndex(store)  # type: ignore[arg-type]
        self.recorded_by = recorded_by
        self.authorize = authorize
        self.check_command = check_command
        self.fill_cache = fill_cache

    # -- Import -----------------------------------------------------------------------

    def import_notation(self, text: str, source: str = "<text>") -> Iterator[GameReport]:
        """Each game of a notation text, validated then stored (or refused) in turn; an
        archive cut short is refused whole (NotationError) before anything is stored."""
        return (self.import_parsed(parsed) for parsed in notation_games(text, source))

    def import_parsed(self, parsed: ParsedGame) -> GameReport:
        players = _players(parsed)
        try:
            read = read_game(parsed, check_command=self.check_command)
            recorded_by = self.authorize(None, read.setup) or self.recorded_by
            game_id = new_game_id()
            events = [read.setup, *read.events]
            self.store.append(
                game_id,
                0,
                [NewEvent(e.type, e.payload()) for e in events],
                recorded_by=recorded_by,
                projection=self._projections(list(history(game_id, enumerate(events, start=1)))),
            )
        except RecorderError as error:
            return GameReport(parsed.index, "refused", players=players, error=error_json(error))
        except Exception as error:  # never a 500 for one bad game; the tests keep this empty
            return _internal(parsed.index, players, error)
        return GameReport(parsed.index, "imported", game_id, len(events), players)

    def import_ndjson_text(self, text: str, source: str = "<ndjson>") -> Iterator[GameReport]:
        """Each game's log of an NDJSON text, verified then stored verbatim (or refused);
        an archive cut short is refused whole (NotationError) before anything is stored."""
        return self.import_ndjson(ndjson_lines(text, source), source)

    def import_ndjson(self, lines: Iterable[str], source: str = "<ndjson>") -> Iterator[GameReport]:
        """Each game's log of NDJSON lines (no frame), verified then stored verbatim (or refused)."""
        for event_log in read_logs(lines, source):
            yield self.import_log(event_log)

    def import_log(self, event_log: EventLog) -> GameReport:
        index, game_id = event_log.index, event_log.game_id
        try:
            folds: list[Game] = []
            game = verify_log(event_log, self.check_command, folds)
            if is_tournament_id(game_id):
                raise event_log.fail(event_log.line_of(1), 1, "ids starting with t- are tournaments", "a game id")
            self.authorize(game_id, game.setup)  # the log keeps its own recorded_by
            projection = self._projections(folds)
            self.store.append(game_id, 0, event_log.events, projection=projection)
        except VersionConflict:
            error = event_log.fail(event_log.line_of(1), 1, f"a game {game_id!r} exists already", "a new game id")
            return GameReport(index, "refused", game_id, error=error_json(error))
        except RecorderError as error:
            return GameReport(index, "refused", game_id, error=error_json(error))
        except Exception as error:  # never a 500 for one bad game; the tests keep this empty
            return _internal(index, {}, error, game_id)
        return GameReport(index, "imported", game_id, len(event_log.events), _setup_players(game))

    def _projections(self, folds: list[Game]) -> ProjectionWrite:
        """The games list row and the positions index of an imported game, from the game
        after each of its events (``folds``)."""
        writes = (self.games.write(summary_of(folds[-1])), self.positions.write(reached(folds)))

        def write(tx, stored) -> None:
            for projection in writes:
                projection(tx, stored)

        return write

    # -- Export -----------------------------------------------------------------------

    def select(self, **filters: str | None) -> Iterator[str]:
        """Ids of the games matching the filters (variant, player, tournament, date_from,
        date_to, result), oldest first (an archive reads in the order games were
        recorded, so an imported archive exports in its own order), in batches."""
        chosen = {k: v for k, v in filters.items() if v is not None}
        return self.games.iter_ids(**chosen, oldest_first=True)

    def notation_archive(self, game_ids: Iterable[str], *, full_history: bool = False) -> Iterator[str]:
        """The games as a notation export: framed, its last line stating what it holds."""
        return frame_notation(self.export_notation(game_ids, full_history=full_history))

    def ndjson_archive(self, game_ids: Iterable[str]) -> Iterator[str]:
        """The games' event logs as an NDJSON export: framed, its last line stating the counts.
        Each line is stored as written (``events.line``), so nothing is decoded or encoded."""
        yield NDJSON_HEADER
        games = events = 0
        for game_id in game_ids:
            lines = self.store.event_lines(game_id)
            if lines:
                games, events = games + 1, events + len(lines)
                yield "\n".join(lines) + "\n"
        yield ndjson_terminator(games, events)

    def export_notation(self, game_ids: Iterable[str], *, full_history: bool = False) -> Iterator[str]:
        """One text chunk per game: the effective line, or every event with full_history.
        An effective line comes from the notation cache when it was written at the game's
        current version (``recorder rebuild`` fills it), else it is written from the events."""
        if full_history:
            texts = (write_game(list(stored_pairs(events)), full_history=True) for events in self._logs(game_ids))
        else:
            texts = self._effective_lines(game_ids)
        return write_archive(texts)

    def _effective_lines(self, game_ids: Iterable[str]) -> Iterator[str]:
        """Each game's cached text, or its text written from the events; with
        ``fill_cache`` those are stored too, a batch per transaction, so the next export
        of an unchanged game reads it (``recorder export`` does; a GET writes nothing)."""
        written: list[tuple[str, int, str]] = []
        for game_id in game_ids:
            text = self.notations.fresh(game_id)
            if text is None:
                events = self.store.read(game_id)
                if not events:
                    continue
                text = write_game(list(stored_pairs(events)))
                if self.fill_cache:
                    written.append((game_id, events[-1].seq, text))
            if len(written) >= CACHE_BATCH:
                self.notations.put(written)
                written = []
            yield text
        if written:
            self.notations.put(written)

    def export_ndjson(self, game_ids: Iterable[str]) -> Iterator[str]:
        """One chunk per game: its complete event log, hashes included (ndjson.write_events'
        format, rendered by the store without decoding the payloads)."""
        for game_id in game_ids:
            lines = self.store.event_lines(game_id)
            if lines:
                yield "\n".join(lines) + "\n"

    def _logs(self, game_ids: Iterable[str]):
        for game_id in game_ids:
            events = self.store.read(game_id)
            if events:
                yield events


def notation_games(text: str, source: str) -> list[ParsedGame]:
    """Every game of a notation text, once its frame (if any) is checked."""
    games = list(parse(text, source))
    check_notation(text, source, len(games))
    return games


def summarise(reports: Iterable[GameReport]) -> dict:
    """The whole import's report: counts, then one entry per game."""
    games = [report.to_json() for report in reports]
    imported = sum(1 for game in games if game["status"] == "imported")
    return {"imported": imported, "refused": len(games) - imported, "games": games}


def _players(parsed: ParsedGame) -> dict:
    names = {}
    for tag, key in (("South", "south"), ("North", "north"), ("Event", "event")):
        found = parsed.tag(tag)
        if found is not None and isinstance(found.value, str):
            names[key] = found.value
    return names


def _setup_players(game: Game) -> dict:
    return {"south": game.setup.south, "north": game.setup.north}


def _internal(index: int, players: dict, error: Exception, game_id: str | None = None) -> GameReport:
    log.exception("unexpected error while importing game %s", index)
    problem = NotationError(f"game {index} could not be checked: {type(error).__name__}")
    return GameReport(index, "refused", game_id, players=players, error=error_json(problem))
