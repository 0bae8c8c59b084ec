"""``recorder tournament seed-from | lot | bracket``: a knock-out's stage hand-over, its lots
and its bracket, on the ``tournament`` group (docs/tournaments.md, *Knock-outs and stages*)."""

from __future__ import annotations

import json

import click

from recorder.tournaments import board_game_id, knockout
from schemas.knockout import handover_schema, lot_schema

from .common import DB_OPTION as DB
from .common import say
from .tournaments import AS_JSON, BY, _loaded, _run, _service, tournament


@tournament.command("seed-from")
@click.argument("tournament_id")
@click.argument("source")
@click.option("--qualifiers", type=int, required=True, help="How many of the finished stage's top players go on.")
@DB
@BY
def seed_from(tournament_id, source, qualifiers, db, by):
    """Hand a finished stage's top players over to this knock-out, seeded by their places."""
    body = _loaded(handover_schema, {"source": source, "qualifiers": qualifiers})
    written = _run(lambda: _service(db).hand_over(tournament_id, body, recorded_by=by))
    for e in written.tournament.entrants:
        say(f"  seed {e.number}: {e.name}")


@tournament.command()
@click.argument("tournament_id")
@click.argument("stage", type=int)
@click.argument("match", type=int)
@click.argument("winner", type=int)
@click.option("--note", default=None)
@DB
@BY
def lot(tournament_id, stage, match, winner, note, db, by):
    """Record the lot's winner (a starting number) of a match level after its play-offs."""
    body = _loaded(lot_schema, {"stage": stage, "match": match, "winner": winner, "note": note})
    written = _run(lambda: _service(db).draw_lot(tournament_id, body, recorded_by=by))
    click.echo(f"round {stage} match {match}: {written.tournament.seated(winner).name} by lot")


@tournament.command()
@click.argument("tournament_id")
@AS_JSON
@DB
def bracket(tournament_id, as_json, db):
    """Print the bracket: each stage's matches, their scores, play-offs, lots and winners."""
    view = _run(lambda: _service(db).view(tournament_id))
    t = view.tournament
    shown = knockout.bracket_json(t, view.outcomes, lambda r, b: board_game_id(t.tournament_id, r, b))
    if as_json:
        click.echo(json.dumps(shown, ensure_ascii=False, indent=2))
        return
    for stage in shown["stages"]:
        click.echo(stage["name"].replace("_", " "))
        for m in stage["matches"]:
            say(f"  match {m['match']}: {match_line(m)}")
    if shown["champion"]:
        click.echo(f"champion: {shown['champion']['name']}")


def match_line(m: dict) -> str:
    names = [f"{p['name']} ({p['seed']})" if p else "-" for p in m["players"]]
    line = f"{names[0]} {m['score'][0]:g}-{m['score'][1]:g} {names[1]}"
    if any(g["playoff"] for g in m["games"]):
        line += f", play-off {m['playoff_score'][0]:g}-{m['playoff_score'][1]:g}"
    if m["lot"]:
        line += ", by lot"
    return f"{line} [{m['state']}]"
