"""Which Dutch text pairs a tournament: named in its creation event, read back as stored.

A creation event stored before the field existed has no ``pairing_rules``: it reads as
the 2017 text, so a stored tournament's next pairings are made as they always were. New
Swiss tournaments name the 2026 text; the field is left out of other formats' events."""

import pytest
from tournament_support import Organiser, make_app

from recorder.tournaments.events import DUTCH_2026, OLD_DUTCH, TournamentCreated, event_from_record
from recorder.tournaments.fold import replay

STORED_BEFORE = {  # a creation payload as stored before pairing_rules existed
    "name": "Old Open",
    "variant": "qelat",
    "options": {},
    "format": "swiss",
    "rounds": 5,
    "tiebreaks": ["buchholz"],
    "bye_points": 1.0,
    "site": None,
    "start_date": None,
    "end_date": None,
}


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def test_a_creation_event_without_pairing_rules_reads_as_the_2017_text():
    event = event_from_record("tournament_created", dict(STORED_BEFORE))
    t = replay("t-old", [(1, event)])
    assert t.pairing_rules == OLD_DUTCH and t.initial_colour == "white" and t.acceleration is None
    assert event.payload() == STORED_BEFORE  # written back unchanged: the same hash


def test_new_swiss_names_the_2026_text_and_other_formats_name_none(client):
    admin = Organiser(client)
    swiss = admin.create(name="New Open", variant="qelat", format="swiss", rounds=5)
    robin = admin.create(name="Club", variant="qelat", format="round_robin")
    created = {
        t["id"]: client.get(f"/api/tournaments/{t['id']}/events").get_json()["events"][0]["payload"]
        for t in (swiss, robin)
    }
    assert created[swiss["id"]]["pairing_rules"] == DUTCH_2026
    assert "pairing_rules" not in created[robin["id"]] and "acceleration" not in created[robin["id"]]
    assert swiss["pairing_rules"] == DUTCH_2026 and robin["pairing_rules"] is None


def test_the_2017_text_may_still_be_named_and_is_kept(client):
    admin = Organiser(client)
    t = admin.create(name="Old rules", variant="qelat", format="swiss", rounds=5, pairing_rules="dutch-2017")
    assert t["pairing_rules"] == OLD_DUTCH
    admin.create(name="X", variant="qelat", format="round_robin", pairing_rules="dutch-2017", expect=422)
    admin.create(name="X", variant="qelat", format="swiss", rounds=3, pairing_rules="dutch-1992", expect=422)


def test_the_payload_leaves_out_later_fields_that_are_unset():
    event = TournamentCreated(name="N", variant="qelat", options={}, format="round_robin")
    assert not {"pairing_rules", "initial_colour", "acceleration"} & event.payload().keys()
