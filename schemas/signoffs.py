"""The players' word on a finished game's record: confirmations, disputes, decisions
(recorder/api/signoffs.py). Who signs is the token's, never the body's."""

from marshmallow import Schema, fields, validate

from recorder.core.commands import MAX_REASON
from recorder.core.events import DECISION_OUTCOMES

from .fields import StrictInteger

MAX_DISPUTED_MOVES = 16  # as many as a dossier traces when asked (schemas/audit.py)


class SignoffSchema(Schema):
    expected_version = StrictInteger(validate=validate.Range(min=1))


class ConfirmationSchema(SignoffSchema):
    """A player confirms the record as it stands at ``expected_version``."""


class DisputeSchema(SignoffSchema):
    moves = fields.List(
        StrictInteger(validate=validate.Range(min=2)),
        load_default=list,
        validate=validate.Length(max=MAX_DISPUTED_MOVES),
        metadata={"description": "the seqs of the disputed moves (GET …/events)"},
    )
    result = fields.Boolean(load_default=False, metadata={"description": "the result itself is disputed"})
    reason = fields.String(required=True, validate=validate.Length(min=1, max=MAX_REASON))
    appeal_of = StrictInteger(
        allow_none=True,
        load_default=None,
        metadata={"description": "the seq of the decision appealed to the committee"},
    )


class DecisionSchema(SignoffSchema):
    dispute = StrictInteger(required=True, validate=validate.Range(min=2))
    outcome = fields.String(required=True, validate=validate.OneOf(DECISION_OUTCOMES))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=MAX_REASON))


confirmation_schema = ConfirmationSchema()
dispute_schema = DisputeSchema()
decision_schema = DecisionSchema()


# The stored events as commands (core.redecide.command_for), for an archive's import: the
# players' word on a record is read back from a log only as its events spell it.
class _SignoffCommandSchema(Schema):
    type = fields.String(required=True)
    expected_version = StrictInteger(validate=validate.Range(min=1))


class ConfirmCommandSchema(_SignoffCommandSchema):
    side = fields.String(required=True, validate=validate.OneOf(("south", "north")))
    player = StrictInteger(required=True, validate=validate.Range(min=1))
    upto = StrictInteger(required=True, validate=validate.Range(min=1))


class DisputeCommandSchema(ConfirmCommandSchema):
    moves = fields.List(StrictInteger(validate=validate.Range(min=2)), validate=validate.Length(max=MAX_DISPUTED_MOVES))
    result = fields.Boolean(required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=MAX_REASON))
    appeal_of = StrictInteger(allow_none=True)


class DecideCommandSchema(_SignoffCommandSchema):
    dispute = StrictInteger(required=True, validate=validate.Range(min=2))
    outcome = fields.String(required=True, validate=validate.OneOf(DECISION_OUTCOMES))
    by = fields.String(required=True, validate=validate.OneOf(("arbiter", "committee")))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=MAX_REASON))


SIGNOFF_COMMAND_SCHEMAS = {
    "confirm": ConfirmCommandSchema(),
    "dispute": DisputeCommandSchema(),
    "decide": DecideCommandSchema(),
}
