"""Bearer tokens and the principals they name (pure: standard library only).

A token is 256 random bits, shown once when issued and stored only as its SHA-256
digest. A fast hash is enough here: a slow password hash (bcrypt, argon2) protects
guessable passwords, but nobody can enumerate 2^256 tokens, so the digest reveals
nothing and lets the store find a token by an indexed lookup. A configured admin token
is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Literal

from recorder.core.names import code_point, hidden_character

TOKEN_PREFIX = "rt_"
ADMIN = "admin"
ANONYMOUS = "anonymous (open mode)"
RESERVED_HOLDERS = (ADMIN, ANONYMOUS)
MAX_HOLDER = 100

Kind = Literal["admin", "arbiter", "recorder", "anonymous", "signin", "player", "captain"]
SIGNIN_ID = re.compile(r"sig-r(?P<round>[1-9][0-9]*)-b(?P<board>[1-9][0-9]*)-[0-9a-f]{12}")
PLAYER_ID = re.compile(r"ply-p(?P<player>[1-9][0-9]*)-[0-9a-f]{12}")
CAPTAIN_ID = re.compile(r"cpt-t(?P<team>[1-9][0-9]*)-[0-9a-f]{12}")


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)  # 32 bytes = 256 bits


def new_token_id() -> str:
    return "tok-" + secrets.token_hex(6)


def new_signin_id(round_number: int, board: int) -> str:
    """A board sign-in's id names its round and board (its tournament is the row's): the
    board it may record is read from the id the service minted, never from a request."""
    return f"sig-r{round_number}-b{board}-{secrets.token_hex(6)}"


def signin_board(token_id: str | None) -> tuple[int, int] | None:
    """The (round, board) a board sign-in's id names; None for any other id."""
    match = SIGNIN_ID.fullmatch(token_id or "")
    return (int(match.group("round")), int(match.group("board"))) if match else None


def new_player_signin_id(number: int) -> str:
    """A player's sign-in id names his starting number (his tournament is the row's): the
    player it speaks for is read from the id the service minted, never from a request."""
    return f"ply-p{number}-{secrets.token_hex(6)}"


def signin_player(token_id: str | None) -> int | None:
    """The starting number a player's sign-in id names; None for any other id."""
    match = PLAYER_ID.fullmatch(token_id or "")
    return int(match.group("player")) if match else None


def new_captain_signin_id(team: int) -> str:
    """A captain's sign-in id names his team's number in its event (the event is the row's):
    the team it speaks for is read from the id the service minted, never from a request."""
    return f"cpt-t{team}-{secrets.token_hex(6)}"


def signin_team(token_id: str | None) -> int | None:
    """The team number a captain's sign-in id names; None for any other id."""
    match = CAPTAIN_ID.fullmatch(token_id or "")
    return int(match.group("team")) if match else None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def is_admin_token(presented: str, configured: str | None) -> bool:
    if not configured:
        return False
    return hmac.compare_digest(token_hash(presented), token_hash(configured))


def matches_digest(presented: str, digest: str | None) -> bool:
    return bool(digest) and hmac.compare_digest(token_hash(presented), str(digest))


_TOKEN_IN_TEXT = re.compile(r"(?i)(token=)[^&#\s]*|rt_[A-Za-z0-9_-]+")


def without_tokens(text: str) -> str:
    """``text`` (a request line, an address) with every token left out: the value of any
    ``token=`` parameter and anything that looks like one of our tokens."""
    return _TOKEN_IN_TEXT.sub(lambda found: (found.group(1) or "") + "[hidden]", text)


def holder_problem(holder: object) -> str | None:
    """Why a name cannot hold a token (None when it can): it is written into every event
    the holder records, so it is one printable line, shows as what it is, and does not
    pass for a reserved principal."""
    if not isinstance(holder, str) or not holder.strip():
        return "a holder is a non-empty name"
    if holder != holder.strip() or len(holder) > MAX_HOLDER:
        return f"a holder has no surrounding spaces and at most {MAX_HOLDER} characters"
    hidden = hidden_character(holder) or next((c for c in holder if c.isspace() and c != " "), None)
    if hidden is not None:
        return (
            f"a holder is one line of visible characters and plain spaces, without {code_point(hidden)}: "
            "no control, format (bidi, zero-width) or separator character"
        )
    if any(skeleton(holder) == skeleton(reserved) for reserved in RESERVED_HOLDERS):
        return f"{ascii(holder)} is reserved or looks like a reserved principal ({', '.join(RESERVED_HOLDERS)})"
    return None


# Latin look-alikes from Cyrillic and Greek (after NFKC and casefold), and the digits and
# signs that pass for letters: a small part of Unicode's confusables (UTS #39), enough that
# no name reads as a reserved principal.
_LOOKALIKES = {
    "a": "аα", "c": "сϲ", "d": "ԁ", "e": "еε", "h": "һ", "i": "іїιı1|!ӏl", "j": "ј", "k": "кκ",
    "m": "мμ", "n": "пηոռ", "o": "оοσ0ө", "p": "рρ", "q": "ԛ", "r": "г", "s": "ѕ", "t": "тτ",
    "u": "υս", "v": "νѵ", "w": "ԝѡω", "x": "хχ", "y": "уγ",
}  # fmt: skip
CONFUSABLES = str.maketrans({alike: latin for latin, alikes in _LOOKALIKES.items() for alike in alikes})


def skeleton(name: str) -> str:
    """What a name looks like, roughly: NFKC, casefolded, look-alikes mapped to Latin,
    marks and spaces dropped. Two names with one skeleton are taken for each other."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c) and not c.isspace())
    return plain.translate(CONFUSABLES)


@dataclass(frozen=True)
class Principal:
    """Who presented a valid token (or, with --open, nobody at all)."""

    kind: Kind
    holder: str
    tournament_id: str | None = None  # an arbiter's (or a board sign-in's) one tournament
    token_id: str | None = None

    @property
    def board(self) -> tuple[int, int] | None:
        """A board sign-in's one board, (round, board); None for every other kind."""
        return signin_board(self.token_id) if self.kind == "signin" else None

    @property
    def player(self) -> int | None:
        """A player's sign-in's starting number in its tournament; None for every other kind."""
        return signin_player(self.token_id) if self.kind == "player" else None

    @property
    def team(self) -> int | None:
        """A captain's sign-in's team number in its team event; None for every other kind."""
        return signin_team(self.token_id) if self.kind == "captain" else None

    @property
    def is_admin(self) -> bool:
        return self.kind == "admin"

    @property
    def identity(self) -> str:
        """What scopes this principal's Idempotency-Keys: stable across a recorder's
        rotated tokens (recorders are their holder name), one per arbiter token."""
        if self.kind in ("arbiter", "signin", "player", "captain"):
            return f"{self.kind}:{self.token_id}"
        return f"{self.kind}:{self.holder}"


ADMIN_PRINCIPAL = Principal("admin", ADMIN)
ANONYMOUS_PRINCIPAL = Principal("anonymous", ANONYMOUS)
