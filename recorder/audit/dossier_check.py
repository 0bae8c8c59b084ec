"""Checking an appeal dossier (``recorder.audit.dossier``) with no database.

Each part is checked on its own and reported in one line, so a committee sees what holds
and what does not: the file's form, the signature over its exact bytes, the hash chain
(``chain``: every hash and link), the replay (every event decided again, as ``recorder
verify`` does), the final position and result, the clock readings, the traces, what-ifs
and claims (each derived again and compared), and the checkpoint. Events of a type this
reader does not know are held by the chain and the signature, and named, not replayed.

Pure: the standard library and the project's rules, core and audit views. The Ed25519
check is passed in (``verify``): by default the ``cryptography`` package's, as checkpoints
are checked; on a device, the browser's own (``check_json``: Pyodide has no such package).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from types import SimpleNamespace
from typing import Any

from recorder.core.chain import LINE_FIELDS, canonical_json, parse_json
from recorder.core.events import EVENT_TYPES

from . import signed_text
from .dossier_body import FORMAT, derived, plain
from .verify import chain_break, replay_break

# Whether a signature (raw bytes) is a public key's (raw 32 bytes) over a message.
Verify = Callable[[bytes, bytes, bytes], bool]

PARTS = (
    "form",
    "signature",
    "chain",
    "replay",
    "final",
    "clocks",
    "traces",
    "what_ifs",
    "claims",
    "signoffs",
    "checkpoint",
)


@dataclass(frozen=True)
class Finding:
    """One part's verdict: ``ok`` and why, in one line."""

    part: str
    ok: bool
    detail: str


