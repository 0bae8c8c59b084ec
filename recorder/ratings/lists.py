"""Rating lists: Glicko-2 over calendar months, from rated games. Pure: games in, lists out.

A period is a month (``YYYY-MM``). Every player has a rating from the period of his first
rated game on; in each period after it his rating moves by his games of that period
(opponents as they stood before it) or, without games, only his deviation grows. The
list of a period holds every rated player as of its end, ranked by rating. Each entry
explains itself: the rating before, and each game with the opponent's rating and
deviation, the expected and the actual score.

Corrections (docs/players.md): a game counts in the month its result was first recorded.
The list of month M is the run over every month up to M with each game's result as known
at the end of M (``GameRecord.result_as_of``), so a list never changes when events are
recorded later; a result corrected in month N takes effect in list N and later, as if it
had always been so, and list N states each correction it applies (``Correction``).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from .glicko2 import DEFAULT_RD, DEFAULT_TAU, Rating, Result, expected_score, rate

PROVISIONAL_RD = 110.0  # a deviation above this marks a rating provisional
SCORES = {"south_wins": (1.0, 0.0), "north_wins": (0.0, 1.0), "draw": (0.5, 0.5)}


@dataclass(frozen=True)
class RatedGame:
    """A finished game between two registry players (survivors of any merge) in a rated
    tournament, in the period (month) its result was recorded."""

    game_id: str
    period: str
    south: str
    north: str
    result: str  # south_wins, north_wins or draw


@dataclass(frozen=True)
class GameRecord:
    """A rated game's result as it was recorded: each change of it in order, as (the month
    it was recorded, the result, or None when the game stood unfinished again). Its players
    are the survivors of any merge."""

    game_id: str
    south: str
    north: str
    changes: tuple[tuple[str, str | None], ...]

    @property
    def period(self) -> str | None:
        """The month it counts in: that of its first result (None: never finished)."""
        return next((month for month, result in self.changes if result is not None), None)

    def result_as_of(self, period: str) -> str | None:
        """The result as known at the end of the month ``period`` (None: none then)."""
        found = None
        for month, result in self.changes:
            if month > period:
                break
            found = result
        return found


@dataclass(frozen=True)
class Correction:
    """A result of a game of an earlier month changed, as a list applies it."""

    game_id: str
    period: str  # the month the game counts in
    before: str | None  # its result as known at the end of the month before (None: none)
    after: str | None  # as known at the end of this month


@dataclass(frozen=True)
class Entry:
    player_id: str
    rating: Rating
    games: int
    explanation: dict = field(default_factory=dict, compare=False)

    @property
    def provisional(self) -> bool:
        return self.rating.rd > PROVISIONAL_RD


@dataclass(frozen=True)
class PeriodList:
    period: str
    entries: tuple[Entry, ...]  # ranked: rating high to low, then id
    corrections: tuple[Correction, ...] = ()  # the earlier months' results it applies corrected


def next_month(period: str) -> str:
    year, month = int(period[:4]), int(period[5:7])
    return f"{year + month // 12:04d}-{month % 12 + 1:02d}"


def previous_month(period: str) -> str:
    year, month = int(period[:4]), int(period[5:7])
    return f"{year - (month == 1):04d}-{(month - 2) % 12 + 1:02d}"


def months(first: str, last: str) -> list[str]:
    found = [first]
    while found[-1] < last:
        found.append(next_month(found[-1]))
    return found


def rating_lists(
    games: Iterable[RatedGame],
    last_period: str | None = None,
    *,
    start: dict[str, Rating] | None = None,
    first_period: str | None = None,
    tau: float = DEFAULT_TAU,
) -> list[PeriodList]:
    """The list of every month from the first game's (or ``first_period``) to
    ``last_period`` (or the last game's), each player starting from ``start`` (the
    ratings as of the month before) or, at his first game, the default rating."""
    by_period: dict[str, list[RatedGame]] = defaultdict(list)
    for game in games:
        if game.south != game.north and game.result in SCORES:
            by_period[game.period].append(game)
    ratings = dict(start or {})
    first = first_period or min(by_period, default=None)
    last = max([p for p in (last_period, max(by_period, default=None)) if p is not None], default=None)
    if first is None or last is None:
        return []
    lists = []
    for period in months(first, last):
        ratings, entries = _period(ratings, sorted(by_period.get(period, []), key=lambda g: g.game_id), tau)
        lists.append(PeriodList(period, entries))
    return lists


def published_lists(records: Iterable[GameRecord], last: str, *, tau: float = DEFAULT_TAU) -> list[PeriodList]:
    """Every month's list from the first game's month to ``last``, each as known at its
    month's end. A month without corrections goes on from the month before; a month with
    some runs again from the earliest month they touch (with the results as now known)."""
    rated = sorted((r for r in records if r.south != r.north and r.period is not None), key=lambda r: r.game_id)
    by_period: dict[str, list[GameRecord]] = defaultdict(list)
    changed: dict[str, list[GameRecord]] = defaultdict(list)  # month -> games of earlier months changed in it
    for record in rated:
        first = str(record.period)
        by_period[first].append(record)
        for month in sorted({month for month, _ in record.changes if month > first}):
            changed[month].append(record)
    if not by_period or last < min(by_period):
        return []
    after: dict[str, dict[str, Rating]] = {}  # each month's ratings, as known at the end of the last
    lists = []
    for period in months(min(by_period), last):
        fixes = corrections(changed.get(period, []), period)
        entries: tuple[Entry, ...] = ()
        for month in months(min([c.period for c in fixes], default=period), period):
            games = games_as_of(by_period.get(month, []), month, period)
            after[month], entries = _period(after.get(previous_month(month), {}), games, tau)
        lists.append(PeriodList(period, entries, fixes))
    return lists


def corrections(records: Iterable[GameRecord], period: str) -> tuple[Correction, ...]:
    """The results of games of earlier months that the list of ``period`` applies changed."""
    found = []
    for record in records:
        first = record.period
        if first is None or first >= period or record.south == record.north:
            continue
        before, after = record.result_as_of(previous_month(period)), record.result_as_of(period)
        if before != after:
            found.append(Correction(record.game_id, first, before, after))
    return tuple(sorted(found, key=lambda c: c.game_id))


def games_as_of(records: Iterable[GameRecord], period: str, known: str) -> list[RatedGame]:
    """The games of month ``period`` with a result as known at the end of ``known``."""
    found = []
    for record in records:
        result = record.result_as_of(known)
        if record.period == period and result in SCORES and record.south != record.north:
            found.append(RatedGame(record.game_id, period, record.south, record.north, str(result)))
    return sorted(found, key=lambda g: g.game_id)


def ratings_as_of(
    records: Iterable[GameRecord], last: str, known: str, *, tau: float = DEFAULT_TAU
) -> dict[str, Rating]:
    """Every player's rating after month ``last``, each result as known at the end of ``known``."""
    by_period: dict[str, list[GameRecord]] = defaultdict(list)
    for record in records:
        if record.period is not None and record.period <= last:
            by_period[record.period].append(record)
    ratings: dict[str, Rating] = {}
    for month in months(min(by_period), last) if by_period else []:
        ratings, _ = _period(ratings, games_as_of(by_period.get(month, []), month, known), tau)
    return ratings


