"""Tournament access tokens on SQLite: only their SHA-256 digests are kept."""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from .interface import utc_now
from .sql import _TOKEN_COLUMNS, _token_row, _write_transaction


class TokenTable:
    """SQLiteEventStore's arbiter tokens (issue 8): add, find by digest, list, revoke."""

    _db: Callable[[], Database]  # the store's connection for this thread (SQLiteEventStore)

    def add_token(self, token_id: str, token_hash: str, tournament_id: str, holder: str) -> dict:
        row = (token_id, token_hash, tournament_id, holder, utc_now())
        db = self._db()
        with _write_transaction(db):
            db.execute(
                "INSERT INTO tokens (token_id, token_hash, tournament_id, holder, created_at) VALUES (?, ?, ?, ?, ?)",
                row,
            )
        return {
            "token_id": token_id,
            "tournament_id": tournament_id,
            "holder": holder,
            "created_at": row[-1],
            "revoked_at": None,
        }

    def find_token(self, token_hash: str) -> dict | None:
        row = self._db().execute(f"SELECT {_TOKEN_COLUMNS} FROM tokens WHERE token_hash = ?", (token_hash,)).fetchone()
        return _token_row(row)

    def list_tokens(self, tournament_id: str) -> list[dict]:
        rows = (
            self._db()
            .execute(
                f"SELECT {_TOKEN_COLUMNS} FROM tokens WHERE tournament_id = ? ORDER BY created_at, token_id",
                (tournament_id,),
            )
            .fetchall()
        )
        return [_token_row(r) for r in rows]

    def revoke_token(self, tournament_id: str, token_id: str) -> dict | None:
        db = self._db()
        with _write_transaction(db):
            db.execute(
                "UPDATE tokens SET revoked_at = ? WHERE token_id = ? AND tournament_id = ? AND revoked_at IS NULL",
                (utc_now(), token_id, tournament_id),
            )
            row = db.execute(
                f"SELECT {_TOKEN_COLUMNS} FROM tokens WHERE token_id = ? AND tournament_id = ?",
                (token_id, tournament_id),
            ).fetchone()
        return _token_row(row)
