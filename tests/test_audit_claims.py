"""Position claims: where did exactly this position stand, or which point is closest."""

START = {f"{letter}{row}": 4 for row in (1, 2) for letter in "abcdef"}


def qelat_game(api, *holes):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    for hole in holes:
        api.command(game, type="sow", hole=hole)
    return game


def claim(client, game, body, expect=200):
    response = client.post(f"/api/games/{game}/claims", json=body)
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def test_a_claim_that_matches_lists_every_point_where_it_stood(api, client):
    # QEL-5, QEL-6: South sows f1 (CCW): f2 e2 d2 c2 get one each.
    game = qelat_game(api, "f1")
    after_f1 = {**START, "f1": 0, "f2": 5, "e2": 5, "d2": 5, "c2": 5}
    api.command(game, type="annotate", text="North disputes this position")
    position = {"holes": after_f1, "stores": {"south": 0, "north": 0}, "to_move": "north"}
    report = claim(client, game, {"position": position})
    assert report["stood"] is True and report["closest"] is None
    assert [(m["seq"], m["type"], m["effective"]) for m in report["matches"]] == [
        (2, "sowed", True),
        (3, "annotated", True),
    ]


def test_the_start_position_is_a_point_of_the_game(api, client):
    game = qelat_game(api, "f1")
    report = claim(client, game, {"holes": START})  # the bare position is accepted too
    assert [m["seq"] for m in report["matches"]] == [1]


def test_a_claim_that_does_not_match_gets_the_closest_point_and_the_holes_that_differ(api, client):
    game = qelat_game(api, "f1", "a2")
    # The claim: as after f1, but North says c2 held 6 and d2 held 4.
    claimed = {**START, "f1": 0, "f2": 5, "e2": 5, "d2": 4, "c2": 6}
    report = claim(client, game, {"position": {"holes": claimed, "to_move": "north"}})
    assert report["stood"] is False and report["matches"] == []
    closest = report["closest"]
    assert closest["seq"] == 2 and closest["holes_differing"] == 2 and closest["seeds_out_of_place"] == 2
    assert closest["differences"] == {
        "holes": {"c2": {"claimed": 6, "recorded": 5}, "d2": {"claimed": 4, "recorded": 5}},
    }
    assert closest["position"]["holes"]["c2"] == 5


def test_a_claim_differing_only_in_the_player_to_move_names_that_field(api, client):
    game = qelat_game(api, "f1")
    after_f1 = {**START, "f1": 0, "f2": 5, "e2": 5, "d2": 5, "c2": 5}
    report = claim(client, game, {"position": {"holes": after_f1, "to_move": "south"}})
    assert report["closest"]["seq"] == 2 and report["closest"]["holes_differing"] == 0
    assert report["closest"]["differences"] == {"to_move": {"claimed": "south", "recorded": "north"}}


def test_a_position_made_by_a_retracted_move_stood_but_is_not_effective(api, client):
    game = qelat_game(api, "e1")
    api.command(game, type="retract", count=1, reason="South sowed f1")
    api.command(game, type="sow", hole="f1")
    # QEL-5: e1 is one of South's right three, CCW: f1 f2 e2 d2.
    after_e1 = {**START, "e1": 0, "f1": 5, "f2": 5, "e2": 5, "d2": 5}
    report = claim(client, game, {"holes": after_e1})
    assert [(m["seq"], m["effective"]) for m in report["matches"]] == [(2, False)]
    assert [(m["seq"], m["effective"]) for m in claim(client, game, {"holes": START})["matches"]] == [
        (1, True),
        (3, True),
    ]


def test_gen_8_claims_compare_special_holes_with_their_owner(api, client):
    position = {
        "holes": {
            "a1": 3,
            "b1": 0,
            "c1": 0,
            "d1": 0,
            "e1": 0,
            "f1": 0,
            "a2": 0,
            "b2": 0,
            "c2": 0,
            "d2": 0,
            "e2": 0,
            "f2": 1,
            "a3": 0,
            "b3": 0,
            "c3": 0,
            "d3": 0,
            "e3": 0,
            "f3": 0,
        },
        "specials": {"a1": {"kind": "wegue", "owner": "north"}, "b1": {"kind": "wegue", "owner": "south"}},
        "stores": {"south": 25, "north": 25},
        "to_move": "south",
        "first_turn_of_round": False,
    }
    game = api.create(variant="selus", options={"match": "single"}, south="A", north="B", position=position)["id"]
    body = {key: position[key] for key in ("holes", "specials", "stores", "to_move")}
    assert claim(client, game, body)["stood"] is True
    wrong_owner = {**body, "specials": {"a1": {"kind": "wegue", "owner": "south"}, "b1": body["specials"]["b1"]}}
    closest = claim(client, game, wrong_owner)["closest"]
    assert set(closest["differences"]) == {"specials"}
    assert closest["differences"]["specials"]["recorded"] == body["specials"]


def test_invalid_claims_are_refused(api, client):
    game = qelat_game(api)
    assert "holes" in claim(client, game, {"position": {"to_move": "south"}}, expect=422)["errors"]["position"]
    assert claim(client, game, {"holes": {"a1": 4}}, expect=422)["title"] == "Invalid record"
    assert claim(client, game, {"holes": {**START, "a3": 4}}, expect=422)["status"] == 422
    assert claim(client, game, {"holes": {**START, "a1": -1}}, expect=422)["status"] == 422
    assert (
        claim(client, game, {"holes": START, "specials": {"a1": {"kind": "wegue", "owner": "south"}}}, expect=422)[
            "title"
        ]
        == "Invalid record"
    )
    assert claim(client, game, {"holes": START, "colour": "red"}, expect=422)["status"] == 422
    assert client.post("/api/games/nope/claims", json={"holes": START}).status_code == 404
