"""The access policy: one pure decision, principal x action x resource -> allowed.

Every write view reaches it through one guard (recorder/api/access.py), so the table in
docs/security.md, this function and the access-matrix test describe the same thing.

- the admin may do everything;
- an arbiter writes to one tournament: its players, rounds, boards, and the games on them;
- a recorder creates games outside tournaments and writes the games it created, not a
  game created by an import (its own import included: docs/security.md, "Imports");
- the anonymous principal exists only with ``--open``: it writes games outside tournaments;
- a board sign-in (``signin``) starts one board's game and sends its commands, until the
  game is over or the tournament finished; nothing else;
- a player's sign-in (``player``) speaks for one entrant of one tournament: he checks in
  for a round (present, or absent through the same decision as the arbiter's absence)
  and confirms or disputes the record of a game of his own; nothing else;
- a captain's sign-in (``captain``) speaks for one team of one team event: it hands in
  that team's line-up for the next round (the view holds it to his team); nothing else;
- a decision on a dispute is the tournament's arbiter's (an appeal's, the committee's,
  recorded with the admin's token);
- an arbiter's rights end with his tournament: once it is finished (or the admin has
  corrected it), its writes and its games' commands are the admin's alone;
- the player registry: the admin and any arbiter register players; the admin renames
  or re-affiliates anyone, an arbiter only a player his tournament's arbiters
  registered, entered in no other tournament, with no rated game, while his tournament
  is not finished (entering a player grants nothing over the record); merging (and
  withdrawing a merge) is the admin's alone;
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
    "start_board_game",  # POST .../boards/{b}/game: its arbiter's, or the board's sign-in
    "check_in",  # POST .../rounds/{r}/check-in: a player's own sign-in
    "submit_lineup",  # POST .../rounds/{r}/lineups: its arbiter's, or the team's captain's sign-in
    "sign_record",  # POST /api/games/{id}/confirmations, .../disputes: a player of the game
    "decide_dispute",  # POST /api/games/{id}/decisions: the arbiter of the game's tournament
    "manage_tokens",  # issue, list, revoke any token
    "register_player",  # POST /api/players
    "write_player",  # a player's names and affiliation
    "correct_result",  # a correction of a finished tournament's board: the admin's
    "admin",  # anything not named above: the admin only
]


@dataclass(frozen=True)
class Resource:
    """What is written: the tournament it belongs to (if any) and, for a game, who created it."""

    tournament_id: str | None = None
    created_by: str | None = None
    imported: bool = False  # a game created by an import: an archive copy, nobody's own
    tournaments: frozenset[str] = frozenset()  # a player's: the tournaments he entered
    registered_in: str | None = None  # a player's: the tournament whose arbiter registered him
    rated: bool = False  # a player's: a game of his counts in a rating list
    finished: bool = False  # the arbiter's tournament is finished or corrected: his rights ended
    board: tuple[int, int] | None = None  # a tournament's board written (round, board), or a board game's
    game_finished: bool = False  # a board game's: over (a board sign-in's rights end with it)
    seats: tuple[int, ...] = ()  # a board game's players' starting numbers (read for a player's sign-in)


def principal_record(principal: Principal) -> dict:
    """Who made a registry event, as the event keeps it (recorder/players/events.py)."""
    if principal.kind == "arbiter":
        return {"kind": "arbiter", "tournament_id": principal.tournament_id}
    return {"kind": principal.kind}


def allowed(principal: Principal | None, action: Action, resource: Resource) -> bool:
    if principal is None:
        return False
    if principal.is_admin:
        return True
    if principal.kind == "signin":
        return _signin_reaches(principal, action, resource)
    if principal.kind == "player":
        return _player_reaches(principal, action, resource)
    if principal.kind == "captain":
        return _captain_reaches(principal, action, resource)
    return _account_reaches(principal, action, resource)


def _account_reaches(principal: Principal, action: Action, resource: Resource) -> bool:
    """What a recorder's, an arbiter's or an anonymous token may do."""
    if action in ("import", "verify"):
        return True
    if action in ("create_game", "write_game") and resource.tournament_id is not None:
        return _arbiter_of(principal, resource.tournament_id) and not resource.finished
    if action == "create_game":
        return principal.kind in ("recorder", "anonymous")
    if action == "write_game":
        if principal.kind == "anonymous":
            return True
        return principal.kind == "recorder" and not resource.imported and resource.created_by == principal.holder
    if action in ("write_tournament", "start_board_game", "decide_dispute", "submit_lineup"):
        return _arbiter_of(principal, resource.tournament_id) and not resource.finished
    if action == "register_player":
        return principal.kind == "arbiter"
    if action == "write_player":
        return principal.kind == "arbiter" and _player_refusal(principal, resource) is None
    return False


def _signin_reaches(principal: Principal, action: Action, resource: Resource) -> bool:
    """A board sign-in starts its one board's game and sends its commands, until the game
    is over or the tournament finished; nothing else."""
    if action not in ("start_board_game", "write_game") or principal.board is None:
        return False
    if resource.tournament_id != principal.tournament_id or resource.board != principal.board:
        return False
    return not resource.finished and not resource.game_finished


def _player_reaches(principal: Principal, action: Action, resource: Resource) -> bool:
    """A player's sign-in checks him in for a round of his tournament and confirms or
    disputes his own games, until the tournament is finished; nothing else."""
    if principal.player is None or resource.tournament_id != principal.tournament_id or resource.finished:
        return False
    if action == "check_in":
        return True
    return action == "sign_record" and principal.player in resource.seats


def _captain_reaches(principal: Principal, action: Action, resource: Resource) -> bool:
    """A captain's sign-in hands in line-ups in its team event, until it is finished; nothing
    else. Which team's: his own alone (``lineup_refusal``, asked by the view of the body's team)."""
    if principal.team is None or resource.tournament_id != principal.tournament_id or resource.finished:
        return False
    return action == "submit_lineup"


def lineup_refusal(principal: Principal, team: int) -> str | None:
    """Why this principal, let through to hand in a line-up, may not hand in team ``team``'s
    (None: he may): a captain's sign-in speaks for his own team alone."""
    if principal.kind == "captain" and principal.team != team:
        return f"this sign-in hands in the line-ups of team {principal.team} only"
    return None


