"""Names show as what they are: no control, bidi, zero-width, separator, private-use or
unassigned character in any name a person gives (players, clubs, tournaments, sites, game
sides), wherever it enters: the API, the command line, a notation or NDJSON import, a TRF
(``recorder.core.names.name_problem``, one rule for every name field). Ge'ez and accented
Latin are names like any other. Records stored before the rule still replay, verify and
export as they were; the command line prints what they hold escaped, never acted on."""

from __future__ import annotations

import json
import unicodedata

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from recorder.archive.transfer import Archive
from recorder.audit.verify import verify_record
from recorder.cli.main import main
from recorder.core import names
from recorder.games.service import Recorder
from recorder.store import SQLiteEventStore
from recorder.tournaments.service import Tournaments

HIDDEN = {
    "NUL": "\x00",
    "BEL": "\x07",
    "ESC": "\x1b",
    "C1 CSI": "\x9b",
    "right-to-left override": "\u202e",
    "left-to-right embedding": "\u202a",
    "first strong isolate": "\u2068",
    "pop directional isolate": "\u2069",
    "right-to-left mark": "\u200f",
    "Arabic letter mark": "\u061c",
    "zero-width space": "\u200b",
    "zero-width joiner": "\u200d",
    "word joiner": "\u2060",
    "byte order mark": "\ufeff",
    "line separator": "\u2028",
    "paragraph separator": "\u2029",
    "private use": "\ue000",
    "unassigned": "\U000e0080",
}
NAMES = [
    "ሰላም ተስፋዬ",  # Ge'ez
    "ኃይለ፡ሥላሴ ፲፪",  # Ge'ez with its word separator and numerals
    "Zoë Ñúñez-Øster",  # accented Latin, composed
    "Zoe\u0308 Nu\u0301n\u0303ez",  # the same, decomposed (combining marks)
    "Мария Ἀλέξανδρος",  # Cyrillic and Greek
    "عبد الله",  # Arabic (its letters carry their own direction)
    "O'Brien (jr.)",
]
SPOOF = "Abeba\u202eeyafseT"  # shows as "AbebaTesfaye"


def shown(char: str) -> str:
    return f"U+{ord(char):04X}"


# -------------------------------------------------------------------- the rule, once


