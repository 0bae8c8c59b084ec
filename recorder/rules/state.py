"""The position value every game shares, and its JSON shape (rules/README.md §8).

``State`` is a plain class of read-only fields (``Final``), compiled with the engine
(recorder/engine/): as a native class its fields are C slots, read directly and copied
by one native constructor call, where a tuple's are Python attribute lookups, and the
engine's inner loop reads and copies them at every sowing. Immutability: mypy refuses any
assignment to a field outside ``__init__`` (the test run type-checks the project), and
the compiled class has no setter at all; the copies (``after_sowing``, ``_replace``) are
built whole, never changed after.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Generic, NamedTuple, Protocol, TypeVar

from .board import PLAYERS, Board, Player
from .values import Awaiting, Hole, OutcomeReason, PlayerName, ResultName

_T = TypeVar("_T")
Side = TypeVar("Side", bound=Player | PlayerName)  # how an outcome names its winner

RESULT_NAMES: dict[PlayerName | None, ResultName] = {"south": "south_wins", "north": "north_wins", None: "draw"}


class Outcome(NamedTuple, Generic[Side]):
    """A result as a value: the winner (None for a draw) and how it was decided. The rules
    name the winner by their ``Player``; the front door (``recorder.Game``) by the API's
    name, ``"south"`` or ``"north"``: ``named()`` is the same outcome in those words."""

    winner: Side | None
    reason: OutcomeReason  # "score", "holes", or a GEN-28 kind: resignation, agreement, ...

    @property
    def name(self) -> ResultName:
        """``"south_wins"``, ``"north_wins"`` or ``"draw"``, as the API's ``result`` says."""
        return RESULT_NAMES[self.named().winner]

    def named(self) -> Outcome[PlayerName]:
        """This outcome with its winner by name, as the API and ``recorder.Game`` give it."""
        winner = self.winner
        if isinstance(winner, Player):
            return Outcome(winner.json, self.reason)
        return Outcome(winner, self.reason)


class RoundRecord(NamedTuple):
    """One row of a match's round table."""

    number: int
    first_player: Player | None
    holes: tuple[int, int]  # holes each player owned at the start of the round
    takings: tuple[int, int] | None = None
    lot_winner: Player | None = None


FIELDS = (
    "holes",
    "owners",
    "specials",
    "stores",
    "to_move",
    "first_turn_of_round",
    "first_turn_pending",
    "awaiting",
    "no_return",
    "round",
    "round_over",
    "takings",
    "hole_counts",
    "game_over",
    "outcome",
    "score",
    "rounds",
)


class State:
    """The whole position of a game: board, owners, special holes, stores, whose move,
    the round and its outcome. Immutable; the rules return a new one for every event."""

    __slots__ = FIELDS

    holes: Final[tuple[int, ...]]
    owners: Final[tuple[Player, ...]]
    specials: Final[tuple[Player | None, ...]]  # owner of the special hole, None if ordinary
    stores: Final[tuple[int, int]]
    to_move: Final[Player | None]
    first_turn_of_round: Final[bool]
    first_turn_pending: Final[tuple[Player, ...]]
    awaiting: Final[Awaiting | None]
    no_return: Final[Hole | None]
    round: Final[int]
    round_over: Final[bool]
    takings: Final[tuple[int, int] | None]
    hole_counts: Final[tuple[int, int] | None]
    game_over: Final[bool]
    outcome: Final[Outcome[Player] | None]
    score: Final[tuple[int, int] | None]
    rounds: Final[tuple[RoundRecord, ...]]

    def __init__(
        self,
        holes: tuple[int, ...],
        owners: tuple[Player, ...],
        specials: tuple[Player | None, ...],
        stores: tuple[int, int],
        to_move: Player | None,
        first_turn_of_round: bool = True,
        first_turn_pending: tuple[Player, ...] = (),
        awaiting: Awaiting | None = None,
        no_return: Hole | None = None,
        round: int = 1,
        round_over: bool = False,
        takings: tuple[int, int] | None = None,
        hole_counts: tuple[int, int] | None = None,
        game_over: bool = False,
        outcome: Outcome[Player] | None = None,
        score: tuple[int, int] | None = None,
        rounds: tuple[RoundRecord, ...] = (),
    ) -> None:
        self.holes = holes
        self.owners = owners
        self.specials = specials
        self.stores = stores
        self.to_move = to_move
        self.first_turn_of_round = first_turn_of_round
        self.first_turn_pending = first_turn_pending
        self.awaiting = awaiting
        self.no_return = no_return
        self.round = round
        self.round_over = round_over
        self.takings = takings
        self.hole_counts = hole_counts
        self.game_over = game_over
        self.outcome = outcome
        self.score = score
        self.rounds = rounds

    def values(self) -> tuple[Any, ...]:
        """The fields in ``FIELDS``' order, which ``__init__``, equality, hashing and
        ``_replace`` share: keep the four together."""
        return (
            self.holes,
            self.owners,
            self.specials,
            self.stores,
            self.to_move,
            self.first_turn_of_round,
            self.first_turn_pending,
            self.awaiting,
            self.no_return,
            self.round,
            self.round_over,
            self.takings,
            self.hole_counts,
            self.game_over,
            self.outcome,
            self.score,
            self.rounds,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.values() == other.values()

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        return "State(" + ", ".join(f"{n}={v!r}" for n, v in zip(FIELDS, self.values())) + ")"

    @property
    def seeds(self) -> int:
        """Seeds on the board plus both stores: constant for a variant (§8)."""
        return sum(self.holes) + self.stores[0] + self.stores[1]

    @property
    def result(self) -> Outcome[Player]:
        """The outcome of a game that is over (``outcome`` is set exactly when ``game_over`` is)."""
        return _known(self.outcome)

    def after_sowing(
        self,
        holes: tuple[int, ...],
        specials: tuple[Player | None, ...],
        stores: tuple[int, int],
        to_move: Player | None,
        no_return: Hole | None,
        first_turn_of_round: bool,
    ) -> State:
        """The copy a sowing makes: the engine's hottest allocation."""
        return State(
            holes,
            self.owners,
            specials,
            stores,
            to_move,
            first_turn_of_round,
            self.first_turn_pending,
            self.awaiting,
            no_return,
            self.round,
            self.round_over,
            self.takings,
            self.hole_counts,
            self.game_over,
            self.outcome,
            self.score,
            self.rounds,
        )

    def _replace(self, **changes: Any) -> State:
        """A copy with some fields changed, built positionally (fields are read-only)."""
        v = list(self.values())
        for name, value in changes.items():
            v[_FIELD_INDEX[name]] = value
        return State(
            v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16]
        )


