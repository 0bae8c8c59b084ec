"""A position key as the index of positions reached holds it (recorder/games/caches.py).

The key is a position text's first six fields (recorder/rules/position_text.py); the index
holds its digest, four integers a row instead of a text, which a bulk import sorts and
indexes for less than the texts (docs/notation.md, docs/decisions.md). Pure standard
library, as the hash chain is.
"""

from __future__ import annotations

import hashlib
import struct

_TWO_INTEGERS = struct.Struct(">qq")


def key_digest(key: str) -> tuple[int, int]:
    """The SHA-256 of the key's UTF-8 text cut to its first 128 bits, read as two signed
    64-bit integers (big-endian), high half first. PostgreSQL's migration to digests
    computes the same in SQL (recorder/store/pg_schema.py)."""
    high: int
    low: int
    high, low = _TWO_INTEGERS.unpack_from(hashlib.sha256(key.encode("utf-8")).digest())
    return high, low
