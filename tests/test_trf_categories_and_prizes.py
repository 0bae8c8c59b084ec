"""A tournament's categories and prize list travel in its TRF (this service's extension
records ``XMR 0000 CATEGORY``, one a category, and ``XMR 0000 PRIZES``: TRF-2026 has no
record for them), so an export imports to a tournament with the same categories, the same
prize list and the same payments, and exports back byte for byte. A record that is not a
category or a prize list as the API would take it is refused naming its line and column.

An organiser once moved a finished event to another server through its TRF and found
its women's and juniors' prizes gone."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tournament_categories import CATEGORIES, PLAYERS, put, round_robin
from test_trf_keeps_what_it_knew import FOUR, export, post_trf, refused_at
from tournament_support import Organiser, make_app

from recorder.tournaments import trf

EVERY_KIND = [
    *CATEGORIES,  # U16, S50 (named), W, ERI (federations and a club), U1800 (max)
    {"code": "M", "kind": "sex", "sex": "m", "name": "Open"},
    {"code": "ASM", "kind": "region", "clubs": ["Asmara Mancala Club"], "name": "ኣስመራ"},
    {"code": "1600-1899", "kind": "rating", "min": 1600, "max": 1899},
    {"code": "2000+", "kind": "rating", "min": 2000},
]
HORT = {
    "prizes": [
        {"place": 1, "amount": 1000},
        {"place": 2, "amount": 500},
        {"place": 3, "amount": 300},
        {"place": 1, "amount": 250, "category": "W"},
        {"place": 2, "amount": 100, "category": "W"},
        {"place": 1, "amount": 200, "category": "U16"},
        {"place": 1, "amount": 150, "category": "ASM"},
    ],
    "sharing": "hort",
    "currency": "ERN",
}


@pytest.fixture
def organiser(tmp_path):
    app = make_app(tmp_path)
    yield Organiser(app.test_client())
    app.extensions["recorder"].store.close()


def prize_list(organiser: Organiser, tid: str) -> dict:
    answer = organiser.get(f"/api/tournaments/{tid}/prizes")
    return {key: value for key, value in answer.items() if key != "tournament_id"}


def swiss(organiser: Organiser) -> str:
    """The six players (registered in the registry at entry) in a three-round Swiss, the
    categories of every kind and a Hort prize list set, every round played: finished."""
    tid = organiser.create(name="Asmara Open", variant="qelat", format="swiss", rounds=3, start_date="2026-11-20")["id"]
    for name, sex, born, federation, club, rating in PLAYERS:
        entry = {"name": name, "federation": federation, "rating": rating, "register": True, "force": True}
        entry.update({k: v for k, v in {"sex": sex, "birth_year": born, "club": club}.items() if v})
        organiser._call("POST", f"/api/tournaments/{tid}/players", 201, entry)
    put(organiser, tid, "categories", {"categories": EVERY_KIND})
    put(organiser, tid, "prizes", HORT)
    for _ in range(3):
        paired = organiser.pair(tid)
        for board in paired["boards"]:  # three rounds of six players: ties for the Hort system to share
            organiser.forfeit(tid, paired["round"], board["board"], "south_wins")
    return tid


def test_categories_of_every_kind_and_a_hort_prize_list_travel_export_import_export_unchanged(organiser):
    client = organiser.client
    tid = swiss(organiser)
    text = export(client, tid)
    assert text.count("\r\nXMR 0000 CATEGORY  {") == len(EVERY_KIND) and "\r\nXMR 0000 PRIZES    {" in text
    copy = post_trf(client, text)
    assert copy.status_code == 201, copy.get_json()
    copied = copy.get_json()["id"]
    assert export(client, copied) == text
    original = prize_list(organiser, tid)
    assert original["final"] and original["sharing"] == "hort" and len(original["categories"]) == len(EVERY_KIND)
    assert any(a["sharers"] > 1 for a in original["awards"])  # a tie shared by the Hort system
    assert prize_list(organiser, copied) == original  # the same categories, list and payments
    older = export(client, tid, "16")  # the older layout carries them too
    assert "\r\nXMR 0000 PRIZES    {" in older
    assert export(client, post_trf(client, older).get_json()["id"], "16") == older


def test_a_tournament_without_categories_or_prizes_writes_no_record_of_them(organiser):
    tid = round_robin(organiser, finish=False)
    text = export(organiser.client, tid)
    assert "CATEGORY" not in text and "PRIZES" not in text


U16 = {"code": "U16", "kind": "age", "under": 16, "born_from": 2010}


def category(value) -> str:
    return "XMR 0000 CATEGORY  " + (value if isinstance(value, str) else json.dumps(value))


def prizes(value) -> str:
    return "XMR 0000 PRIZES    " + (value if isinstance(value, str) else json.dumps(value))


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ([category('{"code": "U16", "kind": "age"')], "JSON"),  # cut short
        ([category("[1, 2]")], "an object"),
        ([category("[" * 5000 + "]" * 5000)], "JSON"),  # nested past any parser's depth
        ([category('{"under": ' + "9" * 5000 + "}")], "JSON"),  # a number of more digits than Python reads
        ([category({**U16, "name": "x" * 16_000})], "at most"),  # too long
        ([category({**U16, "colour": "red"})], "colour"),
        ([category({**U16, "under": "16"})], "under"),
        ([category({**U16, "under": True})], "under"),
        ([category({**U16, "born_from": 2011})], "2026"),  # the bound of another year than the file's 042
        ([category({**U16, "under": 0, "born_from": 2026})], "an age is 1"),
        ([category({"code": "W", "kind": "sex", "sex": "f"})], "sex is m or w"),
        ([category({"code": "W", "kind": "sex", "sex": "w", "born_from": 2010})], "not a category"),
        ([category({"code": "R", "kind": "region", "clubs": ["A\u202eB"]})], "club"),
        ([category({"code": "a b", "kind": "sex", "sex": "w"})], "code"),
        ([category(U16), category(U16)], "each code once"),
        ([category({"code": f"C{i}", "kind": "sex", "sex": "w"}) for i in range(21)], "at most 20"),
        ([prizes({"prizes": [{"place": 1, "amount": 100, "category": "U20"}]})], "U20"),
        ([prizes({"prizes": [{"place": 1, "amount": 100}, {"place": 2, "amount": 200}]})], "lower place"),
        ([prizes({"prizes": [{"place": 1, "amount": -5}]})], "amount"),
        ([prizes({"prizes": [{"place": 1, "amount": 5.0}]})], "amount"),
        ([prizes({"prizes": [{"place": 1, "amount": 5}], "sharing": "equal"})], "sharing"),
        ([prizes({"prizes": [], "currency": "birr"})], "currency"),
        ([prizes({"prizes": {"place": 1}})], "prizes"),
        ([prizes({"prizes": []}), prizes({"prizes": []})], "once"),
        (["XMR    1 CATEGORY  " + json.dumps(U16)], "0000"),
    ],
)
def test_a_hostile_category_or_prize_record_is_refused_naming_its_line(extra, words):
    lines = [*FOUR[:1], "042 2026/11/20", *FOUR[1:]]
    line, column, detail = refused_at([*lines, *extra])
    assert line == len(lines) + len(extra) and column in (5, 20) and words in detail, (line, column, detail)


def test_a_hostile_prize_record_over_the_api_is_a_422_naming_the_line_and_stores_nothing(organiser):
    text = "\r\n".join([*FOUR, prizes('{"prizes": [{"place": 1, "amount": 100}'), ""])
    response = post_trf(organiser.client, text)
    problem = response.get_json()
    assert response.status_code == 422 and (problem["line"], problem["column"]) == (len(FOUR) + 1, 20), problem
    assert organiser.client.get("/api/tournaments").get_json()["tournaments"] == []


FIELDS = {"code", "kind", "name", "sex", "under", "at_least", "born_from", "born_until", "min", "max", "federations"}
FIELDS |= {"clubs", "prizes", "place", "amount", "category", "sharing", "currency", "U16", "w", "age"}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(sorted(FIELDS)), inner, max_size=6),
    max_leaves=12,
)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(value=JSON_VALUES, keyword=st.sampled_from(["CATEGORY", "PRIZES"]))
def test_any_json_in_a_category_or_prize_record_reads_or_is_refused_at_its_line(value, keyword):
    extra = f"XMR 0000 {keyword:<9} {json.dumps(value)}"
    try:
        trf.parse("\n".join([*FOUR, extra]))
    except trf.TrfError as refused:
        assert (refused.extra["line"], refused.extra["column"]) == (len(FOUR) + 1, 20), refused.detail