_FIELD_INDEX: Final = {name: index for index, name in enumerate(FIELDS)}


class RulesView(Protocol):
    """What the JSON shape needs of a game's rules (``base.Rules`` has it; base imports this module)."""

    @property
    def name(self) -> str: ...
    @property
    def board(self) -> Board: ...
    @property
    def special_kind(self) -> str | None: ...
    @property
    def options(self) -> Mapping[str, Any]: ...
    @property
    def tracks_first_turns_per_player(self) -> bool: ...
    def legal_moves(self, state: State) -> tuple[Hole, ...]: ...
    def needs_adjudication(self, state: State) -> bool: ...


def pair(values: Sequence[int]) -> dict[str, int]:
    return {"south": values[0], "north": values[1]}


def state_to_json(rules: RulesView, state: State) -> dict[str, Any]:
    """The §8 shape plus ``variant``, ``options``, ``round``, ``rounds`` and ``legal_moves``."""
    board = rules.board
    out: dict[str, Any] = {
        "holes": dict(zip(board.holes, state.holes)),
        "specials": {
            board.holes[i]: {"kind": rules.special_kind, "owner": owner.json}
            for i, owner in enumerate(state.specials)
            if owner is not None
        },
        "owners": {
            board.holes[i]: owner.json for i, owner in enumerate(state.owners) if owner != board.default_owners[i]
        },
        "stores": pair(state.stores),
        "to_move": state.to_move.json if state.to_move is not None else None,
        "first_turn_of_round": state.first_turn_of_round,
    }
    _add_optional_fields(rules, state, out)
    out["variant"] = rules.name
    out["options"] = dict(rules.options)
    out["round"] = state.round
    out["rounds"] = [round_to_json(record) for record in state.rounds]
    out["legal_moves"] = sorted(board.holes[i] for i in rules.legal_moves(state))
    if out["legal_moves"] and rules.needs_adjudication(state):
        out["needs_adjudication"] = True  # GEN-35: every legal sowing never ends
    return out


def _add_optional_fields(rules: RulesView, state: State, out: dict[str, Any]) -> None:
    if state.awaiting:
        out["awaiting"] = state.awaiting
    if state.no_return is not None and state.to_move is not None:
        out["no_return"] = rules.board.holes[state.no_return]
    if rules.tracks_first_turns_per_player:
        # GEN-32, GEN-33: the end of a round or game leaves it as the last turn left it.
        out["first_turn_pending"] = [p.json for p in state.first_turn_pending]
    if state.round_over:
        out["round_over"] = True
        out["takings"] = pair(_known(state.takings))
        if state.hole_counts is not None:
            out["hole_counts"] = pair(state.hole_counts)
    if state.game_over:
        outcome = state.result
        out["game_over"] = True
        out["result"] = outcome.name
        out["result_reason"] = outcome.reason
        if state.score is not None:
            out["score"] = pair(state.score)


def round_to_json(record: RoundRecord) -> dict[str, Any]:
    return {
        "round": record.number,
        "first_player": record.first_player.json if record.first_player is not None else None,
        "holes": pair(record.holes),
        "takings": pair(record.takings) if record.takings is not None else None,
        "lot_winner": record.lot_winner.json if record.lot_winner is not None else None,
    }


def owned_counts(owners: Sequence[Player]) -> tuple[int, int]:
    south = sum(1 for owner in owners if owner == Player.SOUTH)
    return south, len(owners) - south


def _known(value: _T | None) -> _T:
    """A field the state's flags guarantee (``takings`` once the round is over, ``outcome``
    once the game is): a broken invariant fails loudly here instead of far away."""
    if value is None:
        raise AssertionError("a state field its flags promise is missing")
    return value


__all__ = ["Outcome", "PLAYERS", "RoundRecord", "State", "pair", "state_to_json", "owned_counts"]
