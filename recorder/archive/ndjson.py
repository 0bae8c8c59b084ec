"""Complete event logs as NDJSON: one stored event per line, full fidelity.

Each line is the canonical JSON (``chain.canonical_json``) of a stored event: game id,
seq, type, payload, recorded_at, recorded_by, prev_hash and hash. A game's events are
consecutive lines in seq order; games follow one another. Reading a log back checks
everything before anything is stored: every line's shape, the hash chain from GENESIS
(``chain.checked_links``), and the events themselves, each re-decided by the very
commands that live recording uses (``decide_create``, ``decide``) and required to come
out identical. A refusal is a NotationError naming the source, game, line and column.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from recorder.core import chain
from recorder.core.commands import decide_create, execute, sowing
from recorder.core.events import GameCreated, NullReading, Sowed, event_from_record
from recorder.core.game import FoldedGame, after_move, apply_event, start_game
from recorder.core.redecide import command_for, setup_body
from recorder.errors import NotationError, RecorderError
from recorder.notation.grammar import LONE_SURROGATE
from recorder.notation.reader import check_setup_fields
from recorder.store import CheckedChain, StoredEvent

MEDIA_TYPE = "application/x-ndjson"
FIELDS: dict[str, type | tuple[type, ...]] = {
    "game_id": str,
    "seq": int,
    "type": str,
    "payload": dict,
    "recorded_at": str,
    "recorded_by": (str, type(None)),
    "prev_hash": str,
    "hash": str,
}


@dataclass
class EventLog:
    """One game's lines of an NDJSON archive, as read (not yet verified). Its lines are
    grouped by the game each one names (``read_logs``) and read into events only when
    first asked for (``events``, ``error``): ``recorder import --jobs`` hands a log to a
    worker process as its text, and the worker reads it."""

    index: int
    source: str
    game_id: str | None = None
    raw: list[tuple[int, str | StoredEvent]] = field(default_factory=list)  # (line number, text or event read)
    first_line: int = 1  # the line number of the log's first line, whatever it holds
    lines: list[int] = field(default_factory=list)  # the line number of each event
    texts: list[str] = field(default_factory=list)  # each payload's canonical text, once the chain is checked
    # What the reading kept of each event's line when it is written as the store writes it
    # (``canonical_sowing``; None for any other line): the payload's text, the record's
    # text, the line itself.
    read_payloads: list[str | None] = field(default_factory=list)
    read_records: list[str | None] = field(default_factory=list)
    read_lines: list[str | None] = field(default_factory=list)
    _events: list[StoredEvent] = field(default_factory=list)
    _error: NotationError | None = None

    @property
    def events(self) -> list[StoredEvent]:
        self._read()
        return self._events

    @property
    def error(self) -> NotationError | None:
        """The first line that is not a stored event of this game, as a refusal."""
        self._read()
        return self._error

    def _read(self) -> None:
        """Each raw line read into an event, once; a line that is not one spoils the log."""
        for number, line in self.raw:
            try:
                event, payload_text, record_text, kept = _read_line(line)
                if event.stream_id != self.game_id:  # only a line naming its game twice gets here
                    raise _BadLine(1, "a line names one game", "an object with exactly " + ", ".join(FIELDS))
            except _BadLine as bad:
                self._error = self._error or self.fail(number, bad.column, bad.detail, bad.expected)
                continue
            self._events.append(event)
            self.read_payloads.append(payload_text)
            self.read_records.append(record_text)
            self.read_lines.append(kept)
            self.lines.append(number)
        self.raw = []

    def checked(self) -> CheckedChain:
        """The events, once ``verify_log`` has passed them, as a chain the store need not hash again."""
        return CheckedChain(self.events, self.texts, self.read_lines)

    def fail(self, line: int, column: int, detail: str, expected: str | None = None) -> NotationError:
        label = f"game {self.index}" + (f" ({self.game_id})" if self.game_id else "")
        return NotationError(
            f"{self.source}: {label}: line {line}, column {column}: {detail}",
            source=self.source,
            game=self.index,
            game_id=self.game_id,
            line=line,
            column=column,
            expected=expected,
        )

    def line_of(self, seq: int) -> int:
        """The line of the event ``seq``: the nearest event's line, or the log's first line
        when none of its lines is an event."""
        self._read()
        if not self.lines:
            return self.first_line
        return self.lines[min(max(seq - 1, 0), len(self.lines) - 1)]


def _read_line(line: str | StoredEvent) -> tuple[StoredEvent, str | None, str | None, str | None]:
    """The event a raw line holds (read already, or read now), and what the reading kept of
    a line written as the store writes it: its payload's text, its record's text, the line
    (Nones for any other line)."""
    if isinstance(line, StoredEvent):
        return line, None, None, None
    sowing = canonical_sowing(line)
    if sowing is None:
        return read_event(line), None, None, None
    event, payload_text, record_text = sowing
    return event, payload_text, record_text, line


class _BadLine(Exception):
    def __init__(self, column: int, detail: str, expected: str | None = None):
        super().__init__(detail)
        self.column, self.detail, self.expected = column, detail, expected


def read_logs(
    lines: Iterable[str], source: str = "<ndjson>", *, first_line: int = 1, first_game: int = 1
) -> Iterator[EventLog]:
    """Consecutive lines that name the same game make one log; a line that names no game
    (not a JSON object with a game id) falls in the log being read, and spoils it. Lines
    are only grouped here; each log reads its lines when its events are first asked for.
    ``first_line`` and ``first_game`` number the first line and log (a part of a file)."""
    log: EventLog | None = None
    index = first_game - 1
    for number, text in enumerate(lines, start=first_line):
        if not text.strip():
            continue
        game_id, event = _named_game(text)
        if log is not None and log.game_id is None:
            log.game_id = game_id  # a log spoilt by its first line: this is its game
        elif log is not None and game_id is not None and game_id != log.game_id:
            yield log
            log = None
        if log is None:
            index += 1
            log = EventLog(index, source, game_id, first_line=number)
        log.raw.append((number, event or text))  # a line read whole here is not read again
    if log is not None:
        yield log


_EXPORTED_START = '{"game_id":"'  # how every line an export writes begins (keys in sorted order)


def _named_game(text: str) -> tuple[str | None, StoredEvent | None]:
    """The game id a line names: read from its start when it begins as an export's line
    does (the id has no escapes), else from the whole line read (the event too, then);
    None when it names none."""
    if text.startswith(_EXPORTED_START):
        end = text.find('"', len(_EXPORTED_START))
        game_id = text[len(_EXPORTED_START) : end]
        if end > len(_EXPORTED_START) and "\\" not in game_id:
            return game_id, None
    try:
        event = _event(text)
    except _BadLine:
        return None, None
    return event.stream_id, event


def _event(text: str) -> StoredEvent:
    """The stored event a line holds: most lines of an export are sowings written as the
    store writes them, read by ``canonical_sowing``; any other line is read as JSON."""
    sowing = canonical_sowing(text)
    return sowing[0] if sowing is not None else read_event(text)


def read_event(text: str) -> StoredEvent:
    """The stored event a line holds, read as JSON and checked field by field; a line that
    holds none raises _BadLine, which names the fault."""
    try:
        record = chain.parse_json(text)
    except ValueError as error:
        raise _BadLine(getattr(error, "colno", 1), f"not JSON: {getattr(error, 'msg', error)}") from None
    except RecursionError:
        raise _BadLine(1, "JSON nested too deeply") from None
    if type(record) is not dict or record.keys() != FIELDS.keys():
        raise _BadLine(1, "a line is one stored event", "an object with exactly " + ", ".join(FIELDS))
    if _plain(record):
        return StoredEvent.of_fields(record)
    for name, kind in _FIELD_TYPES:
        value = record[name]
        if not isinstance(value, kind) or isinstance(value, bool) or (kind is str and not value):
            raise _BadLine(1, f"{name} has the wrong type", f"{name} as in GET /api/games/{{id}}/events")
    return StoredEvent(**record)


_FIELD_TYPES = tuple(FIELDS.items())

# A JSON string that reads as the text between its quotes and that json.dumps(ensure_ascii=False)
# writes back unchanged: no quote, backslash, control character or lone surrogate in it.
# The texts of FIELDS may not be empty; recorded_by and the payload's texts may.
_PLAIN = r'[^"\\\x00-\x1f\ud800-\udfff]'


def _text(name: str) -> str:
    return f'"(?P<{name}>{_PLAIN}+)"'


def _any_text(name: str) -> str:
    return f'"(?P<{name}>{_PLAIN}*)"'


def _filled(template: str, *groups: str) -> str:
    """A pattern of ``chain``'s template: its text matched literally, each value by its group."""
    parts = template.split("%s")
    return "".join(re.escape(part) + group for part, group in zip(parts, groups)) + re.escape(parts[-1])


