"""The flow every game shares: options, legal moves, one sowing, the end of a turn.

A game module subclasses ``Rules`` and says only what is particular to it: where a lap
may start, what happens where a lap ends, and how a round is scored. Everything here
is pure: a ``State`` comes in, a new ``State`` goes out.

Traces: ``play(state, hole, trace=[])`` appends one dict per thing the engine did
(lifted, dropped, relayed, captured, ...), each naming the rule that caused it. With
``trace=None`` (replay, benchmarks) nothing is recorded and nothing is paid for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar, Final, NamedTuple, TypeAlias

from recorder.errors import EndlessSowing, IllegalMove, InvalidRecord

from .board import LAP_CAP, OPPONENTS, PLAYERS, Board, Player, lap
from .state import Outcome, RoundRecord, State, owned_counts
from .values import RESULT_KINDS, Decision, Hole, Land, OpeningChoice, ResultKind

# What a lap ending asks for next, as module constants: the inner loops read them often.
RELAY: Final = Land.RELAY  # GEN-15: lift the last hole and sow on
END_TURN: Final = Land.END_TURN  # the sowing ends and so does the turn
SOW_AGAIN: Final = Land.SOW_AGAIN  # the sowing ends and the mover must sow again (GEN-18)

Trace: TypeAlias = list[dict[str, Any]]  # one dict per step, each naming its rule

__all__ = [
    "END_TURN",
    "RELAY",
    "RESULT_KINDS",
    "SOW_AGAIN",
    "Option",
    "Rules",
    "Sowing",
    "Trace",
    "mover_of",
    "winner_by_score",
]


class Option(NamedTuple):
    default: Any
    choices: tuple[Any, ...]
    rules: str  # the spec ids it governs
    description: str


class Sowing:
    """The working copy of one sowing: mutable lists, frozen again when it ends."""

    __slots__ = ("holes", "specials", "stores", "owners", "mover", "state", "trace", "again", "no_return")

    def __init__(self, state: State, mover: Player, trace: Trace | None):
        self.holes: list[int] = list(state.holes)
        self.specials: list[Player | None] = list(state.specials)
        self.stores: list[int] = list(state.stores)
        self.owners: tuple[Player, ...] = state.owners
        self.mover = mover
        self.state = state
        self.trace = trace
        self.again = False
        self.no_return: Hole | None = None

    def note(self, step: str, rule: str, **fields: Any) -> None:
        if self.trace is not None:
            self.trace.append({"step": step, "rule": rule, **fields})


class Rules:
    """One game's rules with its options fixed (GEN-29)."""

    # What a game is, read through the class too (the registry, option checks): ClassVar,
    # which mypyc keeps as class attributes (docs/engine.md).
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    board: ClassVar[Board]
    seeds_per_hole: ClassVar[int] = 0
    special_kind: ClassVar[str | None] = None
    OPTIONS: ClassVar[Mapping[str, Option]] = {}
    has_first_player: ClassVar[bool] = True  # GEN-23, GEN-30: Gabata's race decides instead
    summary: ClassVar[str] = ""
    round_end_rule: ClassVar[str] = "GEN-19"
    passes: ClassVar[bool] = True  # GEN-19: a player who cannot sow passes (end_turn says so where not)
    # What an instance's options may change (Selus's match option): instance attributes.
    DECISIONS: tuple[Decision, ...] = ("result",)
    is_match: bool = False
    tracks_first_turns_per_player: bool = False

    def __init__(self, options: Mapping[str, Any] | None = None):
        self.options = self.check_options(options or {})
        self._owned_cache: dict[tuple[tuple[Player, ...], Player], tuple[Hole, ...]] = {}
        owners = self.board.default_owners
        self._default_owned = tuple(tuple(i for i, o in enumerate(owners) if o == p) for p in PLAYERS)
        self.configure()

    def configure(self) -> None:
        """Read options into attributes once, so the inner loops do not look them up."""

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """GEN-29, GEN-31: unknown names and values, and values of the wrong JSON type, are invalid."""
        unknown = sorted(set(options) - set(cls.OPTIONS))
        if unknown:
            raise InvalidRecord(f"unknown option {unknown[0]!r} for {cls.name}", option=unknown[0])
        checked = {}
        for name, option in cls.OPTIONS.items():
            value = options.get(name, option.default)
            if type(value) is not type(option.default) or value not in option.choices:
                # JSON's words, as the client wrote them: true, false, "rounds".
                allowed = ", ".join(json.dumps(choice) for choice in option.choices)
                given = json.dumps(value, default=repr)
                raise InvalidRecord(f'option "{name}" must be one of {allowed}, not {given}', option=name)
            checked[name] = value
        return checked

    @property
    def total_seeds(self) -> int:
        return self.seeds_per_hole * self.board.size

    # -- Starting positions ---------------------------------------------------------

    def start(self, first_player: Player | None) -> State:
        """GEN-23: round 1 from the standard start, default ownership (GEN-6)."""
        board = self.board
        return State(
            holes=(self.seeds_per_hole,) * board.size,
            owners=board.default_owners,
            specials=(None,) * board.size,
            stores=(0, 0),
            to_move=first_player,
            first_turn_pending=PLAYERS if self.tracks_first_turns_per_player else (),
            rounds=(RoundRecord(1, first_player, owned_counts(board.default_owners)),) if self.is_match else (),
        )

    # -- Legal moves ----------------------------------------------------------------

    def legal_moves(self, state: State) -> tuple[int, ...]:
        """The holes the player to move may sow now (empty while a decision is awaited)."""
        if state.to_move is None or state.awaiting or state.game_over:
            return ()
        return self.legal_for(state, state.to_move, state.no_return)

    def legal_for(self, state: State, player: Player, banned: int | None = None) -> tuple[int, ...]:
        """Holes the player owns, not empty and not special (SEL-5, QEL-4, LW-4, TUZ-6, GAB-3)."""
        holes, specials = state.holes, state.specials
        return tuple(
            [i for i in self.owned_holes(state.owners, player) if holes[i] and specials[i] is None and i != banned]
        )

    def can_sow(
        self,
        holes: list[int],  # a sowing's working lists: concrete types index natively when compiled
        specials: list[Player | None],
        owners: tuple[Player, ...],
        player: Player,
        banned: Hole | None = None,
    ) -> bool:
        """Whether ``legal_for`` would be non-empty, without building it (the pass test of GEN-19)."""
        for i in self.owned_holes(owners, player):
            if holes[i] and specials[i] is None and i != banned:
                return True
        return False

    def owned_holes(self, owners: tuple[Player, ...], player: Player) -> tuple[int, ...]:
        """The holes a player owns under one allocation; allocations repeat, so they are cached."""
        if owners is self.board.default_owners:
            return self._default_owned[player]
        key = (owners, player)
        owned = self._owned_cache.get(key)
        if owned is None:
            owned = tuple(i for i, owner in enumerate(owners) if owner == player)
            if len(self._owned_cache) < 4096:
                self._owned_cache[key] = owned
        return owned

    def needs_adjudication(self, state: State) -> bool:
        """GEN-35: someone must sow, but every legal sowing exceeds the lap cap, so only a
        recorded result can end the game. Usually the first hole tried settles it."""
        moves = self.legal_moves(state)
        for hole in moves:
            try:
                self.play(state, hole)
            except EndlessSowing:
                continue
            return False
        return bool(moves)

    # -- One sowing -----------------------------------------------------------------

    def play(self, state: State, hole: Hole, trace: Trace | None = None) -> State:
        """One recorded sowing by the player to move; the caller has checked it is legal (GEN-21)."""
        s = Sowing(state, mover_of(state), trace)
        if trace is not None:
            s.note("lifted", "GEN-11", hole=self.board.holes[hole], seeds=s.holes[hole], player=s.mover.json)
        self.sow(s, hole)
        return self.after_sowing(s)

    def sow(self, s: Sowing, origin: int) -> None:
        """Relay sowing (GEN-15) along the game's track; ``land`` decides each lap's end."""
        holes = s.holes
        successors = self.successors_for(s, origin)
        seeds, holes[origin] = holes[origin], 0
        start, laps = origin, 0
        while True:
            laps += 1
            last, before = self.lap(s, successors, start, seeds)
            action = self.land(s, last, before)
            if action != RELAY:
                s.again = action == SOW_AGAIN
                return
            if laps == LAP_CAP:
                raise EndlessSowing(f"the sowing from {self.board.holes[origin]} never ends (GEN-16)")
            seeds, holes[last] = holes[last], 0
            if s.trace is not None:
                s.note("relayed", "GEN-15", hole=self.board.holes[last], seeds=seeds)
            start = last

    def successors_for(self, s: Sowing, origin: int) -> tuple[int, ...]:
        return self.board.successors["track"]

    def lap(self, s: Sowing, successors: tuple[Hole, ...], start: Hole, seeds: int) -> tuple[Hole, int]:
        if s.trace is None:
            return lap(s.holes, successors, start, seeds)
        return self.traced_lap(s, successors, start, seeds)

    def traced_lap(self, s: Sowing, successors: tuple[Hole, ...], start: Hole, seeds: int) -> tuple[Hole, int]:
        names, hole = self.board.holes, start
        for _ in range(seeds):
            hole = successors[hole]
            s.holes[hole] += 1
            s.note("dropped", "GEN-12", hole=names[hole], now=s.holes[hole])
        return hole, s.holes[hole] - 1

    def land(self, s: Sowing, hole: Hole, before: int) -> Land:
        """What happens where a lap ends: RELAY, END_TURN or SOW_AGAIN."""
        raise NotImplementedError

    # -- The end of a sowing and of a turn ------------------------------------------

    def after_sowing(self, s: Sowing) -> State:
        before = s.state
        if s.trace is None and not s.again:
            # The common end of an untraced turn (replay's, the bench's): made in one step,
            # where turn_ended and end_turn would copy the state again.
            simply = self.turn_simply_ended(s)
            if simply is not None:
                return simply
        state = before.after_sowing(
            tuple(s.holes),
            tuple(s.specials),
            (s.stores[0], s.stores[1]),
            before.to_move,
            None,
            before.first_turn_of_round,
        )
        mover = s.mover
        if s.again:
            if self.can_sow(s.holes, s.specials, state.owners, mover):
                s.note("sow_again", "GEN-18", player=mover.json)
                return state._replace(to_move=mover)
            s.note("turn_ended", "GEN-18", player=mover.json, why="no legal hole to sow again")
        return self.end_turn(s, self.turn_ended(state, mover))

    def turn_simply_ended(self, s: Sowing) -> State | None:
        """The state after a turn that changes only who is to move, as ``turn_ended`` and
        ``end_turn`` would make it; None for any other end (the first turn of a round,
        GEN-34; the end of a round), which the full flow makes.

        GEN-19: the opponent sows next if he can; else, in a game where a player passes,
        the mover sows on."""
        before, mover = s.state, s.mover
        if before.first_turn_of_round or mover in before.first_turn_pending:
            return None
        if self.opponent_sows_next(s):
            to_move, no_return = OPPONENTS[mover], s.no_return
        elif self.passes and self.can_sow(s.holes, s.specials, s.owners, mover):
            to_move, no_return = mover, None
        else:
            return None
        holes, specials, stores = tuple(s.holes), tuple(s.specials), (s.stores[0], s.stores[1])
        return before.after_sowing(holes, specials, stores, to_move, no_return, False)

    def opponent_sows_next(self, s: Sowing) -> bool:
        """GEN-19: the opponent can sow after this sowing (else he passes, or the round ends)."""
        return self.can_sow(s.holes, s.specials, s.owners, OPPONENTS[s.mover], s.no_return)

    def turn_ended(self, state: State, mover: Player) -> State:
        """GEN-34: ``first_turn_of_round`` changes only when a turn ends."""
        if not state.first_turn_of_round and mover not in state.first_turn_pending:
            return state
        pending = tuple(p for p in state.first_turn_pending if p != mover)
        return state._replace(first_turn_of_round=False, first_turn_pending=pending)

    def end_turn(self, s: Sowing, state: State) -> State:
        """GEN-19: the opponent moves if he can; else he passes and the mover goes on; else the round ends."""
        mover, opponent = s.mover, s.mover.opponent
        if self.opponent_sows_next(s):
            if s.trace is not None:
                s.note("to_move", "GEN-19", player=opponent.json)
            return state._replace(to_move=opponent, no_return=s.no_return)
        if self.can_sow(s.holes, s.specials, state.owners, mover):
            s.note("passed", "GEN-19", player=opponent.json)
            s.note("to_move", "GEN-19", player=mover.json, why="the opponent passed")
            return state._replace(to_move=mover)
        s.note("round_ended", self.round_end_rule, why="neither player has a legal sowing")
        return self.end_round(state._replace(to_move=None), mover, s)

    def end_round(self, state: State, last_mover: Player, s: Sowing | None = None) -> State:
        """A single-round game ends with its round (overridden by games with matches)."""
        raise NotImplementedError

    # -- Decisions ------------------------------------------------------------------
    # The fold may call any of these; a game without the decision refuses it. The command
    # layer never lets one through (GEN-22: only the decisions in DECISIONS are due).

    def race_board_problem(self, holes: Any) -> str | None:
        """GEN-37: why a recorded race board is invalid, or None (Gabata)."""
        raise self.no_decision("race")

    def record_race(self, state: State, winner: Player, holes: tuple[int, ...]) -> State:
        """GEN-24: the board after the race and its winner (Gabata)."""
        raise self.no_decision("race")

    def play_opening(self, state: State, choice: OpeningChoice, trace: Trace | None = None) -> State:
        """GEN-25: the first player's stylised opening (Tuz)."""
        raise self.no_decision("opening")

    def draw_lot(self, state: State, winner: Player) -> State:
        """GEN-26: who receives the extra hole (games with matches)."""
        raise self.no_decision("lot")

    def start_next_round(self, state: State, first_player: Player, owners: tuple[Player, ...] | None = None) -> State:
        """GEN-27: the next round of a match."""
        raise self.no_decision("next_round")

    def no_decision(self, kind: Decision) -> IllegalMove:
        return IllegalMove(f"{self.name} has no {kind} decision")

    def record_result(self, state: State, kind: ResultKind, winner: Player | None) -> State:
        """GEN-28, GEN-32: the board stays, the game (or match) ends at once."""
        return state._replace(
            to_move=None,
            awaiting=None,
            no_return=None,
            game_over=True,
            outcome=Outcome(winner, kind),
            score=None,
        )

    def describe(self) -> dict[str, Any]:
        """Name, title, geometry and options, for GET /api/variants."""
        board = self.board
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "board": {"name": board.name, "rows": board.rows, "holes": list(board.holes)},
            "tracks": {d: [board.holes[i] for i in cycle] for d, cycle in board.tracks.items()},
            "default_owners": {board.holes[i]: p.json for i, p in enumerate(board.default_owners)},
            "seeds_per_hole": self.seeds_per_hole,
            "total_seeds": self.total_seeds,
            "special_kind": self.special_kind,
            "decisions": list(self.DECISIONS),
            "needs_first_player": self.has_first_player,
            "options": {
                name: {"default": o.default, "choices": list(o.choices), "rules": o.rules, "description": o.description}
                for name, o in self.OPTIONS.items()
            },
        }


def mover_of(state: State) -> Player:
    """The player to move; only a state that awaits a decision or is over has none."""
    mover = state.to_move
    if mover is None:
        raise IllegalMove("nobody is to move (GEN-21)")
    return mover


def winner_by_score(score: tuple[int, int]) -> Player | None:
    """The higher score wins; equal scores are a draw (SEL-14, QEL-13, GAB-8)."""
    if score[0] == score[1]:
        return None
    return Player.SOUTH if score[0] > score[1] else Player.NORTH
