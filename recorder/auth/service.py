"""Authentication over the token table: token -> principal, issuing and revoking tokens,
and the first-run admin token. No Flask (the API and the CLI both use it).

The admin is whoever presents ``RECORDER_ADMIN_TOKEN`` (configuration wins) or, when
none is configured, the token ``recorder serve`` created on its first start, of which
the database keeps only the digest and a file beside the database (mode 0600) the token.
"""

from __future__ import annotations

import os
from pathlib import Path

from recorder.errors import InvalidRecord, NotFound
from recorder.store import StoreBackend

from .token_table import TokenTable
from .tokens import (
    ADMIN_PRINCIPAL,
    ANONYMOUS_PRINCIPAL,
    Principal,
    holder_problem,
    is_admin_token,
    matches_digest,
    new_captain_signin_id,
    new_player_signin_id,
    new_signin_id,
    new_token,
    new_token_id,
    signin_board,
    signin_player,
    signin_team,
    token_hash,
)

TOKEN_FILE_SUFFIX = ".admin-token"


class Authenticator:
    def __init__(self, store: StoreBackend, admin_token: str | None = None, *, open_mode: bool = False):
        self.tokens = TokenTable(store)
        self.admin_token = admin_token or None
        self.open_mode = open_mode

    def has_admin(self) -> bool:
        return self.admin_token is not None or self.tokens.admin_digest() is not None

    def authenticate(self, token: str | None) -> Principal | None:
        """The holder of a valid token; the anonymous principal for no token in open mode;
        None for an unknown or revoked token (a wrong token is never anonymous)."""
        if not token:
            return ANONYMOUS_PRINCIPAL if self.open_mode else None
        if self.admin_token is not None:
            if is_admin_token(token, self.admin_token):
                return ADMIN_PRINCIPAL
        row = self.tokens.find_token(token_hash(token))
        if row is None or row["revoked_at"] is not None:
            return None
        if row["kind"] == "admin":
            # the first-run token counts only while no admin token is configured
            ok = self.admin_token is None and matches_digest(token, self.tokens.admin_digest())
            return ADMIN_PRINCIPAL if ok else None
        return Principal(row["kind"], row["holder"], row["tournament_id"], row["token_id"])

    # -- Issuing ----------------------------------------------------------------------

    def issue(self, kind: str, holder: str, tournament_id: str | None = None) -> tuple[dict, str]:
        """A new arbiter or recorder token: (its row, the token, shown only now)."""
        problem = holder_problem(holder)
        if problem is not None:
            raise InvalidRecord(problem, field="holder")
        token = new_token()
        return self.tokens.add_token(new_token_id(), token_hash(token), kind, holder, tournament_id), token

    def issue_signin(self, tournament_id: str, round_number: int, board: int) -> tuple[dict, str]:
        """A board sign-in: it records board ``board`` of round ``round_number`` only; the
        board's earlier sign-ins are revoked (a card lost or printed again)."""
        for row in self.board_signins(tournament_id, round_number, board):
            if row["revoked_at"] is None:
                self.revoke(row["token_id"], tournament_id)
        token = new_token()
        token_id = new_signin_id(round_number, board)
        holder = f"Board {board} of round {round_number}"  # what the game's events record
        return self.tokens.add_token(token_id, token_hash(token), "signin", holder, tournament_id), token

    def board_signins(self, tournament_id: str, round_number: int, board: int | None = None) -> list[dict]:
        """The sign-ins of a round (of one board), revoked ones too, oldest first."""
        rows = self.tokens.list_tokens(kind="signin", tournament_id=tournament_id)
        boards = [(row, signin_board(row["token_id"])) for row in rows]
        return [row for row, at in boards if at is not None and at[0] == round_number and board in (None, at[1])]

    def issue_player_signin(self, tournament_id: str, number: int) -> tuple[dict, str]:
        """A player's sign-in: it speaks for player ``number`` of the tournament only (check
        in, confirm or dispute his own game's result); his earlier sign-ins are revoked (a
        badge lost or printed again)."""
        for row in self.player_signins(tournament_id, number):
            if row["revoked_at"] is None:
                self.revoke(row["token_id"], tournament_id)
        token = new_token()
        holder = f"Player {number}"  # what his confirmations and disputes record
        row = self.tokens.add_token(new_player_signin_id(number), token_hash(token), "player", holder, tournament_id)
        return row, token

    def player_signins(self, tournament_id: str, number: int | None = None) -> list[dict]:
        """The players' sign-ins of a tournament (of one player), revoked ones too, oldest first."""
        rows = self.tokens.list_tokens(kind="player", tournament_id=tournament_id)
        return [
            row
            for row in rows
            if signin_player(row["token_id"]) is not None and number in (None, signin_player(row["token_id"]))
        ]

    def issue_captain_signin(self, tournament_id: str, team: int) -> tuple[dict, str]:
        """A captain's sign-in: it hands in team ``team``'s line-ups in its team event and
        does nothing else; the team's earlier captain's sign-ins are revoked (a card lost)."""
        for row in self.captain_signins(tournament_id, team):
            if row["revoked_at"] is None:
                self.revoke(row["token_id"], tournament_id)
        token = new_token()
        holder = f"Captain of team {team}"  # what his line-ups' events record
        row = self.tokens.add_token(new_captain_signin_id(team), token_hash(token), "captain", holder, tournament_id)
        return row, token

    def captain_signins(self, tournament_id: str, team: int) -> list[dict]:
        """A team's captain's sign-ins, revoked ones too, oldest first."""
        rows = self.tokens.list_tokens(kind="captain", tournament_id=tournament_id)
        return [row for row in rows if signin_team(row["token_id"]) == team]

    def revoke(self, token_id: str, tournament_id: str | None = None) -> dict:
        row = self.tokens.revoke_token(token_id, tournament_id=tournament_id)
        if row is None:
            where = f" in {tournament_id}" if tournament_id else ""
            raise NotFound(f"no token {token_id!r}{where}", token_id=token_id)
        return row

    # -- The first-run admin token ------------------------------------------------------

    def first_run_token(self, db_path: str) -> str | None:
        """With no admin token configured: the token in the file beside the database,
        created (digest in the database, file mode 0600) when missing or not matching.
        None when an admin token is configured (then there is nothing to print)."""
        if self.admin_token is not None:
            return None
        path = token_file(db_path)
        token = _read_token(path)
        if token is not None and matches_digest(token, self.tokens.admin_digest()):
            return token
        token = new_token()
        _write_private(path, token)
        self.tokens.set_admin_digest(token_hash(token))
        return token


def token_file(db_path: str) -> Path:
    return Path(str(db_path) + TOKEN_FILE_SUFFIX)


def _read_token(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def _write_private(path: Path, text: str) -> None:
    """Write a secret readable by its owner only (created 0600, never world-readable)."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (text + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