@pytest.mark.parametrize("char", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_name_holding_a_hidden_character_is_refused_naming_its_code_point(char):
    problem = names.name_problem(f"Abeba{char}Kidane")
    assert problem is not None and shown(char) in problem


@pytest.mark.parametrize("name", NAMES)
def test_names_in_every_script_and_with_accents_are_names(name):
    assert names.name_problem(name) is None


def test_every_ethiopic_letter_mark_and_numeral_is_accepted():
    ethiopic = [chr(c) for c in range(0x1200, 0x139A) if unicodedata.category(chr(c)) != "Cn"]
    ethiopic += [chr(c) for c in range(0x2D80, 0x2DDF) if unicodedata.category(chr(c)) != "Cn"]
    ethiopic += [chr(c) for c in range(0xAB01, 0xAB2F) if unicodedata.category(chr(c)) != "Cn"]
    assert len(ethiopic) > 450
    refused = [shown(c) for c in ethiopic if names.name_problem("ሰ" + c) is not None]
    assert refused == []


# -------------------------------------------------------------------- the API


def refused_naming(response, field: str) -> None:
    problem = response.get_json()
    assert response.status_code == 422 and response.mimetype == "application/problem+json", problem
    assert field in problem["detail"] and "U+202E" in problem["detail"], problem


@pytest.mark.parametrize("field", ["south", "north", "event", "site", "round"])
def test_a_game_naming_a_side_or_its_event_with_a_bidi_override_is_refused_and_nothing_stored(client, field):
    body = {"variant": "qelat", "south": "Selam", "north": "Berhane", "first_player": "south", field: SPOOF}
    refused_naming(client.post("/api/games", json=body), field)
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("char", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_game_side_with_any_hidden_character_is_a_4xx_never_stored(client, char):
    body = {"variant": "qelat", "south": f"Abeba{char}", "north": "Berhane", "first_player": "south"}
    response = client.post("/api/games", json=body)
    assert 400 <= response.status_code < 500 and response.mimetype == "application/problem+json"
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("name", NAMES)
def test_a_game_between_players_named_in_any_script_is_created(client, name):
    body = {"variant": "qelat", "south": name, "north": "Berhane", "first_player": "south"}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["south"] == name  # as sent: no normalisation


TOURNAMENT = {"name": "Asmara Open", "variant": "qelat", "format": "swiss", "rounds": 5}


@pytest.mark.parametrize("field", ["name", "site"])
def test_a_tournament_named_with_a_bidi_override_is_refused(client, field):
    refused_naming(client.post("/api/tournaments", json={**TOURNAMENT, field: SPOOF}), field)
    assert client.get("/api/tournaments").get_json()["tournaments"] == []


@pytest.mark.parametrize("field", ["name", "federation", "club", "name_geez"])
def test_a_tournament_entrant_named_with_a_bidi_override_is_refused(client, field):
    tid = client.post("/api/tournaments", json=TOURNAMENT).get_json()["id"]
    body = {"name": "Selam", "register": field in ("club", "name_geez"), field: SPOOF}
    if body["register"]:
        body["federation"] = "ETH"
    refused_naming(client.post(f"/api/tournaments/{tid}/players", json=body), field)
    assert client.get(f"/api/tournaments/{tid}").get_json()["players"] == []


@pytest.mark.parametrize("field", ["name", "name_geez", "club", "external_id"])
def test_a_registry_player_or_club_with_a_bidi_override_is_refused(client, field):
    body = {"name": "Selam Tesfay", "federation": "ETH", field: SPOOF}
    refused_naming(client.post("/api/players", json=body), field)
    assert client.get("/api/players?q=Selam").get_json()["players"] == []


def test_a_registry_rename_or_club_change_with_hidden_characters_is_refused(client):
    created = client.post("/api/players", json={"name": "Selam Tesfay", "federation": "ETH", "name_geez": "ሰላም"})
    assert created.status_code == 201, created.get_json()
    pid = created.get_json()["id"]
    refused_naming(client.post(f"/api/players/{pid}/name", json={"name": SPOOF}), "name")
    refused_naming(client.post(f"/api/players/{pid}/affiliation", json={"club": SPOOF}), "club")
    player = client.get(f"/api/players/{pid}").get_json()
    assert (player["name"], player["name_geez"], player["club"]) == ("Selam Tesfay", "ሰላም", None)


# -------------------------------------------------------------------- imports

QELAT = (FIXTURES / "notation" / "qelat-default.mn").read_text()


def imported(client, text: str, content_type: str = "text/x-mancala-notation"):
    return client.post("/api/import?source=up.mn", data=text.encode(), content_type=content_type)


@pytest.mark.parametrize("char", ["\x1b", "\u202e", "\u200b", "\u2028", "\ue000"])
def test_a_notation_game_whose_tags_name_a_player_with_hidden_characters_is_refused(client, char):
    assert '[South "Abeba"]' in QELAT
    tag = f"[South {json.dumps(f'Abe{char}ba')}]"  # a tag's value is a JSON string: escaped, it reads
    response = imported(client, QELAT.replace('[South "Abeba"]', tag))
    problem = response.get_json()
    assert response.status_code == 422 and problem["refused"] == 1, problem
    assert "south" in problem["games"][0]["error"]["detail"] and shown(char) in problem["games"][0]["error"]["detail"]
    assert client.get("/api/games").get_json()["games"] == []


def test_a_notation_game_with_a_ge_ez_event_and_players_is_imported(client):
    text = QELAT.replace('[South "Abeba"]', '[South "ሰላም ተስፋዬ"]').replace('[Event "', '[Event "ዋንጫ ', 1)
    response = imported(client, text)
    assert response.status_code == 201, response.get_json()


def stored_before_the_rule(recorder: Recorder, name: str) -> str:
    """A game as the service stores it without the boundary's checks: a record kept
    from before the rule."""
    setup = {"variant": "qelat", "south": name, "north": "Berhane", "first_player": "south", "event": name}
    return recorder.create_game(setup, recorded_by="admin").game.game_id


def test_a_record_stored_before_the_rule_replays_verifies_and_exports_unchanged_but_is_not_imported_again():
    recorder = Recorder(SQLiteEventStore(":memory:"))
    game_id = stored_before_the_rule(recorder, SPOOF)
    archive = Archive(recorder.store)
    assert recorder.game(game_id).setup.south == SPOOF
    assert verify_record(game_id, recorder.store.read(game_id))["ok"]
    ndjson = "".join(archive.ndjson_archive([game_id]))
    assert json.dumps(SPOOF)[1:-1] in ndjson or SPOOF in ndjson
    assert "".join(archive.ndjson_archive([game_id])) == ndjson
    (report,) = Archive(SQLiteEventStore(":memory:"), recorded_by="admin", restore=True).import_ndjson_text(
        ndjson, "old.ndjson"
    )
    assert report.status == "refused" and "U+202E" in report.error["detail"]


# -------------------------------------------------------------------- the command line

TITLE_ESCAPE = "\x1b]0;pwned\x07"  # an OSC sequence: retitles the terminal


def test_the_command_line_refuses_a_hidden_character_in_a_tournament_or_a_player(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    made = CliRunner().invoke(
        main, ["tournament", "create", "--name", SPOOF, "--variant", "qelat", "--format", "swiss", "--db", db]
    )
    assert made.exit_code != 0 and "name" in made.output and "U+202E" in made.output
    registered = CliRunner().invoke(
        main, ["players", "register", "--name", f"Selam{TITLE_ESCAPE}", "--federation", "ETH", "--db", db]
    )
    assert registered.exit_code != 0 and "U+001B" in registered.output


def test_the_command_line_prints_stored_names_escaped(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    store = SQLiteEventStore(db)
    recorder = Recorder(store)
    body = {**TOURNAMENT, "name": f"Open{TITLE_ESCAPE}\u202e"}
    tournaments = Tournaments(recorder)
    tid = tournaments.create(body, recorded_by="admin").tournament.tournament_id
    tournaments.register(tid, {"name": f"Selam{TITLE_ESCAPE}"}, recorded_by="admin")
    tournaments.register(tid, {"name": "ሰላም ተስፋዬ"}, recorded_by="admin")
    stored_before_the_rule(recorder, f"Abeba{TITLE_ESCAPE}")
    store.close()
    outputs = []
    for args in (["tournament", "list"], ["tournament", "show", tid], ["tournament", "pair", tid], ["players", "link"]):
        result = CliRunner().invoke(main, [*args, "--db", db])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    printed = "".join(outputs)
    assert "\x1b" not in printed and "\x07" not in printed and "\u202e" not in printed
    assert "\\x1b]0;pwned\\x07" in printed and "ሰላም ተስፋዬ" in printed


def test_the_board_picture_of_a_record_stored_before_the_rule_shows_the_override_as_its_code_point(app, client):
    game_id = stored_before_the_rule(app.extensions["recorder"], SPOOF)
    picture = client.get(f"/api/games/{game_id}/board.svg").get_data(as_text=True)
    assert "\u202e" not in picture and "Abeba&lt;U+202E&gt;eyafseT" in picture
    ge_ez = stored_before_the_rule(app.extensions["recorder"], "ሰላም ተስፋዬ")
    assert "South — ሰላም ተስፋዬ" in client.get(f"/api/games/{ge_ez}/board.svg").get_data(as_text=True)
