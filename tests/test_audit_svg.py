"""Board diagrams: the SVG is valid XML and shows every hole, special, owner and store."""

import xml.etree.ElementTree as ET

from click.testing import CliRunner

from recorder.cli.main import main
from recorder.render.svg import board_svg
from recorder.render.text import board_text
from recorder.rules import rules_for
from recorder.rules.positions import position_from_json

SVG = "{http://www.w3.org/2000/svg}"

# A Selus round-2 position: South owns f3 (North ceded it, SEL-17), two wegues, stores 8 and 7.
ROUND_2 = {
    "holes": {
        "a1": 3,
        "b1": 0,
        "c1": 4,
        "d1": 3,
        "e1": 3,
        "f1": 3,
        "a2": 3,
        "b2": 3,
        "c2": 3,
        "d2": 3,
        "e2": 2,
        "f2": 3,
        "a3": 0,
        "b3": 0,
        "c3": 3,
        "d3": 3,
        "e3": 0,
        "f3": 0,
    },
    "specials": {"c1": {"kind": "wegue", "owner": "north"}, "e2": {"kind": "wegue", "owner": "south"}},
    "owners": {"f3": "south"},
    "stores": {"south": 8, "north": 7},
    "to_move": "south",
    "first_turn_of_round": False,
    "round": 2,
}


def holes_of(svg: str) -> dict:
    root = ET.fromstring(svg)  # raises on anything that is not well-formed XML
    assert root.tag == f"{SVG}svg"
    return {g.get("data-hole"): g for g in root.iter(f"{SVG}g") if g.get("class") == "hole"}


def texts(element, cls: str) -> list[str]:
    return [t.text for t in element.iter(f"{SVG}text") if t.get("class") == cls]


def test_svg_is_valid_xml_showing_every_holes_count_specials_owners_and_stores():
    rules = rules_for("selus")
    state = position_from_json(rules, ROUND_2)
    svg = board_svg(rules, state, last_hole="d1", names=("Abeba <A&B>", "Berhane"))
    holes = holes_of(svg)
    assert sorted(holes) == sorted(ROUND_2["holes"])
    for name, count in ROUND_2["holes"].items():
        assert holes[name].get("data-seeds") == str(count)
        assert texts(holes[name], "count") == [str(count)]
        assert texts(holes[name], "name") == [name]
    # GEN-8: specials marked with their kind and owner.
    assert (holes["c1"].get("data-special"), holes["c1"].get("data-special-owner")) == ("wegue", "north")
    assert texts(holes["c1"], "special-label") == ["wegue N"] and texts(holes["e2"], "special-label") == ["wegue S"]
    # GEN-7: f3 changed hands this round; its owner is shown, and only there.
    assert holes["f3"].get("data-owner") == "south" and texts(holes["f3"], "owner-changed") == ["S"]
    assert [n for n, g in holes.items() if texts(g, "owner-changed")] == ["f3"]
    # The last sowing's hole, and only it, is highlighted.
    highlighted = [n for n, g in holes.items() if any(c.get("class") == "last-sowing" for c in g.iter(f"{SVG}circle"))]
    assert highlighted == ["d1"]
    root = ET.fromstring(svg)
    stores = {g.get("data-player"): g for g in root.iter(f"{SVG}g") if g.get("class") == "store"}
    assert texts(stores["south"], "store-count") == ["8"] and texts(stores["north"], "store-count") == ["7"]
    sides = [t.text for t in root.iter(f"{SVG}text") if (t.get("class") or "").startswith("side")]
    assert sides == ["North — Berhane", "South — Abeba <A&B>"]
    assert texts(root, "status") == ["round 2: south to move"]


def test_svg_rows_are_drawn_north_on_top():
    rules = rules_for("qelat")
    svg = board_svg(rules, rules.start(None)._replace(to_move=None), size=400)
    holes = holes_of(svg)
    assert len(holes) == 12
    y = {name: float(g.find(f"{SVG}circle").get("cy")) for name, g in holes.items()}
    assert y["a2"] < y["a1"] and y["a2"] == y["f2"]
    x = {name: float(g.find(f"{SVG}circle").get("cx")) for name, g in holes.items()}
    assert x["a1"] < x["f1"] and x["a1"] == x["a2"]
    assert ET.fromstring(svg).get("width") == "400"


def test_board_svg_endpoint_after_any_event(api, client):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(game, type="sow", hole="f1")
    api.command(game, type="sow", hole="a2")
    for at in (1, 2, 3):
        response = client.get(f"/api/games/{game}/board.svg?at={at}")
        assert response.status_code == 200 and response.mimetype == "image/svg+xml"
        holes = holes_of(response.get_data(as_text=True))
        assert {n: int(g.get("data-seeds")) for n, g in holes.items()} == api.state(game, at=at)["holes"]
        lit = [n for n, g in holes.items() if any(c.get("class") == "last-sowing" for c in g.iter(f"{SVG}circle"))]
        assert lit == {1: [], 2: ["f1"], 3: ["a2"]}[at]
    latest = client.get(f"/api/games/{game}/board.svg?size=300")
    assert ET.fromstring(latest.get_data(as_text=True)).get("width") == "300"
    assert client.get(f"/api/games/{game}/board.svg?at=9").status_code == 404
    assert client.get(f"/api/games/{game}/board.svg?at=0").status_code == 422
    assert client.get("/api/games/nope/board.svg").status_code == 404


def test_text_board_shows_the_same_information():
    rules = rules_for("selus")
    text = board_text(rules, position_from_json(rules, ROUND_2), last_hole="d1")
    lines = text.splitlines()
    assert lines[1].split()[1:] == ["0", "0", "3", "3", "0", "0"]  # row 3 on top
    assert lines[2].split()[1:] == ["3", "3", "3", "3", "2S", "3"]
    assert lines[3].split()[1:] == ["3", "0", "4N", "3*", "3", "3"]
    assert "stores: south 8  north 7" in text
    assert "owners changed: f3:south" in text
    assert "wegues: c1:north e2:south" in text
    assert "last sowing: d1 (*)" in text


def test_cli_replay_marks_the_last_sowing(app, api):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(game, type="sow", hole="f1")
    result = CliRunner().invoke(main, ["replay", game, "--db", app.config["DATABASE"]])
    assert result.exit_code == 0, result.output
    assert "0*" in result.output and "last sowing: f1 (*)" in result.output


def test_openapi_documents_the_auditing_endpoints(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path, method in [
        ("/api/games/{game_id}/events/{seq}/trace", "get"),
        ("/api/games/{game_id}/claims", "post"),
        ("/api/games/{game_id}/what-if", "post"),
        ("/api/games/{game_id}/verify", "get"),
        ("/api/games/{game_id}/verify", "post"),
        ("/api/games/{game_id}/checkpoint", "get"),
        ("/api/keys/public", "get"),
        ("/api/games/{game_id}/board.svg", "get"),
    ]:
        assert method in paths[path], path