# A sowing's line exactly as the store writes it (``chain.event_text``, linked), made from the
# encoder's own templates, with every text plain: reading it as JSON gives these groups and
# nothing else. Each field's pattern is named for its field, and the line's template takes
# them in its own order (``chain.LINE_KEYS``); the payload: its clock reading's north and
# south, when it has one (TIME-2), then hole and player; the type is the literal "sowed".
_PLAIN_SOWING = chain.object_template(("hole", "player"))  # {"hole":%s,"player":%s}
_TIMED_SOWING = chain.object_template(("clock", "hole", "player"))  # {"clock":%s,"hole":%s,"player":%s}
_CLOCK_MEMBER = _TIMED_SOWING[1 : len(_TIMED_SOWING) - len(_PLAIN_SOWING) + 1]  # "clock":%s,
assert _TIMED_SOWING == "{" + _CLOCK_MEMBER + _PLAIN_SOWING[1:]
_MILLIS = "(?:0|[1-9][0-9]{0,17})"  # a reading below 10**18 (a larger one is read as JSON)
_CLOCK = chain.object_template(("south", "north"))
_SOWING_PAYLOAD = (
    "(?P<payload>"
    + re.escape("{")
    + "(?:"
    + _filled(
        _CLOCK_MEMBER, _filled(_CLOCK, *(f"(?P<{side}>{_MILLIS})" for side in chain.object_keys(("south", "north"))))
    )
    + ")?"
    + _filled(_PLAIN_SOWING[1:], _any_text("hole"), '"(?P<player>south|north)"')
    + ")"
)
_SOWING_FIELDS = {
    "game_id": _text("game_id"),
    "hash": _text("hash"),
    "payload": _SOWING_PAYLOAD,
    "prev_hash": _text("prev_hash"),
    "recorded_at": _text("recorded_at"),
    "recorded_by": f"(?:null|{_any_text('recorded_by')})",
    "seq": "(?P<seq>[1-9][0-9]{0,17})",
    "type": re.escape(chain.json_string("sowed")),
}
_CANONICAL_SOWING = re.compile(_filled(chain.LINE_TEMPLATE, *(_SOWING_FIELDS[key] for key in chain.LINE_KEYS)) + r"\Z")
# The line's groups, in the pattern's order (the template's): read by ``groups()``, cheaper
# than by name (docs/decisions.md), and checked here to be these names in this order.
_SOWING_GROUPS = (
    "game_id",
    "hash",
    "payload",
    "north",
    "south",
    "hole",
    "player",
    "prev_hash",
    "recorded_at",
    "recorded_by",
    "seq",
)
assert tuple(sorted(_CANONICAL_SOWING.groupindex, key=_CANONICAL_SOWING.groupindex.__getitem__)) == _SOWING_GROUPS
assert _CANONICAL_SOWING.groups == len(_SOWING_GROUPS)


