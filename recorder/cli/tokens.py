"""``recorder token ...``: recorder tokens, issued and revoked on the database file.

Whoever can write the database file is its admin, so these commands need no token.
A recorder token may create games outside tournaments and write the games it created
(docs/security.md); it is printed once and only its digest is stored.
"""

from __future__ import annotations

import click

from recorder.auth.service import Authenticator
from recorder.errors import RecorderError

from .common import DB_OPTION, fail, make_recorder


def _auth(db: str | None) -> Authenticator:
    return Authenticator(make_recorder(db).store)


@click.group()
def token():
    """Recorder tokens: issue, list, revoke."""


@token.command()
@click.option("--holder", required=True, help="Who will record with it: named in every event they store.")
@DB_OPTION
def issue(holder: str, db: str | None):
    """Issue a recorder token; prints its id and the token (shown only now)."""
    try:
        row, secret = _auth(db).issue("recorder", holder)
    except RecorderError as error:
        fail(error.detail)
    click.echo(f"{row['token_id']} {secret}")


@token.command("list")
@DB_OPTION
def list_tokens(db: str | None):
    """Every token but the admin's: id, kind, holder, tournament, issued, revoked."""
    for row in _auth(db).tokens.list_tokens():
        revoked = f"revoked {row['revoked_at']}" if row["revoked_at"] else "active"
        scope = row["tournament_id"] or "-"
        click.echo(f"{row['token_id']}  {row['kind']:<8}  {row['holder']!r}  {scope}  {row['created_at']}  {revoked}")


@token.command()
@click.argument("token_id")
@DB_OPTION
def revoke(token_id: str, db: str | None):
    """Revoke a token: it stops working at once."""
    try:
        row = _auth(db).revoke(token_id)
    except RecorderError as error:
        fail(error.detail)
    click.echo(f"{row['token_id']} revoked at {row['revoked_at']}")
