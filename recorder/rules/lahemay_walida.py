"""Lahemay Walida, "my cow has given birth" (rules/lahemay-walida.md, LW-1..LW-16).

- 2×6 board, 4 seeds a hole, a store each; South owns row 1 and North row 2 in round 1
  (LW-1, LW-2). The first player is recorded at setup and in ``next_round`` (LW-3).
- A player sows any non-empty hole he owns (LW-4), always CCW, with relays (LW-5).
- A seed that is not the last of its lap and makes a hole hold exactly g sends those g
  seeds to the store of the hole's owner (LW-6). The last seed: exactly g, the mover
  takes them and sows again or ends his turn; into an empty hole, the turn ends;
  otherwise relay (LW-7, LW-8).
- No passes: the round ends when the player to move owns no seeds, and the board goes
  to the last mover (LW-9..LW-11). Takings are counted back four to a hole; a lot
  settles 2/2; a player left with no hole loses the match (LW-12..LW-16).
- Options: ``group_size`` 4 (or 3) and ``after_final_capture`` "bonus_sowing" (or
  "end_turn"). With g = 4 from the standard start every store is a multiple of 4, so
  remainders are always 0/0 and a lot can arise only with g = 3 or a given position.
Sources: seed 003 (Ludii's stub), Mancala World's Lahemay Waladat (Pankhurst Game 17).
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import END_TURN, RELAY, SOW_AGAIN, Option, Sowing
from .board import TWO_ROWS, Player
from .rounds import MatchRules
from .state import State
from .values import Hole, Land

_H = TWO_ROWS.index


def _holes(names: str) -> tuple[int, ...]:
    return tuple(_H[name] for name in names.split())


class LahemayWalida(MatchRules):
    name = "lahemay_walida"
    title = "Lahemay Walida"
    board = TWO_ROWS
    seeds_per_hole = 4  # LW-1; also LW-12's four seeds to a hole
    summary = "CCW relay sowing; any hole made to hold four is captured; holes change hands between rounds."
    OPTIONS = {
        "group_size": Option(4, (4, 3), "LW-6, LW-7", "the number of seeds a hole must be made to hold to be captured"),
        "after_final_capture": Option(
            "bonus_sowing", ("bonus_sowing", "end_turn"), "LW-7", "what follows a capture by the last seed of a lap"
        ),
    }
    # LW-14: the poorer player keeps his rightmost holes, so he cedes from his left.
    CEDE_ORDER = {Player.SOUTH: _holes("a1 b1 c1 d1 e1 f1"), Player.NORTH: _holes("f2 e2 d2 c2 b2 a2")}
    round_end_rule = "LW-9"
    passes = False  # LW-9: nobody passes; a player with no seeds ends the round
    match_end_rule = "LW-13"

    def configure(self) -> None:
        self.group = self.options["group_size"]
        self.after_final = SOW_AGAIN if self.options["after_final_capture"] == "bonus_sowing" else END_TURN
        self._ccw = self.board.successors["ccw"]

    def successors_for(self, s: Sowing, origin: int) -> tuple[int, ...]:
        return self._ccw  # LW-5: always CCW

    def lap(self, s: Sowing, successors: tuple[Hole, ...], start: Hole, seeds: int) -> tuple[Hole, int]:
        """GEN-12 with LW-6: every seed but the last may make a group for the hole's owner."""
        holes, stores, owners, group, trace = s.holes, s.stores, s.owners, self.group, s.trace
        hole = start
        for _ in range(seeds - 1):
            hole = successors[hole]
            holes[hole] += 1
            if trace is not None:
                s.note("dropped", "GEN-12", hole=self.board.holes[hole], now=holes[hole])
            # LW-6, LW-8: exactly g after a dropped seed goes at once to the owner's store.
            if holes[hole] == group:
                holes[hole] = 0
                stores[owners[hole]] += group
                if trace is not None:
                    s.note("captured", "LW-6", hole=self.board.holes[hole], seeds=group, player=owners[hole].json)
        # The last seed: GEN-14's n counts any removals this lap made.
        hole = successors[hole]
        holes[hole] += 1
        if trace is not None:
            s.note("dropped", "GEN-12", hole=self.board.holes[hole], now=holes[hole])
        return hole, holes[hole] - 1

    def land(self, s: Sowing, hole: Hole, before: int) -> Land:
        # LW-7a: the last seed made exactly g; the mover takes them, whoever owns the hole.
        if before == self.group - 1:
            s.holes[hole] = 0
            s.stores[s.mover] += self.group
            s.note("captured", "LW-7", hole=self.board.holes[hole], seeds=self.group, player=s.mover.json)
            return self.after_final
        # LW-7b: the last seed fell into an empty hole.
        if before == 0:
            s.note("turn_ended", "LW-7", player=s.mover.json, why="the last seed fell into an empty hole")
            return END_TURN
        # LW-7c: relay from the last hole.
        return RELAY

    def after_sowing(self, s: Sowing) -> State:
        # LW-10: a bonus sowing with nothing to sow lapses, and the turn ends (LW-9).
        if s.again and not self._has_seeds(s.holes, s.owners, s.mover):
            s.note("bonus_lost", "LW-10", player=s.mover.json)
            s.again = False
        return super().after_sowing(s)

    def opponent_sows_next(self, s: Sowing) -> bool:
        """LW-9: the opponent sows next if he owns seeds; else the round ends. Nobody passes."""
        return self._has_seeds(s.holes, s.owners, s.mover.opponent)

    def end_turn(self, s: Sowing, state: State) -> State:
        """LW-9: the opponent is to move; if he owns no seeds the round ends. Nobody passes."""
        opponent = s.mover.opponent
        if self.opponent_sows_next(s):
            s.note("to_move", "LW-9", player=opponent.json)
            return state._replace(to_move=opponent)
        s.note("round_ended", "LW-9", why=f"{opponent.json} owns no hole with seeds")
        return self.end_round(state._replace(to_move=None), s.mover, s)

    def takings(self, state: State, last_mover: Player) -> tuple[int, int]:
        """LW-11, GEN-39: the seeds left on the board go to the last mover."""
        takings = list(state.stores)
        takings[last_mover] += sum(state.holes)
        return takings[0], takings[1]

    @staticmethod
    def _has_seeds(holes: Sequence[int], owners: Sequence[Player], player: Player) -> bool:
        """LW-4: with no special holes, a legal sowing is any owned hole with seeds."""
        return any(seeds and owner == player for seeds, owner in zip(holes, owners))
