"""Archives: many games in and out at once, as notation text or as NDJSON event logs.

Import checks each game completely in memory first: the notation through
``notation_reader`` (every move decided by ``commands.decide`` as live recording does),
an NDJSON log through ``ndjson.verify_log`` (hash chain, then every event re-decided).
Only then are all of the game's events appended in ONE store append at expected version
0, so a refused game stores nothing and the others are unaffected. Each game gets a
``GameReport`` saying what was imported or why it was refused. An NDJSON log's checks
(``LogCheck``) need no store, so ``recorder import`` runs them in worker processes
(recorder/archive/parallel.py) and stores what they pass (``Archive.store_checked``).

A game read from the notation is stored under an id derived from its content
(``content_id``), so importing the same record again finds it there and reports it as
existing instead of storing a second copy (docs/notation.md, "Identity"); so is an NDJSON
log imported by anyone but the admin, a copy (``_copy_id``). Only the admin's restore
keeps a log's id, and a restore of a log stored already reports it existing. A game
created by an import is nobody's own (``was_imported``; docs/security.md, "Imports").

Export streams: game ids come from the games list (``GamesList.iter_ids``) in batches; a
notation export reads, writes and hands on each game before the next is read, an NDJSON
export reads a small batch of games' stored lines per query (``BulkStore.event_texts``),
so memory stays flat however many games the archive holds. No Flask here; the API and
the CLI share this module.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from recorder.core import ids
from recorder.core.chain import canonical_json
from recorder.core.events import Event, GameCreated, event_from_record
from recorder.core.game import FoldedGame, history
from recorder.errors import NotationError, RecorderError, VersionConflict
from recorder.games.caches import NotationCache
from recorder.games.game_tables import GameTables
from recorder.games.games_list import GamesList
from recorder.games.service import new_bytes, result_changes, stored_pairs, summary_of
from recorder.limits import (
    BYTES_PER_GAME,
    ImportLimits,
    bytes_per_game,
    check_game_bytes,
    check_game_events,
    events_per_game,
    notation_events,
)
from recorder.notation.grammar import ParsedGame, parse
from recorder.notation.reader import read_game
from recorder.notation.writer import write_archive, write_game
from recorder.rules.position_text import reached
from recorder.store import CheckedChain, NewEvent, ProjectionWrite, StoreBackend
from recorder.store.interface import StoredEvent, StreamText, Tx
from recorder.tournaments import is_tournament_id

from .frame import NDJSON_HEADER, check_notation, frame_notation, ndjson_lines, ndjson_terminator
from .ndjson import EventLog, check_provenance, read_logs, verify_log, with_claims
from .shapes import OncePerShape

log = logging.getLogger(__name__)
CACHE_BATCH = 200  # notation texts stored per transaction when an export fills the cache
WRITE_CHUNK = 1 << 18  # characters an NDJSON export hands on at once (a write, an HTTP chunk)
Authorize = Callable[[str | None, GameCreated], str | None]
Horizon = Callable[[str], int | None]  # a game's last event an export shows (None: all)
T = TypeVar("T")


def everything(game_id: str) -> int | None:
    """Every event of every game: the export of whoever may see it all."""
    return None


def _anyone(game_id: str | None, setup: GameCreated) -> str | None:  # the command line: the file's owner
    return None


@dataclass
class GameReport:
    """What happened to one game of an archive."""

    index: int
    status: str  # "imported", "exists" (the same record is stored already), "refused"; "checked": not stored
    game_id: str | None = None
    events: int = 0
    players: dict = field(default_factory=dict)
    error: dict | None = None
    detail: str | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"index": self.index, "status": self.status}
        if self.game_id is not None:
            out["game_id"] = self.game_id
        if self.status in ("imported", "exists"):
            out["events"] = self.events
        if self.detail is not None:
            out["detail"] = self.detail
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


CONTENT_ID_LENGTH = 16  # hex digits: 64 bits of the digest
COPY_CANDIDATES = 32  # games that reached an imported game's last position, compared with it as copies


def content_id(events: Iterable[Event]) -> str:
    """A game's identity from its content: the SHA-256 of its canonical record (the list of
    ``[type, payload]`` of its events, setup first, in canonical JSON), first 16 hex digits.
    Who imported it, and when, are not content: the same record always gets the same id."""
    record = record_of((event.type, event.payload()) for event in events)
    return hashlib.sha256(canonical_json(record).encode("utf-8")).hexdigest()[:CONTENT_ID_LENGTH]


def record_of(pairs: Iterable[tuple[str, dict]]) -> list[list]:
    """A game's record: ``[type, payload]`` of each event, as JSON reads it back, without
    the claims an import by anyone but the admin adds to the setup's metadata (who says
    they recorded it, and when, are not content: ``ndjson.with_claims``)."""
    record = []
    for kind, payload in pairs:
        if kind == GameCreated.type and "import_claims" in (payload.get("metadata") or {}):
            metadata = {k: v for k, v in payload["metadata"].items() if k != "import_claims"}
            payload = {**payload, "metadata": metadata}
        record.append([kind, json.loads(canonical_json(payload))])
    return record


class Archive:
    """Import and export over one event store."""

    def __init__(
        self,
        store: StoreBackend,
        *,
        games: GamesList | None = None,
        recorded_by: str | None = None,
        authorize: Authorize = _anyone,
        check_command: Callable[[dict], dict] = _as_decided,
        restore: bool = False,
        limits: ImportLimits | None = None,
        fill_cache: bool = False,
        positions_later: bool = False,
        horizon: Horizon = everything,
    ):
        """``check_command`` passes each command through the HTTP boundary's schema first
        (the API and CLI give ``api.archive.schema_check``, so imported commands meet
        exactly the limits live ones do). ``authorize(game_id, setup)`` may refuse a game
        (raising a RecorderError) or name who records it; the API uses it for games that
        belong to a tournament. ``restore`` (the admin, or the command line on the database
        file) keeps an NDJSON log verbatim, its recorded_by and recorded_at included;
        otherwise those are only claims, kept in the game's metadata. ``limits`` (the API's)
        are checked on the whole body before anything is stored; without them (the CLI)
        each game is still held to the ceiling on events per game. ``positions_later`` (the
        command line's bulk import) queues the positions of the games it stores, to be
        indexed all at once by ``self.positions.index_pending``. ``horizon(game_id)``: the
        last event of a stored game the importer may see (the API's broadcast delay; None:
        all), so a report of a game found stored already tells only what he may see."""
        self.store = store
        # What makes another Archive like this one on another connection to the same
        # database (``recorder import``'s workers: recorder/archive/parallel.py).
        self.settings = {
            "recorded_by": recorded_by,
            "authorize": authorize,
            "check_command": check_command,
            "restore": restore,
            "limits": limits,
            "fill_cache": fill_cache,
            "positions_later": positions_later,
            "horizon": horizon,
        }
        self.restore = restore
        self.limits = limits
        self.events_per_game = limits.events_per_game if limits is not None else events_per_game()
        self.bytes_per_game = limits.bytes_per_game if limits is not None else bytes_per_game()
        self.tables = GameTables(store, games)
        self.games, self.positions, self.results = self.tables.games, self.tables.positions, self.tables.results
        self.notations = NotationCache(store)
        self.recorded_by = recorded_by
        self.authorize = authorize
        self.check_command = OncePerShape(check_command)  # the schemas' verdict on a sowing is asked once
        self.fill_cache = fill_cache
        self.positions_later = positions_later
        self.horizon = horizon
        self.check_log = LogCheck(
            self.check_command, self.events_per_game, restore, recorded_by, authorize, self.bytes_per_game
        )

    # -- Import -----------------------------------------------------------------------

    def import_notation(self, text: str, source: str = "<text>") -> Iterator[GameReport]:
        """Each game of a notation text, validated then stored (or refused) in turn; an
        archive cut short is refused whole (NotationError) before anything is stored, and
        so is a request past the API's limits (LimitExceeded)."""
        self._require_recorder()
        games = notation_games(text, source, self.limits)
        return (self.import_parsed(parsed) for parsed in games)

    def _require_recorder(self) -> None:
        if not self.recorded_by:
            raise ValueError("an import names who records it (every event names its recorder)")

    def import_parsed(self, parsed: ParsedGame) -> GameReport:
        players = _players(parsed)
        try:
            check_game_events(notation_events(parsed.tokens), self.events_per_game, game=parsed.index)
            read = read_game(parsed, check_command=self.check_command)
            recorded_by = self.authorize(None, read.setup) or self.recorded_by
            events = [read.setup, *read.events]
            game_id = content_id(events)
            check_game_bytes(new_bytes(events), self.bytes_per_game, game=parsed.index)
            folds = list(history(game_id, enumerate(events, start=1)))
            summary, positions = projected(folds)
            copy = None if self.store.version(game_id) else self._held_copy(read.setup, events, positions)
            if copy is not None:
                detail = f"a game {copy!r} exists already: the same game, stored before under its own id"
                return GameReport(parsed.index, "exists", copy, len(events), players, detail=detail)
            self.store.append(
                game_id,
                0,
                [NewEvent(e.type, e.payload()) for e in events],
                recorded_by=recorded_by,
                projection=self._projections(summary, positions, result_changes(None, folds)),
            )
        except VersionConflict:
            return self._exists(parsed, game_id, events, players)
        except Exception as error:
            return _refusal(parsed.index, error, players=players)
        return GameReport(parsed.index, "imported", game_id, len(events), players)

    def _exists(self, parsed: ParsedGame, game_id: str, events: list[Event], players: dict) -> GameReport:
        """The id is taken: by this very record (a repeat import, in either format, by
        anyone), or, against all odds, by another. Either way nothing is stored or changed."""
        stored = self._visible_events(game_id)
        if record_of((e.type, e.payload) for e in stored) == record_of((e.type, e.payload()) for e in events):
            detail = f"a game {game_id!r} exists already: the same record was imported before"
            return GameReport(parsed.index, "exists", game_id, len(events), players, detail=detail)
        error = NotationError(f"another game is stored under this game's content id {game_id!r}", game_id=game_id)
        return GameReport(parsed.index, "refused", game_id, players=players, error=error_json(error))

    def _held_copy(self, setup: GameCreated, events: list[Event], positions: list[tuple[int, str]]) -> str | None:
        """The id of a game held under another id (one recorded live has a random id) whose
        effective record is this one's. The games that reached this game's last position
        are the candidates, the first ``COPY_CANDIDATES`` of them; one with the same variant
        and players whose notation text (the effective line) is this game's is this game.
        Both as far as the importer may see them (``horizon``): a game a delay holds back is
        compared by its visible events, so a guess of its hidden moves is never confirmed."""
        if not positions:
            return None
        text = None
        for game_id, _ in self.positions.find_visible(positions[-1][1], COPY_CANDIDATES, self.horizon, pending=False):
            row = self.games.row(game_id)
            if row is None or (row["variant"], row["south"], row["north"]) != (setup.variant, setup.south, setup.north):
                continue
            text = text or write_game(list(enumerate(events, start=1)))
            if self._visible_line(game_id) == text:
                return game_id
        return None

    def _visible_events(self, game_id: str) -> list[StoredEvent]:
        upto = self.horizon(game_id)
        return self.store.read(game_id) if upto is None else self.store.read(game_id, upto=upto)

    def _visible_line(self, game_id: str) -> str | None:
        """The game's effective line as the importer may see it (the cache's text when he sees all)."""
        if self.horizon(game_id) is None:
            return next(self._effective_lines([game_id]), None)
        return write_game(list(stored_pairs(self._visible_events(game_id))))

    def import_ndjson_text(self, text: str, source: str = "<ndjson>") -> Iterator[GameReport]:
        """Each game's log of an NDJSON text, verified then stored verbatim (or refused);
        an archive cut short is refused whole (NotationError) before anything is stored."""
        return self.import_ndjson(ndjson_lines(text, source), source)

    def import_ndjson(self, lines: Iterable[str], source: str = "<ndjson>") -> Iterator[GameReport]:
        """Each game's log of NDJSON lines (no frame), verified then stored verbatim (or
        refused); a request past the API's limits is refused whole before anything is stored."""
        self._require_recorder()
        logs: Iterable[EventLog] = read_logs(lines, source)
        if self.limits is not None:  # counted as they are read, before anything is stored
            tally = Tally(self.limits)
            logs = [tally.counted(event_log, len(event_log.events)) for event_log in logs]
        for event_log in logs:
            yield self.import_log(event_log)

    def import_log(self, event_log: EventLog) -> GameReport:
        """One game's log checked (``check_log``), then stored (``store_checked``)."""
        checked = self.check_log(event_log)
        return checked if isinstance(checked, GameReport) else self.store_checked(checked)

    def prepared(self, event_log: EventLog) -> CheckedLog | GameReport:
        """A log checked (``check_log``) with its projections' rows made (the games list's
        row, the positions' digests): what ``store_checked`` would do before its append,
        done before it, where ``recorder import``'s workers have not yet waited for their
        turn to store. A refusal if those rows cannot be made, as ``store_checked`` refuses."""
        checked = self.check_log(event_log)
        if isinstance(checked, GameReport):
            return checked
        try:
            checked.projection = self._projections(checked.summary, checked.positions, checked.results)
        except Exception as error:
            return _refusal(checked.index, error, checked.game_id)
        return checked

    def store_checked(self, checked: CheckedLog) -> GameReport:
        """A checked log appended in one store append at version 0, its projections with it."""
        held = None if self.restore else self._held_under_its_own_id(checked)
        if held is not None:
            return held
        try:
            projection = checked.projection or self._projections(checked.summary, checked.positions, checked.results)
            by = checked.recorded_by
            self.store.append(checked.game_id, 0, checked.events, recorded_by=by, projection=projection)
        except VersionConflict:
            return self._log_exists(checked)
        except Exception as error:
            return _refusal(checked.index, error, checked.game_id)
        return GameReport(checked.index, "imported", checked.game_id, len(checked.events), checked.players)

    def _held_under_its_own_id(self, checked: CheckedLog) -> GameReport | None:
        """A log imported by anyone but the admin is stored under its content id; but the
        game may be held here under the id the log names (a game recorded live here,
        exported, imported back). The same record under that id is this game: it exists."""
        metadata = checked.events[0].payload.get("metadata") or {}
        claimed = (metadata.get("import_claims") or {}).get("game_id")
        if not isinstance(claimed, str) or claimed == checked.game_id:
            return None
        stored = self.store.read(claimed)
        if not stored or record_of((e.type, e.payload) for e in stored) != record_of(
            (e.type, e.payload) for e in checked.events
        ):
            return None
        report = GameReport(checked.index, "exists", claimed, len(checked.events), checked.players)
        report.detail = f"a game {claimed!r} exists already: the same game, stored before under its own id"
        return report

    def _log_exists(self, checked: CheckedLog) -> GameReport:
        """A log's game id is taken. By this very log (restored before: every hash the
        same), or by a copy of the same record that an import stored (the events the same,
        their recorder and times those of that import): then it exists, and nothing is
        stored or changed. By another game, or another history of it: refused, "exists
        already"."""
        stored = self.store.read(checked.game_id)
        report = GameReport(checked.index, "exists", checked.game_id, len(checked.events), checked.players)
        if [e.hash for e in stored] == [getattr(e, "hash", None) for e in checked.events]:
            report.detail = f"a game {checked.game_id!r} exists already: the same log was stored before"
            return report
        records = (record_of((e.type, e.payload) for e in events) for events in (stored, checked.events))
        if was_imported(checked.game_id, stored[0].payload) and next(records) == next(records):
            importer = printable_name(stored[0].recorded_by)
            report.detail = (
                f"a game {checked.game_id!r} exists already: the same record was imported before, by {importer}"
            )
            return report
        refusal = checked.fail(f"a game {checked.game_id!r} exists already", "a new game id")
        return _refusal(checked.index, refusal, checked.game_id)

    def _projections(
        self, summary: dict, positions: list[tuple[int, str]], results: Sequence[tuple[int, str | None]]
    ) -> ProjectionWrite:
        """The games list row, the positions index and the result changes of an imported game;
        a game of a tournament (only those are rated: ``Ratings.rated_records``) marks its
        variant's rating lists stale from the month of its first result change (a restore
        keeps the log's dates: that month's list may be published already)."""
        write = self.tables.write(summary, positions, results, positions_later=self.positions_later)
        if summary.get("tournament_id") is None:
            return write
        mark = self.tables.results.mark_lists_stale(str(summary["variant"]), results)

        def both(db: Tx, events: Sequence[StoredEvent]) -> None:
            write(db, events)
            mark(db, events)

        return both

    # -- Export -----------------------------------------------------------------------

    def select(self, **filters: str | None) -> Iterator[str]:
        """Ids of the games matching the filters (variant, player, tournament, date_from,
        date_to, result), oldest first (an archive reads in the order games were
        recorded, so an imported archive exports in its own order), in batches."""
        chosen: dict[str, Any] = {k: v for k, v in filters.items() if v is not None}
        return self.games.iter_ids(**chosen, oldest_first=True)

    def notation_archive(
        self, game_ids: Iterable[str], *, full_history: bool = False, horizon: Horizon = everything
    ) -> Iterator[str]:
        """The games as a notation export: framed, its last line stating what it holds."""
        return frame_notation(self.export_notation(game_ids, full_history=full_history, horizon=horizon))

    def ndjson_archive(self, game_ids: Iterable[str], horizon: Horizon = everything) -> Iterator[str]:
        """The games' event logs as an NDJSON export: framed, its last line stating the counts.
        Each line is stored as written (``events.line``) and joined by the database, a batch
        of games per query, so nothing is decoded or encoded; the text goes out in chunks of
        about ``WRITE_CHUNK`` characters (a few writes per batch of games, not one per game)."""
        yield NDJSON_HEADER
        games = events = size = 0
        pending: list[str] = []
        for log_text in self._held_back(self.store.event_texts(game_ids), horizon):
            games, events, size = games + 1, events + log_text.events, size + len(log_text.text)
            pending += (log_text.text, "\n")
            if size >= WRITE_CHUNK:
                yield "".join(pending)
                pending, size = [], 0
        if pending:
            yield "".join(pending)
        yield ndjson_terminator(games, events)

    def _held_back(self, texts: Iterable[StreamText], horizon: Horizon) -> Iterator[StreamText]:
        """Each stream's text, a game a broadcast delay holds back cut at its horizon."""
        for text in texts:
            upto = horizon(text.stream_id)
            if upto is None or upto >= text.events:
                yield text
            else:
                yield StreamText(text.stream_id, upto, "\n".join(self.store.event_lines(text.stream_id)[:upto]))

    def export_notation(
        self, game_ids: Iterable[str], *, full_history: bool = False, horizon: Horizon = everything
    ) -> Iterator[str]:
        """One text chunk per game: the effective line, or every event with full_history.
        An effective line comes from the notation cache when it was written at the game's
        current version (``recorder rebuild`` fills it), else it is written from the events.
        ``horizon(game_id)``: the last event of the game to write (None: all; a broadcast delay)."""
        texts: Iterator[str]
        if horizon is not everything:
            texts = self._texts_upto(game_ids, horizon, full_history)
        elif full_history:
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

    def _texts_upto(self, game_ids: Iterable[str], horizon: Horizon, full_history: bool) -> Iterator[str]:
        """Each game's text, written from its events up to its horizon (the cache holds
        whole games only)."""
        for game_id in game_ids:
            upto = horizon(game_id)
            if upto is None and not full_history:
                yield from self._effective_lines([game_id])
                continue
            events = self.store.read(game_id, upto=upto)
            if events:
                yield write_game(list(stored_pairs(events)), full_history=full_history)

    def _logs(self, game_ids: Iterable[str]):
        for game_id in game_ids:
            events = self.store.read(game_id)
            if events:
                yield events


def notation_games(text: str, source: str, limits: ImportLimits | None = None) -> list[ParsedGame]:
    """Every game of a notation text, once its frame (if any) is checked; with ``limits``
    (the API's), counted as the parser yields them (``Tally``)."""
    tally = Tally(limits)
    games = [tally.counted(parsed, notation_events(parsed.tokens)) for parsed in parse(text, source)]
    check_notation(text, source, len(games))
    return games


class Tally:
    """An import's games counted as they are read, so a request past a limit is refused
    (LimitExceeded) at the game that passes it, before the rest of the body is parsed:
    its figures are those counted up to that game, not the whole body's."""

    def __init__(self, limits: ImportLimits | None):
        self.limits, self.counts, self.total = limits, list[int](), 0

    def counted(self, game: T, events: int) -> T:
        limits = self.limits
        if limits is not None:
            self.counts.append(events)
            self.total += events
            if len(self.counts) > limits.games or events > limits.events_per_game or self.total > limits.events:
                limits.check(self.counts)  # the refusal, named as for a whole body
        return game


def summarise(reports: Iterable[GameReport]) -> dict:
    """The whole import's report: counts, then one entry per game."""
    games = [report.to_json() for report in reports]
    counts = {status: sum(1 for game in games if game["status"] == status) for status in ("imported", "exists")}
    refused = len(games) - counts["imported"] - counts["exists"]
    return {"imported": counts["imported"], "existing": counts["exists"], "refused": refused, "games": games}


def _players(parsed: ParsedGame) -> dict:
    names = {}
    for tag, key in (("South", "south"), ("North", "north"), ("Event", "event")):
        found = parsed.tag(tag)
        if found is not None and isinstance(found.value, str):
            names[key] = found.value
    return names


def _setup_players(game: FoldedGame) -> dict:
    return {"south": game.setup.south, "north": game.setup.north}


def _refusal(index: int, error: Exception, game_id: str | None = None, players: dict | None = None) -> GameReport:
    """FoldedGame ``index`` refused: for a RecorderError's reason, else as a game that could not
    be checked (never a 500 for one bad game; the tests keep that case empty)."""
    if isinstance(error, RecorderError):
        return GameReport(index, "refused", game_id, players=players or {}, error=error_json(error))
    return _internal(index, players or {}, error, game_id)


def _internal(index: int, players: dict, error: Exception, game_id: str | None = None) -> GameReport:
    log.exception("unexpected error while importing game %s", index)
    problem = NotationError(f"game {index} could not be checked: {type(error).__name__}")
    return GameReport(index, "refused", game_id, players=players, error=error_json(problem))


@dataclass
class CheckedLog:
    """A game's NDJSON log once every check passed: what its append stores, and the
    rows of its projections. Made by ``LogCheck``, stored by ``Archive.store_checked``."""

    index: int
    source: str
    game_id: str
    first_line: int
    events: CheckedChain | list[NewEvent]
    recorded_by: str | None
    summary: dict
    positions: list[tuple[int, str]]
    players: dict
    results: tuple[tuple[int, str | None], ...] = ()  # its result's changes (``service.result_changes``)
    projection: ProjectionWrite | None = None  # its projections' rows, made ahead (``Archive.prepared``)

    def fail(self, detail: str, expected: str) -> NotationError:
        return EventLog(self.index, self.source, self.game_id).fail(self.first_line, 1, detail, expected)

    def checked(self) -> GameReport:
        """The report of a log checked and not stored (the archive bench's check ceiling)."""
        return GameReport(self.index, "checked", self.game_id, len(self.events), self.players)


@dataclass(frozen=True)
class LogCheck:
    """The part of an NDJSON import that needs no store: a game's log checked (its chain,
    then every event re-decided) and made ready to append, or refused with a report. It
    holds only what it was given, so ``recorder import`` can run it in other processes
    while its own process stores what they checked (recorder/archive/parallel.py)."""

    check_command: Callable[[dict], dict]
    events_per_game: int
    restore: bool
    recorded_by: str | None
    authorize: Authorize = _anyone
    bytes_per_game: int = BYTES_PER_GAME

    def __call__(self, event_log: EventLog) -> CheckedLog | GameReport:
        index, game_id = event_log.index, event_log.game_id
        try:
            return self._checked(event_log)
        except Exception as error:
            return _refusal(index, error, game_id)

    def _checked(self, event_log: EventLog) -> CheckedLog:
        game_id = event_log.game_id
        problem = ids.game_id_problem(game_id)
        if problem is not None or game_id is None:
            raise event_log.fail(event_log.line_of(1), 1, problem or "no game id", "a game id")
        check_game_events(len(event_log.events), self.events_per_game, game=event_log.index)
        folds: list[FoldedGame] = []
        game = verify_log(event_log, self.check_command, folds)
        if is_tournament_id(game_id):
            raise event_log.fail(event_log.line_of(1), 1, "ids starting with t- are tournaments", "a game id")
        recorded_by = self.authorize(game_id, game.setup) or self.recorded_by or ""
        events: CheckedChain | list[NewEvent]
        if self.restore:  # the admin's restore keeps the log as it was, hashes and all
            check_provenance(event_log)
            events, by = event_log.checked(), None
        else:
            setup = with_claims(folds[-1].setup, event_log)
            events, by = _as_claims(event_log, setup), recorded_by
            folds[-1] = replace(folds[-1], setup=setup)
            game_id = _copy_id(game_id, event_log)
        check_game_bytes(_stored_size(events), self.bytes_per_game, game=event_log.index)
        summary, positions = projected(folds)
        first_line, players = event_log.line_of(1), _setup_players(game)
        source = event_log.source
        results = tuple(result_changes(None, folds))
        return CheckedLog(
            event_log.index, source, game_id, first_line, events, by, summary, positions, players, results
        )


def _stored_size(events: CheckedChain | list[NewEvent]) -> int:
    """The bytes a game's payloads take once stored (``limits.bytes_per_game``)."""
    texts = events.texts if isinstance(events, CheckedChain) else (canonical_json(e.payload) for e in events)
    return sum(len(text.encode()) for text in texts)


def projected(folds: list[FoldedGame]) -> tuple[dict, list[tuple[int, str]]]:
    """A game's row in the games list and its positions, from the game after each event."""
    return summary_of(folds[-1]), reached(folds)


def _copy_id(game_id: str, event_log: EventLog) -> str:
    """The id of a log imported by anyone but the admin: a copy of a record made elsewhere,
    stored under the id its content gives (``content_id``, as a notation import), so that
    nobody but the admin chooses the id a game is stored under, and nobody takes the id
    of a game the federation will restore. A board's game keeps its board id: only that
    tournament's arbiter (or the admin) may import it (``api.archive.authorize_game``)."""
    if ids.is_board_game_id(game_id):
        return game_id
    return content_id(event_from_record(e.type, e.payload) for e in event_log.events)


def was_imported(game_id: str, setup_payload: dict) -> bool:
    """Was this game created by an import? Under the id its content gives, or carrying the
    claims an import by anyone but the admin keeps (docs/security.md, "Imports")."""
    return ids.is_content_id(game_id) or "import_claims" in (setup_payload.get("metadata") or {})


def printable_name(name: object) -> str:
    """A recorder's name for a report's detail: quoted and escaped as a Python literal."""
    return repr(str(name))


def _as_claims(event_log: EventLog, setup: GameCreated) -> list[NewEvent]:
    """Anyone but the admin: the events are recorded now, by the importer; what the log
    said about who recorded them and when is kept in the setup's metadata, labelled as
    claims (docs/security.md)."""
    events = [setup, *(event_from_record(e.type, e.payload) for e in event_log.events[1:])]
    return [NewEvent(e.type, e.payload()) for e in events]
