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


class LimitExceeded(RecorderError):
    """A configured limit (events per game, games or events per import) would be passed;
    ``limit`` names it and ``maximum`` gives its value (recorder/limits.py)."""

    title = "Limit exceeded"


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


class ForeignHost(RecorderError):
    """A request under a host name this server does not answer to (DNS rebinding; recorder/api/hosts.py)."""

    title = "Host not served"


class ForeignOrigin(Forbidden):
    """A write sent by a page of another origin."""

    title = "Cross-origin write refused"


class CorrectionNeeded(RecorderError):
    """A write to a board of a finished tournament that no correction announced: the
    admin records one first, with a reason (docs/tournaments.md, "Corrections")."""

    title = "Correction needed"


class PreconditionRequired(RecorderError):
    """A command that names no version (RFC 6585): a sowing is never applied to a
    position its recorder did not see."""

    title = "Precondition required"


class Unavailable(RecorderError):
    """The database cannot take the write now (disk full, locked by another process, or
    moved or replaced under the server): nothing was written; try again later."""

    title = "Service unavailable"

    def __init__(self, detail: str, retry_after: int = 5, **extra):
        super().__init__(detail, **extra)
        self.retry_after = retry_after


class RecordBroken(RecorderError):
    """The stored record fails verification (hash chain or replay), so it cannot be signed."""

    title = "Record fails verification"


class NotationError(InvalidRecord):
    """A game in notation or NDJSON that does not parse or does not replay: names the file,
    the game, the line and column and what was expected (recorder/notation/grammar.py)."""

    title = "Invalid game record"


class ChainBroken(InvalidRecord):
    """Pre-hashed events (an NDJSON archive) whose hash chain does not verify."""

    title = "Hash chain broken"


class AlreadyExists(RecorderError):
    """Something that exists once only is there already: a player's name in a tournament,
    a board's game or result (recorder/tournaments)."""

    title = "Already exists"
