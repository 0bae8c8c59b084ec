"""``recorder players ...`` and ``recorder ratings ...``: the registry and the rating lists
from the command line.

Like ``recorder tournament``, the command line works on the database directly and needs
no token; ``--by`` names the writer in the event log. Registered on the ``recorder``
group by ``recorder/cli/main.py``.
"""

from __future__ import annotations

import csv
import json
import sys

import click

from recorder.errors import AlreadyExists, RecorderError
from recorder.render.csv_cells import spreadsheet_row
from recorder.rules import VARIANTS
from schemas import players as bodies

from .common import fail, say, say_json
from .tournaments import AS_JSON, BY, DB, _loaded, _run


def _players(db):
    from recorder.players.service import Players

    from .common import make_recorder

    registry = Players(make_recorder(db))
    registry.fill_sound_keys()  # a registry from before them gets them once
    return registry


def _ratings(db):
    from recorder.ratings.service import Ratings

    from .common import make_recorder

    return Ratings(make_recorder(db))


def _line(row: dict) -> str:
    geez = f" / {row['name_geez']}" if row.get("name_geez") else ""
    club = f", {row['club']}" if row.get("club") else ""
    merged = f"  (merged into {row['merged_into']})" if row.get("merged_into") else ""
    return f"{row['player_id']}  {row['name']}{geez}  {row['federation']}{club}{merged}"


@click.group()
def players():
    """The player registry: register, find, rename, merge, link the names already recorded."""


@players.command()
@click.option("--name", default=None, help="The name in Latin script (left out: the Ge'ez name transliterated).")
@click.option("--federation", required=True, help="Three letters (ETH, ERI), read in capitals.")
@click.option("--name-geez", default=None, help="The name in Ge'ez script.")
@click.option("--club", default=None)
@click.option("--birth-year", type=int, default=None)
@click.option("--sex", default=None, help="m or w, as FIDE's TRF writes it.")
@click.option("--external-id", default=None, help="A national federation's number.")
@click.option("--force", is_flag=True, help="Register even though a player of this name is registered.")
@DB
@BY
def register(name, federation, name_geez, club, birth_year, sex, external_id, force, db, by):
    """Register a player; prints his id."""
    body = {"name": name, "federation": federation, "name_geez": name_geez, "club": club, "sex": sex}
    body.update({"birth_year": birth_year, "external_id": external_id, "force": force})
    data = _loaded(bodies.player_create_schema, {k: v for k, v in body.items() if v is not None})
    service = _players(db)
    try:
        written = service.register(data, recorded_by=by, force=data.pop("force"))
    except AlreadyExists as error:
        for c in error.extra.get("candidates", []):
            say(f"candidate: {c['id']}  {c['name']}  {c['federation']}", err=True)
        fail(error.detail + " (--force registers another person)")
    except RecorderError as error:
        fail(error.detail)
    click.echo(written.player.player_id)


@players.command()
@click.argument("query")
@click.option("--limit", type=click.IntRange(1, 100), default=20, show_default=True)
@DB
@AS_JSON
def search(query, limit, db, as_json):
    """Players whose name matches QUERY (case, spacing and diacritics aside, either script)."""
    found = _players(db).search(query, limit=limit)
    if as_json:
        say_json(found, indent=2)
        return
    for row in found:
        say(_line(row))


@players.command()
@click.argument("player_id")
@DB
@AS_JSON
def show(player_id, db, as_json):
    """A player's record (a merged id shows the record it was merged into)."""
    service = _players(db)
    p = _run(lambda: service.player(player_id))
    row = service.tables.row(p.player_id) or {}
    if as_json:
        say_json(row, indent=2)
        return
    say(_line(row))
    if p.merged:
        say("survivor: " + _line(service.tables.row(service.survivor(player_id).player_id) or {}))


@players.command()
@click.argument("player_id")
@click.option("--name", default=None)
@click.option("--name-geez", default=None)
@DB
@BY
def rename(player_id, name, name_geez, db, by):
    """Fix a player's names."""
    body = {k: v for k, v in {"name": name, "name_geez": name_geez}.items() if v is not None}
    data = _loaded(bodies.rename_schema, body)
    written = _run(lambda: _players(db).rename(player_id, data, recorded_by=by))
    say(
        f"{written.player.player_id}: {written.player.name}"
        + (f" / {written.player.name_geez}" if written.player.name_geez else "")
    )


