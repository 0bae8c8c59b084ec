"""``recorder team register | show | roster`` (teams in the registry) and ``recorder
tournament enter-team | team-standings`` (a team event), writing the same events as the API
(docs/tournaments.md, *Teams*)."""

from __future__ import annotations

import json

import click

from recorder.tournaments import teams as team_rules
from schemas.teams import roster_schema, team_create_schema, team_entry_schema

from .common import say
from .tournaments import AS_JSON, BY, DB, _loaded, _run, _service, tournament


def _teams(db):
    from recorder.players.service import Players
    from recorder.teams.service import Teams

    from .common import make_recorder

    recorder = make_recorder(db)
    return Teams(recorder, Players(recorder))


def _roster_lines(team) -> None:
    for board, player_id in enumerate(team.players, start=1):
        say(f"  board {board}: {player_id}")
    for player_id in team.reserves:
        say(f"  reserve: {player_id}")


@click.group()
def team():
    """Teams in the registry: names in both scripts, affiliation, roster in board order."""


@team.command()
@click.option("--name", required=True)
@click.option("--name-geez", required=True, help="The team's name in Ge'ez script.")
@click.option("--federation", required=True, help="Its federation or region.")
@click.option("--club", default=None)
@click.option("--player", "players", multiple=True, required=True, help="A registry player id, board 1 first.")
@click.option("--reserve", "reserves", multiple=True, help="A reserve's registry player id.")
@DB
@BY
def register(name, name_geez, federation, club, players, reserves, db, by):
    """Register a team and print its id."""
    names = {"name": name, "name_geez": name_geez, "federation": federation, "club": club}
    body = _loaded(team_create_schema, {**names, "players": list(players), "reserves": list(reserves)})
    written = _run(lambda: _teams(db).register(body, recorded_by=by))
    click.echo(written.team.team_id)


@team.command()
@click.argument("team_id")
@DB
def show(team_id, db):
    """Print a team: its names, affiliation and roster in board order."""
    found = _run(lambda: _teams(db).team(team_id))
    say(f"{found.name} ({found.name_geez}), {found.federation}" + (f", {found.club}" if found.club else ""))
    _roster_lines(found)


@team.command()
@click.argument("team_id")
@click.option("--player", "players", multiple=True, required=True, help="A registry player id, board 1 first.")
@click.option("--reserve", "reserves", multiple=True, help="A reserve's registry player id.")
@DB
@BY
def roster(team_id, players, reserves, db, by):
    """Set the whole roster from now on (the command line writes the database as the admin)."""
    body = _loaded(roster_schema, {"players": list(players), "reserves": list(reserves)})
    written = _run(lambda: _teams(db).set_roster(team_id, body, recorded_by=by))
    _roster_lines(written.team)


@tournament.command("enter-team")
@click.argument("tournament_id")
@click.argument("team_id")
@DB
@BY
def enter_team(tournament_id, team_id, db, by):
    """Enter a registry team in a team event: its players and reserves become entrants."""
    body = _loaded(team_entry_schema, {"team_id": team_id})
    entry = _run(lambda: _teams(db).entry(body["team_id"]))
    written = _run(lambda: _service(db).enter_team(tournament_id, entry, recorded_by=by))
    entered = written.tournament.teams[-1]
    say(f"team {entered.number}: {entered.name}, players {', '.join(map(str, entered.players))}")


@tournament.command("team-standings")
@click.argument("tournament_id")
@AS_JSON
@DB
def team_standings(tournament_id, as_json, db):
    """Print a team event's standings, ranked by its order of team tie-breaks."""
    view, standings = _run(lambda: _service(db).team_standings(tournament_id))
    rows = team_rules.standings_json(view.tournament, standings)
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for row in rows:
        say(f"{row['rank']:>3}. {row['team']['name']}  {row['match_points']} MP  {row['game_points']:g} GP")


COMMANDS = (team,)