def canonical_sowing(text: str) -> tuple[StoredEvent, str, str | None] | None:
    """The sowing a line holds, with its payload's text and its record's text, when it is
    written exactly as the store writes one, else None.

    Most of an archive's lines are such sowings. One pattern, made from the encoder's
    template (``chain.LINE_TEMPLATE``), reads them for less than the JSON reading costs
    (docs/decisions.md), and gives the payload's canonical text as well: the line's own bytes are canonical, so the
    hash check need not encode the payload again to learn that; the hashed record's text is
    filled in by the encoder (``chain.record_text``); and the line is the one the store would
    write (``store.event_row`` keeps it). The event is the one ``read_event`` reads from the
    same line (tests/test_archive_lines.py holds them to it, and to the encoder)."""
    match = _CANONICAL_SOWING.match(text)
    if match is None:
        return None
    game_id, hash_, payload_text, north, south, hole, player, prev_hash, recorded_at, recorded_by, seq = match.groups()
    number = int(seq)
    payload: dict = {"hole": hole, "player": player}
    if north is not None:  # in the order the JSON reading gives: clock (north, south), hole, player
        payload = {"clock": {"north": int(north), "south": int(south)}, **payload}
    event = StoredEvent.of_fields(
        {
            "game_id": game_id,
            "seq": number,
            "type": "sowed",
            "payload": payload,
            "recorded_at": recorded_at,
            "recorded_by": recorded_by,
            "prev_hash": prev_hash,
            "hash": hash_,
        }
    )
    return event, payload_text, chain.spelled(game_id, number, "sowed", payload_text, recorded_at, recorded_by)


