"""What decides an arbiter's rights over a registry record (recorder/auth/policy.py):
the tournaments the person entered, which tournament's arbiter registered him, and
whether any game of his was rated.

Read from the registry's entries, the player's registration event, the published rating
lists and the tournaments' board games (their result changes, ``game_results``); the
records merged into him count as his. Entering a player is not among these: it grants
nothing over his record.
"""

from __future__ import annotations

from dataclasses import dataclass

from recorder.games.service import Recorder
from recorder.tournaments import board_game_id
from recorder.tournaments.service import Tournaments

from . import is_player_id
from .record import merged_into
from .service import Players


@dataclass(frozen=True)
class Reach:
    tournaments: frozenset[str]  # every tournament he (or a record merged into him) entered
    registered_in: str | None  # the tournament whose arbiter registered him; None: the admin, or not recorded
    rated: bool  # a game of his counts, or counted, in a rating list


NOBODY = Reach(frozenset(), None, False)


def player_reach(recorder: Recorder, players: Players, player_id: str) -> Reach:
    if not is_player_id(player_id) or not recorder.store.read(player_id, upto=1):
        return NOBODY  # the view answers 404; the policy gives an arbiter nothing over no record
    ids = merged_into(players, player_id)
    entries = players.tables.tournaments_of(ids)
    return Reach(
        tournaments=frozenset(tournament_id for tournament_id, _ in entries),
        registered_in=registered_in(recorder, player_id),
        rated=any(players.tables.rated(i) for i in ids) or played_rated(recorder, entries),
    )


def registered_in(recorder: Recorder, player_id: str) -> str | None:
    """The tournament of the arbiter who registered the player, from his first event."""
    principal = recorder.store.read(player_id, upto=1)[0].payload.get("principal") or {}
    return principal.get("tournament_id") if principal.get("kind") == "arbiter" else None


def played_rated(recorder: Recorder, entries: list[tuple[str, int]]) -> bool:
    """Whether a board game of these entries, in a rated tournament, has ever had a result
    (a retracted result counted in the lists of its months, so it is history too), or
    has a game played on the board recorded on paper."""
    tournaments, results = Tournaments(recorder), recorder.results
    for tournament_id, number in entries:
        t = tournaments.tournament(tournament_id)
        if not t.rated:
            continue
        for rnd in t.rounds:
            for board in rnd.boards:
                if number not in board.players():
                    continue
                paper = t.forfeits.get((rnd.number, board.board))
                if paper is not None and paper.reason == "played":  # a game recorded on paper
                    return True
                if results.of_game(board_game_id(tournament_id, rnd.number, board.board)):
                    return True
    return False
