"""Field types shared by the schemas: strict JSON types (GEN-31)."""

from marshmallow import ValidationError, fields, validate

PLAYERS = ("south", "north")


class StrictInteger(fields.Integer):
    """An integer in JSON: no strings, floats or booleans (``true`` is not 1)."""

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise ValidationError("Not a valid integer.")
        return super()._deserialize(value, attr, data, **kwargs)


def player(**kwargs) -> fields.String:
    return fields.String(validate=validate.OneOf(PLAYERS), **kwargs)


def name(**kwargs) -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=200), **kwargs)


def hole(**kwargs) -> fields.String:
    """A hole coordinate such as ``c1`` (GEN-5); the board it belongs to is checked later."""
    return fields.String(validate=validate.Regexp(r"^[a-f][1-3]$", error="not a hole name (GEN-5)"), **kwargs)