def _plain(record: dict) -> bool:
    """FIELDS' check for the common case, every field of its exact type (as json.loads
    gives them); False sends the line through the field-by-field check that names the fault."""
    recorded_by = record["recorded_by"]
    texts = record["game_id"], record["type"], record["recorded_at"], record["prev_hash"], record["hash"]
    return (  # written out, not a generator over the texts: this runs once per line read
        type(record["seq"]) is int
        and type(record["payload"]) is dict
        and (recorded_by is None or type(recorded_by) is str)
        and type(texts[0]) is str
        and type(texts[1]) is str
        and type(texts[2]) is str
        and type(texts[3]) is str
        and type(texts[4]) is str
        and "" not in texts
    )


# How the store writes a time (``store.interface``'s clock): UTC, with "Z" and up to
# microseconds. A restore keeps its events' times, and lists sort newest first by them.
_TIME = r"([0-9]{4}-[0-9]{2}-[0-9]{2})T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,6})?Z"
_UTC_TIME = re.compile(_TIME)
TIME_EXAMPLE = "2026-05-01T09:30:00.000000Z"
MAX_PRINCIPAL = 100  # a token holder's name at most (recorder/auth/tokens.py)
CLOCK_SKEW = timedelta(days=1)  # how far ahead of this server's clock a restored time may be


def check_provenance(log: EventLog, now: datetime | None = None) -> None:
    """A log restored verbatim keeps who recorded each event and when, so each must be
    that: ``recorded_by`` a principal's name (one printable line, no surrounding spaces),
    ``recorded_at`` an RFC 3339 UTC time that exists and is not past ``now`` (plus a day
    of clock skew). The first that is not is refused, at its line, naming the field.

    Part of every restore's check (``recorder import`` too), so a sound log is passed
    whole: its distinct names and dates looked at once each, its times matched by one
    pattern over them all and the latest held to the clock as text (the fixed-width form
    sorts as time does); only a log that fails is gone through event by event."""
    latest = ((now or datetime.now(UTC)) + CLOCK_SKEW).strftime("%Y-%m-%dT%H:%M:%S")
    events = log.events
    times = [event.recorded_at for event in events]
    names = {event.recorded_by for event in events}
    sound = (
        all(_principal_problem(name) is None for name in names)
        and _as_stored(times)
        and all(_is_date(date) for date in {time[:10] for time in times})
        and max(times, default="")[:19] <= latest
    )
    if not sound:
        _first_unsound(log, latest)


_DIGITS_AS_NINES = str.maketrans("0123456789", "9" * 10)
_STORED_SHAPE = "9999-99-99T99:99:99.999999Z\n"  # how the store writes every time


def _as_stored(times: list[str]) -> bool:
    """Are these all times as the store writes them, each hour, minute and second in range?
    (One pass of C over them all; any other form, RFC 3339 all the same, is left to the
    event by event check.)"""
    text = "\n".join(times) + "\n"
    if text.translate(_DIGITS_AS_NINES) != _STORED_SHAPE * len(times):
        return False
    return _PAST_THE_CLOCK.search(text) is None and _PAST_THE_HOUR.search(text) is None


# In text of that shape, an hour past 23, or a minute or second past 59 (each pattern
# starts with a literal, which the engine looks for at C speed).
_PAST_THE_CLOCK = re.compile(r"T(?:2[4-9]|[3-9][0-9])")
_PAST_THE_HOUR = re.compile(r":[6-9]")


