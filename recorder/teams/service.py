"""The team service: decide on the latest fold, append with its version (through the
records' repository, recorder/records.py). No Flask, no SQL.

A team names registry players: each is checked to be in the registry when the roster is
written (recorder/players/service.py), so a roster never names a player nobody registered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from recorder.games.service import Recorder
from recorder.players import search_key
from recorder.players.service import Players
from recorder.records import Repository, Saved
from recorder.store import TEAM, Idempotency, NewEvent, StoredEvent

from . import decide as decisions
from . import is_team_id, name_matches, new_team_id
from .events import event_from_record
from .fold import Team, replay

SEARCH_PAGE = 1000  # teams' first events read at a time by a search


@dataclass(frozen=True)
class Written:
    events: Sequence[StoredEvent]
    team: Team
    replayed: bool = False

    @classmethod
    def of(cls, saved: Saved[Team]) -> Written:
        return cls(saved.events, saved.record, saved.replayed)


def fold(team_id: str, events: Sequence[StoredEvent]) -> Team:
    return replay(team_id, ((e.seq, event_from_record(e.type, e.payload)) for e in events))


class Teams:
    def __init__(self, recorder: Recorder, players: Players):
        self.store = recorder.store
        self.players = players
        self.records: Repository[Team] = Repository(recorder.store, TEAM, fold, noun="team", owns=is_team_id)

    def events(self, team_id: str) -> list[StoredEvent]:
        return self.records.events(team_id)

    def team(self, team_id: str) -> Team:
        return self.records.load(team_id)

    def search(self, query: str, *, limit: int = 20) -> list[Team]:
        """Teams whose name matches the query (``name_matches``), or the team of that id, by
        their Latin names' keys. A team's names are its registration's, never changed since,
        so each team's first event is all a search reads, a page of teams at a time."""
        if is_team_id(query.strip()):
            return [self.team(query.strip())] if self.store.stream_type(query.strip()) == TEAM else []
        found: list[tuple[str, str]] = []
        offset = 0
        while page := self.store.first_events(TEAM, limit=SEARCH_PAGE, offset=offset):
            named = ((e.stream_id, e.payload["name"], e.payload["name_geez"]) for e in page)
            found += [(search_key(name), team_id) for team_id, name, geez in named if name_matches(query, name, geez)]
            offset += len(page)
        return [self.team(team_id) for _key, team_id in sorted(found)[:limit]]

    def entry(self, team_id: str) -> dict:
        """The team as an event enters it: as the registry reads now, each member's name
        and federation his record's (a merged record's survivor's)."""
        team = self.team(team_id)

        def member(player_id: str) -> dict:
            p = self.players.survivor(player_id)
            return {"player_id": p.player_id, "name": p.name, "federation": p.federation}

        return {
            "team_id": team.team_id,
            "name": team.name,
            "name_geez": team.name_geez,
            "players": [member(p) for p in team.players],
            "reserves": [member(p) for p in team.reserves],
        }

    def _registered(self, players: Sequence[str]) -> None:
        for player_id in players:
            self.players.must_exist(player_id, field="players")

    def register(self, body: dict, *, recorded_by: str, idempotency: Idempotency | None = None) -> Written:
        original = self.records.replayed(idempotency)
        if original is not None:
            return Written.of(original)
        event = decisions.decide_register(body)
        self._registered([*event.players, *event.reserves])
        saved = self.records.create(
            new_team_id(), [NewEvent(event.type, event.payload())], recorded_by=recorded_by, idempotency=idempotency
        )
        return Written.of(saved)

    def set_roster(self, team_id: str, body: dict, **write) -> Written:
        def decide(team: Team) -> list:
            events = decisions.decide_roster(team, body)
            for event in events:
                self._registered([*event.players, *event.reserves])
            return events

        return self.execute(team_id, decide, **write)

    def execute(
        self,
        team_id: str,
        decide: Callable[[Team], list],
        *,
        expected_version: int | None = None,
        recorded_by: str,
        idempotency: Idempotency | None = None,
    ) -> Written:
        """Decide on the latest fold and append at its version; the roster as it stands stores nothing."""
        saved = self.records.execute(
            team_id, decide, expected_version=expected_version, recorded_by=recorded_by, idempotency=idempotency
        )
        return Written.of(saved)
