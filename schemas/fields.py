"""Field types shared by the schemas: strict JSON types (GEN-31)."""

from marshmallow import ValidationError, fields, validate

PLAYERS = ("south", "north")
# The largest integer the store can hold (SQLite INTEGER): larger counts, offsets or event
# numbers are refused as invalid (422) instead of overflowing into a 500 (issue 10, fuzzing).
MAX_STORED_INT = 2**63 - 1


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
    "^[^\x00-\x1f\x7f-\x9f\ud800-\udfff]*\\Z", error="no control characters (or lone surrogates)"
)


def name(**kwargs) -> fields.String:
    return fields.String(validate=[validate.Length(min=1, max=200), NO_CONTROLS], **kwargs)


def hole(**kwargs) -> fields.String:
    """A hole coordinate such as ``c1`` (GEN-5); the board it belongs to is checked later."""
    return fields.String(validate=validate.Regexp(r"^[a-f][1-3]\Z", error="not a hole name (GEN-5)"), **kwargs)
