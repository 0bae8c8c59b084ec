"""The tournament service: decide on the latest fold, append with its version, read
standings by joining the games' results. No Flask, no SQL (the store does that).

Writes go like games, through the records' repository (recorder/records.py): load (the
tournament's fold) -> decide -> append at the version decided on, so a stale decision is
a conflict, never a fork. A board's game is created through
the Recorder with an id derived from its board, so a second game on a board is refused
by the store's expected-version check.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from recorder.core.chain import canonical_json
from recorder.errors import AlreadyExists, NotFound, VersionConflict
from recorder.games.service import Recorded, Recorder
from recorder.records import Repository, Saved
from recorder.store import (
    TOURNAMENT,
    Idempotency,
    NewEvent,
    ProjectionWrite,
    StoredEvent,
    every_stream_id,
)

from . import (
    TOURNAMENT_PREFIX,
    board_game_id,
    board_prizes,
    finish,
    knockout,
    new_tournament_id,
    proposal,
    team_tiebreaks,
    team_views,
    teams,
    trf,
)
from . import categories as category_rules
from . import decide as decisions
from .check import check_tournament
from .entries import EntryTables
from .events import EntrantLinked, EntrantRegistered, event_from_record
from .fold import Tournament, replay
from .proposal import Proposal
from .results import result_of_forfeit, result_of_state
from .standings import Standing, crosstable, is_finished, standings

FOLDS_KEPT = 64  # the tournaments whose latest fold is kept (the guard asks on every move): a fold is large


@dataclass(frozen=True)
class Written:
    events: Sequence[StoredEvent]
    tournament: Tournament
    replayed: bool = False
    existed: bool = False  # an import found the tournament its content makes already stored

    @classmethod
    def of(cls, saved: Saved[Tournament]) -> Written:
        return cls(saved.events, saved.record, saved.replayed)


CONTENT_ID_LENGTH = 16  # hex digits of an imported tournament's id (the service mints 12)


def record_of(pairs) -> list[list]:
    """Events as content: ``[type, payload]`` each, as JSON reads it back."""
    return [[kind, json.loads(canonical_json(payload))] for kind, payload in pairs]


def content_tournament_id(events: Sequence[NewEvent]) -> str:
    """An imported tournament's id from its content: the SHA-256 of its events' record in
    canonical JSON. Who imported it, and when, are not content: the same file (read the
    same way, into the same variant and format) always makes the same id."""
    record = canonical_json(record_of((e.type, e.payload) for e in events))
    return TOURNAMENT_PREFIX + hashlib.sha256(record.encode("utf-8")).hexdigest()[:CONTENT_ID_LENGTH]


@dataclass(frozen=True)
class View:
    """A tournament with the results known now: what every read is made from."""

    tournament: Tournament
    outcomes: dict
    unconfirmed: frozenset = frozenset()  # (round, board): a game over whose players have not both confirmed it
    # Entrant number -> his registry record's Ge'ez name, where it has one: read by the
    # caller (the registry is not the tournament's), shown beside every name.
    names_geez: Mapping[int, str] = field(default_factory=dict)

    @property
    def status(self) -> str:
        if not self.tournament.rounds:
            return "registration"
        if self.tournament.format == knockout.KNOCKOUT and not self.tournament.finished_explicitly:
            return "finished" if knockout.won(self.tournament, self.outcomes) else "in_progress"
        return "finished" if is_finished(self.tournament, self.outcomes) else "in_progress"

    def standings(self) -> list[Standing]:
        return standings(self.tournament, self.outcomes)

    def crosstable(self) -> list[dict]:
        return crosstable(self.tournament, self.outcomes)


def entries_of(t: Tournament) -> list[tuple[int, str]]:
    """(entrant number, registry player) of every entrant who names one."""
    return [(e.number, e.player_id) for e in t.entrants if e.player_id is not None]


def fold(tournament_id: str, events: Sequence[StoredEvent]) -> Tournament:
    return replay(tournament_id, ((e.seq, event_from_record(e.type, e.payload)) for e in events))


CHECKS_KEPT = 64  # pairing checks kept per process, the latest asked for


class Tournaments:
    def __init__(self, recorder: Recorder):
        self.recorder = recorder
        self.store = recorder.store
        self.entries = EntryTables(recorder.store)
        self.records: Repository[Tournament] = Repository(
            recorder.store, TOURNAMENT, fold, noun="tournament", projection=self._entries_after, kept=FOLDS_KEPT
        )
        self._checks: OrderedDict[tuple, list] = OrderedDict()  # the latest checks: see ``check``
        self._checks_lock = threading.Lock()

    # -- Reading --------------------------------------------------------------------

    def events(self, tournament_id: str) -> list[StoredEvent]:
        return self.records.events(tournament_id)

    def tournament(self, tournament_id: str) -> Tournament:
        return self.records.load(tournament_id)

    def view(self, tournament_id: str, state_of: Callable[[str], Any] | None = None) -> View:
        t = self.tournament(tournament_id)
        outcomes = self.outcomes(t, state_of)
        return View(t, outcomes, self.unconfirmed(t, outcomes, state_of))

    def latest(self, tournament_id: str) -> Tournament:
        """The tournament as it stands, folded again only when its version moved (one
        indexed read otherwise): the guard asks on every command to a board's game."""
        return self.records.load(tournament_id)

    def is_over(self, tournament_id: str, *, unfinished_game: bool = False) -> bool:
        """Finished (by its arbiter's ``tournament_finished``, or every planned round paired
        and every board's result known) or corrected by the admin: its arbiter's rights have
        ended. ``unfinished_game``: a game of its boards is known to be unfinished, so the
        tournament is not (no result is read)."""
        t = self.latest(tournament_id)
        if t.corrections or t.finished_explicitly:
            return True
        if t.format == knockout.KNOCKOUT:  # its rounds are not planned: over once the final is won
            return not unfinished_game and bool(t.rounds) and View(t, self.outcomes(t)).status == "finished"
        if unfinished_game or not t.rounds or len(t.rounds) != t.planned_rounds:
            return False
        return is_finished(t, self.outcomes(t))

    def outcomes(self, t: Tournament, state_of: Callable[[str], Any] | None = None) -> dict:
        """(round, board) -> PairingResult for every board whose result is known: a
        recorded forfeit first, else the result of the board's game once it is over.
        ``state_of(game_id)``: a game's state as the reader may see it (a broadcast
        delay); the latest by default."""
        state_of = state_of or (lambda game_id: self.recorder.game(game_id).state)
        found = {}
        for rnd in t.rounds:
            for board in rnd.boards:
                key = (rnd.number, board.board)
                if key in t.forfeits:
                    found[key] = result_of_forfeit(t.forfeits[key])
                    continue
                game_id = board_game_id(t.tournament_id, *key)
                if self.store.version(game_id):
                    outcome = result_of_state(state_of(game_id))
                    if outcome is not None and (not t.require_confirmation or self.confirmed(game_id)):
                        found[key] = outcome
        return found

    def confirmed(self, game_id: str) -> bool:
        """Both players confirmed the game's record as it stands, no dispute open."""
        game = self.recorder.game(game_id)
        return game.signoffs.confirmed(game.record_end)

    def unconfirmed(self, t: Tournament, outcomes: dict, state_of: Callable[[str], Any] | None = None) -> frozenset:
        """The boards of a tournament that requires confirmation whose game is over (as the
        reader sees it) but not yet confirmed by both players: their result does not count."""
        if not t.require_confirmation:
            return frozenset()
        state_of = state_of or (lambda game_id: self.recorder.game(game_id).state)
        waiting = set()
        for rnd in t.rounds:
            for board in rnd.boards:
                key = (rnd.number, board.board)
                game_id = board_game_id(t.tournament_id, *key)
                if key not in outcomes and self.store.version(game_id) and state_of(game_id).game_over:
                    waiting.add(key)
        return frozenset(waiting)

    def open_disputes(self, t: Tournament) -> list[dict]:
        """Every board game's open dispute (and appeal), by round and board: the console's list."""
        found = []
        for rnd in t.rounds:
            for board in rnd.boards:
                game_id = board_game_id(t.tournament_id, rnd.number, board.board)
                if not self.store.version(game_id):
                    continue
                for seq, dispute in self.recorder.game(game_id).signoffs.open_disputes():
                    found.append(
                        {"round": rnd.number, "board": board.board, "game_id": game_id, "seq": seq, **dispute.payload()}
                    )
        return found

    def finished_at(self, t: Tournament) -> str | None:
        """When the finished tournament ``t`` finished (finish.py): one read of its events
        and one query of its board games' result changes."""
        events = [(e.type, e.recorded_at) for e in self.events(t.tournament_id)]
        games = [board_game_id(t.tournament_id, rnd.number, b.board) for rnd in t.rounds for b in rnd.boards]
        latest = self.recorder.results.latest_change(games, before=finish.first_correction(events))
        return finish.finished_at(events, latest)

    def list_tournaments(self, *, limit: int = 100, offset: int = 0) -> list[dict]:
        """Tournaments, newest first, as their creation events describe them."""
        return [
            {"id": e.stream_id, **e.payload, "created_at": e.recorded_at}
            for e in self.store.first_events(TOURNAMENT, limit=limit, offset=offset)
        ]

    # -- Writing --------------------------------------------------------------------

    def create(self, body: dict, *, recorded_by: str, idempotency: Idempotency | None = None) -> Written:
        original = self.records.replayed(idempotency)
        if original is not None:
            return Written.of(original)
        event = decisions.decide_create(body)
        saved = self.records.create(
            new_tournament_id(),
            [NewEvent(event.type, event.payload())],
            recorded_by=recorded_by,
            idempotency=idempotency,
        )
        return Written.of(saved)

    def import_trf(
        self,
        text: str,
        body: dict,
        *,
        recorded_by: str,
        idempotency: Idempotency | None = None,
        survivor: Callable[[str], str | None] = lambda player_id: player_id,
    ) -> Written:
        """A tournament from a TRF, its players and played rounds stored in one append, under
        the id its content gives (``content_tournament_id``): the same file imported again
        answers with the tournament it made (``existed``), whatever happened to it since.
        ``survivor``: the registry's id of a player the file links (None: none held)."""
        original = self.records.replayed(idempotency)
        if original is not None:
            return Written.of(original)
        events = decisions.decide_import(text, body, survivor)
        new = [NewEvent(e.type, e.payload()) for e in events]
        tournament_id = content_tournament_id(new)
        if self.store.version(tournament_id):
            return self._imported_before(tournament_id, new)
        try:
            saved = self.records.create(
                tournament_id,
                new,
                recorded_by=recorded_by,
                idempotency=idempotency,
                projection=self._entries_of(tournament_id, events),
            )
        except VersionConflict:  # the same file, imported by another request meanwhile
            return self._imported_before(tournament_id, new)
        return Written.of(saved)

    def _imported_before(self, tournament_id: str, new: list[NewEvent]) -> Written:
        """The tournament this very content made; another one under its id (a digest that
        two contents share, against all odds) is refused and nothing is stored."""
        stored = self.store.read(tournament_id) if self.store.stream_type(tournament_id) == TOURNAMENT else []
        if record_of((e.type, e.payload) for e in stored[: len(new)]) != record_of((e.type, e.payload) for e in new):
            raise AlreadyExists(f"another tournament is stored under this file's id {tournament_id}")
        return Written(stored, self.tournament(tournament_id), existed=True)

    def check(self, tournament_id: str, state_of: Callable[[str], Any] | None = None) -> tuple[View, list]:
        """Every round paired again by the tournament's rules from the history before it
        (the results as the reader may see them: ``state_of``, as ``outcomes`` takes it)."""
        view = self.view(tournament_id, state_of)
        # Anyone may ask, and pairing every round again can cost seconds on an odd history:
        # a check is kept by what it depends on (the tournament's version and the results the
        # reader sees), so a reader looping on it costs one check per change, not per request.
        key = (tournament_id, view.tournament.version, frozenset(view.outcomes.items()))
        with self._checks_lock:
            kept = self._checks.get(key)
            if kept is not None:
                self._checks.move_to_end(key)
                return view, kept
        checks = check_tournament(view.tournament, view.outcomes)
        with self._checks_lock:
            self._checks[key] = checks
            while len(self._checks) > CHECKS_KEPT:
                self._checks.popitem(last=False)
        return view, checks

    def trf(
        self,
        tournament_id: str,
        layout: str = "2026",
        state_of: Callable[[str], Any] | None = None,
        registry: Callable[[Tournament], dict] | None = None,
    ) -> str:
        """``registry(t)``: entrant number -> (sex, birth year), the registry's, for 001's columns."""
        view = self.view(tournament_id, state_of)
        known = registry(view.tournament) if registry is not None else None
        return trf.write(view.tournament, view.outcomes, layout, known)

    def execute(
        self,
        tournament_id: str,
        decide: Callable[[Tournament, dict], list],
        *,
        needs_results: bool = False,
        expected_version: int | None = None,
        recorded_by: str,
        idempotency: Idempotency | None = None,
    ) -> Written:
        """Decide on the latest tournament (and its board results, read from the games
        only when the decision needs them); append at that version."""

        def decided(t: Tournament) -> list:
            return decide(t, self.outcomes(t) if needs_results else {})

        saved = self.records.execute(
            tournament_id, decided, expected_version=expected_version, recorded_by=recorded_by, idempotency=idempotency
        )
        return Written.of(saved)

    def _entries_after(self, t: Tournament, events: list) -> ProjectionWrite | None:
        return self._entries_of(t.tournament_id, events)

    def _entries_of(self, tournament_id: str, events: list) -> ProjectionWrite | None:
        """The registry's entries these events make (entrant number -> registry player)."""
        entries = [
            (e.number, e.player_id)
            for e in events
            if isinstance(e, (EntrantRegistered, EntrantLinked)) and e.player_id is not None
        ]
        return self.entries.write_entries(tournament_id, entries) if entries else None

    def register(self, tournament_id: str, body: dict, **write) -> Written:
        return self.execute(tournament_id, lambda t, _: decisions.decide_register(t, body), **write)

    def link(self, tournament_id: str, number: int, player_id: str, **write) -> Written:
        return self.execute(tournament_id, lambda t, _: decisions.decide_link(t, number, player_id), **write)

    def rebuild_entries(self) -> list[str]:
        """Rewrite the registry's entries of every tournament from its events; returns their ids."""
        ids = list(every_stream_id(self.store, TOURNAMENT))
        for tournament_id in ids:
            self.entries.replace_entries(tournament_id, self._entries_or_none(tournament_id))
        return ids

    def _entries_or_none(self, tournament_id: str) -> list[tuple[int, str]]:
        """The registry entries of a tournament; none for a stream that does not fold, or
        whose events are gone (``recorder verify`` reports it: a rebuild goes on with the others)."""
        try:
            return entries_of(self.tournament(tournament_id))
        except (TypeError, ValueError, KeyError, NotFound):
            return []

    def check_entries(self) -> list[str]:
        problems, ids = [], list(every_stream_id(self.store, TOURNAMENT))
        for tournament_id in ids:
            if self.entries.entries(tournament_id) != self._entries_or_none(tournament_id):
                problems.append(f"player entries: {tournament_id}: the entries differ from its events'")
        for orphan in sorted(set(self.entries.entered_tournaments()) - set(ids)):
            problems.append(f"player entries: {orphan}: entries without a tournament")
        return problems

    def correct(
        self, tournament_id: str, round_number: int, board: int, body: dict, *, principal: dict, **write
    ) -> Written:
        """The admin's correction of a board of a finished tournament (docs/tournaments.md)."""

        def decide(t: Tournament, outcomes: dict) -> list:
            finished = is_finished(t, outcomes)
            return decisions.decide_correction(t, round_number, board, body, finished, principal)

        return self.execute(tournament_id, decide, needs_results=True, **write)

    def set_categories(self, tournament_id: str, body: dict, **write) -> Written:
        """The whole list of categories, until the tournament finishes; an age's birth-year
        bound is counted from its start date's year, else from this year (categories.py)."""
        year = datetime.now(UTC).year

        def decide(t: Tournament, outcomes: dict) -> list:
            return category_rules.decide_categories(t, body, is_finished(t, outcomes), year)

        return self.execute(tournament_id, decide, needs_results=True, **write)

    def set_prizes(self, tournament_id: str, body: dict, **write) -> Written:
        """The whole prize list and its sharing, until the tournament finishes."""
        decide = lambda t, outcomes: category_rules.decide_prizes(t, body, is_finished(t, outcomes))  # noqa: E731
        return self.execute(tournament_id, decide, needs_results=True, **write)

    def withdraw(self, tournament_id: str, number: int, body: dict, **write) -> Written:
        return self.execute(tournament_id, lambda t, _: decisions.decide_withdraw(t, number, body), **write)

    def declare_absence(self, tournament_id: str, body: dict, **write) -> Written:
        return self.execute(tournament_id, lambda t, _: decisions.decide_absence(t, body), **write)

    def check_in(self, tournament_id: str, number: int, round_number: int, present: bool, **write) -> Written:
        decide = lambda t, _: decisions.decide_check_in(t, number, round_number, present)  # noqa: E731
        return self.execute(tournament_id, decide, **write)

    def cancel_absence(self, tournament_id: str, number: int, round_number: int, **write) -> Written:
        decide = lambda t, _: decisions.decide_cancel_absence(t, number, round_number)  # noqa: E731
        return self.execute(tournament_id, decide, **write)

    def forbid(self, tournament_id: str, body: dict, **write) -> Written:
        return self.execute(tournament_id, lambda t, _: decisions.decide_forbid(t, body), **write)

    def choose_tiebreaks(self, tournament_id: str, body: dict, **write) -> Written:
        return self.execute(tournament_id, lambda t, _: decisions.decide_tiebreaks(t, body), **write)

    def set_broadcast(self, tournament_id: str, body: dict, **write) -> Written:
        return self.execute(tournament_id, lambda t, _: decisions.decide_broadcast(t, body), **write)

    def pair(self, tournament_id: str, body: dict, **write) -> Written:
        decide = lambda t, outcomes: decisions.decide_pair(t, outcomes, body)  # noqa: E731
        return self.execute(tournament_id, decide, needs_results=True, **write)

    def finish(self, tournament_id: str, body: dict, *, principal: dict, **write) -> Written:
        """The tournament finished by its arbiter or the admin (finish.py)."""

        def decide(t: Tournament, outcomes: dict) -> list:
            knockout.check_not_won(t, outcomes)
            return finish.decide_finish(t, outcomes, body, principal)

        return self.execute(tournament_id, decide, needs_results=True, **write)

    def boards_to_play(self, tournament_id: str, round_number: int) -> list[int]:
        """The boards of a paired round still without a result (NotFound: no such round)."""
        view = self.view(tournament_id)
        rnd = view.tournament.round(round_number)
        if rnd is None:
            raise NotFound(f"round {round_number} is not paired", round=round_number)
        return [b.board for b in rnd.boards if (round_number, b.board) not in view.outcomes]

    def propose(self, tournament_id: str) -> tuple[Tournament, Proposal]:
        """The next round as ``POST …/rounds`` with ``{}`` would pair it now; stores nothing."""
        view = self.view(tournament_id)
        return view.tournament, proposal.propose(view.tournament, view.outcomes)

    def check_proposal(self, tournament_id: str, body: dict) -> tuple[Tournament, tuple]:
        """The checker's findings on a proposed round (boards and byes); stores nothing."""
        view = self.view(tournament_id)
        return view.tournament, proposal.check_proposal(view.tournament, view.outcomes, body)

    def record_forfeit(self, tournament_id: str, round_number: int, board: int, body: dict, **write) -> Written:
        game_id = board_game_id(tournament_id, round_number, board)

        def decide(t: Tournament, _outcomes: dict) -> list:
            has_game = self.store.version(game_id) > 0
            return decisions.decide_board_result(t, round_number, board, body, has_game)

        return self.execute(tournament_id, decide, **write)

    def start_game(
        self,
        tournament_id: str,
        round_number: int,
        board: int,
        body: dict,
        *,
        recorded_by: str,
        idempotency: Idempotency | None = None,
    ) -> Recorded:
        """Create the game of a board: its setup comes from the tournament and pairing."""
        t = self.tournament(tournament_id)
        setup = decisions.game_setup(t, round_number, board, body)
        game_id = board_game_id(tournament_id, round_number, board)
        if idempotency is None and self.store.version(game_id) > 0:
            raise AlreadyExists(f"board {board} of round {round_number} has its game: {game_id}", game_id=game_id)
        try:
            return self.recorder.create_game(
                {**setup, "game_id": game_id}, recorded_by=recorded_by, idempotency=idempotency
            )
        except VersionConflict:
            raise AlreadyExists(
                f"board {board} of round {round_number} has its game: {game_id}", game_id=game_id
            ) from None

    # -- Team events (teams.py) -------------------------------------------------------

    def enter_team(self, tournament_id: str, team: dict, **write) -> Written:
        """A registry team (as the registry reads now) entered in a team event."""
        return self.execute(tournament_id, lambda t, _outcomes: teams.decide_enter_team(t, team), **write)

    def submit_lineup(self, tournament_id: str, round_number: int, body: dict, **write) -> Written:
        """A team's line-up for the next round, handed in before it is paired (teams.py)."""

        def decide(t: Tournament, _outcomes: dict) -> list:
            return teams.decide_lineup(t, round_number, body["team"], body["players"])

        return self.execute(tournament_id, decide, **write)

    def board_prizes(self, tournament_id: str, state_of: Callable[[str], Any] | None = None) -> tuple[View, dict]:
        """A team event's board prizes from the results the reader may see (``state_of``, as ``view``)."""
        view = self.view(tournament_id, state_of)
        return view, board_prizes.board_prizes(view.tournament, view.outcomes)

    def team_standings(self, tournament_id: str, state_of: Callable[[str], Any] | None = None) -> tuple[View, list]:
        """The team standings from the results the reader may see (``state_of``, as ``view``)."""
        view = self.view(tournament_id, state_of)
        return view, team_tiebreaks.ranked_standings(team_views.of_teams(view.tournament), view.outcomes)

    # -- Knock-outs (knockout.py) ----------------------------------------------------

    def draw_lot(self, tournament_id: str, body: dict, **write) -> Written:
        """The winner by lot of a match level after its play-off games."""
        return self.execute(
            tournament_id, lambda t, outcomes: knockout.decide_lot(t, outcomes, body), needs_results=True, **write
        )

    def hand_over(
        self, tournament_id: str, body: dict, state_of: Callable[[str], Any] | None = None, **write
    ) -> Written:
        """A finished stage's top players enter this knock-out, seeded by their places as the
        writer may see them (``state_of``, as ``view``: a broadcast delay holds for him)."""
        source = self.view(body["source"], state_of)

        def decide(t: Tournament, _outcomes: dict) -> list:
            finished = source.status == "finished"
            return knockout.decide_handover(t, source.standings(), source.tournament, finished, body)

        written = self.execute(tournament_id, decide, **write)
        self._record_stage_followed(body["source"], written.tournament, write["recorded_by"])
        return written

    def _record_stage_followed(self, source_id: str, stage: Tournament, recorded_by: str) -> None:
        """The stage before records the hand-over too, so its page names the next stage: a
        second append, decided afresh, so a retried hand-over that finds it there adds none."""

        def follow(source: Tournament, _outcomes: dict) -> list:
            return knockout.decide_stage_followed(source, stage)

        if follow(self.tournament(source_id), {}):
            self.execute(source_id, follow, recorded_by=recorded_by)
