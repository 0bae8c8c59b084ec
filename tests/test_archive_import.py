"""Importing archives: every game checked through the live commands, a refused game stores
nothing, every game gets a report, and malformed input is never a 500."""

import json

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, bearer, make_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.archives import event_logs

from recorder.api.archive import schema_check
from recorder.archive.transfer import Archive
from recorder.cli.main import main
from recorder.core import chain
from recorder.store import SQLiteEventStore

NOTATION = FIXTURES / "notation"
QELAT = (NOTATION / "qelat-default.mn").read_text()
GABATA = (NOTATION / "gabata-default.mn").read_text()
TUZ = (NOTATION / "tuz-plain-opening-seed0.mn").read_text()
THREE_GAMES = QELAT + "\n" + GABATA + "\n" + TUZ
NOTATION_TYPE = "text/x-mancala-notation"


def post_notation(client, text, source="upload.mn", content_type=NOTATION_TYPE, headers=None):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return client.post(f"/api/import?source={source}", data=data, content_type=content_type, headers=headers)


def stored_games(app) -> dict:
    store, games = app.extensions["recorder"].store, app.extensions["recorder"].games
    return {game_id: store.version(game_id) for game_id in games.iter_ids()}


def test_a_multi_game_archive_is_imported_game_by_game(client, app):
    response = post_notation(client, THREE_GAMES)
    assert response.status_code == 201
    report = response.get_json()
    assert (report["imported"], report["refused"]) == (3, 0)
    assert [game["players"]["south"] for game in report["games"]] == ["Abeba", "Tesfay", "Alemu"]
    assert stored_games(app) == {game["game_id"]: game["events"] for game in report["games"]}


def test_gen_21_a_refused_game_stores_nothing_and_the_others_are_imported(client, app):
    broken = GABATA.replace("4. S", "4. N", 1)
    response = post_notation(client, QELAT + "\n" + broken + "\n" + TUZ)
    assert response.status_code == 207
    games = response.get_json()["games"]
    assert [game["status"] for game in games] == ["imported", "refused", "imported"]
    error = games[1]["error"]
    assert (error["source"], error["game"], error["line"]) == ("upload.mn", 2, 10 + QELAT.count("\n"))
    assert error["expected"] == "4. S" and "upload.mn: game 2 (Tesfay v Yonas)" in error["detail"]
    assert len(stored_games(app)) == 2


