"""The one fold: stored events -> reducer -> state.

``replay`` is the only way a game's state is made. The API, replay at any ply, export,
what-if replays and verification all go through ``apply_event``. The fold trusts its
input: every event was validated by ``commands`` before it was stored.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from recorder.rules import rules_for
from recorder.rules.base import Rules, Trace
from recorder.rules.board import Player
from recorder.rules.positions import position_from_json
from recorder.rules.state import State

from .clocks import NO_STOPS, ClockStops
from .events import (
    CLOCK_STOP_TYPES,
    MOVE_TYPES,
    SIGNOFF_TYPES,
    Annotated,
    Event,
    GameCreated,
    LotDrawn,
    MovesRetracted,
    OpeningPlayed,
    RaceRecorded,
    ResultRecorded,
    RoundStarted,
    Sowed,
)
from .frozen import made_at_once
from .moves import Moves
from .signoffs import NO_SIGNOFFS, Signoffs


@dataclass(frozen=True)
class FoldedGame:
    """A game as the fold makes it from its events: its setup, rules, current state and
    effective moves (the front door, ``recorder.Game``, holds one)."""

    game_id: str
    setup: GameCreated
    rules: Rules
    state: State
    version: int  # how many stored events have been folded
    moves: Moves  # effective (not retracted) moves, with their seq and the state each made
    stops: ClockStops = NO_STOPS  # the arbiter's latest pause or resume of the clocks
    signoffs: Signoffs = NO_SIGNOFFS  # the players' confirmations, disputes and decisions

    @classmethod
    def folded(
        cls,
        game_id: str,
        setup: GameCreated,
        rules: Rules,
        state: State,
        version: int,
        moves: Moves,
        stops: ClockStops = NO_STOPS,
        signoffs: Signoffs = NO_SIGNOFFS,
    ) -> FoldedGame:
        """``FoldedGame(...)``, made as the fold makes one per event: its fields set at once
        (``core.frozen``)."""
        return made_at_once(
            cls,
            {
                "game_id": game_id,
                "setup": setup,
                "rules": rules,
                "state": state,
                "version": version,
                "moves": moves,
                "stops": stops,
                "signoffs": signoffs,
            },
        )

    @property
    def record_end(self) -> int:
        """The seq of the record's last effective move (the setup's, 1, before any): what a
        player's confirmation names, so a correction of the record leaves it behind."""
        top = self.moves.top_seq
        return 1 if top is None else top


def initial_state(rules: Rules, setup: GameCreated) -> State:
    """GEN-23 from the standard start, or GEN-42 from a given position."""
    if setup.position is not None:
        return position_from_json(rules, setup.position)
    first = Player.parse(setup.first_player) if setup.first_player else None
    return rules.start(first)


def start_game(game_id: str, setup: GameCreated) -> FoldedGame:
    rules = rules_for(setup.variant, setup.options)
    state = initial_state(rules, setup)
    return FoldedGame(game_id, setup, rules, state, version=1, moves=Moves.start(state))


def apply_move(rules: Rules, state: State, event: Event, trace: Trace | None = None) -> State:
    """One recorded move or decision applied to a state (pure)."""
    if isinstance(event, Sowed):
        return rules.play(state, rules.board.hole(event.hole), trace)
    if isinstance(event, RaceRecorded):
        holes = tuple(event.holes[name] for name in rules.board.holes)
        return rules.record_race(state, Player.parse(event.winner), holes)
    if isinstance(event, OpeningPlayed):
        return rules.play_opening(state, event.choice)
    if isinstance(event, LotDrawn):
        return rules.draw_lot(state, Player.parse(event.winner))
    if isinstance(event, RoundStarted):
        return rules.start_next_round(
            state, Player.parse(event.first_player), allocation_owners(rules, event.allocation)
        )
    if isinstance(event, ResultRecorded):
        winner = Player.parse(event.winner) if event.winner else None
        return rules.record_result(state, event.kind, winner)
    raise TypeError(f"not a move: {event!r}")


def allocation_owners(rules: Rules, allocation: dict[str, list[str]] | None) -> tuple[Player, ...] | None:
    if not allocation:
        return None
    owners = list(rules.board.default_owners)
    for name in ("south", "north"):
        for hole in allocation[name]:
            owners[rules.board.hole(hole)] = Player.parse(name)
    return tuple(owners)


def apply_event(game: FoldedGame, event: Event, seq: int, *, after: State | None = None) -> FoldedGame:
    """The reducer: the game after one more stored event.

    ``after`` is the move's resulting state when its decision has already computed it
    (``commands.execute``): a sowing is then not computed a second time."""
    # Games are built by FoldedGame.folded, not with dataclasses.replace: the fold makes one per event.
    if isinstance(event, Annotated):
        return FoldedGame.folded(
            game.game_id, game.setup, game.rules, game.state, seq, game.moves, game.stops, game.signoffs
        )
    if isinstance(event, MovesRetracted):
        return _retract(game, event.count, seq)
    if event.type in MOVE_TYPES:
        return after_move(game, event, seq, after if after is not None else apply_move(game.rules, game.state, event))
    if event.type in CLOCK_STOP_TYPES:  # the clocks stopped or started: nothing on the board changes
        stops = game.stops.after(seq, event)
        return FoldedGame.folded(
            game.game_id, game.setup, game.rules, game.state, seq, game.moves, stops, game.signoffs
        )
    if event.type in SIGNOFF_TYPES:  # the players' word on the record: nothing on the board changes
        signoffs = game.signoffs.after(seq, event)
        return FoldedGame.folded(
            game.game_id, game.setup, game.rules, game.state, seq, game.moves, game.stops, signoffs
        )
    raise TypeError(f"unexpected event {event!r}")


def after_move(game: FoldedGame, move: Event, seq: int, state: State) -> FoldedGame:
    """The game after a move (``MOVE_TYPES``) whose resulting state is known: the reducer's
    step for a move, which re-deciding a sowing calls straight away (``redecide``)."""
    moves = game.moves.push(seq, move, state)
    return FoldedGame.folded(game.game_id, game.setup, game.rules, state, seq, moves, game.stops, game.signoffs)


def _retract(game: FoldedGame, count: int, seq: int) -> FoldedGame:
    """Step back ``count`` effective moves: the log keeps them, the fold skips them.

    The state to return to is kept on the stack of effective moves, so a retraction costs
    O(count), never a re-fold of the game: folding any log is O(events)."""
    kept = game.moves.pop(count)  # a pause or resume is no move: it stands (docs/notation.md, "Clocks")
    return FoldedGame.folded(game.game_id, game.setup, game.rules, kept.state, seq, kept, game.stops, game.signoffs)


def replay(game_id: str, events: Iterable[tuple[int, Event]]) -> FoldedGame:
    """Fold a game's events, in order, from its setup (seq 1)."""
    last = deque(history(game_id, events), maxlen=1)  # the fold's end, without keeping its steps
    if not last:
        raise ValueError("a game needs its setup event")
    return last[0]


def history(game_id: str, events: Iterable[tuple[int, Event]]) -> Iterator[FoldedGame]:
    """Every intermediate game, one per stored event: replay at any ply."""
    iterator = iter(events)
    first = next(iterator, None)
    if first is None:
        return
    setup = first[1]
    if not isinstance(setup, GameCreated):
        raise ValueError("a game's first event is its setup")
    game = start_game(game_id, setup)
    yield game
    for seq, event in iterator:
        game = apply_event(game, event, seq)
        yield game
