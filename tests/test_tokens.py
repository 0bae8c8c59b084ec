"""The token table beside the event store (recorder/auth/token_table.py): digests only,
found by digest, listed, revoked once, and the first-run admin digest kept apart."""

from __future__ import annotations

import sqlite3

import pytest

from recorder.auth.token_table import TokenTable
from recorder.store import SQLiteEventStore


@pytest.fixture
def tokens(tmp_path):
    with SQLiteEventStore(str(tmp_path / "events.sqlite3")) as store:
        yield TokenTable(store)


def test_tokens_are_found_by_digest_listed_and_revoked_once(tokens):
    row = tokens.add_token("tok-1", "digest-1", "arbiter", "Arbiter Hagos", "t-aaa")
    tokens.add_token("tok-2", "digest-2", "arbiter", "Arbiter Tesfay", "t-bbb")
    tokens.add_token("tok-3", "digest-3", "recorder", "Recorder Selam")
    assert row == tokens.find_token("digest-1")
    assert row["revoked_at"] is None and row["holder"] == "Arbiter Hagos" and "token_hash" not in row
    assert tokens.find_token("digest-unknown") is None
    assert [r["token_id"] for r in tokens.list_tokens(tournament_id="t-aaa")] == ["tok-1"]
    assert [r["token_id"] for r in tokens.list_tokens(kind="recorder")] == ["tok-3"]
    revoked = tokens.revoke_token("tok-1", tournament_id="t-aaa")
    assert revoked["revoked_at"] is not None
    assert tokens.revoke_token("tok-1", tournament_id="t-aaa") == revoked  # a second revocation changes nothing
    assert tokens.revoke_token("tok-1", tournament_id="t-bbb") is None  # not that tournament's token
    assert tokens.find_token("digest-2")["revoked_at"] is None


def test_the_first_run_admin_digest_is_kept_apart_from_listed_tokens(tokens):
    assert tokens.admin_digest() is None
    tokens.set_admin_digest("digest-a")
    tokens.set_admin_digest("digest-b")  # a new first-run token replaces the old
    assert tokens.admin_digest() == "digest-b"
    assert tokens.list_tokens() == [] and tokens.revoke_token("admin") is None


def test_token_digests_are_unique(tokens):
    tokens.add_token("tok-1", "digest-1", "arbiter", "A", "t-aaa")
    with pytest.raises(sqlite3.IntegrityError):
        tokens.add_token("tok-2", "digest-1", "arbiter", "B", "t-aaa")
    assert [r["token_id"] for r in tokens.list_tokens(tournament_id="t-aaa")] == ["tok-1"]


def test_tokens_are_no_part_of_the_event_store():
    assert not any(hasattr(SQLiteEventStore, name) for name in ("add_token", "find_token", "admin_digest"))
