"""Selus of Eritrea (rules/selus.md, SEL-1..SEL-19).

- 3×6 board, 3 seeds a hole, a store each; default ownership in a single game and in
  round 1 (SEL-1, SEL-2). The ayemi are South ``a1`` and North ``f3`` (SEL-3). The first
  player is recorded at setup and, for later rounds, in ``next_round`` (SEL-4).
- Relay sowing along the one 18-hole track from any owned, non-empty, non-wegue hole
  (SEL-5, SEL-6). A lap ends in a wegue (SEL-9), an empty hole (kwah), a hole of 3 that
  becomes the mover's wegue (SEL-7c), or else relays.
- Landing in a wegue captures the last seed plus one (SEL-9c), except in the mover's own
  ayemi; the mover sows again from his own wegues and the opponent's ayemi (SEL-10).
- Options: ``wegue_block`` ("first_turn" | "first_turn_each_player", SEL-8),
  ``empty_wegue_landing`` ("capture_seed" | "leave_seed", SEL-9b), ``weak_wegues``
  (false, SEL-11), ``match`` ("rounds" | "single", SEL-14..SEL-19).
- Takings are store plus own wegues (SEL-13): a single game is won on them; a match counts
  them back three to a hole until a player has none (SEL-15, SEL-16).
Sources: Zillions "Selus and Gabata" (seed 000) and its ZRF code, Ludii's Selus (Massawa).
"""

from __future__ import annotations

from .base import END_TURN, RELAY, SOW_AGAIN, Option, Sowing, winner_by_score
from .board import THREE_ROWS, Player
from .rounds import MatchRules
from .state import Outcome, State
from .values import Hole, Land

_H = THREE_ROWS.index
_S, _N = Player.SOUTH, Player.NORTH

# SEL-3: one ayemi per player, fixed on the board whoever owns the hole.
AYEMI = {_S: _H["a1"], _N: _H["f3"]}


def _holes(names: str) -> tuple[int, ...]:
    return tuple(_H[name] for name in names.split())


class Selus(MatchRules):
    name = "selus"
    title = "Selus"
    board = THREE_ROWS
    seeds_per_hole = 3
    special_kind = "wegue"
    summary = "Three-row relay sowing; wegues made on a hole of three collect seeds; one ayemi each."
    OPTIONS = {
        "match": Option(
            "rounds", ("rounds", "single"), "SEL-14..SEL-19", "a match of rounds won on holes, or one game on points"
        ),
        "empty_wegue_landing": Option(
            "capture_seed", ("capture_seed", "leave_seed"), "SEL-9", "a last seed in an empty wegue is taken or stays"
        ),
        "weak_wegues": Option(False, (False, True), "SEL-11", "a wegue emptied by a capture becomes an ordinary hole"),
        "wegue_block": Option(
            "first_turn",
            ("first_turn", "first_turn_each_player"),
            "SEL-8",
            "no wegue in the round's first turn, or in each player's first turn",
        ),
    }
    # SEL-17: the holes each player cedes first when he has fewer than 9.
    CEDE_ORDER = {
        _S: _holes("a1 b1 c1 d1 e1 f1 f2 e2 d2"),
        _N: _holes("f3 e3 d3 c3 b3 a3 a2 b2 c2"),
    }
    round_end_rule = "SEL-12"
    match_end_rule = "SEL-16"

    def configure(self) -> None:
        options = self.options
        self.is_match = options["match"] == "rounds"
        # SEL-15: remainders of three are (0, 0), (1, 2) or (2, 1): never a lot.
        self.DECISIONS = ("next_round", "result") if self.is_match else ("result",)
        self.tracks_first_turns_per_player = options["wegue_block"] == "first_turn_each_player"
        self.leave_seed = options["empty_wegue_landing"] == "leave_seed"
        self.weak_wegues = options["weak_wegues"]

    # -- Where a lap ends -----------------------------------------------------------

    def land(self, s: Sowing, hole: Hole, before: int) -> Land:
        """SEL-7: the lettered cases, in order."""
        # SEL-7a: a wegue.
        if s.specials[hole] is not None:
            return self.land_in_wegue(s, hole, before)
        # SEL-7b: an empty hole ends the turn (kwah).
        if before == 0:
            s.note("turn_ended", "SEL-7b", hole=self.board.holes[hole], why="kwah")
            return END_TURN
        # SEL-7c: a hole of three becomes the mover's wegue, unless SEL-8 blocks it.
        if before == 3 and self.can_create(s):
            s.specials[hole] = s.mover
            s.note("created", "SEL-7c", hole=self.board.holes[hole], kind="wegue", owner=s.mover.json)
            return END_TURN
        # SEL-7d: relay.
        return RELAY

    def can_create(self, s: Sowing) -> bool:
        """SEL-8, GEN-40: the block lasts the whole blocked turn, relays and sow-agains included."""
        if self.tracks_first_turns_per_player:
            return s.mover not in s.state.first_turn_pending
        return not s.state.first_turn_of_round

    def land_in_wegue(self, s: Sowing, hole: Hole, before: int) -> Land:
        """SEL-9, SEL-10, SEL-11: the last seed of a lap is in wegue H."""
        name, mover, owner = self.board.holes[hole], s.mover, s.specials[hole]
        # SEL-9a: the mover's own ayemi: the seed stays.
        if hole == AYEMI[mover]:
            s.note("seed_stayed", "SEL-9a", hole=name, why="own ayemi")
            return END_TURN
        # SEL-9b: an empty wegue may keep the seed.
        if before == 0 and self.leave_seed:
            s.note("seed_stayed", "SEL-9b", hole=name, why="empty wegue")
            return END_TURN
        # SEL-9c: capture the last seed, plus one more if H held any (GEN-36: a capture may
        # take seeds out of a wegue, though no sowing ever lifts one).
        taken = 2 if before else 1
        s.holes[hole] -= taken
        s.stores[mover] += taken
        s.note("captured", "SEL-9c", hole=name, seeds=taken, player=mover.json)
        # SEL-11: a weak wegue left empty is an ordinary hole again.
        if self.weak_wegues and s.holes[hole] == 0:
            s.specials[hole] = None
            s.note("wegue_removed", "SEL-11", hole=name)
        # SEL-10: sow again from the opponent's ayemi or one's own wegue (its owner before SEL-11).
        if hole == AYEMI[mover.opponent] or owner == mover:
            return SOW_AGAIN
        return END_TURN

    # -- Scoring --------------------------------------------------------------------

    def takings(self, state: State, last_mover: Player | None = None) -> tuple[int, int]:
        """SEL-13: each player's store plus the seeds in the wegues he owns."""
        totals = list(state.stores)
        for seeds, owner in zip(state.holes, state.specials):
            if owner is not None:
                totals[owner] += seeds
        return totals[0], totals[1]

    def end_round(self, state: State, last_mover: Player, s: Sowing | None = None) -> State:
        """SEL-14: a single game ends with its round, won on takings; SEL-15..17: a match counts holes."""
        if self.is_match:
            return super().end_round(state, last_mover, s)
        score = self.takings(state)
        return state._replace(
            to_move=None, game_over=True, score=score, outcome=Outcome(winner_by_score(score), "score")
        )
