"""The rating lists as a projection: read the rated games and the registry, compute the
lists (``lists.rating_lists``), keep the published ones in ``rating_lists`` beside the store.

A game counts when it is finished, in a tournament created ``rated``, between two
registry players (the tournament's entrants linked to the registry, or the ids the game
names), each taken as the record that survives any merge. Its period is the month its
result was recorded (the time of the event that ended it, which is immutable). A period is
published once its month is over: its list is stored by ``rebuild`` and never changes
unless the registry is corrected (a merge or a link rebuilds the lists, as if the record
had always been right). The current month's list is computed when asked, from the last
published ratings and the month's games.
"""

from __future__ import annotations

import contextlib
import gc
import json
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

from recorder.core import chain
from recorder.rules import VARIANTS
from recorder.service import Recorder
from recorder.store import TOURNAMENT, PlayerTables
from recorder.store.registry import list_digests
from recorder.tournaments import board_game_id

from .glicko2 import Rating
from .lists import PeriodList, RatedGame, RunningPeriod, next_month, rating_lists


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection while a rebuild makes its millions of small objects
    (none of them in a cycle): each collection would walk them all again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def this_month() -> str:
    return datetime.now(UTC).strftime("%Y-%m")


def previous_month(period: str) -> str:
    year, month = int(period[:4]), int(period[5:7])
    return f"{year - (month == 1):04d}-{(month - 2) % 12 + 1:02d}"


class Ratings:
    def __init__(self, recorder: Recorder, month: Callable[[], str] | None = None):
        self.recorder = recorder
        self.store = recorder.store
        self.tables = PlayerTables(recorder.store)  # type: ignore[arg-type]
        self.month = month or (lambda: this_month())  # looked up when called: tests set the month
        self._boards: dict[tuple[str, int], dict[str, tuple[str | None, str | None]]] = {}
        # This month's list is asked for often and changes by a result at a time: the last
        # published ratings (by the stored list's digest) and the month's list are kept.
        self._starts: dict[tuple[str, str], tuple[str | None, dict[str, Rating]]] = {}
        self._running: dict[str, RunningPeriod] = {}
        self._published: dict[str, str] = {}  # variant -> the month its lists were last brought up to
        self._publishing = threading.Lock()
        self._running_lock = threading.Lock()

    # -- The games ------------------------------------------------------------------

    def rated_tournaments(self) -> dict[str, str]:
        """Rated tournaments' ids and variants, from their creation events."""
        found, offset = {}, 0
        while page := self.store.first_events(TOURNAMENT, limit=1000, offset=offset):
            found.update({e.game_id: str(e.payload.get("variant")) for e in page if e.payload.get("rated") is True})
            offset += len(page)
        return found

    def boards(self, tournament_id: str) -> dict[str, tuple[str | None, str | None]]:
        """Each board game's id -> the registry players of its south and north entrants
        (cached by the tournament's version: a tournament only grows)."""
        version = self.store.version(tournament_id)
        cached = self._boards.get((tournament_id, version))
        if cached is not None:
            return cached
        from recorder.tournaments.service import Tournaments

        t = Tournaments(self.recorder).tournament(tournament_id)
        found = {}
        for rnd in t.rounds:
            for board in rnd.boards:
                south, north = t.seated(board.south).player_id, t.seated(board.north).player_id
                found[board_game_id(tournament_id, rnd.number, board.board)] = (south, north)
        self._boards = {key: value for key, value in self._boards.items() if key[0] != tournament_id}
        self._boards[(tournament_id, version)] = found
        return found

    def rated_games(self, variant: str, *, since: str | None = None) -> list[RatedGame]:
        """The variant's rated games, those finished in ``since`` (a month) or later only if given."""
        tournaments = {tid for tid, v in self.rated_tournaments().items() if v == variant}
        survivor = self.survivors()
        games = []
        for game_id, tournament_id, result, finished_at, metadata in self.tables.finished_games(
            variant, since=since, tournaments=None if since else sorted(tournaments)
        ):
            if tournament_id not in tournaments:
                continue
            meta = json.loads(metadata) if metadata else {}
            south, north = self.boards(tournament_id).get(game_id, (None, None))
            south, north = south or meta.get("south_player"), north or meta.get("north_player")
            if south is None or north is None:
                continue
            games.append(RatedGame(game_id, finished_at[:7], survivor(south), survivor(north), result))
        return games

    def survivors(self) -> Callable[[str], str]:
        merged = self.tables.merged()

        def survivor(player_id: str) -> str:
            seen = 0
            while player_id in merged and seen < 64:
                player_id, seen = merged[player_id], seen + 1
            return player_id

        return survivor

    # -- The lists ------------------------------------------------------------------

    def published_lists(self, variant: str) -> list[PeriodList]:
        """Every month's list up to the last month that is over, from all the events."""
        last = previous_month(self.month())
        return [p for p in rating_lists(self.rated_games(variant), last) if p.period <= last]

    def rows(self, variant: str) -> list[dict]:
        return [row for period in self.published_lists(variant) for row in rows_of(variant, period)]

    def rebuild(self) -> int:
        """Store every published list of every game; returns how many rows."""
        total = 0
        with self._publishing, collection_paused():
            for variant in VARIANTS:
                rows = self.rows(variant)
                self.tables.replace_lists(variant, rows)
                total += len(rows)
                self._published[variant] = self.month()
        return total

    def check(self) -> list[str]:
        problems = []
        for variant in VARIANTS:
            stored, expected = self.tables.list_rows(variant), self.rows(variant)
            digests = {p: self.tables.list_fingerprint(variant, p) for p in {r["period"] for r in expected}}
            if stored != expected or digests != list_digests(expected):
                periods = sorted({r["period"] for r in stored} ^ {r["period"] for r in expected})
                what = f" (periods {', '.join(periods)} stored or missing)" if periods else ""
                problems.append(f"rating lists: {variant}: the stored lists differ from the events'{what}")
        return problems

    def current(self, variant: str) -> PeriodList:
        """This month's list so far: the last stored list's ratings, moved by the games
        recorded since. When that list is last month's (the lists are up to date), the
        month's list is kept between calls and moved a result at a time
        (``lists.RunningPeriod``); otherwise every month since is computed."""
        month = self.month()
        self.publish_due(variant)
        last = self.tables.last_period(variant, month)
        start = self._start(variant, last) if last is not None else {}
        games = self.rated_games(variant, since=next_month(last)) if last is not None else self.rated_games(variant)
        if (last is None or next_month(last) == month) and all(g.period == month for g in games):
            with self._running_lock:  # requests in threads share the month's list
                running = self._running.get(variant)
                if running is None or running.period != month or running.start is not start:
                    running = self._running[variant] = RunningPeriod(month, start)
                running.update(games)
                return running.list()
        first = next_month(last) if last is not None else None
        lists = rating_lists(games, month, start=start, first_period=first)
        return lists[-1] if lists else PeriodList(month, ())

    def _start(self, variant: str, period: str) -> dict[str, Rating]:
        """The ratings of a stored list, read again only when the list changed."""
        fingerprint = self.tables.list_fingerprint(variant, period)
        cached = self._starts.get((variant, period))
        if cached is not None and cached[0] == fingerprint:
            return cached[1]
        rows = self.tables.list_rows(variant, period)
        start = {r["player_id"]: Rating(r["rating"], r["rd"], r["volatility"]) for r in rows}
        self._starts = {key: value for key, value in self._starts.items() if key[0] != variant}
        self._starts[(variant, period)] = (fingerprint, start)
        return start

    def period(self, variant: str, period: str | None) -> tuple[list[dict], bool]:
        """A month's rows: the stored ones of a published month (True), or this month's
        list as it stands (False). A month that is over and not stored has no list
        (nothing was rated by its end); a read never computes every month again."""
        period = period or self.month()
        if period >= self.month():
            return rows_of(variant, self.current(variant)), False
        self.publish_due(variant)
        return self.tables.list_rows(variant, period), True

    def publish_due(self, variant: str) -> None:
        """Store the lists of the months that ended since the last stored one, once per
        month and process: a read after a month's end publishes it (``recorder ratings
        rebuild`` does the same for every game), so no read computes them again."""
        month = self.month()
        with self._publishing:
            if self._published.get(variant) == month:
                return
            last = self.tables.last_period(variant, month)
            if last != previous_month(month):
                self.tables.replace_lists(variant, self.rows(variant))
            self._published[variant] = month

    def history(self, player_id: str, variants: set[str]) -> dict[str, list[dict]]:
        """A player's published entries per game, oldest first, and this month's if he is
        rated (in the games he has entries for, or ``variants``: those he played)."""
        found: dict[str, list[dict]] = {}
        for row in self.tables.player_rows(player_id):
            found.setdefault(row["variant"], []).append(row)
        for variant in sorted(set(found) | variants):
            current = [r for r in rows_of(variant, self.current(variant)) if r["player_id"] == player_id]
            if current:
                found.setdefault(variant, []).extend(current)
        return found


