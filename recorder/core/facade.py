"""The engine's front door: ``from recorder import Game``.

A ``Game`` is one game recorded in memory, the way ``chess.Board`` is one position:
create it, play sowings and decisions, ask for the legal moves and the state, replay
it from its events. Each call goes through the same commands and the same fold as the
service (``commands.decide``, ``game.apply_event``), so it refuses exactly what the
API refuses, with the same named errors (``IllegalMove``, ``InvalidRecord``, ...).
Pure: nothing is stored, and no web framework or database is loaded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from recorder.rules.base import Rules
from recorder.rules.state import Outcome, State, state_to_json
from recorder.rules.values import (
    Awaiting,
    HoleName,
    OpeningChoice,
    PlayerName,
    ResultKind,
)

from . import game as fold
from .commands import Command, decide, decide_create
from .events import Clock, Event, GameCreated, event_from_record, setup_of
from .redecide import redecide, redecide_setup


class Game:
    """One game in memory: its events, and the state they fold to. Its own reads name the
    players as the API does (``"south"``, ``"north"``); ``state`` is the rules' value."""

    def __init__(
        self,
        variant: str,
        *,
        first_player: PlayerName | None = None,
        options: Mapping[str, Any] | None = None,
        south: str = "South",
        north: str = "North",
        position: Mapping[str, Any] | None = None,
        game_id: str = "game",
        time_control: Mapping[str, Any] | None = None,
    ) -> None:
        """GEN-23: a new game from the standard start, or GEN-42: from ``position`` (the
        state shape ``state_json`` returns). Gabata names no first player (GEN-30).
        ``time_control``: the game's, kept in its metadata (``core.clocks``: stages of a base
        time with an increment or a delay), checked here as ``POST /api/games`` checks it."""
        body: Command = {"variant": variant, "options": dict(options or {}), "south": south, "north": north}
        body["first_player"] = first_player
        body["position"] = dict(position) if position is not None else None
        body["time_control"] = dict(time_control) if time_control is not None else None
        self._start(game_id, decide_create(body))

    def _start(self, game_id: str, setup: GameCreated) -> None:
        self._game = fold.start_game(game_id, setup)
        self._events: list[tuple[int, Event]] = [(1, setup)]

    @classmethod
    def replay(cls, events: Iterable[Event | Mapping[str, Any]], *, game_id: str = "game") -> Game:
        """The game these events record, each checked as if it were recorded now.

        ``events`` start with the setup; each is an event object or a stored record
        (``{"type", "payload", ...}``, as ``GET /api/games/{id}/events`` lists them).
        """
        records = iter(events)
        first = next(records, None)
        if first is None:
            raise ValueError("a game needs its setup event")
        game = cls.__new__(cls)
        game._start(game_id, redecide_setup(setup_of(_event(first))))
        for record in records:
            game._record(_event(record), check=True)
        return game

    # -- Playing -------------------------------------------------------------------

    def play(self, command: Mapping[str, Any]) -> list[Event]:
        """Any command the API takes (``{"type": "sow", "hole": "f1"}``, ...); its events."""
        events = decide(self._game, dict(command))
        for event in events:
            self._record(event, check=False)
        return events

    # Each sowing and decision may carry ``clock``, each player's remaining milliseconds
    # just after it (TIME-2): ``{"south": 5_321_000, "north": 5_400_000}``.

    def sow(self, hole: HoleName, clock: Clock | None = None) -> None:
        """GEN-21: the player to move sows ``hole``."""
        self.play(_timed({"type": "sow", "hole": hole}, clock))

    def race(self, winner: PlayerName, holes: Mapping[str, int], clock: Clock | None = None) -> None:
        """GEN-24, GAB-2: the board after Gabata's race and who won it."""
        self.play(_timed({"type": "race", "winner": winner, "holes": dict(holes)}, clock))

    def opening(self, choice: OpeningChoice, clock: Clock | None = None) -> None:
        """GEN-25, TUZ-4: Tuz's opening, ``"tuz"`` or ``"plain"``."""
        self.play(_timed({"type": "opening", "choice": choice}, clock))

    def lot(self, winner: PlayerName, clock: Clock | None = None) -> None:
        """GEN-26: who receives the extra hole."""
        self.play(_timed({"type": "lot", "winner": winner}, clock))

    def next_round(
        self, first_player: PlayerName, allocation: Mapping[str, list[str]] | None = None, clock: Clock | None = None
    ) -> None:
        """GEN-27, GEN-38: the next round of a match, on the default or a recorded allocation."""
        self.play(_timed({"type": "next_round", "first_player": first_player, "allocation": allocation}, clock))

    def result(
        self, kind: ResultKind, winner: PlayerName | None, note: str | None = None, clock: Clock | None = None
    ) -> None:
        """GEN-28, TIME-1: a result decided off the board (``winner`` None for a draw;
        ``kind`` ``"time"`` when a flag fell)."""
        self.play(_timed({"type": "result", "kind": kind, "winner": winner, "note": note}, clock))

    def retract(self, count: int, reason: str) -> None:
        """Withdraw the latest ``count`` moves; the events keep them."""
        self.play({"type": "retract", "count": count, "reason": reason})

    def annotate(self, text: str) -> None:
        """A comment on the position as it stands."""
        self.play({"type": "annotate", "text": text})

    def pause_clocks(self, clock: Clock) -> None:
        """The arbiter stops both clocks at this reading (a game with a time control)."""
        self.play({"type": "pause_clocks", "clock": dict(clock)})

    def resume_clocks(self, clock: Clock | None = None) -> None:
        """The arbiter starts the clocks again, at this reading if it changed."""
        self.play(_timed({"type": "resume_clocks"}, clock))

    def _record(self, event: Event, *, check: bool) -> None:
        if check:
            redecide(self._game, event)
        seq = self._game.version + 1
        self._game = fold.apply_event(self._game, event, seq)
        self._events.append((seq, event))

    # -- Reading -------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._game.rules

    @property
    def state(self) -> State:
        """The position as the rules' immutable value (holes by index, players as the
        rules' ``Player``), for comparing positions; ``state_json()`` names them."""
        return self._game.state

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event recorded, the setup first: what ``Game.replay`` takes back."""
        return tuple(event for _, event in self._events)

    def legal_moves(self) -> list[HoleName]:
        """The holes the player to move may sow, by name (empty while a decision is awaited)."""
        names = self.rules.board.holes
        return sorted(names[i] for i in self.rules.legal_moves(self.state))

    @property
    def to_move(self) -> PlayerName | None:
        """``"south"`` or ``"north"``, or None when nobody sows (a decision, or the end)."""
        mover = self.state.to_move
        return mover.json if mover is not None else None

    @property
    def awaiting(self) -> Awaiting | None:
        return self.state.awaiting

    @property
    def is_over(self) -> bool:
        return self.state.game_over

    @property
    def outcome(self) -> Outcome[PlayerName] | None:
        """The winner by name and the reason, or None while the game goes on."""
        if not self.state.game_over:
            return None
        return self.state.result.named()

    def state_json(self) -> dict[str, Any]:
        """The state as the API returns it (rules/README.md §8), with ``version``."""
        return {**state_to_json(self.rules, self.state), "version": self._game.version}

    def __repr__(self) -> str:
        return f"<Game {self.rules.name} after {len(self._events)} events, {self.to_move or 'nobody'} to move>"


def _timed(command: Command, clock: Clock | None) -> Command:
    """The command with its clock reading, when it has one (no reading is no ``clock`` key)."""
    return command if clock is None else {**command, "clock": dict(clock)}


def _event(record: Event | Mapping[str, Any]) -> Event:
    if isinstance(record, Event):
        return record
    return event_from_record(record["type"], dict(record["payload"]))