@players.command()
@click.argument("player_id")
@click.option("--federation", default=None)
@click.option("--club", default=None)
@DB
@BY
def affiliation(player_id, federation, club, db, by):
    """Change a player's federation or club."""
    body = {k: v for k, v in {"federation": federation, "club": club}.items() if v is not None}
    data = _loaded(bodies.affiliation_schema, body)
    written = _run(lambda: _players(db).change_affiliation(player_id, data, recorded_by=by))
    say(f"{written.player.player_id}: {written.player.federation}, {written.player.club}")


@players.command()
@click.argument("player_id")
@click.option("--sex", default=None, help="m or w, as FIDE's TRF writes it.")
@click.option("--birth-year", type=int, default=None)
@DB
@BY
def particulars(player_id, sex, birth_year, db, by):
    """Change a player's sex or birth year."""
    body = {k: v for k, v in {"sex": sex, "birth_year": birth_year}.items() if v is not None}
    data = _loaded(bodies.particulars_schema, body)
    written = _run(lambda: _players(db).change_particulars(player_id, data, recorded_by=by))
    say(f"{written.player.player_id}: {written.player.sex or '-'}, {written.player.birth_year or '-'}")


@players.command()
@click.argument("duplicate")
@click.argument("survivor")
@click.option("--reason", default=None)
@click.option("--entered-twice", is_flag=True, help="Merge even though both are entrants of one tournament.")
@DB
@BY
def merge(duplicate, survivor, reason, entered_twice, db, by):
    """Merge DUPLICATE into SURVIVOR (the rating lists are rebuilt)."""
    service = _players(db)
    body = {"into": survivor, "reason": reason, "entered_twice": entered_twice}

    def merged():
        try:
            return service.merge(duplicate, body, recorded_by=by)
        except AlreadyExists as error:  # both entered in one tournament: say how to confirm
            raise AlreadyExists(error.detail + " (--entered-twice merges them)", **error.extra) from None

    _run(merged)
    _rebuild_ratings(service)
    click.echo(f"{duplicate} merged into {survivor}")


@players.command()
@click.argument("player_id")
@click.option("--reason", default=None)
@DB
@BY
def unmerge(player_id, reason, db, by):
    """Withdraw a wrong merge (the rating lists are rebuilt)."""
    service = _players(db)
    _run(lambda: service.withdraw_merge(player_id, {"reason": reason}, recorded_by=by))
    _rebuild_ratings(service)
    click.echo(f"{player_id} stands on its own again")


@players.command()
@click.option("--dry-run", is_flag=True, help="Say what would be linked, link nothing.")
@DB
@BY
def link(dry_run, db, by):
    """Link the names already recorded to registry players: exact matches linked (an event
    on the tournament), the others listed with their candidates. No hash chain changes."""
    from recorder.players.linking import link_names

    service = _players(db)
    linked, unlinked = _run(lambda: link_names(service.recorder, service, recorded_by=by, dry_run=dry_run))
    for done in linked:
        where = f"{done.where} #{done.number}" if done.number is not None else f"{done.where} {done.side}"
        say(f"LINKED   {where} {done.name} -> {done.player_id}")
    for left in unlinked:
        where = f"{left.where} #{left.number}" if left.number is not None else f"{left.where} {left.side}"
        candidates = ", ".join(left.candidates) or "no candidate"
        say(f"UNLINKED {where} {left.name}: {candidates}")
    if linked and not dry_run:
        _rebuild_ratings(service)
    verb = "would link" if dry_run else "linked"
    click.echo(f"{verb} {len(linked)}, left {len(unlinked)} for an arbiter to decide", err=True)


@players.command("link-entrant")
@click.argument("tournament_id")
@click.argument("number", type=int)
@click.argument("player_id")
@DB
@BY
def link_entrant(tournament_id, number, player_id, db, by):
    """An arbiter's decision: entrant NUMBER of TOURNAMENT_ID is registry player PLAYER_ID."""
    from recorder.tournaments.service import Tournaments

    service = _players(db)
    survivor = _run(lambda: service.survivor(service.must_exist(player_id, field="player_id").player_id))
    _run(lambda: Tournaments(service.recorder).link(tournament_id, number, survivor.player_id, recorded_by=by))
    _rebuild_ratings(service)
    click.echo(f"{tournament_id} #{number} -> {survivor.player_id}")


