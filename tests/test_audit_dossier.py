"""The appeal dossier: one signed file of a game that anyone checks with no database
(docs/auditing.md, "The appeal dossier")."""

import base64
import json
import random
from urllib.parse import quote

from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from recorder.audit import dossier
from recorder.audit.checkpoints import SigningKey
from recorder.audit.dossier_check import PARTS, check, failed
from recorder.cli.main import main
from recorder.core.chain import canonical_json, new_links


def disputed_game(api) -> str:
    """A Qelat game with a withdrawn move, an annotation and a result: a dossier's every part."""
    game = api.create(variant="qelat", south="Abeba", north="Berhane", first_player="south")["id"]
    for hole in ("f1", "a2", "e1"):
        api.command(game, type="sow", hole=hole)
    api.command(game, type="retract", count=1, reason="wrong hole")
    api.command(game, type="sow", hole="d1")
    api.command(game, type="annotate", text="ሰላም — disputed by North")
    api.command(game, type="result", kind="resignation", winner="south")
    return game


def fetch(client, game: str, query: str = "", expect: int = 200) -> bytes:
    response = client.get(f"/api/games/{game}/dossier{query}")
    assert response.status_code == expect, response.get_data(as_text=True)
    return response.get_data()


def body_of(data: bytes) -> dict:
    return json.loads(data.split(b"\n")[1])


def verdicts(findings) -> dict:
    return {finding.part: finding.ok for finding in findings}


def test_a_finished_games_dossier_holds_its_stream_traces_and_checkpoint_and_verifies(api, client):
    game = disputed_game(api)
    data = fetch(client, game, "?moves=2,4")
    body = body_of(data)
    stored = api.events(game)
    assert [e["hash"] for e in body["events"]] == [e["hash"] for e in stored]
    assert [t["seq"] for t in body["traces"]] == [2, 4]
    assert body["traces"][1]["retracted_by_seq"] == 5 and body["traces"][0]["steps"][0]["rule"] == "GEN-11"
    assert body["checkpoint"]["text"] == client.get(f"/api/games/{game}/checkpoint").get_json()["text"]
    assert body["key"]["key_id"] == client.get("/api/keys/public").get_json()["key_id"]
    assert body["final"]["result"] == "south_wins" and body["setup"] == stored[0]["payload"]
    findings = check(data, client.get("/api/keys/public").get_json()["public_key"])
    assert [f.part for f in findings] == list(PARTS) and not failed(findings), findings
    assert fetch(client, game, "?moves=2,4") == data  # Ed25519 and canonical JSON: the same bytes


def test_recorder_verify_dossier_checks_a_file_with_no_database(api, client, tmp_path):
    offline = tmp_path / "committee"
    offline.mkdir()
    path = offline / "appeal.dossier"
    path.write_bytes(fetch(client, disputed_game(api), "?moves=3"))
    runner = CliRunner(env={"RECORDER_DB": str(offline / "absent.sqlite3"), "RECORDER_KEY_FILE": None})
    result = runner.invoke(main, ["verify", "--dossier", str(path)])
    assert result.exit_code == 0, result.output
    assert [line.split()[0] for line in result.output.splitlines()] == ["ok"] * len(PARTS)
    assert list(offline.iterdir()) == [path]  # no database opened, no key made
    path.write_bytes(path.read_bytes().replace(b'"hole":"d1"', b'"hole":"c1"'))
    result = runner.invoke(main, ["verify", "--dossier", str(path)])
    assert result.exit_code == 1
    assert "FAILED  signature: the signature does not match" in result.output
    assert "FAILED  chain: event 6:" in result.output


def test_each_of_a_thousand_random_single_byte_changes_is_reported_as_a_failure(api, client):
    data = fetch(client, disputed_game(api), "?moves=2")
    assert not failed(check(data))
    rng = random.Random(20261207)
    for _ in range(1000):
        where = rng.randrange(len(data))
        byte = rng.choice([b for b in range(256) if b != data[where]])
        changed = data[:where] + bytes([byte]) + data[where + 1 :]
        assert failed(check(changed)), (where, byte)


def test_a_respelled_body_and_another_spelling_of_the_signature_are_changes_too(api, client):
    """JSON that reads back equal (white space, escapes) and base64 whose spare bits differ
    decode to the same values: the file's bytes are what is signed, so each fails."""
    data = fetch(client, disputed_game(api))
    header, line, last, _ = data.split(b"\n")
    spaced = line.replace(b'","', b'", "', 1)
    assert json.loads(spaced) == json.loads(line)
    assert verdicts(check(b"\n".join([header, spaced, last, b""])))["form"] is False
    key_id, signature = last.split(b" ")
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    spare = signature[:-1] + bytes([alphabet[alphabet.index(signature[-1]) ^ 1]])  # its last 4 bits are spare
    assert base64.urlsafe_b64decode(spare + b"==") == base64.urlsafe_b64decode(signature + b"==")
    assert verdicts(check(b"\n".join([header, line, key_id + b" " + spare, b""])))["signature"] is False
    assert verdicts(check(data + b"\n"))["form"] is False


