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

TOKEN_PREFIX = "rt_"
ADMIN = "admin"
ANONYMOUS = "anonymous (open mode)"
RESERVED_HOLDERS = (ADMIN, ANONYMOUS)
MAX_HOLDER = 100

Kind = Literal["admin", "arbiter", "recorder", "anonymous"]


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)  # 32 bytes = 256 bits


def new_token_id() -> str:
    return "tok-" + secrets.token_hex(6)


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
    the holder records, so it is one printable line and not a reserved principal."""
    if not isinstance(holder, str) or not holder.strip():
        return "a holder is a non-empty name"
    if holder != holder.strip() or len(holder) > MAX_HOLDER:
        return f"a holder has no surrounding spaces and at most {MAX_HOLDER} characters"
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in holder):
        return "a holder has no control characters"
    if holder.casefold() in RESERVED_HOLDERS:
        return f"{holder!r} is reserved"
    return None


@dataclass(frozen=True)
class Principal:
    """Who presented a valid token (or, with --open, nobody at all)."""

    kind: Kind
    holder: str
    tournament_id: str | None = None  # an arbiter's one tournament
    token_id: str | None = None

    @property
    def is_admin(self) -> bool:
        return self.kind == "admin"

    @property
    def identity(self) -> str:
        """What scopes this principal's Idempotency-Keys: stable across a recorder's
        rotated tokens (recorders are their holder name), one per arbiter token."""
        if self.kind == "arbiter":
            return f"arbiter:{self.token_id}"
        return f"{self.kind}:{self.holder}"


ADMIN_PRINCIPAL = Principal("admin", ADMIN)
ANONYMOUS_PRINCIPAL = Principal("anonymous", ANONYMOUS)
