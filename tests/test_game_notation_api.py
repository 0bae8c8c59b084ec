"""One game's notation for the game page: GET /api/games/{id}/notation and /moves.

The move list must say exactly what the notation writer says (docs/notation.md): the
same turn numbers, the same multi-sowing turns and passes (GEN-17..GEN-20), the same
decisions — so the list joined back together is the file's movetext.
"""

import re

import pytest
from browser import fixture_game, record

MOVETEXT_REMARK = re.compile(r";[^\n]*")


def movetext(text: str) -> str:
    """The movetext of one exported game, remarks left out, words single-spaced."""
    body = text.split("\n\n", 1)[1]
    return " ".join(MOVETEXT_REMARK.sub("", body).split())


@pytest.mark.parametrize("name", ["tuz-end-turn-seed1.json", "gabata-default.json", "selus-rounds-1372.json"])
def test_move_list_joined_is_the_notation_movetext(client, name):
    game = fixture_game(name)
    game_id = record(client, game["setup"], game["commands"])
    text = client.get(f"/api/games/{game_id}/notation").get_data(as_text=True)
    moves = client.get(f"/api/games/{game_id}/moves").get_json()["moves"]
    assert len(moves) == len(game["commands"])
    result = movetext(text).rsplit(" ", 1)[1]
    assert " ".join(m["notation"] for m in moves) + " " + result == movetext(text)


def test_gen_19_a_pass_follows_the_sowing_that_caused_it(client):
    game = fixture_game("tuz-end-turn-seed1.json")
    game_id = record(client, game["setup"], game["commands"][:44])
    moves = client.get(f"/api/games/{game_id}/moves").get_json()["moves"]
    passes = [m["notation"] for m in moves if m["notation"].endswith("--")]
    assert passes and all(re.fullmatch(r"\d+\. [SN] [a-f][12] \d+\. [SN] --", p) for p in passes)


def test_retracted_moves_leave_the_list_but_not_the_full_history(client):
    game = fixture_game("qelat-default.json")
    game_id = record(client, game["setup"], game["commands"][:3])
    retract = {"type": "retract", "count": 1, "reason": "misread", "expected_version": 4}
    assert client.post(f"/api/games/{game_id}/commands", json=retract).status_code == 201
    moves = client.get(f"/api/games/{game_id}/moves").get_json()["moves"]
    assert [m["seq"] for m in moves] == [2, 3]
    effective = client.get(f"/api/games/{game_id}/notation")
    full = client.get(f"/api/games/{game_id}/notation?history=full").get_data(as_text=True)
    assert effective.mimetype == "text/x-mancala-notation"
    assert f'filename="{game_id}.mn"' in effective.headers["Content-Disposition"]
    assert "{retract 1" not in effective.get_data(as_text=True) and '{retract 1 "misread"}' in full


def test_notation_of_an_unknown_game_or_history_is_a_problem(client):
    assert client.get("/api/games/nope/notation").status_code == 404
    assert client.get("/api/games/nope/moves").status_code == 404
    game_id = record(client, fixture_game("qelat-default.json")["setup"], [])
    response = client.get(f"/api/games/{game_id}/notation?history=some")
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
