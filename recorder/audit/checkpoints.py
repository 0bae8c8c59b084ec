"""Signed checkpoints: a finished game's head hash and version, signed with Ed25519.

An arbiter prints the checkpoint on the scoresheet. Later anyone can check it: the
signature against the service's public key (``GET /api/keys/public``), and the signed
head hash against the stored record. Because every event's hash covers the previous
one (``chain``), a matching head hash vouches for every event up to it. Ed25519
signatures are deterministic, so a checkpoint is computed on demand, never stored.

The signed message is ``"mancala-checkpoint/1\\n"`` followed by the canonical JSON of
``{game_id, version, head_hash, result}``. The printable form is one line::

    mancala-checkpoint/1 game=<id> version=<n> result=<result> head=<sha256 hex> key=<key id> sig=<base64url>

The private key is a PKCS#8 PEM file, created with mode 0600 on first use: ``RECORDER_KEY``
in the app config, else ``$RECORDER_KEY_FILE``, else ``<database>.ed25519``. The crypto is
the ``cryptography`` package's; nothing here is home-made.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import tempfile
from collections.abc import Sequence
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from recorder.errors import InvalidRecord, NotFound, RecordBroken, Unavailable
from recorder.rules.values import is_whole_number

from .signed_text import PREFIX, TEXT_FIELDS, checkpoint_text, message
from .signed_text import b64url as _b64url
from .verify import verify_record


def key_path(database: str, configured: str | None = None) -> str:
    """Where the signing key lives: configured, else $RECORDER_KEY_FILE, else next to the database file."""
    path = configured or os.environ.get("RECORDER_KEY_FILE")
    if path is None and database.startswith(("postgresql://", "postgres://")):
        # No file to sit beside, and every app server must sign with the same key.
        raise Unavailable("checkpoints on PostgreSQL need RECORDER_KEY_FILE (the same key file on every app server)")
    return path or f"{database}.ed25519"


class SigningKey:
    """The service's Ed25519 key pair."""

    def __init__(self, private_key: Ed25519PrivateKey):
        self._private = private_key
        self.public = private_key.public_key()
        self.public_raw = self.public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.key_id = hashlib.sha256(self.public_raw).hexdigest()[:16]

    @classmethod
    def load_or_create(cls, path: str) -> SigningKey:
        """The key in ``path``, made there first when there is none (the service's own key)."""
        if not os.path.exists(path):
            _create_key_file(path)
        return cls.load(path)

    @classmethod
    def load(cls, path: str) -> SigningKey:
        """The key in ``path``; FileNotFoundError when there is none (a check makes no key)."""
        with open(path, "rb") as handle:
            key = serialization.load_pem_private_key(handle.read(), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{path} does not hold an Ed25519 private key")
        return cls(key)

    def public_json(self) -> dict:
        """The public key as raw base64 (32 bytes) and as SubjectPublicKeyInfo PEM."""
        pem = self.public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        return {
            "algorithm": "Ed25519",
            "key_id": self.key_id,
            "public_key": base64.b64encode(self.public_raw).decode("ascii"),
            "pem": pem.decode("ascii"),
        }

    def sign(self, message: bytes) -> bytes:
        return self._private.sign(message)

    def is_valid(self, signature: bytes, message: bytes) -> bool:
        try:
            self.public.verify(signature, message)
        except InvalidSignature:
            return False
        return True


def _create_key_file(path: str) -> None:
    """Write a new key with mode 0600, atomically: a racing process keeps whichever key landed first."""
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".ed25519-")  # mkstemp: mode 0600
    try:
        os.write(handle, pem)
        os.fsync(handle)
        os.close(handle)
        os.chmod(temporary, 0o600)
        try:
            os.link(temporary, path)  # fails if the key appeared meanwhile: never overwrite a key
        except FileExistsError:
            pass
    finally:
        os.unlink(temporary)


# -- Checkpoints ---------------------------------------------------------------------


