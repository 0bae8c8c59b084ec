"""The access tokens' table, described once (recorder/store/tables.py), handed to the
store by ``TokenTable`` (token_table.py). A database from before recorder tokens keeps its
arbiter tokens: they are copied from the old ``tokens`` table when this one is created.
"""

from __future__ import annotations

from typing import Any

from recorder.store.tables import Column, Schema, index, register, table

# Digests of every kind (``arbiter``, ``recorder``, ``admin``).
ACCESS_TOKENS = table(
    "access_tokens",
    [
        Column("token_id", not_null=True),
        Column("token_hash", not_null=True),
        Column("kind", not_null=True),
        Column("tournament_id"),
        Column("holder", not_null=True),
        Column("created_at", not_null=True),
        Column("revoked_at"),
    ],
    "token_id",
    index("idx_access_tokens_token_hash", "token_hash", unique=True),
    index("idx_access_tokens_tournament_id", "tournament_id"),
)


def _fill(db: Any, existed: set[str]) -> None:
    if "access_tokens" not in existed and "tokens" in existed:  # arbiter tokens from before recorder tokens
        db.execute(
            "INSERT INTO access_tokens (token_id, token_hash, kind, tournament_id, holder, created_at, revoked_at)"
            " SELECT token_id, token_hash, 'arbiter', tournament_id, holder, created_at, revoked_at FROM tokens"
        )


SCHEMA = register(Schema("auth", (ACCESS_TOKENS,), fill=_fill))
