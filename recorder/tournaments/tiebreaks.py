"""FIDE C.07's tie-breaks for individual events, over a tournament's cells (pure).

A tie-break is named by its C.07 code and its modifiers: ``BH``, ``BH/C1`` (Cut-1: the
least significant value left out), ``BH/C2``, ``BH/M1`` (Median-1: the least and the
most significant left out), ``BH/M2``, ``SB``, ``SB/C1``, ``PS``, ``PS/C1`` (the first
round's running score left out), ``ARO``, ``ARO/C1``, ``TPR``, ``TPR/C1``, ``KS`` (Koya,
limit 50% of the maximum score), ``DE`` (direct encounter, within the ties the
tie-breaks before it leave; its value a place within the tie, 0 when it separates no
one), ``WIN``, ``WON``, ``BPG``, ``BWG``, ``PTS`` and ``LOTS`` (the drawing of lots,
seeded by the tournament: without it players tied on the whole list share a place).
Options follow: ``/P`` (BH, SB, DE) counts a forfeit as a game against its opponent,
``/V`` (a cut of BH, SB) takes the least significant value whatever the round. ``-``
may stand for ``/``.

Unplayed rounds (C.07 16): a round a player has no game over the board in is either
one he chose not to play (a *voluntarily unplayed round*: a forfeit loss, a double
forfeit, a half- or zero-point bye, an absence) or one he could not play (a
pairing-allocated bye, a full-point bye, a forfeit win).
- For his own Buchholz, each of his rounds without a game over the board is counted
  against a virtual opponent who has his own final score; in a round robin a forfeit
  counts as a game against the scheduled opponent, and a round without an opponent is
  not a round of his at all;
- in his opponents' Buchholz his score counts, except that the voluntarily unplayed
  rounds after the last round he did not choose to miss count as draws (a player who
  left stops dragging his opponents down);
- a cut leaves out a voluntarily unplayed round first (``least_significant``).
Black here is North: a TRF's ``w`` is South (docs/tournaments.md).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .cell import ABSENT, BYE, FORFEIT, PENDING, PLAYED, Cell
from .pairing import NORTH

WIN = Fraction(1)
DRAW = Fraction(1, 2)
KOYA_LIMIT = Fraction(1, 2)  # of the most points a player could have scored
NAMES = ("PTS", "DE", "BH", "SB", "PS", "ARO", "TPR", "KS", "WIN", "WON", "BPG", "BWG", "LOTS")
PLACES = ("DE", "LOTS")  # values that are places: fewer ranks first
CUTTABLE = ("BH", "SB", "PS", "ARO", "TPR")
CODE = re.compile(r"^(?P<name>[A-Z]+)(?:[/-](?P<kind>[CM])(?P<count>[12]))?(?:[/-](?P<options>P|V|PV))?$")
FORFEITS_AS_PLAYED = ("BH", "SB", "DE")  # option P: a forfeit counts as a game against its opponent
PLAIN_CUT = ("BH", "SB")  # option V: a cut takes the least significant value, whatever the round

Table = Mapping[int, Sequence[Cell]]
Value = Fraction | int


class UnknownTiebreak(ValueError):
    """A code that names no tie-break of C.07 this service computes."""


@dataclass(frozen=True)
class Tiebreak:
    name: str
    low: int = 0  # least significant values left out (Cut-n, Median-n)
    high: int = 0  # most significant values left out (Median-n)
    forfeits_played: bool = False  # option P (a round robin's rule, chosen in a Swiss)
    plain_cut: bool = False  # option V: no preference for voluntarily unplayed rounds

    @property
    def code(self) -> str:
        cut = f"M{self.high}" if self.high else f"C{self.low}" if self.low else ""
        options = ("P" if self.forfeits_played else "") + ("V" if self.plain_cut else "")
        return "/".join(part for part in (self.name, cut, options) if part)


def parse(code: str) -> Tiebreak:
    """A C.07 code: the name, a cut or median (C1, C2, M1, M2), options P and V."""
    found = CODE.match(code)
    if found is None or found["name"] not in NAMES:
        raise UnknownTiebreak(code)
    name, kind, options = found["name"], found["kind"], found["options"] or ""
    if kind is not None and (name not in CUTTABLE or (kind == "M" and name != "BH")):
        raise UnknownTiebreak(code)
    if ("P" in options and name not in FORFEITS_AS_PLAYED) or ("V" in options and (name not in PLAIN_CUT or not kind)):
        raise UnknownTiebreak(code)
    count = int(found["count"]) if kind else 0
    return Tiebreak(name, count, count if kind == "M" else 0, "P" in options, "V" in options)


# --------------------------------------------------------------------------- one round


def counted(cells: Sequence[Cell]) -> list[Cell]:
    """The rounds that count: every round but one still being played."""
    return [c for c in cells if c.kind != PENDING]


def points(cell: Cell) -> Fraction:
    return cell.points if cell.points is not None else Fraction(0)


def over_the_board(cell: Cell) -> bool:
    """A game: played, or begun and ended in less than a move (the TRF's W, D, L count as
    played for FIDE's calculator, though not for pairing)."""
    return cell.kind == PLAYED or cell.short_game


def voluntarily_unplayed(cell: Cell) -> bool:
    """C.07 16: a round missed by the player's choice or fault (not a pairing-allocated
    or full-point bye, nor a forfeit win)."""
    if over_the_board(cell) or (cell.kind == BYE and cell.bye == "pab"):
        return False
    if cell.kind in (FORFEIT, BYE):
        return points(cell) != WIN
    return cell.kind == ABSENT


def score(cells: Sequence[Cell]) -> Fraction:
    return sum((points(c) for c in counted(cells)), Fraction(0))


def score_for_opponents(cells: Sequence[Cell], round_robin: bool) -> Fraction:
    """A player's score as it counts in his opponents' Buchholz: his voluntarily unplayed
    rounds without an opponent after the last round he did not choose to miss count as
    draws (in a round robin as nothing)."""
    rounds = counted(cells)
    last_chosen = max((i for i, c in enumerate(rounds) if not voluntarily_unplayed(c)), default=-1)
    after_leaving = Fraction(0) if round_robin else DRAW
    return sum(
        (points(c) if i <= last_chosen or c.opponent is not None else after_leaving for i, c in enumerate(rounds)),
        Fraction(0),
    )


# --------------------------------------------------------------------------- Buchholz family


@dataclass(frozen=True)
class Contribution:
    """One round's part of a Buchholz or Sonneborn-Berger: the opponent's score and the
    value it adds; ``chosen``: a voluntarily unplayed round (cut first)."""

    score: Fraction
    value: Fraction
    chosen: bool


def contributions(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> list[Contribution]:
    own, opponents, round_robin = score(table[number]), context.opponents, context.round_robin
    weighted = tiebreak.name == "SB"
    found = []
    for c in counted(table[number]):
        if c.opponent is not None and (over_the_board(c) or forfeits_count(tiebreak, context)):
            opponent, chosen = opponents[c.opponent], False  # a forfeit counting as played
        elif round_robin:
            continue  # a round robin's round off is not a round of the player
        else:
            opponent, chosen = own, voluntarily_unplayed(c)  # the virtual opponent
        found.append(Contribution(opponent, opponent * points(c) if weighted else opponent, chosen))
    return found


def forfeits_count(tiebreak: Tiebreak, context: Context) -> bool:
    """Whether a forfeit counts as a game against its opponent: in a round robin, or
    chosen (option P)."""
    return context.round_robin or tiebreak.forfeits_played


def least_significant(values: list[Contribution], plain: bool = False) -> Contribution:
    """C.07 14.6: the lowest voluntarily unplayed round goes first (by its opponent's
    score, then its value), unless the round of the lowest opponent's score is worth
    more than it (as a Sonneborn-Berger may be): then that round goes."""
    lowest = min(values, key=lambda v: (v.score, v.value))
    chosen = [v for v in values if v.chosen]
    if plain or not chosen:
        return lowest
    lowest_chosen = min(chosen, key=lambda v: (v.score, v.value))
    return lowest if lowest.value > lowest_chosen.value else lowest_chosen


def after_cuts(values: list[Contribution], tiebreak: Tiebreak, rounds: int) -> list[Contribution]:
    low = min(tiebreak.low, rounds, len(values))
    high = min(tiebreak.high, rounds - low, len(values) - low)
    kept = list(values)
    for _ in range(low):
        kept.remove(least_significant(kept, tiebreak.plain_cut))
    for _ in range(high):
        kept.remove(max(kept, key=lambda v: (v.score, v.value)))
    return kept


def buchholz(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> Fraction:
    values = contributions(number, table, tiebreak, context)
    return sum((v.value for v in after_cuts(values, tiebreak, context.rounds)), Fraction(0))


# --------------------------------------------------------------------------- the others


def progressive(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> Fraction:
    running, total = Fraction(0), Fraction(0)
    for index, c in enumerate(counted(table[number]), start=1):
        running += points(c)
        if index > tiebreak.low:
            total += running
    return total


def rated_games(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> list[tuple[int, Fraction]]:
    """(opponent's rating, points) of the games played against rated opponents, less
    the lowest-rated ones a cut leaves out: a cut is made only while every opponent left
    is rated (the earlier of equally rated games goes first)."""
    games = [
        (context.ratings[opponent] or 0, points(c))
        for c in counted(table[number])
        if (opponent := game_opponent(c)) is not None
    ]
    rated = sorted((game for game in games if game[0] > 0), key=lambda game: game[0])
    unrated = len(games) - len(rated)
    for _ in range(min(tiebreak.low, context.rounds)):
        if unrated == 0 and rated:
            rated.pop(0)
        else:
            unrated -= 1
    return rated


def game_opponent(cell: Cell) -> int | None:
    """The opponent of a game over the board; None for every other round."""
    return cell.opponent if over_the_board(cell) else None


def half_up(value: Fraction) -> int:
    return math.floor(value + DRAW)


def average_rating(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> int:
    """The opponents' average rating (ARO), over games played against rated opponents."""
    games = rated_games(number, table, tiebreak, context)
    return half_up(Fraction(sum(r for r, _ in games), len(games))) if games else 0


def performance(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> int:
    """The tournament performance rating (TPR): ARO plus FIDE's rating difference for
    the percentage scored in those games (B.02 8.1.a)."""
    games = rated_games(number, table, tiebreak, context)
    if not games:
        return 0
    percentage = half_up(Fraction(100) * sum((p for _, p in games), Fraction(0)) / len(games))
    return average_rating(number, table, tiebreak, context) + rating_difference(percentage)


# FIDE's conversion of a percentage scored (50 to 100) into a rating difference.
DP_FROM_50 = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
    351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip


def rating_difference(percentage: int) -> int:
    return DP_FROM_50[percentage - 50] if percentage >= 50 else -DP_FROM_50[50 - percentage]


def koya(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> Fraction:
    limit = KOYA_LIMIT * WIN * context.rounds
    return sum(
        (points(c) for c in counted(table[number]) if c.opponent is not None and context.scores[c.opponent] >= limit),
        Fraction(0),
    )


def total(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> Fraction:
    return context.scores[number]


def wins(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> int:
    """Rounds that brought a win's points, played or not (C.07 WIN)."""
    return sum(1 for c in counted(table[number]) if points(c) == WIN)


def won(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> int:
    return sum(1 for c in counted(table[number]) if over_the_board(c) and points(c) == WIN)


def black_games(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> int:
    return sum(1 for c in counted(table[number]) if over_the_board(c) and c.colour == NORTH)


def black_wins(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> int:
    return sum(1 for c in counted(table[number]) if over_the_board(c) and c.colour == NORTH and points(c) == WIN)


def lots(number: int, table: Table, tiebreak: Tiebreak, context: Context) -> int:
    """C.07 4.2's drawing of lots, the last criterion: each player's place in a draw
    seeded by the tournament, the same on every reading (fewer ranks first)."""
    return context.draw[number]


COMPUTE: dict[str, Callable[[int, Table, Tiebreak, Context], Value]] = {
    "PTS": total,
    "BH": buchholz,
    "SB": buchholz,
    "PS": progressive,
    "ARO": average_rating,
    "TPR": performance,
    "KS": koya,
    "WIN": wins,
    "WON": won,
    "BPG": black_games,
    "BWG": black_wins,
    "LOTS": lots,
}


@dataclass(frozen=True)
class Context:
    rounds: int
    round_robin: bool
    scores: Mapping[int, Fraction]
    opponents: Mapping[int, Fraction]  # each player's score in his opponents' Buchholz
    ratings: Mapping[int, int | None]
    draw: Mapping[int, int]  # each player's place in the drawing of lots


def drawing_of_lots(numbers: Iterable[int], seed: str) -> dict[int, int]:
    """Places 1..n, by a hash of the seed (the tournament's id) and the player's number."""
    drawn = sorted(numbers, key=lambda n: hashlib.sha256(f"{seed}:{n}".encode()).digest())
    return {n: place for place, n in enumerate(drawn, start=1)}


def context_of(table: Table, ratings: Mapping[int, int | None], round_robin: bool, seed: str = "") -> Context:
    return Context(
        draw=drawing_of_lots(table, seed),
        rounds=max((len(counted(cells)) for cells in table.values()), default=0),
        round_robin=round_robin,
        scores={n: score(cells) for n, cells in table.items()},
        opponents={n: score_for_opponents(cells, round_robin) for n, cells in table.items()},
        ratings=ratings,
    )


# --------------------------------------------------------------------------- direct encounter


def encounter_points(
    number: int, members: set[int], table: Table, tiebreak: Tiebreak, context: Context
) -> tuple[Fraction, int]:
    """Points against the other members and how many of them were met; a pair that met
    more than once counts the average of its games. In a round robin a forfeit counts
    as a game against the scheduled opponent."""
    results: dict[int, list[Fraction]] = {}
    for c in counted(table[number]):
        met = over_the_board(c) or (forfeits_count(tiebreak, context) and c.kind == FORFEIT)
        if met and c.opponent in members and c.opponent != number:
            results.setdefault(c.opponent, []).append(points(c))
    return sum((sum(r, Fraction(0)) / len(r) for r in results.values()), Fraction(0)), len(results)


def split_by_encounters(members: list[int], table: Table, tiebreak: Tiebreak, context: Context) -> list[list[int]]:
    """C.07 6: one step of direct encounter. If every member has met every other (always
    so counted in a round robin) they are ordered by their points among themselves;
    otherwise a member goes above the rest only if his points beat the most any of them
    could have had by winning the games they did not play, and the first that does not
    leaves him and everyone below tied."""
    group = set(members)
    found = {n: encounter_points(n, group, table, tiebreak, context) for n in members}
    others = len(members) - 1
    most = {n: found[n][0] + (others - found[n][1]) * WIN for n in members}
    all_met = context.round_robin or all(found[n][1] == others for n in members)
    if all_met:
        ordered = sorted(members, key=lambda n: (-found[n][0], n))
        parts: list[list[int]] = []
        for n in ordered:
            if parts and found[parts[-1][0]][0] == found[n][0]:
                parts[-1].append(n)
            else:
                parts.append([n])
        return parts
    ordered = sorted(members, key=lambda n: (-found[n][0], -most[n], n))
    parts = []
    for i, n in enumerate(ordered[:-1]):
        if found[n][0] > max(most[m] for m in ordered[i + 1 :]):
            parts.append([n])
        else:
            return [*parts, ordered[i:]]
    return [*parts, ordered[-1:]]


def direct_encounter(members: list[int], table: Table, tiebreak: Tiebreak, context: Context) -> dict[int, int]:
    """Places within a tied group, from 1, by direct encounter applied again within each
    part it splits off until nothing moves; 0 for all when it separates no one."""
    return places_by_splitting(members, lambda part: split_by_encounters(part, table, tiebreak, context))


def places_by_splitting(members: list[int], split: Callable[[list[int]], list[list[int]]]) -> dict[int, int]:
    """Places within a tie, from 1, by ``split`` (the tie's parts, best first) applied again
    within each part it splits off until nothing moves; 0 for all when it separates no one.
    Direct encounter (C.07 6) is this for players and for teams alike."""
    settled: list[list[int]] = []
    pending = [sorted(members)]
    while pending:
        part = pending.pop(0)
        parts = split(part) if len(part) > 1 else [part]
        if len(parts) == 1:
            settled.append(part)
        else:
            pending[:0] = parts
    if len(settled) == 1:
        return dict.fromkeys(members, 0)
    place, places = 1, {}
    for part in settled:
        places.update(dict.fromkeys(part, place))
        place += len(part)
    return places


def tied_groups(keys: Mapping[int, list]) -> list[list[int]]:
    groups: dict[tuple, list[int]] = {}
    for number in sorted(keys):
        groups.setdefault(tuple(keys[number]), []).append(number)
    return list(groups.values())


def ranking_key(tiebreak: Tiebreak, value: Value) -> Value:
    """The value as a key where more is better: a place (DE, LOTS) counts down."""
    return -value if tiebreak.name in PLACES else value


def one(code: str, table: Table, context: Context, keys: Mapping[int, list]) -> dict[int, Value]:
    """Every player's value of one tie-break; ``keys``: each player's ranking keys so far
    (direct encounter breaks only the ties they leave)."""
    tb = parse(code)
    if tb.name != "DE":
        return {n: COMPUTE[tb.name](n, table, tb, context) for n in table}
    found: dict[int, Value] = {}
    for group in tied_groups(keys):
        found.update(direct_encounter(group, table, tb, context))
    return found


def values(
    table: Table, ratings: Mapping[int, int | None], codes: Sequence[str], round_robin: bool
) -> dict[int, list[Value]]:
    """Every player's value of every tie-break of the list, in the list's order (a code
    may come twice: direct encounter gives each place its own value)."""
    context = context_of(table, ratings, round_robin)
    found: dict[int, list[Value]] = {n: [] for n in table}
    keys: dict[int, list] = {n: [] for n in table}
    for code in codes:
        computed = one(code, table, context, keys)
        for n in table:
            found[n].append(computed[n])
            keys[n].append(ranking_key(parse(code), computed[n]))
    return found
