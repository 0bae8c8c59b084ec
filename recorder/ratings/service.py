"""The rating lists as a projection: read the rated games and the registry, compute the
lists (``lists.published_lists``), keep the published ones in ``rating_lists`` beside the store.

A game counts when it is finished, in a tournament created ``rated``, between two
registry players (the tournament's entrants linked to the registry, or the ids the game
names), each taken as the record that survives any merge. Its period is the month its
result was first recorded; each list takes each result as known at its month's end (the
``game_results`` rows: each change of a game's result), so a correction recorded later
takes effect in a later list, which states it (``lists.published_lists``). A period is
published once its month is over: its list is stored by ``rebuild`` and never changes
unless the registry is corrected (a merge or a link rebuilds the lists, as if the record
had always been right). The current month's list is computed when asked, from the last
published ratings and the month's games (from every month's, when this month corrected
an earlier month's result). A game played on the board and recorded on paper (a board
result of reason ``played`` in the tournament's events: ``paper_changes``) is a game too.
"""

from __future__ import annotations

import contextlib
import gc
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby

from recorder.core import chain
from recorder.games.results import GameResults
from recorder.games.service import Recorder
from recorder.rules import VARIANTS
from recorder.store import TOURNAMENT
from recorder.tournaments import board_game_id
from recorder.tournaments.events import event_from_record
from recorder.tournaments.fold import replay

from .glicko2 import Rating
from .lists import (
    Correction,
    GameRecord,
    PeriodList,
    RunningPeriod,
    corrections,
    games_as_of,
    previous_month,
    published_lists,
    ratings_as_of,
)
from .lists_table import RatingTables, list_digests


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


@dataclass(frozen=True)
class Seating:
    """A rated tournament as the lists read it: each board game's id -> the registry players
    of its south and north entrants, and its games recorded on paper (``paper_changes``)."""

    seats: dict[str, tuple[str | None, str | None]]
    paper: dict[str, tuple[tuple[str, str | None], ...]]


def paper_changes(tournament_id: str, events: list) -> dict[str, tuple[tuple[str, str | None], ...]]:
    """Each board whose result was entered as a game played on paper -> every change of its
    result, as (the month recorded, the result; None once a forfeit replaced it): a paper
    game counts in the month its result was first recorded, as a game on the board does."""
    changes: dict[str, list[tuple[str, str | None]]] = {}
    for event in events:
        if event.type != "board_result_recorded":
            continue
        game_id = board_game_id(tournament_id, event.payload["round"], event.payload["board"])
        played = event.payload.get("reason") == "played"
        if played or game_id in changes:
            changes.setdefault(game_id, []).append((event.recorded_at[:7], event.payload["result"] if played else None))
    return {game_id: tuple(history) for game_id, history in changes.items()}


def this_month() -> str:
    return datetime.now(UTC).strftime("%Y-%m")