def _arbiter_of(principal: Principal, tournament_id: str | None) -> bool:
    return principal.kind == "arbiter" and principal.tournament_id == tournament_id


def _signin_refusal(principal: Principal, resource: Resource) -> str:
    round_number, board = principal.board or (0, 0)
    reach = f"board {board} of round {round_number} of tournament {principal.tournament_id}"
    if resource.board == principal.board and resource.tournament_id == principal.tournament_id:
        if resource.finished:
            return f"tournament {principal.tournament_id} is finished: this sign-in ended with it"
        if resource.game_finished:
            return f"the game of {reach} is over: its sign-in ended with it"
    return f"this sign-in records the game of {reach} only"


def _player_signin_refusal(principal: Principal, resource: Resource) -> str:
    reach = f"player {principal.player} of tournament {principal.tournament_id}"
    if resource.finished and resource.tournament_id == principal.tournament_id:
        return f"tournament {principal.tournament_id} is finished: this sign-in ended with it"
    return f"this sign-in speaks for {reach} only: his check-in, and his own games' confirmations and disputes"


def _captain_refusal(principal: Principal, resource: Resource) -> str:
    if resource.finished and resource.tournament_id == principal.tournament_id:
        return f"tournament {principal.tournament_id} is finished: this sign-in ended with it"
    return f"this sign-in hands in the line-ups of team {principal.team} of tournament {principal.tournament_id} only"


def _player_refusal(principal: Principal, resource: Resource) -> str | None:
    """Why an arbiter may not rename or re-affiliate this player (None: he may). Rights
    over a record come from registering it, never from entering it."""
    if resource.registered_in != principal.tournament_id:
        return "this player was not registered by this tournament's arbiter: only the admin may change his record"
    if resource.tournaments - {principal.tournament_id}:
        return "this player is entered in another tournament too: only the admin may change his record"
    if resource.rated:
        return "this player has rated games: renames and changes of affiliation are the admin's"
    if resource.finished:
        return f"tournament {principal.tournament_id} is finished: its arbiter's rights ended with it"
    return None


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
    if action == "correct_result":
        return "a correction of a finished tournament's board is the admin's alone"
    if principal.kind == "signin":
        return _signin_refusal(principal, resource)
    if principal.kind == "player":
        return _player_signin_refusal(principal, resource)
    if principal.kind == "captain":
        return _captain_refusal(principal, resource)
    if action in ("check_in", "sign_record"):
        return "a check-in, a confirmation or a dispute is the player's own, made with his sign-in"
    if resource.finished and resource.tournament_id is not None and _arbiter_of(principal, resource.tournament_id):
        return (
            f"tournament {resource.tournament_id} is finished: its arbiter's rights ended with it;"
            ' a change now is the admin\'s correction (docs/tournaments.md, "Corrections")'
        )
    if resource.tournament_id is not None:
        return f"this token does not reach tournament {resource.tournament_id}"
    if action == "write_game" and resource.imported:
        return "this game was imported: an imported record is nobody's own, only the admin may write it"
    if action == "write_game":
        return f"{principal.holder} did not create this game; only its recorder or the admin may write it"
    if action == "write_player" and principal.kind == "arbiter":
        return _player_refusal(principal, resource) or "only the admin token may do this"
    return "only the admin token may do this"
