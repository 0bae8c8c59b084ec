"""Matches of several rounds: counting takings back into holes (Selus, Lahemay Walida, Tuz).

When a round ends each player's takings T are counted back ``per_hole`` seeds to a hole
(3 in Selus, 4 in the two-row games). T div per_hole holes each; the larger remainder
earns one more hole, completed by the opponent's smaller remainder (SEL-15, LW-12,
TUZ-12); equal non-zero remainders (2 and 2 with fours) need a recorded ``lot``
(GEN-26). A player left with no hole loses the match (SEL-16, LW-13, TUZ-13); otherwise
``next_round`` (GEN-27) starts the next round on an allocation that is recorded or, by
default, takes the poorer player's holes in the order the game gives (SEL-17, LW-14,
TUZ-14), always counted from the default ownership (GEN-38).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from recorder.errors import IllegalMove

from .base import Rules, Sowing
from .board import PLAYERS, Player
from .state import Outcome, RoundRecord, State
from .values import Decision, Hole


def count_holes(takings: tuple[int, int], per_hole: int) -> tuple[int, int] | None:
    """Each player's holes for the next round, or None when a lot must decide (GEN-26)."""
    south, north = divmod(takings[0], per_hole), divmod(takings[1], per_hole)
    if south[1] == north[1]:
        return None if south[1] else (south[0], north[0])
    if south[1] > north[1]:
        return south[0] + 1, north[0]
    return south[0], north[0] + 1


def counts_after_lot(takings: tuple[int, int], per_hole: int, winner: Player) -> tuple[int, int]:
    """GEN-26, LW-12: the lot's winner receives the extra hole."""
    counts = [takings[0] // per_hole, takings[1] // per_hole]
    counts[winner] += 1
    return counts[0], counts[1]


def default_allocation(
    default_owners: Sequence[Player], cede_order: Mapping[Player, tuple[Hole, ...]], counts: tuple[int, int]
) -> tuple[Player, ...]:
    """SEL-17, LW-14: the poorer player cedes the first holes of his list; the rest keep
    their default owner. Computed from the default ownership, never the last round's (GEN-38)."""
    owners = list(default_owners)
    half = len(owners) // 2
    for player in PLAYERS:
        for hole in cede_order[player][: max(0, half - counts[player])]:
            owners[hole] = player.opponent
    return tuple(owners)


class MatchRules(Rules):
    """A game played as a match of rounds. Subclasses give ``CEDE_ORDER`` and ``takings``."""

    is_match = True
    DECISIONS: tuple[Decision, ...] = ("lot", "next_round", "result")
    CEDE_ORDER: ClassVar[Mapping[Player, tuple[Hole, ...]]] = {}
    match_end_rule: ClassVar[str] = "SEL-16"

    def takings(self, state: State, last_mover: Player) -> tuple[int, int]:
        raise NotImplementedError

    def end_round(self, state: State, last_mover: Player, s: Sowing | None = None) -> State:
        """The round is over: count takings and, if they are known, the next round's holes."""
        takings = self.takings(state, last_mover)
        rounds = state.rounds[:-1] + (state.rounds[-1]._replace(takings=takings),)
        state = state._replace(to_move=None, no_return=None, round_over=True, takings=takings, rounds=rounds)
        counts = count_holes(takings, self.seeds_per_hole)
        if counts is None:
            if s is not None:
                s.note("lot_needed", "GEN-26", takings=list(takings))
            return state._replace(awaiting="lot")
        return self.counts_known(state, counts, s)

    def counts_known(self, state: State, counts: tuple[int, int], s: Sowing | None = None) -> State:
        """SEL-16, LW-13, TUZ-13: a player with no hole loses; otherwise a new round is due."""
        state = state._replace(hole_counts=counts)
        for player in PLAYERS:
            if counts[player] == 0:
                if s is not None:
                    s.note("match_ended", self.match_end_rule, winner=player.opponent.json)
                return state._replace(awaiting=None, game_over=True, outcome=Outcome(player.opponent, "holes"))
        return state._replace(awaiting="next_round")

    def draw_lot(self, state: State, winner: Player) -> State:
        """GEN-26: the recorded lot gives the extra hole."""
        rounds = state.rounds[:-1] + (state.rounds[-1]._replace(lot_winner=winner),)
        counts = counts_after_lot(_due(state.takings), self.seeds_per_hole, winner)
        return self.counts_known(state._replace(rounds=rounds), counts)

    def allocation_for(self, counts: tuple[int, int]) -> tuple[Player, ...]:
        return default_allocation(self.board.default_owners, self.CEDE_ORDER, counts)

    def start_next_round(self, state: State, first_player: Player, owners: tuple[Player, ...] | None = None) -> State:
        """GEN-27, SEL-18, LW-15, TUZ-15: a fresh board, empty stores, no special holes."""
        counts = _due(state.hole_counts)
        owners = owners or self.allocation_for(counts)
        number = state.round + 1
        fresh = self.start(first_player)
        return fresh._replace(
            owners=owners,
            round=number,
            awaiting=None,  # TUZ-15: no opening after round 1
            rounds=state.rounds + (RoundRecord(number, first_player, counts),),
        )


def _due(counts: tuple[int, int] | None) -> tuple[int, int]:
    """Takings or hole counts, which a round that is over always has (GEN-26, GEN-27)."""
    if counts is None:
        raise IllegalMove("the round is not over: no lot or next round is due (GEN-22)")
    return counts