class Ratings:
    def __init__(self, recorder: Recorder, month: Callable[[], str] | None = None):
        self.recorder = recorder
        self.store = recorder.store
        self.tables = RatingTables(recorder.store)
        self.results = GameResults(recorder.store)
        self.month = month or (lambda: this_month())  # looked up when called: tests set the month
        self._boards: dict[tuple[str, int], Seating] = {}
        # This month's list is asked for often and changes by a result at a time: the last
        # published ratings (by the stored list's digest) and the month's list are kept.
        self._starts: dict[tuple[str, str], tuple[object, dict[str, Rating]]] = {}
        self._running: dict[str, RunningPeriod] = {}
        self._published: dict[str, str] = {}  # variant -> the month its lists were last brought up to
        self._publishing = threading.Lock()
        self._running_lock = threading.Lock()

    # -- The games ------------------------------------------------------------------

    def rated_tournaments(self) -> dict[str, str]:
        """Rated tournaments' ids and variants, from their creation events."""
        found, offset = {}, 0
        while page := self.store.first_events(TOURNAMENT, limit=1000, offset=offset):
            found.update({e.stream_id: str(e.payload.get("variant")) for e in page if e.payload.get("rated") is True})
            offset += len(page)
        return found

    def boards(self, tournament_id: str) -> dict[str, tuple[str | None, str | None]]:
        """Each board game's id -> the registry players of its south and north entrants."""
        return self.seating(tournament_id).seats

    def seating(self, tournament_id: str) -> Seating:
        """The tournament's board seats and its games recorded on paper, from its events
        (cached by the tournament's version: a tournament only grows)."""
        version = self.store.version(tournament_id)
        cached = self._boards.get((tournament_id, version))
        if cached is not None:
            return cached
        events = self.store.read(tournament_id)
        t = replay(tournament_id, ((e.seq, event_from_record(e.type, e.payload)) for e in events))
        seats = {}
        for rnd in t.rounds:
            for board in rnd.boards:
                south, north = t.seated(board.south).player_id, t.seated(board.north).player_id
                seats[board_game_id(tournament_id, rnd.number, board.board)] = (south, north)
        found = Seating(seats, paper_changes(tournament_id, events))
        self._boards = {key: value for key, value in self._boards.items() if key[0] != tournament_id}
        self._boards[(tournament_id, version)] = found
        return found

    def paper_records(self, tournament_id: str, survivor: Callable[[str], str], since: str | None) -> list:
        """The tournament's games recorded on paper between two registry players, as game
        records (only those whose result changed in ``since`` or later if given)."""
        seating, records = self.seating(tournament_id), []
        for game_id, history in seating.paper.items():
            south, north = seating.seats.get(game_id, (None, None))
            if south is None or north is None or (since is not None and history[-1][0] < since):
                continue
            records.append(GameRecord(game_id, survivor(south), survivor(north), history))
        return records

    def rated_records(self, variant: str, *, since: str | None = None) -> list[GameRecord]:
        """The variant's rated games, each with its result's changes; only those whose
        result changed in ``since`` (a month) or later if given."""
        tournaments = {tid for tid, v in self.rated_tournaments().items() if v == variant}
        survivor = self.survivors()
        rows = self.tables.result_changes(variant, since=since, tournaments=None if since else sorted(tournaments))
        records = []
        for game_id, changes in groupby(rows, key=lambda row: row[0]):
            first, *rest = changes
            tournament_id, metadata = first[1], first[5]
            if tournament_id not in tournaments:
                continue
            meta = json.loads(metadata) if metadata else {}
            south, north = self.boards(tournament_id).get(game_id, (None, None))
            south, north = south or meta.get("south_player"), north or meta.get("north_player")
            if south is None or north is None:
                continue
            history = tuple((row[3][:7], row[4]) for row in (first, *rest))
            records.append(GameRecord(game_id, survivor(south), survivor(north), history))
        for tournament_id in sorted(tournaments):  # after the games: the lists of before are unchanged
            records += self.paper_records(tournament_id, survivor, since)
        return records

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
        return published_lists(self.rated_records(variant), previous_month(self.month()))

    def rows(self, variant: str) -> tuple[list[dict], list[dict]]:
        """The published lists' rows and the corrections they state."""
        lists = self.published_lists(variant)
        return (
            [row for period in lists for row in rows_of(variant, period)],
            [row for period in lists for row in correction_rows(variant, period)],
        )

    def rebuild(self) -> int:
        """Store every published list of every game; returns how many rows."""
        total = 0
        with self._publishing, collection_paused():
            for variant in VARIANTS:
                stale = self.results.stale_lists(variant)  # read first: the lists below cover these marks
                rows, fixes = self.rows(variant)
                self.tables.replace_lists(variant, rows, fixes)
                if stale is not None:
                    self.results.clear_stale(variant, stale[1])
                total += len(rows)
                self._published[variant] = self.month()
        return total

    def check(self) -> list[str]:
        problems = []
        for variant in VARIANTS:
            stored, (expected, fixes) = self.tables.list_rows(variant), self.rows(variant)
            digests = {p: self.tables.list_fingerprint(variant, p) for p in {r["period"] for r in expected}}
            if self.tables.correction_rows(variant) != fixes:
                problems.append(f"rating lists: {variant}: the corrections stored differ from the events'")
            if stored != expected or digests != list_digests(expected):
                periods = sorted({r["period"] for r in stored} ^ {r["period"] for r in expected})
                what = f" (periods {', '.join(periods)} stored or missing)" if periods else ""
                problems.append(f"rating lists: {variant}: the stored lists differ from the events'{what}")
        return problems

    def current(self, variant: str) -> PeriodList:
        """This month's list so far: last month's ratings, moved by this month's games.
        Without a correction of an earlier month's result this month, those are last
        month's stored list; the month's list is kept between calls and moved a result at
        a time (``lists.RunningPeriod``). A correction runs every month again, as the
        results are now known (``_corrected_start``)."""
        month = self.month()
        self.publish_due(variant)
        last = previous_month(month)
        changed = self.rated_records(variant, since=month)
        fixes = corrections(changed, month)
        stored = self.tables.last_period(variant, month)
        if fixes or stored not in (None, last):
            start = self._corrected_start(variant, month, fixes)
        else:
            start = self._start(variant, last) if stored is not None else {}
        games = games_as_of(changed, month, month)
        with self._running_lock:  # requests in threads share the month's list
            running = self._running.get(variant)
            if running is None or running.period != month or running.start is not start:
                running = self._running[variant] = RunningPeriod(month, start)
            running.update(games)
            return PeriodList(month, running.list().entries, fixes)

    def _corrected_start(self, variant: str, month: str, fixes: tuple[Correction, ...]) -> dict[str, Rating]:
        """The ratings after last month, each result as known now: every month computed
        again, kept while neither this month's corrections nor the stored lists change."""
        key = (fixes, self.tables.list_fingerprint(variant, previous_month(month)))
        cached = self._starts.get((variant, month))
        if cached is not None and cached[0] == key:
            return cached[1]
        start = ratings_as_of(self.rated_records(variant), previous_month(month), month)
        self._starts[(variant, month)] = (key, start)
        return start

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

    def period(self, variant: str, period: str | None) -> tuple[list[dict], bool, list[dict]]:
        """A month's rows: the stored ones of a published month (True), or this month's
        list as it stands (False), and the corrections the list states. A month that is
        over and not stored has no list (nothing was rated by its end); a read never
        computes every month again."""
        period = period or self.month()
        if period >= self.month():
            current = self.current(variant)
            return rows_of(variant, current), False, correction_rows(variant, current)
        self.publish_due(variant)
        return self.tables.list_rows(variant, period), True, self.tables.correction_rows(variant, period)

    def publish_due(self, variant: str) -> None:
        """Store the lists of the months that ended since the last stored one, once per
        month and process: a read after a month's end publishes it (``recorder ratings
        rebuild`` does the same for every game), so no read computes them again.

        An import marks the lists stale from the month of a tournament game's result
        (``GameResults.mark_lists_stale``: a restore keeps the log's dates, so a published
        month may gain a game); the first read after it, in any process, publishes them
        again. The marks are one indexed look per read; publishing again costs what a
        month's end costs (the variant's rated games), once per import, not per read."""
        month = self.month()
        with self._publishing:
            stale = self.results.stale_lists(variant)  # read before the games: a later mark stays
            if self._published.get(variant) == month and stale is None:
                return
            last = self.tables.last_period(variant, month)
            if last != previous_month(month) or (stale is not None and stale[0] < month):
                self.tables.replace_lists(variant, *self.rows(variant))
            if stale is not None:  # a mark of this month: this month's list is computed as asked anyway
                self.results.clear_stale(variant, stale[1])
            self._published[variant] = month

    def history(self, player_id: str, variants: set[str]) -> dict[str, list[dict]]:
        """A player's published entries per game, oldest first, and this month's if he is
        rated (in the games he has entries for, or ``variants``: those he played)."""
        found: dict[str, list[dict]] = {}
        for variant in sorted(variants):  # his published entries as they stand after any import
            self.publish_due(variant)
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
    games (most entries of a list): the same bytes, without the generic encoder's walk."""
    if explanation["games"]:
        return chain.canonical_json(explanation)
    before = explanation["before"]
    return (
        f'{{"before":{{"rating":{before["rating"]!r},"rd":{before["rd"]!r},'
        f'"volatility":{before["volatility"]!r}}},"games":[]}}'
    )


def correction_rows(variant: str, period: PeriodList) -> list[dict]:
    """The corrections a list states, as ``rating_list_corrections`` stores them."""
    return [
        {
            "variant": variant,
            "period": period.period,
            "game_id": c.game_id,
            "game_period": c.period,
            "before": c.before,
            "after": c.after,
        }
        for c in period.corrections
    ]


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