def _period(before: dict[str, Rating], games: list[RatedGame], tau: float) -> tuple[dict[str, Rating], tuple]:
    """Every player's rating after one period, and the period's ranked entries."""
    ratings = dict(before)
    for game in games:
        for side in (game.south, game.north):
            ratings.setdefault(side, Rating())
    played = _played(games)
    after: dict[str, Rating] = {}
    entries = []
    for player_id, rating in ratings.items():
        entry = _entry(player_id, rating, ratings, played.get(player_id, []), tau)
        after[player_id] = entry.rating
        entries.append(entry)
    entries.sort(key=_rank_key)
    return after, tuple(entries)


def _played(games: Iterable[RatedGame]) -> dict[str, list[tuple[RatedGame, str, float]]]:
    """Each player's games of a period: (the game, the opponent, his score)."""
    played: dict[str, list[tuple[RatedGame, str, float]]] = defaultdict(list)
    for game in games:
        south_score, north_score = SCORES[game.result]
        played[game.south].append((game, game.north, south_score))
        played[game.north].append((game, game.south, north_score))
    return played


def _rank_key(entry: Entry) -> tuple[float, str]:
    return -entry.rating.rating, entry.player_id


class RunningPeriod:
    """One period's list kept up to date a result at a time (this month's, asked for
    after every result). A player's entry depends only on his rating before the period
    and his games of it, each opponent as he stood before it: a new, changed or withdrawn
    game changes its two players' entries and no other. ``list()`` is what
    ``rating_lists`` gives for the period from the same ratings and games."""

    def __init__(self, period: str, start: dict[str, Rating], tau: float = DEFAULT_TAU):
        self.period, self.start, self.tau = period, start, tau
        self.games: dict[str, RatedGame] = {}
        self.entries: dict[str, Entry] = {}
        self.ranked: list[tuple[float, str]] = []
        for player_id, rating in start.items():
            self.entries[player_id] = _entry(player_id, rating, start, [], tau)
        self.ranked = sorted(_rank_key(e) for e in self.entries.values())

    def update(self, games: Iterable[RatedGame]) -> None:
        """Bring the list to these games of the period (all of them, as they now stand)."""
        now = {g.game_id: g for g in games if g.south != g.north and g.result in SCORES and g.period == self.period}
        changed = {gid for gid in now.keys() | self.games.keys() if now.get(gid) != self.games.get(gid)}
        affected = {p for gid in changed for g in (now.get(gid), self.games.get(gid)) if g for p in (g.south, g.north)}
        self.games = now
        if not affected:
            return
        played = _played(g for g in sorted(now.values(), key=lambda g: g.game_id))
        ratings = dict(self.start)
        for game in now.values():
            for side in (game.south, game.north):
                ratings.setdefault(side, Rating())
        for player_id in sorted(affected):
            old = self.entries.pop(player_id, None)
            if old is not None:
                del self.ranked[bisect.bisect_left(self.ranked, _rank_key(old))]
            if player_id in self.start or player_id in played:
                entry = _entry(player_id, ratings[player_id], ratings, played.get(player_id, []), self.tau)
                self.entries[player_id] = entry
                bisect.insort(self.ranked, _rank_key(entry))

    def list(self) -> PeriodList:
        return PeriodList(self.period, tuple(self.entries[player_id] for _, player_id in self.ranked))


def _entry(player_id: str, rating: Rating, ratings: dict[str, Rating], mine, tau: float) -> Entry:
    new = rate(rating, [Result(ratings[opponent], score) for _, opponent, score in mine], tau)
    new = Rating(new.rating, min(new.rd, DEFAULT_RD), new.volatility)
    return Entry(player_id, new, len(mine), _explanation(rating, ratings, mine))


def _explanation(rating: Rating, ratings: dict[str, Rating], mine: list) -> dict:
    return {
        "before": rounded(rating),
        "games": [
            {
                "game_id": game.game_id,
                "opponent": opponent,
                "opponent_rating": round(ratings[opponent].rating, 2),
                "opponent_rd": round(ratings[opponent].rd, 2),
                "expected": round(expected_score(rating, ratings[opponent]), 4),
                "score": score,
            }
            for game, opponent, score in sorted(mine, key=lambda m: m[0].game_id)
        ],
    }


def rounded(rating: Rating) -> dict:
    """A rating as lists show and store it: points and deviation to 2 places, volatility to 6."""
    return {"rating": round(rating.rating, 2), "rd": round(rating.rd, 2), "volatility": round(rating.volatility, 6)}
