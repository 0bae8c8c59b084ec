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

from collections.abc import Sequence
from typing import Final

from .base import END_TURN, Option, Rules, Sowing, winner_by_score
from .board import OPPONENTS, TWO_ROWS, Player
from .state import Outcome, State
from .values import Hole, Land

_H = TWO_ROWS.index
_S, _N = Player.SOUTH, Player.NORTH

# QEL-5: South's left three (a1 b1 c1) and North's left three (d2 e2 f2) are sown CW.
_CLOCKWISE: Final = frozenset(_H[h] for h in ("a1", "b1", "c1", "d2", "e2", "f2"))

# QEL-8: the holes each player may turn into a walda.
_ELIGIBLE: Final = {
    _S: frozenset(_H[h] for h in ("a1", "f1", "a2", "b2", "e2", "f2")),
    _N: frozenset(_H[h] for h in ("a2", "f2", "a1", "b1", "e1", "f1")),
}

# QEL-11: each player's end holes; a lone seed from one lands in the opposite hole.
_END_HOLES: Final = {_S: frozenset((_H["a1"], _H["f1"])), _N: frozenset((_H["a2"], _H["f2"]))}
_ROWS: Final = (tuple(range(6)), tuple(range(6, 12)))  # QEL-2: each player's row, for the whole game


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
        # QEL-7: a last seed making 4 in an eligible hole makes a walda. Most sowings end
        # with neither a walda nor a ban: the counts are tested before the calls.
        if before == 3 and self.makes_walda(s.specials, s.mover, last, before):
            s.specials[last] = s.mover
            s.note("created", "QEL-7", hole=self.board.holes[last], kind="walda", owner=s.mover.json)
        elif seeds == 1:
            # QEL-11: a lone seed sent into the empty opposite hole may not come straight back.
            s.no_return = self.banned_hole(s.mover, origin, seeds, last, before)
            if s.no_return is not None:
                s.note("no_return", "QEL-11", hole=self.board.holes[last], player=s.mover.opponent.json)
        if s.trace is not None:
            s.note("turn_ended", "QEL-10", player=s.mover.json)

    @staticmethod
    def makes_walda(specials: Sequence[Player | None], mover: Player, last: Hole, before: int) -> bool:
        """QEL-7, QEL-8: the last seed made 4 in an eligible hole that is not yet a walda."""
        return before == 3 and specials[last] is None and last in _ELIGIBLE[mover]

    def banned_hole(self, mover: Player, origin: Hole, seeds: int, last: Hole, before: int) -> Hole | None:
        """QEL-11: the hole the opponent may not sow next turn, or None."""
        if self.no_return_rule and seeds == 1 and before == 0 and origin in _END_HOLES[mover]:
            return last  # one seed from an end hole always lands in the opposite hole (GEN-4)
        return None

    def legal_moves(self, state: State) -> tuple[int, ...]:
        """The base rule (nobody sows while the game is over), without its indirection."""
        mover = state.to_move
        if mover is None or state.game_over:
            return ()
        holes, specials, banned = state.holes, state.specials, state.no_return
        return tuple([i for i in _ROWS[mover] if holes[i] and specials[i] is None and i != banned])

    def legal_for(self, state: State, player: Player, banned: int | None = None) -> tuple[int, ...]:
        """QEL-4, QEL-11: the player's row (QEL-2), not empty, not a walda, not banned."""
        holes, specials = state.holes, state.specials
        return tuple([i for i in _ROWS[player] if holes[i] and specials[i] is None and i != banned])

    def opponent_sows_next(self, s: Sowing) -> bool:
        """QEL-10, GEN-19: the opponent has a hole he may sow (QEL-4, QEL-11)."""
        return self.can_sow(s.holes, s.specials, s.owners, OPPONENTS[s.mover], s.no_return)

    def can_sow(
        self,
        holes: list[int],
        specials: list[Player | None],
        owners: tuple[Player, ...],
        player: Player,
        banned: Hole | None = None,
    ) -> bool:
        """QEL-4: a non-empty, non-walda hole of the player's row (QEL-2), other than a banned one."""
        for i in _ROWS[player]:
            if holes[i] and specials[i] is None and i != banned:
                return True
        return False

    def land(self, s: Sowing, hole: Hole, before: int) -> Land:
        return END_TURN  # single lap: sow() never relays

    round_end_rule = "QEL-13"

    def end_round(self, state: State, last_mover: Player, s: Sowing | None = None) -> State:
        """QEL-13: each player scores the seeds in his waldas; the higher score wins."""
        waldas = [0, 0]
        for seeds, owner in zip(state.holes, state.specials):
            if owner is not None:
                waldas[owner] += seeds
        score = (waldas[0], waldas[1])
        return state._replace(
            to_move=None, game_over=True, score=score, outcome=Outcome(winner_by_score(score), "score")
        )
