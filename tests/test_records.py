"""The records' repository (recorder/records.py): one load, create and execute for players,
tournaments and teams, and one cache of folds checked against the stream's version."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_support import make_app

from recorder.errors import NotFound, VersionConflict
from recorder.records import Folds, Repository
from recorder.store import TEAM, Idempotency
from recorder.teams import is_team_id
from recorder.teams.service import fold as team_fold

WRITE = {"recorded_by": "test"}


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


def services(app):
    return app.extensions["players"], app.extensions["tournaments"], app.extensions["teams"]


def a_player(players, name: str = "Abeba Alemu") -> str:
    return players.register({"name": name, "federation": "ERI"}, force=True, **WRITE).player.player_id


def a_team(app) -> str:
    players, _, teams = services(app)
    ids = [a_player(players, f"Player {n}") for n in range(4)]
    body = {"name": "Asmara", "name_geez": "ኣስመራ", "federation": "Maekel", "players": ids}
    return teams.register(body, **WRITE).team.team_id


def repository(app, kept: int = 8) -> Repository:
    return Repository(app.extensions["recorder"].store, TEAM, team_fold, noun="team", owns=is_team_id, kept=kept)


def roster_change(team):
    """A decision that moves the first player to the last board (an event every time)."""
    from recorder.teams.events import RosterSet

    return [RosterSet(players=[*team.players[1:], team.players[0]], reserves=list(team.reserves))]


def test_players_tournaments_and_teams_reuse_their_fold_until_the_stream_grows(app):
    players, tournaments, teams = services(app)
    player_id = a_player(players)
    tournament_id = tournaments.create(
        {"name": "Open", "variant": "qelat", "format": "swiss", "rounds": 5}, **WRITE
    ).tournament.tournament_id
    team_id = a_team(app)
    assert players.player(player_id) is players.player(player_id)
    assert tournaments.tournament(tournament_id) is tournaments.tournament(tournament_id)
    assert teams.team(team_id) is teams.team(team_id)
    before = players.player(player_id)
    players.rename(player_id, {"name": "Abeba Alemayehu"}, **WRITE)
    after = players.player(player_id)
    assert (after.version, after.name) == (before.version + 1, "Abeba Alemayehu")
    assert players.player(player_id) is after


def test_a_write_through_another_process_is_seen_at_the_next_load(app, tmp_path):
    team_id = a_team(app)
    here = repository(app)
    seen = here.load(team_id)
    elsewhere = make_app(tmp_path)  # another process over the same database, with its own folds
    elsewhere.extensions["teams"].records.execute(team_id, roster_change, **WRITE)
    now = here.load(team_id)
    assert now.version == seen.version + 1
    assert now.players == (*seen.players[1:], seen.players[0])


def test_the_folds_kept_are_bounded_the_least_recently_used_evicted(app):
    first, second, third = (a_team(app) for _ in range(3))
    records = repository(app, kept=2)
    kept_first, kept_second = records.load(first), records.load(second)
    assert records.load(first) is kept_first  # now the most recently used
    records.load(third)
    assert len(records.folds) == 2
    assert records.load(first) is kept_first
    again = records.load(second)
    assert again is not kept_second and again == kept_second  # evicted, folded again alike


def test_a_repeated_request_is_answered_with_what_the_first_stored(app):
    team_id = a_team(app)
    records = repository(app)
    key = Idempotency("roster-1", "fingerprint")
    first = records.execute(team_id, roster_change, idempotency=key, **WRITE)
    again = records.execute(team_id, roster_change, idempotency=key, **WRITE)
    assert again.replayed and not first.replayed
    assert [e.seq for e in again.events] == [e.seq for e in first.events] == [2]
    assert records.store.version(team_id) == 2 and again.record.version == 2


def test_a_stale_version_is_a_conflict_worded_for_the_record_and_stores_nothing(app):
    team_id = a_team(app)
    records = repository(app)
    with pytest.raises(VersionConflict, match="the team is at version 1, not 3") as refused:
        records.execute(team_id, roster_change, expected_version=3, **WRITE)
    assert refused.value.extra == {"expected": 3, "actual": 1}
    assert records.store.version(team_id) == 1


def test_a_command_without_a_version_is_decided_again_after_a_concurrent_write(app, tmp_path):
    team_id = a_team(app)
    records, other = repository(app), repository(make_app(tmp_path))
    decided_on = []

    def decide(team):
        decided_on.append(team.version)
        if len(decided_on) == 1:  # another writer wins the race after this load
            other.execute(team_id, roster_change, **WRITE)
        return roster_change(team)

    saved = records.execute(team_id, decide, **WRITE)
    assert decided_on == [1, 2]
    assert [e.seq for e in saved.events] == [3] and saved.record.version == 3


def test_an_empty_decision_stores_nothing_and_answers_with_the_record(app):
    team_id = a_team(app)
    records = repository(app)
    saved = records.execute(team_id, lambda team: [], **WRITE)
    assert list(saved.events) == [] and saved.record is records.load(team_id)
    assert records.store.version(team_id) == 1


def test_an_id_of_another_record_or_of_none_is_not_found(app):
    players, tournaments, _ = services(app)
    player_id = a_player(players)
    records = repository(app)
    for missing in (player_id, "tm-000000000000", "not an id"):
        with pytest.raises(NotFound, match="no team") as refused:
            records.load(missing)
        assert refused.value.extra == {"team_id": missing}
    with pytest.raises(NotFound, match="no tournament"):
        tournaments.tournament(player_id)


@dataclass(frozen=True)
class Record:
    version: int


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from("abcde"), st.integers(1, 4)), max_size=60))
def test_the_folds_keep_what_a_least_recently_used_model_keeps(steps):
    folds: Folds[Record] = Folds(3)
    model: OrderedDict[str, Record] = OrderedDict()
    for keeping, stream_id, version in steps:
        if keeping:
            folds.keep(stream_id, Record(version))
            if stream_id in model and model[stream_id].version > version:
                continue  # a later fold is never replaced by an earlier one
            model[stream_id] = Record(version)
            model.move_to_end(stream_id)
            while len(model) > 3:
                model.popitem(last=False)
        else:
            expected = model.get(stream_id)
            expected = expected if expected is not None and expected.version == version else None
            assert folds.at(stream_id, version) == expected
            if expected is not None:
                model.move_to_end(stream_id)
    assert len(folds) == len(model)


def test_the_folds_stay_bounded_and_whole_under_threads():
    folds: Folds[Record] = Folds(16)
    wrong: list[tuple[str, int]] = []

    def work(offset: int) -> None:
        for n in range(2000):
            stream_id = f"s{(n * 7 + offset) % 40}"
            folds.keep(stream_id, Record(n))
            kept = folds.at(stream_id, n)
            if kept is not None and kept.version != n:
                wrong.append((stream_id, n))

    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == [] and len(folds) == 16
