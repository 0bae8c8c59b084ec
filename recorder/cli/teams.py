"""``recorder team register | show | roster`` (teams in the registry) and ``recorder
tournament enter-team | captain-signin | lineup | lineups | team-standings | board-prizes``
(a team event),
writing the same events as the API
(docs/tournaments.md, *Teams*)."""

from __future__ import annotations

import json

import click

from recorder.tournaments import board_prizes as board_prize_rules
from recorder.tournaments import teams as team_rules
from schemas.teams import lineup_schema, roster_schema, team_create_schema, team_entry_schema

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


@tournament.command()
@click.argument("tournament_id")
@click.argument("round_number", type=int)
@click.argument("team", type=int)
@click.argument("players", nargs=-1, required=True)
@DB
@BY
def lineup(tournament_id, round_number, team, players, db, by):
    """Hand in a team's line-up for the next round: its players' starting numbers, board 1
    first, a - for a board left empty (the last boards)."""
    seats = [None if player == "-" else _number(player) for player in players]
    body = _loaded(lineup_schema, {"team": team, "players": seats})
    _run(lambda: _service(db).submit_lineup(tournament_id, round_number, body, recorded_by=by))
    say(f"team {team}, round {round_number}: {_seats(seats)}")


def _number(text: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise click.BadParameter(f"a starting number or -, not {text!r}", param_hint="PLAYERS")
    return int(text)


def _seats(players) -> str:
    return ", ".join("-" if player is None else str(player) for player in players)


@tournament.command("captain-signin")
@click.argument("tournament_id")
@click.argument("team", type=int)
@DB
def captain_signin(tournament_id, team, db):
    """Issue team TEAM's captain's sign-in (the API's …/teams/{n}/captain-signin) and print
    its token once: it hands in that team's line-ups alone; the team's earlier one is revoked."""
    from recorder.auth.service import Authenticator

    service = _service(db)
    t = _run(lambda: service.tournament(tournament_id))
    _run(lambda: team_rules.check_team_of(t, team))
    row, token = Authenticator(service.store).issue_captain_signin(tournament_id, team)
    say(f"team {team}: {row['token_id']} {token}")


@tournament.command()
@click.argument("tournament_id")
@click.argument("round_number", type=int)
@DB
def lineups(tournament_id, round_number, db):
    """Print each team's line-up for a paired round or the next (the arbiter's: the command
    line reads the database as the organiser)."""
    t = _run(lambda: _service(db).tournament(tournament_id))
    for row in _run(lambda: team_rules.lineups_json(t, round_number)):
        say(f"team {row['team']} ({row['name']}): {_seats(row['players'])}")


@tournament.command("board-prizes")
@click.argument("tournament_id")
@AS_JSON
@DB
def board_prizes(tournament_id, as_json, db):
    """Print a team event's board prizes: each board's players by percentage, then games."""
    view, prizes = _run(lambda: _service(db).board_prizes(tournament_id))
    boards = board_prize_rules.board_prizes_json(view.tournament, prizes)
    if as_json:
        click.echo(json.dumps(boards, ensure_ascii=False, indent=2))
        return
    for board in boards:
        say(f"board {board['board']}")
        for p in board["players"]:
            rank = f"{p['rank']}." if p["rank"] is not None else "-"
            say(f"{rank:>4} {p['name']} ({p['team']['name']}) {p['points']:g}/{p['games']} {p['percentage']:.1f}%")


COMMANDS = (team,)
