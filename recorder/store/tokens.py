"""Access tokens on SQLite (recorder/auth): only SHA-256 digests are kept, never tokens.

One table for every kind: ``arbiter`` (scoped to a tournament), ``recorder`` (issued by
the admin) and ``admin`` (the digest of the first-run admin token, token_id ``admin``).
A database from before recorder tokens keeps its arbiter tokens: they are copied from
the old ``tokens`` table when this one is created.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from .interface import utc_now
from .sql import _write_transaction

TOKEN_COLUMNS = "token_id, kind, tournament_id, holder, created_at, revoked_at"
ADMIN_ROW = "admin"


def _create_token_table(db: Database) -> None:
    """Called inside init_schema's write transaction."""
    fresh = "access_tokens" not in db.table_names()
    tokens = db.table("access_tokens").create(
        {
            "token_id": str,
            "token_hash": str,
            "kind": str,
            "tournament_id": str,
            "holder": str,
            "created_at": str,
            "revoked_at": str,
        },
        pk="token_id",
        not_null=["token_id", "token_hash", "kind", "holder", "created_at"],
        if_not_exists=True,
    )
    tokens.create_index(["token_hash"], unique=True, if_not_exists=True)
    tokens.create_index(["tournament_id"], if_not_exists=True)
    if fresh and "tokens" in db.table_names():
        db.execute(
            "INSERT INTO access_tokens (token_id, token_hash, kind, tournament_id, holder, created_at, revoked_at)"
            " SELECT token_id, token_hash, 'arbiter', tournament_id, holder, created_at, revoked_at FROM tokens"
        )


def _token_row(row: tuple | None) -> dict | None:
    return None if row is None else dict(zip(TOKEN_COLUMNS.split(", "), row))


class TokenTable:
    """SQLiteEventStore's tokens: add, find by digest, list, revoke, the admin digest."""

    _db: Callable[[], Database]  # the store's connection for this thread (SQLiteEventStore)

    def add_token(
        self, token_id: str, token_hash: str, kind: str, holder: str, tournament_id: str | None = None
    ) -> dict:
        row = (token_id, token_hash, kind, tournament_id, holder, utc_now())
        db = self._db()
        with _write_transaction(db):
            db.execute(
                "INSERT INTO access_tokens (token_id, token_hash, kind, tournament_id, holder, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                row,
            )
        return _token_row((token_id, kind, tournament_id, holder, row[-1], None)) or {}

    def find_token(self, token_hash: str) -> dict | None:
        db = self._db()
        row = db.execute(f"SELECT {TOKEN_COLUMNS} FROM access_tokens WHERE token_hash = ?", (token_hash,)).fetchone()
        return _token_row(row)

    def list_tokens(self, *, kind: str | None = None, tournament_id: str | None = None) -> list[dict]:
        clauses, params = ["kind != 'admin'"], []
        if kind is not None:
            clauses.append("kind = ?")
            params.append(kind)
        if tournament_id is not None:
            clauses.append("tournament_id = ?")
            params.append(tournament_id)
        sql = f"SELECT {TOKEN_COLUMNS} FROM access_tokens WHERE {' AND '.join(clauses)} ORDER BY created_at, token_id"
        return [r for r in map(_token_row, self._db().execute(sql, params).fetchall()) if r]  # type: ignore[attr-defined]

    def revoke_token(self, token_id: str, *, tournament_id: str | None = None) -> dict | None:
        scope, params = ("AND tournament_id = ?", [tournament_id]) if tournament_id is not None else ("", [])
        db = self._db()
        with _write_transaction(db):
            db.execute(
                f"UPDATE access_tokens SET revoked_at = ? WHERE token_id = ? AND kind != 'admin'"
                f" AND revoked_at IS NULL {scope}",
                [utc_now(), token_id, *params],
            )
            row = db.execute(
                f"SELECT {TOKEN_COLUMNS} FROM access_tokens WHERE token_id = ? AND kind != 'admin' {scope}",
                [token_id, *params],
            ).fetchone()
        return _token_row(row)

    def admin_digest(self) -> str | None:
        db = self._db()
        row = db.execute(
            "SELECT token_hash FROM access_tokens WHERE token_id = ? AND revoked_at IS NULL", (ADMIN_ROW,)
        ).fetchone()
        return row[0] if row else None

    def set_admin_digest(self, digest: str) -> None:
        db = self._db()
        with _write_transaction(db):
            db.execute("DELETE FROM access_tokens WHERE token_id = ?", (ADMIN_ROW,))
            db.execute(
                "INSERT INTO access_tokens (token_id, token_hash, kind, tournament_id, holder, created_at)"
                " VALUES (?, ?, 'admin', NULL, 'admin', ?)",
                (ADMIN_ROW, digest, utc_now()),
            )
