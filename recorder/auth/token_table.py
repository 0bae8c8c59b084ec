"""Access tokens (recorder/auth): a component beside the event store, on its database.

Tokens are records, not events: issued, listed and revoked, never replayed, so the
store's interface knows nothing of them. Only SHA-256 digests are kept, never tokens.
One table for every kind: ``arbiter`` (scoped to a tournament), ``recorder`` (issued by
the admin) and ``admin`` (the digest of the first-run admin token, token_id ``admin``).
The table is described in tables.py and created by the store when a ``TokenTable`` hands it over.
"""

from __future__ import annotations

from recorder.store import Tables, Tx, utc_now

from .tables import SCHEMA

TOKEN_COLUMNS = "token_id, kind, tournament_id, holder, created_at, revoked_at"
ADMIN_ROW = "admin"


def _token_row(row: tuple | None) -> dict | None:
    return None if row is None else dict(zip(TOKEN_COLUMNS.split(", "), row))


class TokenTable:
    """The tokens on the store's SQLite file: add, find by digest, list, revoke, the admin digest.

    Uses the store's connection for this thread and its write transactions, so a token
    written here waits on the same write lock as an append.
    """

    def __init__(self, store: Tables):
        self.store = store
        store.ensure(SCHEMA)

    def _handle(self) -> Tx:
        return self.store.handle()

    def add_token(
        self, token_id: str, token_hash: str, kind: str, holder: str, tournament_id: str | None = None
    ) -> dict:
        """Store a token's digest (never the token itself); returns its row."""
        row = (token_id, token_hash, kind, tournament_id, holder, utc_now())
        with self.store.transaction() as db:
            db.execute(
                "INSERT INTO access_tokens (token_id, token_hash, kind, tournament_id, holder, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                row,
            )
        return _token_row((token_id, kind, tournament_id, holder, row[-1], None)) or {}

    def find_token(self, token_hash: str) -> dict | None:
        """The row of the token with this digest, revoked or not; None if unknown."""
        db = self._handle()
        row = db.execute(f"SELECT {TOKEN_COLUMNS} FROM access_tokens WHERE token_hash = ?", (token_hash,)).fetchone()
        return _token_row(row)

    def list_tokens(self, *, kind: str | None = None, tournament_id: str | None = None) -> list[dict]:
        """Token rows, oldest first, of one kind and/or tournament (digests are never returned)."""
        clauses, params = ["kind != 'admin'"], []
        if kind is not None:
            clauses.append("kind = ?")
            params.append(kind)
        if tournament_id is not None:
            clauses.append("tournament_id = ?")
            params.append(tournament_id)
        sql = f"SELECT {TOKEN_COLUMNS} FROM access_tokens WHERE {' AND '.join(clauses)} ORDER BY created_at, token_id"
        return [r for r in map(_token_row, self._handle().execute(sql, params).fetchall()) if r]  # type: ignore[attr-defined]

    def revoke_token(self, token_id: str, *, tournament_id: str | None = None) -> dict | None:
        """Mark a token revoked (a second revocation changes nothing); None if unknown."""
        scope, params = ("AND tournament_id = ?", [tournament_id]) if tournament_id is not None else ("", [])
        with self.store.transaction() as db:
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
        """The digest of the first-run admin token, if one was created."""
        db = self._handle()
        row = db.execute(
            "SELECT token_hash FROM access_tokens WHERE token_id = ? AND revoked_at IS NULL", (ADMIN_ROW,)
        ).fetchone()
        return row[0] if row else None

    def set_admin_digest(self, digest: str) -> None:
        """Keep (or replace) the first-run admin token's digest."""
        with self.store.transaction() as db:
            db.execute("DELETE FROM access_tokens WHERE token_id = ?", (ADMIN_ROW,))
            db.execute(
                "INSERT INTO access_tokens (token_id, token_hash, kind, tournament_id, holder, created_at)"
                " VALUES (?, ?, 'admin', NULL, 'admin', ?)",
                (ADMIN_ROW, digest, utc_now()),
            )
