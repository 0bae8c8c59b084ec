"""The rules in the browser, from the service's side (recorder/web/runtime.py): the zip of
the pure rules runs alone, with nothing but the standard library; the fold of a queue
gives the API's states; the runtime's addresses serve only Pyodide's named files; the
game page alone may compile WebAssembly; a tarball that is not the pinned one is refused.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import os
import stat
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from browser import fixture_game, record
from conftest import make_app

from recorder.audit.dossier_check import PARTS, ed25519_verify
from recorder.core.queued import fold_queue
from recorder.web import runtime


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path / "runtime.sqlite3").test_client()


def test_the_rules_zip_holds_the_pure_packages_and_nothing_else():
    data, digest = runtime.rules_archive()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert {name.split("/")[1] for name in names if name.count("/") == 2} == {"rules", "core", "engine", "audit"}
    audit = {name.split("/")[2] for name in names if name.startswith("recorder/audit/")}
    assert audit == {
        f"{name}.py" for name in ("__init__", "claims", "dossier_body", "dossier_check", "signed_text")
    } | {
        "trace.py",
        "verify.py",
        "whatif.py",
    }  # the dossier's check and the views it derives again; no key, no store, no walk
    assert {name for name in names if name.count("/") == 1} == {"recorder/__init__.py", "recorder/errors.py"}
    assert "recorder/engine/__init__.py" in names and not any("build" in name or "auto" in name for name in names)
    assert runtime.rules_archive() == (data, digest)  # the same bytes each time: the address names them


def test_the_rules_zip_runs_alone_with_the_standard_library_only(tmp_path, client):
    """What the page runs: the zip's modules, imported from the zip itself in an isolated
    interpreter with no site-packages, fold a queue to the states the API gives."""
    game = fixture_game("tuz-end-turn-seed1.json")
    game_id = record(client, game["setup"], game["commands"][:30])
    events = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    queued = game["commands"][30:50]
    (tmp_path / "rules.zip").write_bytes(runtime.rules_archive()[0])
    (tmp_path / "request.json").write_text(json.dumps({"events": events, "commands": queued}))
    script = (
        "import json, os, sys\n"
        "os.environ['RECORDER_ENGINE'] = 'python'\n"
        "sys.path.insert(0, 'rules.zip')\n"
        "from recorder.core.queued import fold_queue_json\n"
        "answer = fold_queue_json(open('request.json').read())\n"
        "roots = {name.split('.')[0] for name in sys.modules}\n"
        "ours = {'recorder', '__main__'} | set(sys.stdlib_module_names) | set(sys.builtin_module_names)\n"
        "others = sorted(roots - ours)\n"
        "loaded_from = sys.modules['recorder'].__file__\n"
        "print(json.dumps({'answer': json.loads(answer), 'others': others, 'from': loaded_from}))\n"
    )
    done = subprocess.run([sys.executable, "-I", "-S", "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ran = json.loads(done.stdout)
    assert ran["others"] == [] and ran["from"].startswith("rules.zip")  # the standard library and the zip only
    assert ran["answer"]["refused"] is None
    recorded = record(client, game["setup"], game["commands"][:50])  # the same moves, on the server
    server = [client.get(f"/api/games/{recorded}/state?at={32 + k}").get_json() for k in range(len(queued))]
    for state in server:
        del state["position_text"]  # the API's text picture; the page draws the board itself
    assert ran["answer"]["states"] == server


def test_the_zips_dossier_check_runs_alone_and_asks_the_device_for_each_signature(tmp_path, client):
    """The page's check of a dossier file: the zip's dossier_check in an isolated interpreter
    with no site-packages asks for the signatures to check (the browser checks them), then
    reports every part; a changed byte fails, as on the command line."""
    game = client.post("/api/games", json={"variant": "qelat", "south": "A", "north": "B", "first_player": "south"})
    game_id = game.get_json()["id"]
    for command in ({"type": "sow", "hole": "f1"}, {"type": "result", "kind": "resignation", "winner": "south"}):
        version = client.get(f"/api/games/{game_id}").headers["ETag"]
        assert (
            client.post(f"/api/games/{game_id}/commands", json=command, headers={"If-Match": version}).status_code
            == 201
        )
    response = client.get(f"/api/games/{game_id}/dossier?moves=2")
    assert response.status_code == 200, response.get_json()
    data = response.get_data()
    (tmp_path / "rules.zip").write_bytes(runtime.rules_archive()[0])
    script = (
        "import json, os, sys\n"
        "os.environ['RECORDER_ENGINE'] = 'python'\n"
        "sys.path.insert(0, 'rules.zip')\n"
        "from recorder.audit.dossier_check import check_json\n"
        "answer = check_json(sys.stdin.read())\n"
        "roots = {name.split('.')[0] for name in sys.modules}\n"
        "ours = {'recorder', '__main__'} | set(sys.stdlib_module_names) | set(sys.builtin_module_names)\n"
        "print(json.dumps({'answer': json.loads(answer), 'others': sorted(roots - ours)}))\n"
    )

    def device(request: dict) -> dict:
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-c", script],
            cwd=tmp_path,
            input=json.dumps(request),
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        ran = json.loads(done.stdout)
        assert ran["others"] == []  # the standard library and the zip only
        return ran["answer"]

    def browser_checks(asked: list) -> list[bool]:  # what the page asks of WebCrypto
        return [ed25519_verify(*(base64.b64decode(part) for part in triple)) for triple in asked]

    for changed, expected in ((data, True), (data.replace(b'"hole":"f1"', b'"hole":"e1"'), False)):
        request = {"file": base64.b64encode(changed).decode()}
        asked = device(request)["verify"]
        assert len(asked) == 2  # the file's signature and its checkpoint's
        findings = device({**request, "verified": browser_checks(asked)})["findings"]
        assert [f["part"] for f in findings] == list(PARTS)
        assert all(f["ok"] for f in findings) is expected
    assert [f["ok"] for f in findings if f["part"] in ("signature", "chain")] == [False, False]


def test_the_fold_stops_at_the_first_queued_command_the_rules_refuse(client):
    game = fixture_game("qelat-default.json")
    game_id = record(client, game["setup"], game["commands"][:4])
    events = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    twin = record(client, game["setup"], game["commands"][:5])  # the server, one move on
    state = client.get(f"/api/games/{twin}/state").get_json()
    illegal = next(hole for hole in state["holes"] if hole not in state["legal_moves"])
    answer = fold_queue(events, [game["commands"][4], {"type": "sow", "hole": illegal}, game["commands"][5]])
    assert len(answer["states"]) == 1
    assert answer["refused"]["index"] == 1 and answer["refused"]["title"] == "Illegal move"
    refused = client.post(f"/api/games/{twin}/commands", json={"type": "sow", "hole": illegal, "expected_version": 6})
    assert refused.status_code == 422 and refused.get_json()["detail"] == answer["refused"]["detail"]


def test_the_runtime_addresses_serve_only_pyodides_named_files(client, monkeypatch, tmp_path):
    folder = tmp_path / "pyodide"
    folder.mkdir()
    for name in runtime.PYODIDE_FILES:
        (folder / name).write_bytes(b"\0asm" if name.endswith(".wasm") else b"x")
    (folder / "pyodide.asm.wasm.gz").write_bytes(gzip.compress(b"\0asm"))
    (tmp_path / "secret.txt").write_text("not for the web")
    (folder / "package.json").write_text("{}")
    monkeypatch.setenv("RECORDER_PYODIDE_DIR", str(folder))
    base = f"/web-runtime/pyodide-{runtime.PYODIDE_VERSION}"

    with client.get(f"{base}/pyodide.asm.wasm") as wasm:
        assert wasm.status_code == 200 and wasm.mimetype == "application/wasm" and wasm.data == b"\0asm"
        assert "immutable" in wasm.headers["Cache-Control"]
    with client.get(f"{base}/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip, br"}) as packed:
        assert packed.headers["Content-Encoding"] == "gzip" and gzip.decompress(packed.data) == b"\0asm"
        assert packed.mimetype == "application/wasm" and "Accept-Encoding" in packed.headers["Vary"]
    with client.get(f"{base}/pyodide.mjs") as module:
        assert module.mimetype == "text/javascript"
    for path in (
        f"{base}/package.json",
        f"{base}/../secret.txt",
        f"{base}/%2e%2e%2fsecret.txt",
        "/web-runtime/pyodide-0.0.1/pyodide.mjs",
        f"{base}/",
    ):
        assert client.get(path).status_code == 404, path
    data, digest = runtime.rules_archive()
    assert client.get(f"/web-runtime/rules-{digest}.zip").data == data
    assert client.get("/web-runtime/rules-0000000000000000.zip").status_code == 404


def test_only_the_recording_page_and_its_worker_may_compile_webassembly(client, monkeypatch, tmp_path):
    monkeypatch.setenv("RECORDER_PYODIDE_DIR", str(tmp_path / "absent"))
    game_id = record(client, fixture_game("qelat-default.json")["setup"], [])
    page = client.get(f"/games/{game_id}")
    assert "'wasm-unsafe-eval'" in page.headers["Content-Security-Policy"]
    assert "'unsafe-eval'" not in page.headers["Content-Security-Policy"].replace("'wasm-unsafe-eval'", "")
    with client.get("/web-static/js/rules-worker.js") as worker:
        assert "'wasm-unsafe-eval'" in worker.headers["Content-Security-Policy"]
    for other in ("/", f"/games/{game_id}/watch", "/web-static/js/game.js"):
        with client.get(other) as response:
            assert "wasm-unsafe-eval" not in response.headers["Content-Security-Policy"], other
    # Without Pyodide on the service the page is told so (no runtime address): it says it.
    assert 'data-rules-runtime=""' in page.get_data(as_text=True)


def test_a_tarball_that_is_not_the_pinned_pyodide_is_refused_and_nothing_is_installed(tmp_path):
    """npm (or a mirror behind it) hands over another package under the same name: the
    integrity pinned in the code refuses it before a byte is unpacked."""
    fake = tmp_path / "package" / "pyodide.mjs"
    fake.parent.mkdir()
    fake.write_text("export const loadPyodide = () => { /* not pyodide */ };")
    npm = tmp_path / "npm"
    tarball = tmp_path / "pyodide-impostor.tgz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(fake.parent, arcname="package")
    npm.write_text(f'#!/bin/sh\n# npm pack NAME --pack-destination DIR --silent\ncp {tarball} "$4"/\n')
    npm.chmod(npm.stat().st_mode | stat.S_IXUSR)
    target = tmp_path / "cache" / "pyodide"
    with pytest.raises(runtime.RuntimeUnavailable, match="not pyodide@"):
        runtime.fetch_runtime(print, folder=target, npm=str(npm))
    assert not target.exists()
    assert os.listdir(target.parent) == []  # the scratch folder went too


def test_without_npm_the_runtime_is_said_to_be_unavailable(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("RECORDER_PYODIDE_DIR", str(tmp_path / "pyodide"))
    said: list[str] = []
    assert runtime.ensure_runtime(said.append) is False
    assert said[-1].startswith("offline rules: not available (npm is not installed")
    assert not Path(tmp_path / "pyodide").exists()


def test_a_first_start_without_npm_says_so_in_one_line_and_serves_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("RECORDER_PYODIDE_DIR", str(tmp_path / "cache" / "pyodide"))
    said: list[str] = []
    fetching = runtime.ensure_runtime_in_background(said.append)
    assert fetching is not None  # the service does not wait for it
    fetching.join(timeout=30)
    assert len(said) == 2 and said[1].startswith("offline rules: not available (npm is not installed")


def test_a_fetch_cut_short_is_cleared_by_the_next_one(tmp_path):
    parent = tmp_path / "pyodide"
    stale = parent / f"{runtime.SCRATCH}cut-short"
    stale.mkdir(parents=True)
    (stale / "pyodide.asm.wasm").write_bytes(b"half")
    old = os.stat(stale).st_mtime - runtime.STALE_SCRATCH_S - 1
    os.utime(stale, (old, old))
    fresh = parent / f"{runtime.SCRATCH}running"
    fresh.mkdir()
    runtime.forget_stale_fetches(parent)
    assert not stale.exists() and fresh.exists()  # another start's fetch, still under way, is left alone


TIMED = {"time_control": {"stages": [{"base_ms": 60_000, "increment_ms": 1_000}]}}
READING = {"south": 51_000, "north": 48_250}


def clocked_queues(first: str, second: str) -> dict[str, list[dict]]:
    """Queues of clocked commands after a game's first moves; ``first`` and ``second`` are
    the next two sowings. ACCEPTED says how many of each stand, with a time control and without."""
    sow = {"type": "sow", "hole": first, "clock": READING}
    pause = {"type": "pause_clocks", "clock": READING}
    resume = {"type": "resume_clocks"}
    on_time = {"type": "result", "kind": "time", "winner": "north", "clock": {"south": 0, "north": 48_250}}
    return {
        "sowings with readings, a pause, a resume": [
            sow,
            pause,
            resume,
            {"type": "sow", "hole": second, "clock": READING},
        ],
        "a pause while paused": [pause, pause],
        "a pause without its reading": [{"type": "pause_clocks"}],
        "a resume while running": [sow, resume],
        "a resume with a new reading": [pause, {**resume, "clock": {"south": 50_000, "north": 50_000}}],
        "a reading below zero": [{**sow, "clock": {"south": -1, "north": 0}}],
        "a reading in fractions": [{**sow, "clock": {"south": 1.5, "north": 0}}],
        "a reading with a third clock": [{**sow, "clock": {**READING, "east": 0}}],
        "a reading of null": [{**sow, "clock": None}],
        "the time result, then a pause": [sow, on_time, pause],
        "a draw on time, then a sowing": [{"type": "result", "kind": "time", "winner": None}, sow],
        "a pause while paused, then moves": [pause, sow, pause],
    }


ACCEPTED = {  # name: (with a time control, without)
    "sowings with readings, a pause, a resume": (4, 1),
    "a pause while paused": (1, 0),
    "a pause without its reading": (0, 0),
    "a resume while running": (1, 1),
    "a resume with a new reading": (2, 0),
    "a reading below zero": (0, 0),
    "a reading in fractions": (0, 0),
    "a reading with a third clock": (0, 0),
    "a reading of null": (0, 0),
    "the time result, then a pause": (2, 2),
    "a draw on time, then a sowing": (1, 1),
    "a pause while paused, then moves": (2, 0),
}


@pytest.mark.parametrize("timed", [True, False], ids=["with a time control", "without"])
def test_the_rules_on_the_device_judge_clocked_events_and_the_time_result_as_the_server_does(client, timed):
    """What the page queues offline with the device clock (readings, pauses, the `time`
    result) is accepted or refused by its rules exactly where the server accepts or
    refuses it, with the same states after each."""
    game = fixture_game("qelat-default.json")
    setup = {**game["setup"], **(TIMED if timed else {})}
    game_id = record(client, setup, game["commands"][:4])
    events = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    first, second = game["commands"][4]["hole"], game["commands"][5]["hole"]
    for name, queue in clocked_queues(first, second).items():
        answer = fold_queue(events, queue)
        twin = record(client, setup, game["commands"][:4])
        version, states = 5, []
        for command in queue:
            posted = client.post(f"/api/games/{twin}/commands", json={**command, "expected_version": version})
            if posted.status_code != 201:
                break
            version = posted.get_json()["version"]
            states.append(posted.get_json()["state"])
        refused = answer["refused"]
        assert len(states) == ACCEPTED[name][0 if timed else 1], (name, posted.get_json())
        assert len(answer["states"]) == len(states), (name, refused, posted.get_json())
        assert [strip(state) for state in answer["states"]] == [strip(state) for state in states], name
        if len(states) == len(queue):
            assert refused is None, (name, refused)
        else:
            problem = posted.get_json()
            # Refused at the same command; the server may name it at its edge (an invalid body).
            assert posted.status_code == 422 and refused["index"] == len(states), (name, problem, refused)


def strip(state: dict) -> dict:
    return {key: value for key, value in state.items() if key != "position_text"}
