"""Field types shared by the schemas: strict JSON types (GEN-31)."""

import base64
import binascii
import json
from typing import Any

from marshmallow import ValidationError, fields, validate

from recorder.core.commands import DATE_FORMS, DATE_PATTERN, is_date
from recorder.core.names import MAX_NAME, is_blank, shown_problem
from recorder.rules.values import MAX_STORED_INT

PLAYERS = ("south", "north")
MAX_HOLE_NAME = 8  # longer than any hole name: echoed in a refusal, so kept short


class Int64(fields.Integer):
    """An integer the store can hold: one past 64 bits is invalid (422), never a 500."""

    def _deserialize(self, value, attr, data, **kwargs):
        number = super()._deserialize(value, attr, data, **kwargs)
        if number is not None and not -MAX_STORED_INT - 1 <= number <= MAX_STORED_INT:
            raise ValidationError("Number out of range: integers are 64-bit.")
        return number


class StrictInteger(Int64):
    """An integer in JSON: no strings, floats or booleans (``true`` is not 1)."""

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise ValidationError("Not a valid integer.")
        return super()._deserialize(value, attr, data, **kwargs)


def player(**kwargs) -> fields.String:
    return fields.String(validate=validate.OneOf(PLAYERS), **kwargs)


# A name or a one-line text: no control character (a NUL, an escape sequence, a newline)
# and no lone surrogate; what a name says is what every record shows.
NO_CONTROLS = validate.Regexp(
    r"^[^\x00-\x1f\x7f-\x9f\ud800-\udfff]*\Z", error="no control characters (or lone surrogates)"
)


def _not_blank(value: str) -> None:
    if is_blank(value):
        raise ValidationError("must not be blank: spaces alone are no name")


def _shows_as_itself(value: str) -> None:
    """The name rule (``recorder.core.names.name_problem``) past its length: no control,
    bidi, zero-width, separator, private-use or unassigned character, and not blank."""
    problem = shown_problem(value)
    if problem is not None:
        raise ValidationError(problem)


def name(**kwargs) -> fields.String:
    """A name a person gives (a player, a club, a tournament, an event, a site, a game's
    side), as every way in takes it."""
    return fields.String(validate=[validate.Length(min=1, max=MAX_NAME), _shows_as_itself], **kwargs)


def search_name(**kwargs) -> fields.String:
    """A name searched for: one line, as ``name`` once was, so that a record stored before
    the name rule can still be found by what it holds."""
    return fields.String(validate=[validate.Length(min=1, max=MAX_NAME), NO_CONTROLS, _not_blank], **kwargs)


def _hole_name(value: str) -> None:
    if len(value) > MAX_HOLE_NAME:
        shown = json.dumps(value[:MAX_HOLE_NAME] + "…", ensure_ascii=False)
        raise ValidationError(f"{shown} is not a hole (GEN-5): a hole is a letter and a row, such as c1")


def hole(**kwargs) -> fields.String:
    """A hole coordinate such as ``c1`` (GEN-5). Which names are holes depends on the game's
    board, so the game checks them and names only its own holes; here a name is only kept short."""
    return fields.String(validate=_hole_name, **kwargs)


def date(**kwargs) -> fields.String:
    """A game's date as far as it is known, and a real one (``recorder.core.commands.is_date``);
    the pattern is shown in the OpenAPI document."""
    return fields.String(validate=_real_date, metadata={"pattern": f"^{DATE_PATTERN}$"}, **kwargs)


def _real_date(value: str) -> None:
    if not is_date(value):
        raise ValidationError(f"a date is {DATE_FORMS}")


class Cursor(fields.Field):
    """Where a list continues: the last row's ``(created_at, game_id)``, sent as an opaque
    URL-safe text. Anything else a client sends is invalid (422), never a 500."""

    MAX_LENGTH = 512
    INVALID = "Not a cursor: send the 'next' value of the previous page."

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        text = json.dumps(list(value), separators=(",", ":"), ensure_ascii=False)
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not 0 < len(value) <= self.MAX_LENGTH:
            raise ValidationError(self.INVALID)
        try:
            decoded = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
        except (binascii.Error, ValueError):
            decoded = None
        if not (isinstance(decoded, list) and len(decoded) == 2 and all(isinstance(part, str) for part in decoded)):
            raise ValidationError(self.INVALID)
        for part in decoded:  # a time and a game id: text no stored row holds is no cursor (NUL breaks PostgreSQL)
            NO_CONTROLS(part)
        return decoded[0], decoded[1]


def first_fault(messages: Any) -> tuple[str, str]:
    """The first field marshmallow refused and its first message, from its nested messages
    (a refusal is told in one line: the API's detail, the command line's error)."""
    if not isinstance(messages, dict):
        messages = {"_schema": messages}
    field = next(iter(messages), "_schema")
    return str(field), first_message(messages.get(field, ""))


def first_message(messages: Any) -> str:
    """The first leaf message of marshmallow's nested messages."""
    while isinstance(messages, dict | list) and messages:
        messages = next(iter(messages.values())) if isinstance(messages, dict) else messages[0]
    return str(messages)
