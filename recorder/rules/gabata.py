"""Gabata, the Zillions "Selus and Gabata" version (rules/gabata.md, GAB-1..GAB-9).

- 3×6 board, 3 seeds a hole, stores start empty, default ownership all game, one round,
  no special holes (GAB-1). Relay sowing along the shared 18-hole track (GAB-4, GEN-9).
- No first player at setup (GEN-30): a recorded ``race {winner, holes}`` gives the board
  after the simultaneous race and the first mover (GAB-2, GEN-24).
- A lap ending in an empty hole H takes the opponent's seeds in H's column, never H
  itself (GAB-5). Option ``capture_only_from_own_hole`` (default false): no capture
  when the opponent owns H. Option ``serial_capture`` (default true): after a capture
  the single seed in H moves on as a new one-seed lap, counted by the lap cap (GAB-6).
- One sowing a turn (GAB-7). After every turn and after the race, a side with no seeds
  ends the game: store plus own holes, higher wins, 27–27 a draw (GAB-8); nobody ever
  passes (GAB-9).
Sources: seed 000 (Zillions readme, after cyningstan game 147), the Zillions ZRF code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from recorder.errors import InvalidRecord

from .base import END_TURN, RELAY, Option, Rules, Sowing, winner_by_score
from .board import THREE_ROWS, Player
from .state import Outcome, State
from .values import Decision, Hole, Land

TOTAL_SEEDS = 54  # GAB-1: 3 seeds in each of 18 holes


def race_board_problem(holes: Any) -> str | None:
    """GEN-37: why a race board is invalid, or None. 18 hole names, ints ≥ 0, sum 54."""
    if not isinstance(holes, dict):
        return "holes must be an object of hole: count"
    missing = [name for name in THREE_ROWS.holes if name not in holes]
    if missing:
        return f"holes must name every hole exactly once; missing: {' '.join(missing)}"
    unknown = sorted(str(name) for name in holes if name not in THREE_ROWS.index)
    if unknown:
        return f"holes must name every hole exactly once; unknown: {' '.join(unknown)}"
    for name, count in holes.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            return f"hole {name} must hold an integer ≥ 0, not {count!r}"
    total = sum(holes.values())
    if total != TOTAL_SEEDS:
        return f"the race board must hold {TOTAL_SEEDS} seeds, not {total}"
    return None


class Gabata(Rules):
    name = "gabata"
    title = "Gabata"
    board = THREE_ROWS
    seeds_per_hole = 3
    summary = "A race, then relay sowing; a lap ending in an empty hole captures the opponent's seeds in its column."
    OPTIONS = {
        "serial_capture": Option(True, (True, False), "GAB-6", "after a capture the seed in the landing hole sows on"),
        "capture_only_from_own_hole": Option(
            False, (False, True), "GAB-5", "a lap ending in an empty opponent hole captures nothing"
        ),
    }
    DECISIONS: tuple[Decision, ...] = ("race", "result")
    has_first_player = False  # GEN-23, GEN-30: the race decides
    passes = False  # GAB-9: the opponent can always sow; GAB-8 ends the game first

    def race_board_problem(self, holes: Any) -> str | None:
        return race_board_problem(holes)

    def configure(self) -> None:
        self.serial = self.options["serial_capture"]
        self.own_hole_only = self.options["capture_only_from_own_hole"]
        self._columns = tuple(self.board.column(i) for i in range(self.board.size))

    # -- The race -------------------------------------------------------------------

    def start(self, first_player: Player | None = None) -> State:
        """GAB-1, GAB-2: the standard start, awaiting the race; nobody to move yet."""
        if first_player is not None:
            raise InvalidRecord("a Gabata setup names no first player: the race decides (GEN-30)", field="first_player")
        return super().start(None)._replace(awaiting="race")

    def record_race(self, state: State, winner: Player, holes: tuple[int, ...]) -> State:
        """GAB-2, GEN-24: the board after the race; the winner moves first; GAB-8 at once.

        The race is not a turn, so ``first_turn_of_round`` stays true (GEN-34). The
        command layer has checked the board (GEN-37, ``race_board_problem``).
        """
        state = state._replace(holes=tuple(holes), stores=(0, 0), to_move=winner, awaiting=None)
        if self.is_swept(state):
            return self.end_round(state, winner)
        return state

    # -- One sowing -----------------------------------------------------------------

    def land(self, s: Sowing, hole: Hole, before: int) -> Land:
        # GAB-4: a lap ending in a hole that held seeds relays from it.
        if before:
            return RELAY
        # GAB-5: the lap ended in an empty hole; take the opponent's seeds in its column.
        captured = self.capture_column(s, hole)
        # GAB-6: after a capture the single seed in H is sown on, as a new lap.
        if captured and self.serial:
            s.note("serial_capture", "GAB-6", hole=self.board.holes[hole])
            return RELAY
        # GAB-7: one sowing per turn.
        return END_TURN

    def capture_column(self, s: Sowing, hole: int) -> int:
        """GAB-5: move the opponent's seeds in H's column (H never) to the mover's store."""
        opponent = s.mover.opponent
        if self.own_hole_only and s.owners[hole] == opponent:
            s.note("no_capture", "GAB-5", hole=self.board.holes[hole], why="the opponent owns the landing hole")
            return 0
        holes, total = s.holes, 0
        for victim in self._columns[hole]:
            if victim != hole and s.owners[victim] == opponent and holes[victim]:
                seeds, holes[victim] = holes[victim], 0
                total += seeds
                s.note("captured", "GAB-5", hole=self.board.holes[victim], seeds=seeds, player=s.mover.json)
        s.stores[s.mover] += total
        return total

    # -- The end of a turn and of the game ------------------------------------------

    def opponent_sows_next(self, s: Sowing) -> bool:
        """GAB-9: the opponent can always sow, unless GAB-8 ends the game."""
        return not _swept(s.holes, s.owners)

    def end_turn(self, s: Sowing, state: State) -> State:
        """GAB-8 after every turn; otherwise the opponent, who can always sow (GAB-9)."""
        if not self.opponent_sows_next(s):
            s.note("game_ended", "GAB-8", why="every hole one player owns is empty")
            return self.end_round(state, s.mover, s)
        s.note("to_move", "GAB-9", player=s.mover.opponent.json)
        return state._replace(to_move=s.mover.opponent)

    def is_swept(self, state: State) -> bool:
        """GAB-8: every hole owned by one of the players is empty."""
        return _swept(state.holes, state.owners)

    def seeds_owned(self, state: State) -> tuple[int, int]:
        return _seeds_owned(state.holes, state.owners)

    round_end_rule = "GAB-8"

    def end_round(self, state: State, last_mover: Player, s: Sowing | None = None) -> State:
        """GAB-8: each scores his store plus the seeds in his holes; the board stays as it is."""
        owned = self.seeds_owned(state)
        score = (state.stores[0] + owned[0], state.stores[1] + owned[1])
        return state._replace(
            to_move=None, game_over=True, score=score, outcome=Outcome(winner_by_score(score), "score")
        )


def _swept(holes: Sequence[int], owners: Sequence[Player]) -> bool:
    """GAB-8: every hole owned by one of the players is empty."""
    seeds = _seeds_owned(holes, owners)
    return seeds[0] == 0 or seeds[1] == 0


def _seeds_owned(holes: Sequence[int], owners: Sequence[Player]) -> tuple[int, int]:
    seeds = [0, 0]
    for count, owner in zip(holes, owners):
        seeds[owner] += count
    return seeds[0], seeds[1]