@players.command("link-game")
@click.argument("game_id")
@click.argument("side", type=click.Choice(["south", "north"]))
@click.argument("player_id")
@DB
@BY
def link_game(game_id, side, player_id, db, by):
    """An arbiter's decision: SIDE of GAME_ID (outside tournaments) is registry player PLAYER_ID."""
    service = _players(db)
    survivor = _run(lambda: service.survivor(service.must_exist(player_id, field="player_id").player_id))
    _run(lambda: service.link_game(survivor.player_id, game_id, side, recorded_by=by))
    click.echo(f"{game_id} {side} -> {survivor.player_id}")


def _rebuild_ratings(service) -> None:
    from recorder.ratings.service import Ratings

    Ratings(service.recorder).rebuild()


@click.group()
def ratings():
    """Rating lists: Glicko-2 over calendar months, from rated tournaments' games."""


@ratings.command()
@DB
def rebuild(db):
    """Compute and store every published list from the events (byte for byte the same each time)."""
    rows = _ratings(db).rebuild()
    click.echo(f"rebuilt the rating lists: {rows} entr{'ies' if rows != 1 else 'y'}")


@ratings.command(name="list")
@click.argument("variant", type=click.Choice(list(VARIANTS)))
@click.option("--period", default=None, help="YYYY-MM (default: this month, not yet published).")
@click.option("--federation", default=None)
@click.option("--csv", "as_csv", is_flag=True, help="Print the list as CSV.")
@DB
def list_(variant, period, federation, as_csv, db):
    """A game's rating list for a month."""
    if period is not None:
        _loaded(bodies.rating_query_schema, {"period": period})
    service = _ratings(db)
    rows, published, fixes = service.period(variant, period)
    players = service.tables.rows([r["player_id"] for r in rows])
    out = csv.writer(sys.stdout, lineterminator="\n") if as_csv else None
    if out is not None:
        out.writerow(["rank", "id", "name", "federation", "rating", "rd", "games", "provisional"])
    elif not published:
        click.echo("(not published: the month is not over, or the lists need a rebuild)", err=True)
    for row in rows:
        player = players.get(row["player_id"], {})
        if federation and player.get("federation") != federation:
            continue
        values = [row["rank"], row["player_id"], player.get("name"), player.get("federation")]
        values += [f"{row['rating']:.2f}", f"{row['rd']:.2f}", row["games"], "P" if row["provisional"] else ""]
        if out is not None:
            out.writerow(spreadsheet_row(values))  # a name is never a formula (recorder/render/csv_cells.py)
        else:
            say("{:>4}  {}  {:<28} {}  {}  {}  {:>3} {}".format(*values))
    for fix in fixes:  # the corrections of earlier months' results this list applies
        before, after = fix["before"] or "no result", fix["after"] or "no result"
        click.echo(f"corrected: {fix['game_id']} (of {fix['game_period']}): {before} -> {after}", err=as_csv)


@ratings.command()
@click.argument("variant", type=click.Choice(list(VARIANTS)))
@click.argument("player_id")
@click.option("--period", default=None, help="YYYY-MM (default: this month).")
@DB
def explain(variant, player_id, period, db):
    """Why a player's rating moved in a month: each game, the opponent's rating and
    deviation, the expected and the actual score."""
    rows, _, _ = _ratings(db).period(variant, period)
    row = next((r for r in rows if r["player_id"] == player_id), None)
    if row is None:
        fail(f"{player_id} has no {variant} rating in that month")
    why = json.loads(row["explanation"])
    before = why["before"]
    click.echo(f"before: {before['rating']:.2f} (RD {before['rd']:.2f}, volatility {before['volatility']:.6f})")
    for game in why["games"]:
        click.echo(
            f"  {game['game_id']}: v {game['opponent']} {game['opponent_rating']:.2f} (RD {game['opponent_rd']:.2f})"
            f"  expected {game['expected']:.4f}  scored {game['score']:g}"
        )
    click.echo(f"after:  {row['rating']:.2f} (RD {row['rd']:.2f}, volatility {row['volatility']:.6f})")