def ranks(period: PeriodList) -> list[int]:
    """Competition ranks ("1, 2, 2, 4"): players of exactly the same rating share one."""
    found: list[int] = []
    for index, entry in enumerate(period.entries):
        same = index and entry.rating.rating == period.entries[index - 1].rating.rating
        found.append(found[-1] if same else index + 1)
    return found


def explanation_text(explanation: dict) -> str:
    """``chain.canonical_json`` of an explanation, written directly for a month without
    games (most entries of a list): the same bytes, a tenth of the time."""
    if explanation["games"]:
        return chain.canonical_json(explanation)
    before = explanation["before"]
    return (
        f'{{"before":{{"rating":{before["rating"]!r},"rd":{before["rd"]!r},'
        f'"volatility":{before["volatility"]!r}}},"games":[]}}'
    )


def rows_of(variant: str, period: PeriodList) -> list[dict]:
    """A list's rows as ``rating_lists`` stores them: full-precision values, the
    explanation as canonical JSON."""
    return [
        {
            "variant": variant,
            "period": period.period,
            "player_id": entry.player_id,
            "rank": rank,
            "rating": entry.rating.rating,
            "rd": entry.rating.rd,
            "volatility": entry.rating.volatility,
            "games": entry.games,
            "provisional": int(entry.provisional),
            "explanation": explanation_text(entry.explanation),
        }
        for rank, entry in zip(ranks(period), period.entries)
    ]
