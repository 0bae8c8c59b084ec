"""Qelat of the Beni Amir and Mensa (rules/qelat.md, QEL-1..QEL-13).

- 2×6 board, 4 seeds a hole, no stores; South owns row 1 and North row 2 all game
  (QEL-1, QEL-2). The first player is recorded at setup (QEL-3).
- A player sows any non-empty hole of his row that is not a walda (QEL-4), in one lap
  (QEL-6) whose direction the hole decides: his right three CCW, his left three CW (QEL-5).
- The only capture: a last seed making 4 in an eligible, non-walda hole makes it the
  mover's walda for the rest of the game (QEL-7, QEL-8, QEL-9).
- Turns follow GEN-19 (QEL-10). Option ``mazagebh_no_return`` (default true): a lone seed
  sent from an end hole into the empty opposite hole may not be sown back on the
  opponent's next turn; a pass uses the ban up (QEL-11, QEL-12, GEN-41).
- The game ends when neither player can sow; each scores his waldas (QEL-13).
Sources: Wikimanqala's Qelat (seed 002), Ludii's rule text for the eligible holes.
"""

from __future__ import annotations

from .base import END_TURN, Option, Rules, Sowing, winner_by_score
from .board import TWO_ROWS, Player
from .state import Outcome, State

_H = TWO_ROWS.index
_S, _N = Player.SOUTH, Player.NORTH

# QEL-5: South's left three (a1 b1 c1) and North's left three (d2 e2 f2) are sown CW.
_CLOCKWISE = frozenset(_H[h] for h in ("a1", "b1", "c1", "d2", "e2", "f2"))

# QEL-8: the holes each player may turn into a walda.
_ELIGIBLE = {
    _S: frozenset(_H[h] for h in ("a1", "f1", "a2", "b2", "e2", "f2")),
    _N: frozenset(_H[h] for h in ("a2", "f2", "a1", "b1", "e1", "f1")),
}

# QEL-11: each player's end holes; a lone seed from one lands in the opposite hole.
_END_HOLES = {_S: frozenset((_H["a1"], _H["f1"])), _N: frozenset((_H["a2"], _H["f2"]))}
_OPPOSITE = {i: (i + 6) % 12 for i in range(12)}  # GEN-4: x1 faces x2


class Qelat(Rules):
    name = "qelat"
    title = "Qelat"
    board = TWO_ROWS
    seeds_per_hole = 4
    special_kind = "walda"
    summary = "Single-lap sowing in two directions; waldas made in eligible holes collect seeds."
    OPTIONS = {
        "mazagebh_no_return": Option(
            True, (True, False), "QEL-11, QEL-12", "a lone seed sent across an end may not be sent straight back"
        ),
    }

    def configure(self) -> None:
        self.no_return_rule = self.options["mazagebh_no_return"]
        self._cw = self.board.successors["cw"]
        self._ccw = self.board.successors["ccw"]

    def sow(self, s: Sowing, origin: int) -> None:
        # QEL-5: the hole sown sets the direction.
        successors = self._cw if origin in _CLOCKWISE else self._ccw
        # QEL-6: lift, then one single lap.
        seeds, s.holes[origin] = s.holes[origin], 0
        last, before = self.lap(s, successors, origin, seeds)
        # QEL-7: a last seed making 4 in an eligible hole makes a walda.
        if before == 3 and s.specials[last] is None and last in _ELIGIBLE[s.mover]:
            s.specials[last] = s.mover
            s.note("created", "QEL-7", hole=self.board.holes[last], kind="walda", owner=s.mover.json)
        elif self.no_return_rule and seeds == 1 and before == 0 and origin in _END_HOLES[s.mover]:
            # QEL-11: the lone seed landed in the empty opposite hole.
            if last == _OPPOSITE[origin]:
                s.no_return = last
                s.note("no_return", "QEL-11", hole=self.board.holes[last], player=s.mover.opponent.json)
        s.again = False
        s.note("turn_ended", "QEL-10", player=s.mover.json)

    def land(self, s: Sowing, hole: int, before: int) -> int:
        return END_TURN  # single lap: sow() never relays

    round_end_rule = "QEL-13"

    def end_round(self, state: State, last_mover: Player, s=None) -> State:
        """QEL-13: each player scores the seeds in his waldas; the higher score wins."""
        score = [0, 0]
        for seeds, owner in zip(state.holes, state.specials):
            if owner is not None:
                score[owner] += seeds
        score = (score[0], score[1])
        return state._replace(
            to_move=None, game_over=True, score=score, outcome=Outcome(winner_by_score(score), "score")
        )
