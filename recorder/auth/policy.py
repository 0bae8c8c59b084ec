"""The access policy: one pure decision, principal x action x resource -> allowed.

Every write view reaches it through one guard (recorder/api/access.py), so the table in
docs/security.md, this function and the access-matrix test describe the same thing.

- the admin may do everything;
- an arbiter writes to one tournament: its players, rounds, boards, and the games on them;
- a recorder creates games outside tournaments and writes the games it created, not a
  game created by an import (its own import included: docs/security.md, "Imports");
- the anonymous principal exists only with ``--open``: it writes games outside tournaments;
- the player registry: the admin and any arbiter register players; the admin, and an
  arbiter of a tournament the player entered, rename him or change his affiliation;
  merging (and withdrawing a merge) is the admin's alone;
- anyone holding a valid token may import (each game is then decided as a creation)
  and check a checkpoint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from recorder.errors import Forbidden, Unauthorized

from .tokens import Principal

Action = Literal[
    "create_game",  # POST /api/games, and each game of an import
    "write_game",  # POST /api/games/{id}/commands
    "import",  # POST /api/import (then create_game per game)
    "verify",  # POST /api/games/{id}/verify: stores nothing, but signs with the service key
    "create_tournament",
    "write_tournament",  # players, tiebreaks, rounds, board games and results
    "manage_tokens",  # issue, list, revoke any token
    "register_player",  # POST /api/players
    "write_player",  # a player's names and affiliation
    "admin",  # anything not named above: the admin only
]


@dataclass(frozen=True)
class Resource:
    """What is written: the tournament it belongs to (if any) and, for a game, who created it."""

    tournament_id: str | None = None
    created_by: str | None = None
    imported: bool = False  # a game created by an import: an archive copy, nobody's own
    tournaments: frozenset[str] = frozenset()  # a player's: the tournaments he entered


def allowed(principal: Principal | None, action: Action, resource: Resource) -> bool:
    if principal is None:
        return False
    if principal.is_admin:
        return True
    if action in ("import", "verify"):
        return True
    if action in ("create_game", "write_game") and resource.tournament_id is not None:
        return principal.kind == "arbiter" and principal.tournament_id == resource.tournament_id
    if action == "create_game":
        return principal.kind in ("recorder", "anonymous")
    if action == "write_game":
        if principal.kind == "anonymous":
            return True
        return principal.kind == "recorder" and not resource.imported and resource.created_by == principal.holder
    if action == "write_tournament":
        return principal.kind == "arbiter" and principal.tournament_id == resource.tournament_id
    if action == "register_player":
        return principal.kind == "arbiter"
    if action == "write_player":
        return principal.kind == "arbiter" and principal.tournament_id in resource.tournaments
    return False


def require(principal: Principal | None, presented: bool, action: Action, resource: Resource) -> Principal:
    """The principal when allowed; 401 without a valid token, 403 with one that does not reach."""
    if principal is None:
        detail = "the bearer token is unknown or revoked" if presented else "this write needs a bearer token"
        raise Unauthorized(detail)
    if principal.kind == "anonymous" and not allowed(principal, action, resource):
        raise Unauthorized("open mode covers games outside tournaments only: this write needs a bearer token")
    if not allowed(principal, action, resource):
        raise Forbidden(refusal(principal, action, resource))
    return principal


def refusal(principal: Principal, action: Action, resource: Resource) -> str:
    """Why ``principal`` may not do ``action`` on ``resource``, in one line."""
    if resource.tournament_id is not None:
        return f"this token does not reach tournament {resource.tournament_id}"
    if action == "write_game" and resource.imported:
        return "this game was imported: an imported record is nobody's own, only the admin may write it"
    if action == "write_game":
        return f"{principal.holder} did not create this game; only its recorder or the admin may write it"
    if action == "write_player":
        return "an arbiter writes only to the players of his tournament; this player did not enter it"
    return "only the admin token may do this"