def _first_unsound(log: EventLog, latest: str) -> None:
    """The refusal of the first event whose recorded_by or recorded_at is not one."""
    for stored in log.events:
        problem = _principal_problem(stored.recorded_by)
        if problem is not None:
            raise _provenance_refusal(log, stored, "recorded_by", problem, "a principal's name, such as admin")
        problem = _time_problem(stored.recorded_at, latest)
        if problem is not None:
            raise _provenance_refusal(log, stored, "recorded_at", problem, f"a UTC time such as {TIME_EXAMPLE}")


def _is_date(text: str) -> bool:
    try:
        datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        return False
    return True


def _principal_problem(name: object) -> str | None:
    if not isinstance(name, str) or not name:
        return f"{name!r} names nobody"
    if name != name.strip() or len(name) > MAX_PRINCIPAL:
        return f"a principal's name has no surrounding spaces and at most {MAX_PRINCIPAL} characters"
    if any(unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp") for char in name):
        return "a principal's name is one line of printable characters"
    return None


def _time_problem(text: str, latest: str) -> str | None:
    """Why ``text`` is no UTC time at or before ``latest`` (None when it is one)."""
    shape = _UTC_TIME.fullmatch(text)
    if shape is None:
        return f"{text!r} is not an RFC 3339 time in UTC (YYYY-MM-DDTHH:MM:SS[.ffffff]Z)"
    if not _is_date(shape.group(1)):
        return f"{text!r} is no date in the calendar"
    if text[:19] > latest:
        return f"{text!r} is later than this server's clock"
    return None


def _provenance_refusal(log: EventLog, stored: StoredEvent, field: str, problem: str, expected: str) -> NotationError:
    error = _fail_at(log, stored, f"event {stored.seq}: {field}: {problem}", expected)
    error.extra["field"] = field
    return error


def verify_log(
    log: EventLog, check_command: Callable[[dict], dict], folds: list[FoldedGame] | None = None
) -> FoldedGame:
    """The game the log folds to, once its chain and every event are checked; ``folds``
    (if given) receives the game after each event, so callers need not fold again."""
    if log.error is not None:
        raise log.error
    try:
        broken, log.texts = chain.checked_links(log.events, log.read_payloads, log.read_records)
    except UnicodeEncodeError:  # hashed as UTF-8: a lone surrogate's escape (\ud800) reads, but is no UTF-8
        raise _unencodable(log) from None
    if broken is not None:
        raise log.fail(log.line_of(broken), 1, f"the hash chain breaks at event {broken}", "an unaltered log")
    first = log.events[0]
    setup = _setup(log, first)
    assert log.game_id is not None  # read_logs gives a log without one its error, raised above
    game = start_game(log.game_id, setup)
    kept = folds if folds is not None else []
    kept.append(game)
    sowings: set[tuple] = set()
    for stored in log.events[1:]:
        game = _redecide(log, game, stored, check_command, sowings)
        kept.append(game)
    return game


def _unencodable(log: EventLog) -> NotationError:
    """The refusal of a log one of whose events holds text that UTF-8 cannot hold, at that event's line."""
    seq = next((seq for seq, event in enumerate(log.events, start=1) if not _encodes(event)), 1)
    return log.fail(log.line_of(seq), 1, LONE_SURROGATE)


def _encodes(event: StoredEvent) -> bool:
    try:
        chain.event_text(event, linked=True).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _setup(log: EventLog, stored: StoredEvent) -> GameCreated:
    line = log.line_of(1)
    if stored.type != GameCreated.type:
        raise log.fail(line, 1, f"a game starts with {GameCreated.type}, not {stored.type}", GameCreated.type)
    try:
        setup = GameCreated(**stored.payload)
        body = setup_body(setup)
        check_setup_fields(body)
        decided = decide_create(body)
    except TypeError as error:
        raise log.fail(line, 1, f"not a setup payload: {error}") from None
    except RecorderError as error:
        raise log.fail(line, 1, error.detail) from None
    if decided != setup:
        raise log.fail(line, 1, "the setup is not what live recording would store", "a setup as recorded")
    return setup


def _redecide(log: EventLog, game: FoldedGame, stored: StoredEvent, check_command, sowings: set[tuple]) -> FoldedGame:
    try:
        event = event_from_record(stored.type, stored.payload)
    except NullReading as error:
        raise _fail_at(log, stored, f"event {stored.seq}: {error}", "a recorded event") from None
    except (KeyError, TypeError):
        raise _fail_at(log, stored, f"{stored.type} is not an event with this payload", "a recorded event") from None
    if type(event) is Sowed:  # most of a record
        return _resowed(log, game, stored, event, check_command, sowings)
    if isinstance(event, GameCreated):
        raise _fail_at(log, stored, "a game has one setup", "a move, decision or note")
    try:
        decided, after = execute(game, check_command(command_for(event)))
    except RecorderError as error:
        raise _fail_at(log, stored, f"event {stored.seq}: {error.detail}") from None
    if decided != [event]:
        raise _not_as_recorded(log, stored)
    return after if after.version == stored.seq else apply_event(game, event, stored.seq)


def _resowed(
    log: EventLog, game: FoldedGame, stored: StoredEvent, event: Sowed, check_command, sowings: set[tuple]
) -> FoldedGame:
    """A stored sowing decided again from its fields (``commands.sowing``: every check of a
    sow command, the sowing played once) and folded with the state it gave (``after_move``,
    the reducer's step for a move, as ``commands.executed_sowing`` folds it). Its seq is the
    game's next: the chain checked that before any event was decided."""
    try:
        _check_sowing(event, check_command, sowings)
        decided, state = sowing(game, event.hole, event.player, event.clock)
    except RecorderError as error:
        raise _fail_at(log, stored, f"event {stored.seq}: {error.detail}") from None
    if decided is not event and decided != event:  # a sowing decided again is the shared event itself, mostly
        raise _not_as_recorded(log, stored)
    return after_move(game, event, stored.seq, state)


def _not_as_recorded(log: EventLog, stored: StoredEvent) -> NotationError:
    return _fail_at(log, stored, f"event {stored.seq} is not what live recording would store", "an event as recorded")


def _check_sowing(event: Sowed, check_command: Callable[[dict], dict], sowings: set[tuple]) -> None:
    """A stored sowing's command through ``check_command``, once per hole and player in a
    log (``sowings``: those that passed): the schemas' verdict on a sow command depends on
    those two texts alone, and they load it unchanged, so the sowing is then decided from
    the event's own fields (``commands.sowing``, what ``execute`` does for a sow command).
    A clock reading is left to ``commands.sowing``, whose check (``core.clocks``) refuses
    exactly what the schema's does (tests/test_time.py holds both to the same shapes): its
    values change from sowing to sowing, and the schema's nested check would cost each one."""
    key = (event.hole, event.player) if type(event.hole) is str and type(event.player) is str else None
    if key in sowings:
        return
    command = command_for(event)
    command.pop("clock", None)
    check_command(command)
    if key is not None:  # two texts are remembered; a value of any other type is checked every time
        sowings.add(key)


def _fail_at(log: EventLog, stored: StoredEvent, detail: str, expected: str | None = None) -> NotationError:
    """The refusal at the event's line (looked up only when an event is refused)."""
    return log.fail(log.line_of(stored.seq), 1, detail, expected)


def with_claims(setup: GameCreated, log: EventLog) -> GameCreated:
    """The setup with what the log claimed about its recording, labelled as claims: who
    recorded its events, when the first and last were recorded, and the log's head hash.
    Claims an earlier import kept are kept under ``earlier``."""
    events = log.events
    claims = {
        "note": "claims of an imported log, not checked: the events were recorded by the importer",
        "game_id": log.game_id,
        "recorded_by": sorted({str(e.recorded_by) for e in events if e.recorded_by is not None}),
        "recorded_at": [events[0].recorded_at, events[-1].recorded_at],
        "head_hash": events[-1].hash,
    }
    earlier = setup.metadata.get("import_claims")
    if earlier is not None:
        claims["earlier"] = earlier
    return replace(setup, metadata={**setup.metadata, "import_claims": claims})
