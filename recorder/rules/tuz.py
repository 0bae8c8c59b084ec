"""Tuz of Wallo (rules/tuz.md, TUZ-1..TUZ-15).

- 2×6 board, 4 seeds a hole, a store each; round 1 has default ownership (TUZ-1, TUZ-2).
  The first player is recorded at setup and in each ``next_round`` (TUZ-3).
- Round 1 opens with the recorded ``opening`` (GEN-25, TUZ-4): the rightmost hole R gives
  one seed to hold, six seeds move R+1→R+2 … R+11→R, and the held seed goes to R+1 (it
  becomes the first player's tuz, ``"tuz"``) or back to R (``"plain"``). Then the other
  player sows (TUZ-5). Later rounds have no opening (TUZ-15).
- A player sows any non-empty hole he owns that is not a tuz (TUZ-6), CCW with relays (TUZ-7).
  A lap ending in the opponent's tuz takes the last seed and one more (TUZ-8a; then
  ``after_tuz_capture``: ``"sow_again"`` by default, or ``"end_turn"``); in his own tuz it
  ends the turn (8b); in an empty hole too (8c); making 4 in an opponent's hole makes a tuz
  and ends the turn (8d); otherwise it relays (8e). Tuzes last the round (TUZ-9).
- Passing per GEN-19; the round ends when only tuzes hold seeds (TUZ-10). Takings are the
  store plus one's tuzes (TUZ-11), counted back 4 to a hole as in LW-12 (TUZ-12); a count of
  0 ends the match (TUZ-13); else ``next_round`` re-deals the holes as in LW-14 (TUZ-14).
Sources: Ludii's rules text for Tuz (seed 004); StoneShark's Russ Gabata for the opening.
"""

from __future__ import annotations

from recorder.errors import IllegalMove, InvalidRecord

from .base import END_TURN, RELAY, SOW_AGAIN, Option, Sowing, Trace, mover_of
from .board import TWO_ROWS, Player
from .rounds import MatchRules
from .state import State
from .values import OPENING_CHOICES, Decision, Hole, Land, OpeningChoice

_H = TWO_ROWS.index
_S, _N = Player.SOUTH, Player.NORTH

# TUZ-4: each player's rightmost hole R (GEN-4).
_RIGHTMOST = {_S: _H["f1"], _N: _H["a2"]}


def _ccw_from(start: int) -> tuple[int, ...]:
    """R, R+1, …, R+11 counted CCW (GEN-10)."""
    successors = TWO_ROWS.successors["ccw"]
    holes, hole = [start], start
    for _ in range(TWO_ROWS.size - 1):
        hole = successors[hole]
        holes.append(hole)
    return tuple(holes)


_FROM_R = {player: _ccw_from(_RIGHTMOST[player]) for player in (_S, _N)}


def _opening_choice(choice: object) -> OpeningChoice:
    """GEN-25, TUZ-4: "tuz" or "plain", exactly."""
    for known in OPENING_CHOICES:
        if isinstance(choice, str) and choice == known:
            return known
    raise InvalidRecord(f"opening choice must be {' or '.join(OPENING_CHOICES)}", field="choice")


