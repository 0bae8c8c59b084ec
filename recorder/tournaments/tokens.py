"""Bearer tokens: who may write to a tournament (pure: standard library only).

An arbiter token is 256 random bits, shown once when issued and stored only as its
SHA-256 digest. A fast hash is enough here: a slow password hash (bcrypt, argon2)
protects guessable passwords, but nobody can enumerate 2^256 tokens, so the digest
reveals nothing and lets the store find a token by an indexed lookup. The admin token
comes from configuration and is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

TOKEN_PREFIX = "rt_"
ADMIN = "admin"


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)  # 32 bytes = 256 bits


def new_token_id() -> str:
    return "tok-" + secrets.token_hex(6)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def is_admin_token(presented: str, configured: str | None) -> bool:
    if not configured:
        return False
    return hmac.compare_digest(token_hash(presented), token_hash(configured))


@dataclass(frozen=True)
class Principal:
    """Who presented a valid token: the admin, or an arbiter of one tournament."""

    holder: str
    tournament_id: str | None = None  # None for the admin
    token_id: str | None = None

    @property
    def is_admin(self) -> bool:
        return self.tournament_id is None

    def may_write(self, tournament_id: str) -> bool:
        return self.is_admin or self.tournament_id == tournament_id
