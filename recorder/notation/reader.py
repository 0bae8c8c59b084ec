"""Notation read back into events, through the very commands live recording uses.

``read_game(parsed)`` turns one parsed game into its setup and events: the tags become
the setup (``commands.decide_create``), every sowing and decision becomes a command
decided on the game so far (``commands.decide``) and folded (``game.apply_event``). The
turn numbers, sides and passes the text shows are checked against what the engine says
(``turns.Line``). Nothing is stored here; any refusal is a NotationError that names the
file, game, line, column and what was expected. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from recorder.core.clocks import TIME_CONTROL_FORM, time_control_of
from recorder.core.commands import DATE_FORMS, decide, decide_create, is_date
from recorder.core.events import Event, GameCreated
from recorder.core.game import FoldedGame
from recorder.core.names import name_problem
from recorder.errors import InvalidRecord, NotationError, RecorderError
from recorder.rules import find_variant
from recorder.rules.values import MAX_STORED_INT

from .grammar import ParsedGame, Tag, Token
from .turns import Line
from .writer import LATE_METADATA_TAGS, METADATA_TAGS, SIDE_LETTERS, result_token

Check = Callable[[dict], dict]
PLAYER_TAGS = {"South": "south", "North": "north"}
REQUIRED_TAGS = ("South", "North", "Result", "Variant")
KNOWN_TAGS = (
    *(name for name, _ in METADATA_TAGS),
    *REQUIRED_TAGS,
    "FirstPlayer",
    "Position",
    *(name for name, _ in LATE_METADATA_TAGS),
    "TimeControl",
)
FIELD_TAGS = {
    "variant": "Variant",
    "first_player": "FirstPlayer",
    "position": "Position",
    "south": "South",
    "north": "North",
    "time_control": "TimeControl",
    **{key: name for name, key in METADATA_TAGS + LATE_METADATA_TAGS},
}


@dataclass(frozen=True)
class ReadGame:
    setup: GameCreated
    events: tuple[Event, ...]  # after the setup, in order
    game: FoldedGame  # the game after them


def _same(value: dict) -> dict:
    return value


def read_game(parsed: ParsedGame, *, check_command: Check = _same) -> ReadGame:
    """The game's events, validated; NotationError for the first thing that is wrong.

    ``check_command`` lets the caller pass each command through the same boundary check
    as the HTTP API (its schema) before it is decided."""
    if parsed.error is not None:
        raise parsed.error
    body = setup_body(parsed)
    try:
        check_setup_fields(body)
        setup = decide_create(body)
    except RecorderError as error:
        raise _at_tag(parsed, error) from None
    reader = _Reader(parsed, setup, check_command)
    for token in parsed.tokens:
        reader.take(token)
    return ReadGame(setup, tuple(reader.events), reader.line.game)


def setup_body(parsed: ParsedGame) -> dict:
    """The tags as a ``POST /api/games`` body, each tag checked for its name and type."""
    for name in REQUIRED_TAGS:
        if parsed.tag(name) is None:
            first = parsed.tags[0] if parsed.tags else None
            raise _fail(parsed, first, f"the {name} tag is missing", f'[{name} "..."]')
    variant = _string(parsed, parsed.required_tag("Variant"))
    try:
        options_spec = find_variant(variant).OPTIONS
    except InvalidRecord as error:
        raise _fail(parsed, parsed.tag("Variant"), error.detail, "a variant id") from None
    body: dict = {"variant": variant, "options": {}}
    for tag in parsed.tags:
        if tag.name[0].islower():
            body["options"][tag.name] = _option(parsed, tag, options_spec)
        elif tag.name == "Position":
            if not isinstance(tag.value, dict):
                raise _fail(parsed, tag, "the Position tag takes a JSON object", '{"holes": ...}')
            body["position"] = tag.value
        elif tag.name == "TimeControl":
            body["time_control"] = _time_control(parsed, tag)
        elif tag.name not in KNOWN_TAGS:
            raise _fail(parsed, tag, f"unknown tag {tag.name}", "one of " + ", ".join(KNOWN_TAGS) + " or an option")
        elif tag.name in ("Round", "Board") and isinstance(tag.value, int):
            _add_tag(body, tag.name, tag.value)
        elif tag.name != "Variant":
            _add_tag(body, tag.name, _string(parsed, tag))
    return body


def check_setup_fields(body: dict) -> None:
    """The limits ``POST /api/games`` puts on a setup's names and metadata (GEN-31):
    names as ``recorder.core.names.name_problem`` takes them, an ISO date, a player for
    ``first_player``. Round and board may also be whole numbers from 0 to 2**63 - 1 (what
    the store's integers hold), as a tournament's games carry them."""
    if not isinstance(body.get("variant"), str) or not isinstance(body.get("options", {}), dict):
        raise InvalidRecord("variant is a variant id and options an object of option values", field="variant")
    for field in ("south", "north", "event", "site", "round", "tournament_id", "board", "south_player", "north_player"):
        value = body.get(field)
        if field in ("round", "board") and isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value <= MAX_STORED_INT:
                raise InvalidRecord(
                    f"{field} must be a whole number from 0 to {MAX_STORED_INT}, or a name", field=field
                )
            continue
        problem = name_problem(value) if value is not None or field in ("south", "north") else None
        if problem is not None:
            raise InvalidRecord(f"{field} must be a name: {problem}", field=field)
    date = body.get("date")
    if date is not None and not is_date(date):
        raise InvalidRecord(f"date must be {DATE_FORMS}", field="date")
    if body.get("first_player") not in (None, "south", "north"):
        raise InvalidRecord("first_player must be south or north", field="first_player")


def _add_tag(body: dict, name: str, value) -> None:
    if name in PLAYER_TAGS:
        body[PLAYER_TAGS[name]] = value
    elif name == "FirstPlayer":
        body["first_player"] = value
    elif name != "Result":
        body[dict(METADATA_TAGS + LATE_METADATA_TAGS)[name]] = value


def _option(parsed: ParsedGame, tag: Tag, spec) -> object:
    option = spec.get(tag.name)
    if option is None:
        raise _fail(parsed, tag, f"{tag.name} is not an option of this variant", "one of " + ", ".join(spec))
    text = _string(parsed, tag)
    for choice in option.choices:
        if text == _option_text(choice):
            return choice
    allowed = ", ".join(_option_text(choice) for choice in option.choices)
    raise _fail(parsed, tag, f"option {tag.name} is {allowed}, not {text!r}", allowed)


def _option_text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _time_control(parsed: ParsedGame, tag: Tag) -> dict:
    control = time_control_of(_string(parsed, tag))
    if control is None:
        raise _fail(parsed, tag, "the TimeControl tag is not a time control", TIME_CONTROL_FORM)
    return control


def _string(parsed: ParsedGame, tag: Tag) -> str:
    if not isinstance(tag.value, str):
        raise _fail(parsed, tag, f"the {tag.name} tag takes a quoted string", f'[{tag.name} "..."]')
    return tag.value


def _fail(parsed: ParsedGame, where, detail: str, expected: str | None = None) -> NotationError:
    line, column = (where.line, where.column) if where is not None else (1, 1)
    return parsed.fail(line, column, detail, expected)


def _at_tag(parsed: ParsedGame, error: RecorderError) -> NotationError:
    """A refused setup, located at the tag it is about."""
    name = error.extra.get("option") or FIELD_TAGS.get(str(error.extra.get("field")), "Variant")
    return _fail(parsed, parsed.tag(name) or parsed.tag("Variant"), error.detail)


class _Reader:
    """Takes movetext tokens one by one, checking the turn structure as it goes."""

    def __init__(self, parsed: ParsedGame, setup: GameCreated, check_command: Check):
        self.parsed, self.check = parsed, check_command
        self.line = Line("import", setup)
        self.events: list[Event] = []
        self.marker: Token | None = None  # a turn number waiting for its first hole
        self.pending_pass: tuple[int, str] | None = None  # the pass turn the engine says comes next

    def fail(self, token: Token, detail: str, expected: str | None = None) -> NotationError:
        return self.parsed.fail(token.line, token.column, detail, expected)

    def take(self, token: Token) -> None:
        if self.marker is not None and token.kind not in ("hole", "pass"):
            number = self.marker.value[0]
            raise self.fail(token, f"turn {number} has no sowing", "a hole" + (" or --" if self.pending_pass else ""))
        if self.pending_pass is not None and self.marker is None and token.kind != "turn":
            raise self.fail(token, f"{self.pending_pass[1]} passes here (GEN-19)", self._pass_text())
        getattr(self, "_" + token.kind)(token)

    def _pass_text(self) -> str:
        if self.pending_pass is None:
            raise ValueError("no pass is pending")
        number, side = self.pending_pass
        return f"{number}. {SIDE_LETTERS[side]} --"

    def _turn(self, token: Token) -> None:
        number, side = token.value
        if self.pending_pass is not None:
            if (number, side) != self.pending_pass:
                raise self.fail(token, f"{self.pending_pass[1]} passes here (GEN-19)", self._pass_text())
            self.marker = token
            return
        mark, state = self.line.mark, self.line.state
        if mark.open is not None:
            raise self.fail(token, f"turn {mark.turn} goes on: {mark.open} sows again (GEN-18)", "a hole")
        if state.to_move is None or state.awaiting:
            raise self.fail(token, _nothing_to_sow(state), "a decision, a comment or the result")
        expected = f"{mark.turn + 1}. {SIDE_LETTERS[state.to_move.json]}"
        if number != mark.turn + 1 or side != state.to_move.json:
            raise self.fail(token, f"the next turn is {expected}, not {number}. {SIDE_LETTERS[side]}", expected)
        self.marker = token

    def _hole(self, token: Token) -> None:
        if self.marker is not None:
            side = self.marker.value[1]
            if self.pending_pass is not None:
                raise self.fail(token, f"{side} passes in this turn (GEN-19)", "--")
        elif self.line.mark.open is not None:
            side = self.line.mark.open
        else:
            state = self.line.state
            expected = f"{self.line.mark.turn + 1}. {SIDE_LETTERS[state.to_move.json]}" if state.to_move else None
            raise self.fail(token, "a sowing that starts a turn follows its turn number", expected)
        self.marker = None
        command = {"type": "sow", "hole": token.value, "player": side}
        self._record(token, command if token.clock is None else {**command, "clock": token.clock})

    def _pass(self, token: Token) -> None:
        if self.marker is None or self.pending_pass is None:
            raise self.fail(token, "nobody passes here: the player to move has a legal sowing (GEN-19)", "a hole")
        self.marker = self.pending_pass = None

    def _command(self, token: Token) -> None:
        command = token.value
        if command["type"] == "next_round" and token.round != self.line.state.round + 1:
            expected = str(self.line.state.round + 1)
            raise self.fail(token, f"the next round is round {expected}, not {token.round}", expected)
        self._record(token, command if token.clock is None else {**command, "clock": token.clock})

    def _result(self, token: Token) -> None:
        actual = result_token(self.line.state)
        if token.value != actual:
            raise self.fail(token, f"the moves give the result {actual}, not {token.value}", actual)
        tag = self.parsed.required_tag("Result")
        if tag.value != actual:
            raise _fail(
                self.parsed, tag, f"the Result tag says {tag.value!r} but the game's result is {actual}", actual
            )

    def _record(self, token: Token, command: dict) -> None:
        """Decide the command on the game so far, exactly as live recording does."""
        try:
            events = decide(self.line.game, self.check(command))
        except RecorderError as error:
            raise self.fail(token, error.detail, _expected(error)) from None
        for event in events:
            step = self.line.apply(self.line.game.version + 1, event)
            self.events.append(event)
            if step.pass_turn is not None and step.passer is not None:
                self.pending_pass = (step.pass_turn, step.passer)


def _expected(error: RecorderError) -> str | None:
    extra = error.extra
    if extra.get("awaiting"):
        return f"the {extra['awaiting']} decision"
    if extra.get("legal_moves"):
        return "one of " + " ".join(extra["legal_moves"])
    return None


def _nothing_to_sow(state) -> str:
    if state.game_over:
        return "the game is over: no sowing follows (GEN-28)"
    if state.awaiting:
        return f"no sowing now: {state.awaiting} is awaited (GEN-22)"
    return "no sowing is due now"