class Tuz(MatchRules):
    name = "tuz"
    title = "Tuz"
    board = TWO_ROWS
    seeds_per_hole = 4
    special_kind = "tuz"
    summary = "Relay sowing anticlockwise; tuzes made in the opponent's row; a match of rounds."
    DECISIONS: tuple[Decision, ...] = ("opening", "lot", "next_round", "result")
    OPTIONS = {
        "after_tuz_capture": Option(
            "sow_again",
            ("sow_again", "end_turn"),
            "TUZ-8",
            "after taking from the opponent's tuz the mover sows again, or his turn ends",
        ),
    }
    # TUZ-14 as LW-14: the poorer player gives up his leftmost holes first.
    CEDE_ORDER = {
        _S: tuple(_H[h] for h in ("a1", "b1", "c1", "d1", "e1", "f1")),
        _N: tuple(_H[h] for h in ("f2", "e2", "d2", "c2", "b2", "a2")),
    }
    round_end_rule = "TUZ-10"
    match_end_rule = "TUZ-13"

    def configure(self) -> None:
        self._ccw = self.board.successors["ccw"]
        self._after_capture = SOW_AGAIN if self.options["after_tuz_capture"] == "sow_again" else END_TURN

    # -- Start and opening ----------------------------------------------------------

    def start(self, first_player: Player | None) -> State:
        """TUZ-1..TUZ-3, GEN-25: round 1 waits for the first player's opening."""
        return super().start(first_player)._replace(awaiting="opening")

    def play_opening(self, state: State, choice: object, trace: Trace | None = None) -> State:
        """TUZ-4: the first player's stylised first turn; then the other player sows (TUZ-5).

        ``choice`` is any value a record may hold: a wrong one is an InvalidRecord, never the
        TypeError a compiled engine raises for an argument of the wrong declared type."""
        opening = _opening_choice(choice)
        if state.awaiting != "opening" or state.game_over:
            raise IllegalMove("no opening is awaited (GEN-25)")
        mover = mover_of(state)
        ring = _FROM_R[mover]
        self._check_opening(state, ring)
        s = Sowing(state._replace(awaiting=None), mover, trace)
        self._rearrange(s, ring, opening)
        s.note("opening", "TUZ-4", choice=opening, player=mover.json)
        opened = s.state._replace(holes=tuple(s.holes), specials=tuple(s.specials))
        return self.end_turn(s, self.turn_ended(opened, mover))

    def _rearrange(self, s: Sowing, ring: tuple[int, ...], choice: OpeningChoice) -> None:
        holes = s.holes
        # TUZ-4.1: hold one seed from R.
        holes[ring[0]] -= 1
        # TUZ-4.2: one seed each from R+1 to R+2, R+3 to R+4, …, R+11 to R.
        for k in range(1, len(ring), 2):
            holes[ring[k]] -= 1
            holes[ring[(k + 1) % len(ring)]] += 1
        # TUZ-4.3: the held seed makes R+1 the mover's tuz, or goes back to R.
        if choice == "tuz":
            holes[ring[1]] += 1
            s.specials[ring[1]] = s.mover
            s.note("created", "TUZ-4", hole=self.board.holes[ring[1]], kind="tuz", owner=s.mover.json)
        else:
            holes[ring[0]] += 1

    def _check_opening(self, state: State, ring: tuple[int, ...]) -> None:
        """Only a hand-made position can fail: every hole that gives a seed must have one."""
        for hole in (ring[0],) + ring[1::2]:  # R, then R+1, R+3, …, R+11
            if state.holes[hole] == 0 or state.specials[hole] is not None:
                raise IllegalMove(f"the opening cannot take a seed from {self.board.holes[hole]} (TUZ-4)")

    # -- Sowing ---------------------------------------------------------------------

    def successors_for(self, s: Sowing, origin: int) -> tuple[int, ...]:
        return self._ccw  # TUZ-7: always CCW

    def land(self, s: Sowing, hole: Hole, before: int) -> Land:
        """TUZ-8 a–e, in that order."""
        tuz_owner = s.specials[hole]
        if tuz_owner is not None:
            if tuz_owner != s.mover:
                return self._take_from_tuz(s, hole, before)
            # TUZ-8b: the seed stays in the mover's own tuz.
            s.note("turn_ended", "TUZ-8b", player=s.mover.json, why="last seed in own tuz")
            return END_TURN
        if before == 0:
            # TUZ-8c
            s.note("turn_ended", "TUZ-8c", player=s.mover.json, why="last seed in an empty hole")
            return END_TURN
        if before == 3 and s.owners[hole] != s.mover:
            # TUZ-8d, TUZ-A2, TUZ-A3: a tuz in the opponent's hole; the turn ends.
            s.specials[hole] = s.mover
            s.note("created", "TUZ-8d", hole=self.board.holes[hole], kind="tuz", owner=s.mover.json)
            return END_TURN
        return RELAY  # TUZ-8e

    def _take_from_tuz(self, s: Sowing, hole: Hole, before: int) -> Land:
        """TUZ-8a, TUZ-A5: the last seed and one more if there is one; the tuz stays (GEN-36:
        a capture may take seeds out of a tuz, though no sowing ever lifts one)."""
        taken = 2 if before else 1
        s.holes[hole] -= taken
        s.stores[s.mover] += taken
        s.note(
            "captured",
            "TUZ-8a",
            hole=self.board.holes[hole],
            seeds=taken,
            player=s.mover.json,
            tuz_owner=s.mover.opponent.json,
        )
        if self._after_capture == END_TURN:
            s.note("turn_ended", "TUZ-8a", player=s.mover.json, why="after_tuz_capture = end_turn")
        return self._after_capture

    # -- Rounds ---------------------------------------------------------------------

    def takings(self, state: State, last_mover: Player) -> tuple[int, int]:
        """TUZ-11: the store plus the seeds in the tuzes one owns."""
        takings = list(state.stores)
        for seeds, owner in zip(state.holes, state.specials):
            if owner is not None:
                takings[owner] += seeds
        return takings[0], takings[1]