def ed25519_verify(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """The ``cryptography`` package's Ed25519 check (imported here: a device has none)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def check(data: bytes, trusted_key: str | None = None, verify: Verify = ed25519_verify) -> list[Finding]:
    """Every part's finding; ``trusted_key``: the service's public key (standard base64),
    else the key the dossier names is only reported."""
    body, problem = _read(data)
    if body is None:
        return [Finding("form", False, problem or "not a dossier")]
    findings = [Finding("form", True, f"{FORMAT}, game {body['game_id']}, {len(body['events'])} events")]
    findings += _guarded(("signature",), lambda: [_signature(data, body, trusted_key, verify)])
    events = [SimpleNamespace(**line) for line in body["events"]]
    findings += _guarded(("chain", "replay"), lambda: _record(body, events))
    findings += _derived(body, events)
    findings += _guarded(("checkpoint",), lambda: [_checkpoint(body, events, verify)])
    return findings


def _guarded(parts: tuple[str, ...], work: Callable[[], list[Finding]]) -> list[Finding]:
    """The parts' findings, or each failed when a forged file's values break the check
    itself (a field of another type than the service writes): reported, never a crash."""
    try:
        return work()
    except Exception as error:
        return [Finding(part, False, f"cannot be checked: {type(error).__name__}: {error}") for part in parts]


def check_json(request: str) -> str:
    """A device's check, in two rounds, since its Ed25519 check (the browser's) cannot be
    called from here: ``{"file": <base64>, "public_key"?}`` answers ``{"verify": [[key,
    signature, message], ...]}`` (each base64), the signatures to check; the same request
    with ``"verified": [true|false, ...]`` (in that order) answers ``{"findings": [...]}``."""
    asked = json.loads(request)
    data = base64.b64decode(asked["file"])
    wanted: list[list[str]] = []

    def ask(public_key: bytes, signature: bytes, message: bytes) -> bool:
        wanted.append([base64.b64encode(part).decode() for part in (public_key, signature, message)])
        return False

    if "verified" not in asked:
        check(data, asked.get("public_key"), ask)
        return json.dumps({"verify": wanted})
    answers = iter(asked["verified"])
    findings = check(data, asked.get("public_key"), lambda *signed: bool(next(answers, False)))
    return json.dumps({"findings": [asdict(finding) for finding in findings]}, ensure_ascii=False)


def failed(findings: list[Finding]) -> bool:
    return not all(finding.ok for finding in findings)


# -- The file's form ------------------------------------------------------------------


def _read(data: bytes) -> tuple[dict | None, str | None]:
    """The body of a well-formed dossier, or why the file is not one."""
    lines = data.split(b"\n")
    if len(lines) != 4 or lines[3] != b"" or lines[0] != FORMAT.encode():
        return None, f"not a {FORMAT} file: three lines, the first {FORMAT}"
    try:
        text = lines[1].decode("utf-8")
        body = parse_json(text)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None, f"the body is not JSON: {error}"
    if not isinstance(body, dict) or canonical_json(body) != text:
        return None, "the body is not one object in canonical JSON (sorted keys, no spaces)"
    shape = _shape_problem(body)
    return (None, shape) if shape else (body, None)


def _shape_problem(body: dict) -> str | None:
    if body.get("format") != FORMAT or not isinstance(body.get("game_id"), str):
        return f"the body does not say {FORMAT} and its game"
    key = body.get("key")
    if (
        not isinstance(key, dict)
        or not isinstance(key.get("public_key"), str)
        or not isinstance(key.get("key_id"), str)
    ):
        return "the body names no public key"
    events = body.get("events")
    if not isinstance(events, list) or not events:
        return "the body holds no events"
    if not all(isinstance(line, dict) and sorted(line) == sorted(LINE_FIELDS) for line in events):
        return f"an event is not a stored line ({', '.join(LINE_FIELDS)})"
    return None


# -- The signature --------------------------------------------------------------------


def _signature(data: bytes, body: dict, trusted_key: str | None, verify: Verify) -> Finding:
    signed, _, last = data.rpartition(b"\n")[0].rpartition(b"\n")
    problem = _signature_problem(signed + b"\n", last, body["key"], trusted_key, verify)
    if problem:
        return Finding("signature", False, problem)
    whose = (
        "the given public key" if trusted_key else "the key the dossier names (compare it with GET /api/keys/public)"
    )
    return Finding("signature", True, f"signed by key {body['key']['key_id']}, {whose}")


def _signature_problem(signed: bytes, last: bytes, key: dict, trusted_key: str | None, verify: Verify) -> str | None:
    raw = _base64(key["public_key"], base64.b64decode, b64=True)
    if raw is None or len(raw) != 32:
        return "the public key is not 32 bytes of standard base64"
    if hashlib.sha256(raw).hexdigest()[:16] != key["key_id"]:
        return "the key id is not the public key's"
    if trusted_key is not None and key["public_key"] != trusted_key:
        return f"signed with key {key['key_id']}, not the given public key"
    words = last.decode("utf-8", "replace").split(" ")
    if len(words) != 2 or words[0] != key["key_id"]:
        return "the last line is not the key id and the signature"
    signature = _base64(words[1], base64.urlsafe_b64decode, b64=False)
    if signature is None:
        return "the signature is not base64url as the service writes it"
    if not verify(raw, signature, signed):
        return "the signature does not match: the dossier was altered or forged"
    return None


def _base64(text: str, decode, *, b64: bool) -> bytes | None:
    """The bytes of a base64 text spelled exactly as it is written (padding and spare bits
    included): another spelling of the same bytes is a changed byte too."""
    padded = text if b64 else text + "=" * (-len(text) % 4)
    try:
        raw = decode(padded)
    except (binascii.Error, ValueError):
        return None
    again = base64.b64encode(raw).decode() if b64 else signed_text.b64url(raw)
    return raw if again == text else None


# -- The record -----------------------------------------------------------------------


def _record(body: dict, events: list[Any]) -> list[Finding]:
    broken = chain_break(events)
    chain = Finding("chain", broken is None, _chain_detail(broken, events))
    known = [e for e in events if e.type in EVENT_TYPES]
    unknown = [f"{e.seq} {e.type}" for e in events if e.type not in EVENT_TYPES]
    problem, game = replay_break(body["game_id"], known)
    detail = problem["detail"] if problem else f"{len(known)} events decided again as recorded"
    if unknown and not problem:
        detail += f"; held by the chain, not known to this reader: {', '.join(unknown)}"
    return [
        chain,
        Finding(
            "replay", problem is None and game is not None, f"event {problem['seq']}: {detail}" if problem else detail
        ),
    ]


def _chain_detail(broken: dict | None, events: list[Any]) -> str:
    if broken is not None:
        return f"event {broken['seq']}: {broken['detail']}"
    return f"{len(events)} links recompute, head {events[-1].hash}"


# -- What is derived from the record ------------------------------------------------------


def _derived(body: dict, events: list[Any]) -> list[Finding]:
    """Each derived part built again from the events and compared with the body's."""
    try:
        moves = [trace["seq"] for trace in body.get("traces") or []]
        what_ifs = [w["options"] for w in body.get("what_ifs") or []]
        claimed = [c["position"] for c in body.get("claims") or []]
        again = derived(body["game_id"], events, moves, what_ifs, claimed)
    except Exception as error:  # a dossier must be reported on, never crash its check
        detail = f"cannot be derived again: {type(error).__name__}: {error}"
        parts = ("final", "clocks", "traces", "what_ifs", "claims", "signoffs")
        return [Finding(part, False, detail) for part in parts]
    setup_ok = body.get("setup") == again["setup"]
    final = _compare("final", body, again, "final", "the final position and result")
    if not setup_ok:
        final = Finding("final", False, "the setup is not the first event's")
    return [
        final,
        _compare("clocks", body, again, "clock_readings", "clock readings"),
        _compare("traces", body, again, "traces", "traces"),
        _compare("what_ifs", body, again, "what_ifs", "what-ifs"),
        _compare("claims", body, again, "claims", "claims"),
        _signoffs(body, again),
    ]


