"""Auditing commands of the ``recorder`` CLI: trace, verify, checkpoint, public-key, what-if.

Registered on the ``recorder`` group by ``recorder/cli/main.py``. Nothing here imports the
CLI module at load time, so either module can be imported first.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator

import click

from recorder.app import database_path
from recorder.audit.walk import Checked, WorkerFailed
from recorder.core.names import printable
from recorder.errors import RecorderError

from .common import DB_OPTION as DB
from .common import fail, pace

KEY = click.option(
    "--key", "key", default=None, help="Signing key file (default: $RECORDER_KEY_FILE or <database>.ed25519)."
)


def _recorder(db):
    """Every audit command reads what is stored: a database that is not there is refused."""
    from .common import make_recorder

    return make_recorder(db, existing=True)


def _signing_key(db, key):
    from recorder.audit.checkpoints import SigningKey, key_path

    path = key_path(database_path(db), key)
    try:
        return SigningKey.load_or_create(path)
    except (OSError, ValueError) as error:  # a folder, a file that is not a PEM key
        fail(f"cannot use the signing key {path}: {error}")


def _checking_key(db, key, checkpoint: dict):
    """The key a checkpoint is checked with: read, never made. A check changes nothing
    beside the database: a new key there would only say the checkpoint is another key's."""
    from recorder.audit.checkpoints import SigningKey, key_path

    path = key_path(database_path(db), key)
    try:
        return SigningKey.load(path)
    except FileNotFoundError:
        fail(
            f"no signing key at {printable(path)}: the checkpoint was signed with key"
            f" {printable(checkpoint['key_id'])}; give that key's file with --key FILE (or $RECORDER_KEY_FILE)"
            " to check it (recorder public-key --key FILE prints a file's key id); no key was made"
        )
    except (OSError, ValueError) as error:  # a folder, a file that is not a PEM key
        fail(f"cannot use the signing key {printable(path)}: {error}")


