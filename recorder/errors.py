"""Small named exceptions. The HTTP layer maps them to statuses in one table (api/problems.py).

Every rejected command raises one of these before anything is stored.
"""


class RecorderError(Exception):
    """Base class: a request the service understood and refused."""

    title = "Request refused"

    def __init__(self, detail: str, **extra):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class InvalidRecord(RecorderError):
    """A setup, decision or position that the rules do not allow (GEN-29, GEN-31, GEN-37, GEN-38, GEN-42)."""

    title = "Invalid record"


class IllegalMove(RecorderError):
    """A sowing or decision that is not legal in the current state (GEN-21, GEN-22)."""

    title = "Illegal move"


class EndlessSowing(IllegalMove):
    """The sowing would exceed the lap cap (GEN-16, GEN-35)."""

    title = "Sowing never ends"


class GameOver(IllegalMove):
    """No event is valid after the game is over (GEN-28)."""

    title = "Game is over"


class UnknownGame(RecorderError):
    title = "Unknown game"


class NotFound(RecorderError):
    title = "Not found"


class VersionConflict(RecorderError):
    """The expected version is stale: somebody else appended first. Never a fork."""

    title = "Version conflict"


class IdempotencyMismatch(RecorderError):
    """An Idempotency-Key reused with a different request body."""

    title = "Idempotency key reused"


class Unauthorized(RecorderError):
    title = "Authentication required"


class Forbidden(RecorderError):
    title = "Not allowed"