@pytest.mark.parametrize(
    "text, detail",
    [
        (QELAT.replace('[Variant "qelat"]', '[Variant "tuz"]'), "mazagebh_no_return is not an option"),
        (QELAT.replace('[Variant "qelat"]', '[Variant "kalah"]'), "unknown variant"),
        (QELAT.replace("1. N d2 2. S a1", "1. N d2 2. S a2"), "south may not sow a2 now"),
        (QELAT.replace("1. N d2", "1. N d3"), "not a hole of the 2x6 board"),
        (QELAT[: len(QELAT) // 2], "the game ends without a result token"),
        (QELAT.replace("0-1\n", "1-0\n"), "the moves give the result 0-1, not 1-0"),
    ],
)
def test_a_bad_game_is_refused_with_a_clear_error_and_nothing_is_stored(client, app, text, detail):
    response = post_notation(client, text)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["title"] == "Nothing imported" and problem["refused"] == 1
    assert detail in problem["games"][0]["error"]["detail"]
    assert stored_games(app) == {}


def test_an_empty_body_holds_no_game(client):
    response = post_notation(client, "   ; only a remark\n")
    assert response.status_code == 422 and response.get_json()["detail"] == "the body holds no game"


def test_import_takes_notation_and_refuses_other_media_types_text_plain_included(client, app):
    # text/plain is what a cross-site page may post without asking (no CORS preflight)
    for content_type in ("application/json", "text/plain", "application/x-www-form-urlencoded"):
        response = post_notation(client, QELAT, content_type=content_type)
        assert response.status_code == 415 and response.mimetype == "application/problem+json"
    assert stored_games(app) == {}
    assert post_notation(client, QELAT).status_code == 201


def test_a_body_that_is_not_utf8_is_refused(client, app):
    response = post_notation(client, QELAT.encode("utf-8") + b"\xff\xfe")
    assert response.status_code == 422 and "not UTF-8" in response.get_json()["detail"]
    assert stored_games(app) == {}


@pytest.fixture(scope="module")
def shared_app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("mutations") / "db.sqlite3")
    yield app
    app.extensions["recorder"].store.close()


def mutate(text: str, data) -> str:
    """A few random edits: characters deleted, inserted or replaced, lines swapped, a cut."""
    for _ in range(data.draw(st.integers(1, 3))):
        kind = data.draw(st.sampled_from(["delete", "insert", "replace", "swap", "truncate"]))
        at = data.draw(st.integers(0, max(len(text) - 1, 0)))
        if kind == "delete":
            text = text[:at] + text[at + data.draw(st.integers(1, 12)) :]
        elif kind in ("insert", "replace"):
            piece = data.draw(st.sampled_from(list('[]{}";-.*0123456789 \nSNabcdef') + ["1-0", "{lot", "-- "]))
            text = text[:at] + piece + text[at + (kind == "replace") :]
        elif kind == "swap":
            lines = text.split("\n")
            i, j = data.draw(st.integers(0, len(lines) - 1)), data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            text = text[:at]
    return text


@settings(derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_notation_is_never_a_500_and_never_stores_part_of_a_game(shared_app, data):
    client = shared_app.test_client()
    before = stored_games(shared_app)
    response = post_notation(client, mutate(THREE_GAMES, data))
    assert response.status_code in (200, 201, 207, 422), response.get_data(as_text=True)  # 200: all there already
    report = response.get_json()
    added = {k: v for k, v in stored_games(shared_app).items() if k not in before}
    imported = {g["game_id"]: g["events"] for g in report.get("games", []) if g["status"] == "imported"}
    assert added == imported
    for game in report.get("games", []):
        if game["status"] == "refused":
            assert game["error"]["title"] == "Invalid game record", game  # never the internal-error net
            assert {"line", "column"} <= set(game["error"]), game


@pytest.mark.parametrize("cut", [0.1, 0.35, 0.5, 0.65, 0.99])
def test_a_truncated_archive_keeps_its_complete_games_and_refuses_the_cut_one(cut):
    archive = Archive(SQLiteEventStore(":memory:"), recorded_by="test", restore=True)
    text = THREE_GAMES[: int(len(THREE_GAMES) * cut)]
    reports = list(archive.import_notation(text, "cut.mn"))
    ends = [len(QELAT), len(QELAT) + 1 + len(GABATA), len(THREE_GAMES)]
    complete = sum(1 for end in ends if end - 1 <= len(text))  # a game ends with its result and a newline
    assert [r.status for r in reports[:-1]] == ["imported"] * (len(reports) - 1)
    assert reports[-1].status == "refused" and reports[-1].error["detail"].startswith("cut.mn: game")
    assert len(list(archive.select())) == len(reports) - 1 == complete


# --------------------------------------------------------------------------- NDJSON logs


@pytest.fixture
def ndjson_log(client) -> str:
    post_notation(client, QELAT + "\n" + GABATA)
    exported = client.get("/api/export", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True)
    return unframed(exported)


def unframed(archive: str) -> str:
    """An export's event lines: without its first line and its terminator (recorder/archive/frame.py)."""
    lines = archive.split("\n")
    assert lines[0] == '{"archive":"mancala-recorder"}' and lines[-2].startswith('{"end_of_archive":')
    return "".join(line + "\n" for line in lines[1:-2])


def fresh() -> Archive:
    return Archive(SQLiteEventStore(":memory:"), recorded_by="test", restore=True)


def test_an_ndjson_log_is_imported_verbatim_with_its_ids_and_hashes(ndjson_log):
    archive = fresh()
    reports = list(archive.import_ndjson(ndjson_log.splitlines(), "log.ndjson"))
    assert [r.status for r in reports] == ["imported", "imported"]
    original = [json.loads(line) for line in ndjson_log.splitlines()]
    assert [r.game_id for r in reports] == list(dict.fromkeys(e["game_id"] for e in original))
    assert event_logs(archive, archive.select()) == ndjson_log
    assert ndjson_log == "".join(
        chain.canonical_json(e.to_dict()) + "\n" for r in reports for e in archive.store.read(r.game_id)
    )  # the reference format


def test_an_ndjson_log_stored_already_is_reported_existing_and_nothing_changes(client, app, ndjson_log):
    before = stored_games(app)
    response = client.post("/api/import", data=ndjson_log, content_type="application/x-ndjson")
    assert response.status_code == 200
    games = response.get_json()["games"]
    assert [game["status"] for game in games] == ["exists", "exists"]
    assert all("the same log was stored before" in game["detail"] for game in games)
    assert stored_games(app) == before


def test_an_ndjson_log_whose_id_holds_another_game_is_refused(client, ndjson_log):
    lines = [json.loads(line) for line in ndjson_log.splitlines()]
    first = lines[0]["game_id"]
    other = [{**line, "game_id": first} for line in lines if line["game_id"] != first]
    log = "".join(line + "\n" for line in lines_of(rehash(other)))
    response = client.post("/api/import", data=log, content_type="application/x-ndjson")
    assert response.status_code == 422
    assert "exists already" in response.get_json()["games"][0]["error"]["detail"]


def rehash(events: list[dict]) -> list[dict]:
    """A forged log: altered events with a chain recomputed to match."""
    prev = chain.GENESIS
    for event in events:
        event["prev_hash"] = prev
        record = {k: event[k] for k in chain.RECORD_FIELDS}
        event["hash"] = prev = chain.event_hash(prev, record)
    return events


def lines_of(events: list[dict]) -> list[str]:
    return [chain.canonical_json(event) for event in events]


def first_game(ndjson_log: str) -> list[dict]:
    events = [json.loads(line) for line in ndjson_log.splitlines()]
    return [e for e in events if e["game_id"] == events[0]["game_id"]]


@pytest.mark.parametrize(
    "forge, detail",
    [
        (lambda es: es[:3] + es[4:], "the hash chain breaks at event 5"),
        (lambda es: [es[0], es[2], es[1]] + es[3:], "the hash chain breaks at event 3"),
        (lambda es: [es[0], {**es[1], "payload": {**es[1]["payload"], "hole": "a1"}}] + es[2:], "breaks at event 2"),
        (
            lambda es: rehash([es[0], {**es[1], "payload": {**es[1]["payload"], "hole": "a1"}}] + es[2:]),
            "may not sow a1",
        ),
        (lambda es: rehash([es[0], {**es[1], "type": "passed", "payload": {}}] + es[2:]), "passed is not an event"),
        (lambda es: rehash([{**es[0], "payload": {**es[0]["payload"], "options": {}}}] + es[1:]), "not what live"),
        (lambda es: rehash([{**e, "game_id": "t-1234"} for e in es]), "ids starting with t- are tournaments"),
        (lambda es: [{**es[0], "seq": "1"}] + es[1:], "seq has the wrong type"),
    ],
)
def test_a_forged_or_altered_ndjson_log_is_refused(ndjson_log, forge, detail):
    events = forge(first_game(ndjson_log))
    archive = fresh()
    (report,) = archive.import_ndjson(lines_of(events), "log.ndjson")
    assert report.status == "refused" and detail in report.error["detail"], report.error
    assert list(archive.select()) == []


def sown_as(es: list[dict], seq: int, **fields) -> list[dict]:
    """The log with event ``seq`` (a sowing) given other payload fields, its chain recomputed."""
    return rehash([{**e, "payload": {**e["payload"], **fields}} if e["seq"] == seq else e for e in es])


@pytest.mark.parametrize(
    "forge, with_schemas, detail",
    [
        (lambda es: sown_as(es, 2, hole=["a1"]), True, "hole: ['Not a valid string.']"),
        (lambda es: sown_as(es, 2, player={}), True, "player: ['Not a valid string.']"),
        (lambda es: sown_as(es, 4, player=1), True, "player: ['Not a valid string.']"),
        (lambda es: sown_as(es, 4, hole="z9"), True, 'event 4: "z9" is not a hole of the 2x6 board (GEN-5)'),
        # Without the schemas (the library's default), the sowing's own checks refuse them.
        (lambda es: sown_as(es, 2, hole=["a1"]), False, "event 2: "),
        (lambda es: sown_as(es, 4, player=1), False, "event 4: north is to move, not 1 (GEN-21)"),
    ],
)
def test_gen_21_a_forged_sowing_of_any_json_type_is_refused_by_name(ndjson_log, forge, with_schemas, detail):
    events = forge(first_game(ndjson_log))
    assert events[1]["type"] == events[3]["type"] == "sowed"
    check = {"check_command": schema_check} if with_schemas else {}
    archive = Archive(SQLiteEventStore(":memory:"), recorded_by="test", restore=True, **check)
    (report,) = archive.import_ndjson(lines_of(events), "log.ndjson")
    assert report.status == "refused" and detail in report.error["detail"], report.error
    assert "could not be checked" not in report.error["detail"]
    assert list(archive.select()) == []


@settings(derandomize=True, max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_ndjson_is_refused_cleanly_and_never_stored_in_part(data):
    log = (FIXTURES / "notation" / "gabata-default.mn").read_text()
    source = Archive(SQLiteEventStore(":memory:"), recorded_by="test", restore=True)
    list(source.import_notation(log))
    original = event_logs(source, source.select())
    mutated = mutate(original, data)
    archive = fresh()
    reports = list(archive.import_ndjson(mutated.splitlines(), "log.ndjson"))
    imported = {r.game_id: r.events for r in reports if r.status == "imported"}
    assert {game_id: archive.store.version(game_id) for game_id in archive.select()} == imported
    for report in reports:
        if report.status == "refused":
            assert report.error["title"] in ("Invalid game record", "Hash chain broken"), report.error
    for game_id, count in imported.items():
        # what was imported is the original (or, until archives state their length, a prefix of it)
        assert archive.store.read(game_id) == source.store.read(game_id, upto=count)


def test_an_ndjson_line_that_is_not_json_names_its_line_and_column(ndjson_log):
    lines = ndjson_log.splitlines()
    lines[2] = lines[2][:40]
    reports = list(fresh().import_ndjson(lines, "log.ndjson"))
    assert reports[0].status == "refused"
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(lines[2])
    assert (reports[0].error["line"], reports[0].error["column"]) == (3, caught.value.colno)
    assert [r.status for r in reports[1:]] == ["imported"]


def recorder_token(client, holder="Recorder R") -> dict:
    issued = client.post("/api/tokens", json={"holder": holder})
    assert issued.status_code == 201, issued.get_json()
    return bearer(issued.get_json()["token"])


def test_games_of_a_tournament_need_its_token(client, app):
    tagged = QELAT.replace('[South "Abeba"]', '[South "Abeba"]\n[Tournament "t-abc123"]', 1)
    assert "Tournament" in tagged
    response = post_notation(client, tagged, headers=recorder_token(client))
    problem = response.get_json()
    assert response.status_code == 422
    assert problem["games"][0]["error"]["title"] == "Not allowed"
    assert stored_games(app) == {}


def test_an_ndjson_board_game_id_needs_its_tournaments_token(client, ndjson_log):
    events = rehash([{**e, "game_id": "abc123-r1-b1"} for e in first_game(ndjson_log)])
    body = "\n".join(lines_of(events))
    headers = recorder_token(client)
    response = client.post("/api/import", data=body, content_type="application/x-ndjson", headers=headers)
    assert response.status_code == 422
    assert response.get_json()["games"][0]["error"]["title"] == "Not allowed"


# --------------------------------------------------------------------------- the command line


def test_recorder_import_reports_each_refusal_and_exits_1(tmp_path):
    good, bad = tmp_path / "good.mn", tmp_path / "bad.mn"
    good.write_text(QELAT + "\n" + TUZ)
    bad.write_text(GABATA.replace("4. S", "4. N", 1))
    result = CliRunner().invoke(main, ["import", str(good), str(bad), "--db", str(tmp_path / "db.sqlite3")])
    assert result.exit_code == 1
    assert "imported 2 games, refused 1" in result.output
    assert "refused: " in result.output and "bad.mn: game 1 (Tesfay v Yonas): line 9" in result.output


def test_recorder_import_reads_ndjson_logs_by_their_suffix(tmp_path, ndjson_log):
    path = tmp_path / "games.ndjson"
    path.write_text(ndjson_log)
    result = CliRunner().invoke(main, ["import", str(path), "--db", str(tmp_path / "db.sqlite3")])
    assert result.exit_code == 0 and "imported 2 games, refused 0" in result.output
    with SQLiteEventStore(str(tmp_path / "db.sqlite3")) as store:
        assert event_logs(Archive(store), Archive(store).select()) == ndjson_log


def test_imported_commands_meet_the_same_schema_limits_as_live_ones(client, app):
    cut = QELAT.index("79. N b2")
    long_note = QELAT[:cut] + '{result resignation north "' + "x" * 2001 + '"} 0-1\n'
    response = post_notation(client, long_note)
    assert response.status_code == 422
    assert "note:" in response.get_json()["games"][0]["error"]["detail"]
    assert stored_games(app) == {}