def _signoffs(body: dict, again: dict) -> Finding:
    """The players' confirmations, disputes and decisions, as their events give them."""
    if body.get("signoffs") != again["signoffs"]:
        return Finding("signoffs", False, "the confirmations, disputes and decisions are not what the events give")
    found = again["signoffs"] or {}
    counts = f"{len(found.get('confirmations', []))} confirmations, {len(found.get('disputes', []))} disputes"
    return Finding("signoffs", True, f"{counts} derived again; confirmed by {found.get('confirmed_by') or 'nobody'}")


def _compare(part: str, body: dict, again: dict, field: str, what: str) -> Finding:
    if body.get(field) != again[field]:
        return Finding(part, False, f"the {what} are not what the events give")
    value = again[field]
    return Finding(
        part, True, f"{len(value)} {what} derived again" if isinstance(value, list) else f"{what} derived again"
    )


# -- The checkpoint -------------------------------------------------------------------


def _checkpoint(body: dict, events: list[Any], verify: Verify) -> Finding:
    cp = body.get("checkpoint")
    if cp is None:
        return Finding("checkpoint", True, "none: the game is not finished")
    try:
        problem = _checkpoint_problem(body, cp, events, verify)
    except (KeyError, TypeError, ValueError) as error:
        problem = f"not a checkpoint: {type(error).__name__}: {error}"
    return Finding("checkpoint", problem is None, problem or cp["text"])


def _checkpoint_problem(body: dict, cp: dict, events: list[Any], verify: Verify) -> str | None:
    if cp["key_id"] != body["key"]["key_id"] or cp["game_id"] != body["game_id"]:
        return "the checkpoint is another key's or another game's"
    signature = _base64(cp["signature"], base64.urlsafe_b64decode, b64=False)
    message = signed_text.message(cp["game_id"], cp["version"], cp["head_hash"], cp["result"])
    raw = base64.b64decode(body["key"]["public_key"])
    if signature is None or not verify(raw, signature, message):
        return "the checkpoint's signature does not match"
    if not 1 <= cp["version"] <= len(events) or events[cp["version"] - 1].hash != cp["head_hash"]:
        return "the signed head hash is not the event's at its version"
    if cp["text"] != signed_text.checkpoint_text(cp) or plain(cp["result"]) != (body.get("final") or {}).get("result"):
        return "the checkpoint's text or result is not the record's"
    return None