def issue(key: SigningKey, game_id: str, stored: Sequence[Any]) -> dict:
    """The checkpoint of a finished game whose record verifies; never for a broken record."""
    report = verify_record(game_id, stored)
    if not report["ok"]:
        detail = f"the record fails verification: {report['detail']}"
        raise RecordBroken(detail, first_broken_link=report["first_broken_link"])
    if report["result"] is None:
        detail = f"game {game_id} is not finished: only a finished game gets a checkpoint"
        raise NotFound(detail, version=report["version"])
    version, head = report["version"], report["head_hash"]
    signature = key.sign(message(game_id, version, head, report["result"]))
    checkpoint = {
        "game_id": game_id,
        "version": version,
        "head_hash": head,
        "result": report["result"],
        "key_id": key.key_id,
        "signature": _b64url(signature),
    }
    return {**checkpoint, "text": checkpoint_text(checkpoint)}


def parse_checkpoint(text: str) -> dict:
    """The fields of a printed checkpoint; InvalidRecord if it is not one."""
    words = text.split()
    if not words or words[0] != PREFIX:
        raise InvalidRecord(f"a checkpoint starts with {PREFIX}", field="checkpoint")
    fields = dict(word.partition("=")[::2] for word in words[1:])
    if sorted(fields) != sorted(TEXT_FIELDS) or len(words) != len(TEXT_FIELDS) + 1:
        raise InvalidRecord(f"a checkpoint has exactly the fields {', '.join(TEXT_FIELDS)}", field="checkpoint")
    if not is_whole_number(fields["version"]):
        raise InvalidRecord("the checkpoint's version is not a number", field="checkpoint")
    return {
        "game_id": fields["game"],
        "version": int(fields["version"]),
        "result": fields["result"],
        "head_hash": fields["head"],
        "key_id": fields["key"],
        "signature": fields["sig"],
    }


def check(key: SigningKey, checkpoint: dict, stored: Sequence[Any]) -> dict:
    """Is the checkpoint signed by this service, and does the stored record still match it?"""
    refusal = _signature_refusal(key, checkpoint) or _record_refusal(checkpoint, stored)
    version = checkpoint["version"]
    later = [{"seq": e.seq, "type": e.type} for e in stored[version:]] if refusal is None else []
    return {
        "valid": refusal is None,
        "detail": refusal or _accepted(checkpoint, later),
        "checkpoint": {k: checkpoint[k] for k in ("game_id", "version", "result", "head_hash", "key_id")},
        "record_version": len(stored),
        "later_events": later,
    }


def _signature_refusal(key: SigningKey, checkpoint: dict) -> str | None:
    if checkpoint["key_id"] != key.key_id:
        return f"signed with key {checkpoint['key_id']}, not this service's key {key.key_id}"
    try:
        signature = base64.urlsafe_b64decode(checkpoint["signature"] + "=" * (-len(checkpoint["signature"]) % 4))
    except (binascii.Error, ValueError):
        return "the signature is not base64url"
    signed = message(checkpoint["game_id"], checkpoint["version"], checkpoint["head_hash"], checkpoint["result"])
    if not key.is_valid(signature, signed):
        return "the signature does not match: the checkpoint is forged or was altered"
    return None


def _record_refusal(checkpoint: dict, stored: Sequence[Any]) -> str | None:
    version = checkpoint["version"]
    if stored and stored[0].stream_id != checkpoint["game_id"]:
        return f"the checkpoint is for game {checkpoint['game_id']}, not {stored[0].stream_id}"
    if version < 1 or version > len(stored):
        return f"the record holds {len(stored)} events, not {version}"
    if stored[version - 1].hash != checkpoint["head_hash"]:
        return f"stored event {version} does not have the signed head hash: the record was changed"
    report = verify_record(checkpoint["game_id"], stored[:version])
    if not report["ok"]:
        return f"the record up to the checkpoint fails verification: {report['detail']}"
    if report["result"] != checkpoint["result"]:
        return f"the record replays to {report['result']}, not the signed {checkpoint['result']}"
    return None


def _accepted(checkpoint: dict, later: list) -> str:
    text = f"the record matches the checkpoint at event {checkpoint['version']}"
    if later:
        listed = ", ".join(f"{e['seq']} {e['type']}" for e in later)
        text += f"; {len(later)} event(s) were recorded after it: {listed}"
    return text