def test_a_dossier_signed_with_another_key_fails_against_the_services_key(api, client):
    data = fetch(client, disputed_game(api))
    served = client.get("/api/keys/public").get_json()["public_key"]
    stranger = SigningKey(Ed25519PrivateKey.generate())
    body = body_of(data)
    body["key"] = {
        "algorithm": "Ed25519",
        "key_id": stranger.key_id,
        "public_key": stranger.public_json()["public_key"],
    }
    forged = dossier.sign(stranger, body)
    assert verdicts(check(forged, served))["signature"] is False
    assert verdicts(check(forged))["signature"] is True  # without the service's key: self-consistent only


def test_an_event_of_a_type_this_reader_does_not_know_is_held_by_the_chain_and_the_signature(api, client, app):
    """Confirmations and disputes will be events: a reader that predates them still checks
    that they are part of the signed chain, and names them."""
    data = fetch(client, disputed_game(api))
    body = body_of(data)
    last = body["events"][-1]
    payload = canonical_json({"by": "north", "seq": 6})
    head = (last["seq"], last["hash"])
    ((seq, prev_hash, digest),) = new_links(
        body["game_id"], head, [("dispute_raised", payload)], last["recorded_at"], "north"
    )
    body["events"].append(
        {
            **last,
            "seq": seq,
            "type": "dispute_raised",
            "payload": json.loads(payload),
            "prev_hash": prev_hash,
            "hash": digest,
            "recorded_by": "north",
        }
    )
    body["checkpoint"] = None
    key = SigningKey.load(app.config["DATABASE"] + ".ed25519")
    findings = {f.part: f for f in check(dossier.sign(key, body))}
    assert all(f.ok for f in findings.values()), findings
    assert f"not known to this reader: {seq} dispute_raised" in findings["replay"].detail
    body["events"][-1]["payload"]["seq"] = 5  # the unknown event changed and the file signed again
    assert findings and verdicts(check(dossier.sign(key, body)))["chain"] is False


def test_a_dossiers_what_ifs_and_claims_are_their_endpoints_reports_and_are_derived_again(api, client):
    game = disputed_game(api)
    after_two = api.state(game, at=3)["position_text"]  # stood after event 3 (f1, a2), and again once e1 was withdrawn
    data = fetch(client, game, "?what_if=mazagebh_no_return=false&claim=" + quote(after_two))
    body = body_of(data)
    (what_if,) = body["what_ifs"]
    expected = client.post(f"/api/games/{game}/what-if", json={"options": {"mazagebh_no_return": False}}).get_json()
    assert what_if["options"] == {"mazagebh_no_return": False}
    assert what_if["report"]["what_if_options"] == expected["what_if_options"] == {"mazagebh_no_return": False}
    (claim,) = body["claims"]
    assert claim["report"]["stood"] is True and [m["seq"] for m in claim["report"]["matches"]] == [3, 5]
    assert not failed(check(data))
    forged = {**body, "claims": [{**claim, "report": {**claim["report"], "stood": False}}]}
    key = SigningKey.load(client.application.config["DATABASE"] + ".ed25519")
    assert verdicts(check(dossier.sign(key, forged))) == {part: part != "claims" for part in PARTS}


def test_a_dossiers_what_if_or_claim_that_is_not_one_is_refused_with_422(api, client):
    game = disputed_game(api)
    for query in (
        "what_if=nonsense",
        "what_if=no_such_option=1",
        "claim=4,4",
        "what_if=" + "&what_if=".join(["a=1"] * 5),
    ):
        fetch(client, game, "?" + query, expect=422)


def test_a_dossier_asks_for_at_most_sixteen_moves_of_the_game_it_has(api, client):
    game = disputed_game(api)
    fetch(client, game, "?moves=" + ",".join(["2"] * 17), expect=422)
    fetch(client, game, "?moves=2,x", expect=422)
    fetch(client, game, "?moves=2%0A", expect=422)
    fetch(client, game, "?moves=99", expect=404)
    fetch(client, "nope", expect=404)


def test_a_forged_file_whose_values_are_not_what_the_service_writes_is_reported_part_by_part_never_a_crash():
    def forged(body: dict) -> bytes:
        return b"mancala-dossier/1\n" + canonical_json(body).encode() + b"\nx y\n"

    key = {"key_id": "x", "public_key": "AAAA"}
    odd_line = {"game_id": 1, "seq": "1", "type": None, "payload": [], "recorded_at": 2, "recorded_by": 3}
    odd_setup = {"game_id": "g", "seq": 1, "type": "game_created", "payload": {}, "recorded_at": "t"}
    cases = [
        b"",
        b"\xff" * 10,
        b"mancala-dossier/1\n" + b"[" * 100_000 + b"\nx y\n",  # deeper than the parser goes
        forged(
            {
                "format": "mancala-dossier/1",
                "game_id": "g",
                "key": key,
                "events": [{**odd_line, "prev_hash": 4, "hash": 5}],
            }
        ),
        forged(
            {
                "format": "mancala-dossier/1",
                "game_id": "g",
                "key": key,
                "checkpoint": {"a": 1},
                "traces": [{"seq": "x"}],
                "what_ifs": [1],
                "claims": "zz",
                "events": [{**odd_setup, "recorded_by": None, "prev_hash": "0" * 64, "hash": "0"}],
            }
        ),
    ]
    for data in cases:
        findings = check(data)
        assert failed(findings) and findings[0].part == "form"
        assert [f.part for f in findings] in (["form"], list(PARTS))