@click.command()
@click.argument("game_id")
@click.argument("seq", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the whole trace as JSON.")
@DB
def trace(game_id: str, seq: int, as_json: bool, db):
    """Explain event SEQ of a game: every step the engine took, each with its rule id."""
    from recorder.audit.trace import explain

    try:
        explained = explain(game_id, _recorder(db).events(game_id), seq)
    except RecorderError as error:
        fail(error.detail)
    if as_json:
        click.echo(json.dumps(explained, indent=2, ensure_ascii=False))
        return
    click.echo(f"event {seq} of {game_id}: {explained['type']} {json.dumps(explained['payload'], ensure_ascii=False)}")
    if "retracted_by_seq" in explained:
        click.echo(f"  (withdrawn by the retraction at event {explained['retracted_by_seq']})")
    if "retracts" in explained:
        click.echo(f"  withdrew events {', '.join(map(str, explained['retracts']))}")
    for number, step in enumerate(explained["steps"], start=1):
        fields = " ".join(f"{k}={_value(v)}" for k, v in step.items() if k not in ("step", "rule"))
        click.echo(f"  {number:>3}. {step['step']:<14} {step['rule']:<8} {fields}")


def _value(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@click.command()
@click.argument("game_ids", nargs=-1)
@click.option("--checkpoint", "checkpoint_text", default=None, help="A printed checkpoint to check against the record.")
@click.option(
    "--projections",
    is_flag=True,
    help="Instead: check the games list and caches against the events (recorder rebuild).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes verifying a whole archive (default: the CPUs available; 1: in this process).",
)
@click.option(
    "--dossier",
    "dossier_file",
    type=click.File("rb"),
    default=None,
    help="Instead: check an appeal dossier file, with no database (each part in one line).",
)
@click.option(
    "--public-key",
    "public_key_text",
    default=None,
    help="With --dossier: the service's public key (base64, GET /api/keys/public) it must be signed with.",
)
@DB
@KEY
def verify(
    game_ids: tuple[str, ...],
    checkpoint_text,
    projections: bool,
    jobs: int | None,
    dossier_file,
    public_key_text,
    db,
    key,
):
    """Recompute hash chains and replay every event with full validation (no GAME: every
    stream in the events table, games and tournaments alike, in --jobs worker processes).

    Exits with status 1 when any record, or the checkpoint, fails. Ids and details are
    printed escaped, so no stored text can forge a line of this report. The report is
    the same, line for line, whatever the number of jobs.
    """
    if dossier_file is not None:
        _verify_dossier(dossier_file.read(), public_key_text)
    if projections:
        _verify_projections(db)
    from recorder.audit.checkpoints import check, parse_checkpoint
    from recorder.audit.walk import check_named, checked_streams, streams_to_walk
    from recorder.workers import default_jobs

    recorder = _recorder(db)
    failed = False
    if checkpoint_text is not None:
        try:
            checkpoint = parse_checkpoint(checkpoint_text)
            result = check(_checking_key(db, key, checkpoint), checkpoint, recorder.events(checkpoint["game_id"]))
        except RecorderError as error:
            fail(error.detail)
        verdict = "valid" if result["valid"] else "REFUSED"
        click.echo(f"{verdict:<8}checkpoint {printable(checkpoint['game_id'])}: {printable(result['detail'])}")
        failed = not result["valid"]
        if not game_ids:
            sys.exit(1 if failed else 0)
    tally = {"streams": 0, "events": 0, "failed": 0}
    store = recorder.store
    count = len(game_ids) or streams_to_walk(store)
    # A whole archive is read in ranges of streams, a query per range, verified in worker
    # processes (recorder/audit/walk.py); named ids one by one, here.
    checked: Iterator[list[Checked]]
    if game_ids:
        checked = ([check_named(store, stream_id)] for stream_id in game_ids)
    else:
        checked = checked_streams(store, database_path(db), count, jobs or default_jobs())
    started = time.perf_counter()
    try:
        failed |= _print_reports(checked, count, tally)
    except WorkerFailed as error:  # the report so far stands; the rest was not verified
        fail(f"{error}; the streams after the last line printed were not verified")
    failed |= _print_stream_problems(store, game_ids or None, tally)
    failed |= _print_protection_problems(store)
    click.echo(f"verified {tally['streams']} streams, {tally['events']} events: {tally['failed']} failed")
    click.echo(pace(tally["events"], time.perf_counter() - started), err=True)
    sys.exit(1 if failed else 0)


def _verify_dossier(data: bytes, public_key_text: str | None) -> None:
    """Check a dossier file part by part, one line each; status 1 when any part fails."""
    from recorder.audit.dossier_check import check, failed

    findings = check(data, public_key_text)
    for finding in findings:
        verdict = "ok" if finding.ok else "FAILED"
        click.echo(f"{verdict:<8}{finding.part}: {printable(finding.detail)}")
    sys.exit(1 if failed(findings) else 0)


def _print_reports(checked: Iterator[list[Checked]], count: int, tally: dict) -> bool:
    """Print each stream's report line as it comes, with a progress bar (stderr: stdout
    stays the report) and the tally; whether any stream failed."""
    failed = False
    with click.progressbar(length=count, label="verifying", file=sys.stderr) as bar:
        for streams in checked:
            for line, events, ok in streams:
                tally["streams"] += 1
                tally["events"] += events
                tally["failed"] += not ok
                failed |= not ok
                click.echo(line)
            bar.update(len(streams))
    return failed


def _print_stream_problems(store, game_ids: tuple[str, ...] | None, tally: dict) -> bool:
    """The streams table and each stream's recorded head held against the events
    (``walk.stream_problems``): a line per disagreement, counted as a failed stream (an
    emptied one, which the walk did not see, as a stream too), then one for the table;
    whether any was found."""
    from recorder.audit.walk import stream_problems

    problems = 0
    for line in stream_problems(store, game_ids):
        click.echo(line)
        problems += 1
        tally["failed"] += 1
        tally["streams"] += line.startswith("MISSING")
    if game_ids is None:
        streams = store.stream_count()
        verdict = f"{problems} disagree with the events" if problems else "each head as recorded"
        click.echo(f"streams table: {streams} streams, {verdict}")
    return problems > 0


def _print_protection_problems(store) -> bool:
    """The protective triggers (immutable events, heads moving forward): a line for each one
    that was taken away when this check opened the store (the open created it again) and
    for each one missing now, then one for them all; whether any was."""
    lines = [
        f"{'TRIGGER':<8}{problem} when verify opened the store (created again)"
        for problem in store.protections_restored
    ]
    lines += [f"{'TRIGGER':<8}{problem}" for problem in store.missing_protections()]
    for line in lines:
        click.echo(line)
    click.echo(f"protective triggers: {len(lines)} taken away" if lines else "protective triggers: each in place")
    return bool(lines)


def _verify_projections(db) -> None:
    """Every disagreement between a projection and the events, then exit 1 if there was one."""
    from recorder.projections import check

    mismatches = 0
    for mismatch in check(_recorder(db)):
        click.echo(f"MISMATCH {mismatch}")
        mismatches += 1
    repair = "; run recorder rebuild to repair" if mismatches else ""
    click.echo(f"projections: {mismatches} mismatch{'es' * (mismatches != 1)}{repair}")
    sys.exit(1 if mismatches else 0)


@click.command()
@click.argument("game_id")
@DB
@KEY
def checkpoint(game_id: str, db, key):
    """Print a finished game's signed checkpoint, one line for the scoresheet."""
    from recorder.audit.checkpoints import issue

    try:
        events = _recorder(db).events(game_id)  # first: no key is made beside a database that is not there
        click.echo(issue(_signing_key(db, key), game_id, events)["text"])
    except RecorderError as error:
        fail(error.detail)


@click.command("public-key")
@click.option("--pem", is_flag=True, help="Print the PEM form instead of raw base64.")
@DB
@KEY
def public_key(pem: bool, db, key):
    """Print the service's Ed25519 public key (raw base64, or PEM)."""
    described = _signing_key(db, key).public_json()
    click.echo(described["pem"].rstrip() if pem else f"{described['public_key']}  (key id {described['key_id']})")


@click.command("what-if")
@click.argument("game_id")
@click.option("--option", "options", multiple=True, required=True, help="NAME=VALUE; VALUE is JSON or a plain word.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON (as POST /what-if answers).")
@DB
def what_if(game_id: str, options: tuple[str, ...], as_json: bool, db):
    """Replay a game under other option values: the first event whose position differs (both
    boards side by side), the first that becomes illegal, and both outcomes."""
    from recorder.audit.whatif import what_if as replay_what_if
    from recorder.audit.whatif_text import what_if_text
    from recorder.core.events import event_from_record

    chosen = dict(_option(text) for text in options)
    try:
        stored = _recorder(db).events(game_id)
        pairs = [(e.seq, event_from_record(e.type, e.payload)) for e in stored]
        if as_json:
            click.echo(json.dumps(replay_what_if(game_id, pairs, chosen), indent=2, ensure_ascii=False))
        else:
            click.echo(what_if_text(game_id, pairs, chosen), nl=False)
    except RecorderError as error:
        fail(error.detail)


def _option(text: str) -> tuple[str, object]:
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


COMMANDS = (trace, verify, checkpoint, public_key, what_if)
