"""``recorder tournament ...``: set up, pair and follow tournaments from the command line.

The command line works on the database file directly, so it needs no token: whoever
can write the file is the organiser. ``--by`` names the writer in the event log.
Registered on the ``recorder`` group by ``recorder/cli/main.py``.
"""

from __future__ import annotations

import json

import click
from marshmallow import Schema, ValidationError

from recorder.auth.service import Authenticator
from recorder.errors import RecorderError
from recorder.rules import VARIANTS
from recorder.tournaments import BOARD_RESULTS, board_game_id
from schemas import tournaments as bodies
from schemas.fields import first_fault

from .common import DB_OPTION as DB
from .common import fail, say, say_file, time_control_line

BY = click.option("--by", "by", default="cli", show_default=True, help="Who is writing (kept in the event log).")
AS_JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")


def _service(db):
    from recorder.tournaments.service import Tournaments

    from .common import make_recorder

    return Tournaments(make_recorder(db))


def _run(action):
    """Run one service call; a refused request is one line on stderr and exit status 1."""
    try:
        return action()
    except RecorderError as error:
        fail(error.detail)


def _loaded(schema: Schema, body: dict) -> dict:
    """The body as the API's schema loads it: the command line writes the same events, so
    it takes only what the API takes; a refusal names the field, exit status 1."""
    try:
        return schema.load(body)
    except ValidationError as error:
        field, message = first_fault(error.messages)
        fail(f"{field}: {message}")


def _option_value(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _options(pairs: tuple[str, ...]) -> dict:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--option")
        options[key] = _option_value(value)
    return options


@click.group()
def tournament():
    """Tournaments: players, rounds, pairings, results, standings, tokens."""


@tournament.command()
@click.option("--name", required=True)
@click.option("--variant", required=True, type=click.Choice(list(VARIANTS)))
@click.option(
    "--format",
    "format_",
    required=True,
    type=click.Choice(
        ["round_robin", "double_round_robin", "swiss", "manual", "knockout", "team_round_robin", "team_swiss"]
    ),
)
@click.option("--rounds", type=int, default=None, help="Planned rounds (Swiss and manual).")
@click.option("--option", "options", multiple=True, help="A rule option, NAME=VALUE (JSON value).")
@click.option("--tiebreak", "tiebreaks", multiple=True, help="Tiebreaks in order (default: by format).")
@click.option("--bye-points", type=float, default=1.0, show_default=True)
@click.option("--site", default=None)
@click.option("--start", "start_date", default=None, help="YYYY-MM-DD")
@click.option("--end", "end_date", default=None, help="YYYY-MM-DD")
@click.option("--pairing-rules", type=click.Choice(["dutch-2026", "dutch-2017"]), default=None, help="Swiss only.")
@click.option("--acceleration", type=click.Choice(["baku"]), default=None, help="Baku acceleration (Swiss only).")
@click.option("--rated", is_flag=True, help="Its finished games count in the rating lists (docs/players.md).")
@click.option("--match-games", type=int, default=None, help="A knock-out's games a match (default 2).")
@click.option("--playoff-games", type=int, default=None, help="A knock-out's play-off games (default 2).")
@click.option("--team-boards", type=int, default=None, help="A team event's boards a match.")
@click.option(
    "--team-primary-score",
    type=click.Choice(["match_points", "game_points"]),
    default=None,
    help="A team Swiss's primary score (default match_points).",
)
@click.option(
    "--team-colour-preferences",
    type=click.Choice(["type_a", "type_b", "none"]),
    default=None,
    help="A team Swiss's colour preferences, C.04.6 art. 1.7 (default type_a).",
)
@click.option(
    "--team-tiebreak",
    "team_tiebreaks",
    multiple=True,
    help="A team event's ranking order, in order, its primary score (MPTS or GPTS) first (default: MPTS GPTS DE SB).",
)
@click.option(
    "--absence-points", type=click.Choice(["0", "0.5"]), default=None, help="A declared absence's bye (default 0.5)."
)
@DB
@BY
def create(
    name,
    variant,
    format_,
    rounds,
    options,
    tiebreaks,
    bye_points,
    site,
    start_date,
    end_date,
    pairing_rules,
    acceleration,
    rated,
    match_games,
    playoff_games,
    team_boards,
    team_primary_score,
    team_colour_preferences,
    team_tiebreaks,
    absence_points,
    db,
    by,
):
    """Create a tournament and print its id."""
    body = {
        "name": name,
        "variant": variant,
        "format": format_,
        "rounds": rounds,
        "options": _options(options),
        "tiebreaks": list(tiebreaks) or None,
        "bye_points": bye_points if bye_points % 1 else int(bye_points),
        "site": site,
        "start_date": start_date,
        "end_date": end_date,
        "rated": rated,
        "acceleration": acceleration,
        "absence_points": None if absence_points is None else _option_value(absence_points),
    }
    if pairing_rules:
        body["pairing_rules"] = pairing_rules
    knockout = {k: v for k, v in (("match_games", match_games), ("playoff_games", playoff_games)) if v is not None}
    if knockout or format_ == "knockout":
        body["knockout"] = knockout
    if team_boards is not None:
        body["team_boards"] = team_boards
    if team_primary_score is not None:
        body["team_primary_score"] = team_primary_score
    if team_colour_preferences is not None:
        body["team_colour_preferences"] = team_colour_preferences
    if team_tiebreaks:
        body["team_tiebreaks"] = list(team_tiebreaks)
    body = _loaded(bodies.tournament_create_schema, body)
    written = _run(lambda: _service(db).create(body, recorded_by=by))
    click.echo(written.tournament.tournament_id)


@tournament.command("list")
@DB
def list_tournaments(db):
    """List tournaments, newest first."""
    for row in _service(db).list_tournaments():
        say(f"{row['id']}  {row['name']}  {row['variant']}  {row['format']}  {row.get('start_date') or ''}")


@tournament.command("add-player")
@click.argument("tournament_id")
@click.argument("name")
@click.option("--federation", default=None)
@click.option("--rating", type=int, default=None)
@click.option("--player-id", default=None, help="The registry player he is (recorder players search).")
@DB
@BY
def add_player(tournament_id, name, federation, rating, player_id, db, by):
    """Register a player (a late entry after round 1 in a Swiss) and print his number."""
    body = {"name": name, "federation": federation, "rating": rating}
    body = _loaded(bodies.player_create_schema, {**body, **({"player_id": player_id} if player_id else {})})
    service = _service(db)
    if player_id is not None:
        from recorder.players.service import Players

        registry = Players(service.recorder)
        body["player_id"] = _run(
            lambda: registry.survivor(registry.must_exist(player_id, field="player_id").player_id)
        ).player_id
    written = _run(lambda: service.register(tournament_id, body, recorded_by=by))
    click.echo(written.events[-1].payload["number"])


@tournament.command()
@click.argument("tournament_id")
@click.argument("number", type=int)
@click.option("--reason", default=None)
@DB
@BY
def withdraw(tournament_id, number, reason, db, by):
    """Withdraw a player from every round not yet paired."""
    body = _loaded(bodies.withdrawal_schema, {"reason": reason})
    _run(lambda: _service(db).withdraw(tournament_id, number, body, recorded_by=by))
    click.echo(f"player {number} withdrawn")


@tournament.command()
@click.argument("tournament_id")
@click.argument("number", type=int)
@click.option("--round", "round_number", type=int, required=True, help="The round he will miss (not yet paired).")
@click.option("--take-back", is_flag=True, help="Take back an absence declared before.")
@DB
@BY
def absent(tournament_id, number, round_number, take_back, db, by):
    """Declare that a player will miss a round (he has the tournament's absence bye), or take it back."""
    body = _loaded(bodies.absence_schema, {"player": number, "round": round_number})
    if take_back:
        _run(lambda: _service(db).cancel_absence(tournament_id, number, round_number, recorded_by=by))
        click.echo(f"player {number} is paired in round {round_number} again")
        return
    written = _run(lambda: _service(db).declare_absence(tournament_id, body, recorded_by=by))
    points = written.tournament.absence(number, round_number).points
    click.echo(f"player {number} misses round {round_number}: a bye of {points:g}")


@tournament.command()
@click.argument("tournament_id")
@click.argument("names", nargs=-1, required=True)
@DB
@BY
def tiebreaks(tournament_id, names, db, by):
    """Choose the order of tiebreaks (before round 1)."""
    body = _loaded(bodies.tiebreaks_schema, {"tiebreaks": list(names)})
    _run(lambda: _service(db).choose_tiebreaks(tournament_id, body, recorded_by=by))
    click.echo(" > ".join(names))


def _manual(boards: tuple[str, ...], byes: tuple[str, ...]) -> dict:
    """``--board 3-5`` (south-north numbers), ``--bye 7`` or ``--bye 7:0.5``."""
    if not boards and not byes:
        return {}
    try:
        parsed = [dict(zip(("south", "north"), map(int, b.split("-")), strict=True)) for b in boards]
        split = (b.partition(":") for b in byes)
        bye_list = [{"player": int(p), "points": _option_value(pts or "1")} for p, _, pts in split]
    except ValueError:
        raise click.BadParameter("boards are SOUTH-NORTH numbers, byes NUMBER[:POINTS]") from None
    return {"boards": parsed, "byes": bye_list}


@tournament.command()
@click.argument("tournament_id")
@click.option("--board", "boards", multiple=True, help="A manual board SOUTH-NORTH (player numbers).")
@click.option("--bye", "byes", multiple=True, help="A manual bye NUMBER[:POINTS].")
@DB
@BY
def pair(tournament_id, boards, byes, db, by):
    """Pair the next round (by the format, or the boards given) and print it."""
    body = _loaded(bodies.pair_schema, _manual(boards, byes))
    service = _service(db)
    written = _run(lambda: service.pair(tournament_id, body, recorded_by=by))
    t = written.tournament
    rnd = t.rounds[-1]
    click.echo(f"round {rnd.number} ({rnd.method})")
    for b in rnd.boards:
        say(f"  board {b.board}: {t.entrant(b.south).name} (south) - {t.entrant(b.north).name} (north)")
    for bye in rnd.byes:
        say(f"  bye: {t.entrant(bye.player).name} ({bye.points})")


@tournament.command()
@click.argument("tournament_id")
@AS_JSON
@DB
def proposal(tournament_id, as_json, db):
    """Print the next round as `pair` would pair it now, with the checker's findings;
    stores nothing (the API's POST …/rounds/proposal)."""
    t, proposed = _run(lambda: _service(db).propose(tournament_id))
    _print_proposed(t, proposed.paired, proposed.findings, None, as_json)


@tournament.command("check-proposal")
@click.argument("tournament_id")
@click.option("--board", "boards", multiple=True, help="A proposed board SOUTH-NORTH (player numbers).")
@click.option("--bye", "byes", multiple=True, help="A proposed bye NUMBER[:POINTS].")
@AS_JSON
@DB
def check_proposal(tournament_id, boards, byes, as_json, db):
    """Check a proposed round (the boards and byes `pair` would take) and print each
    criterion it breaks; stores nothing (the API's POST …/rounds/check). Exit status 1
    when a finding names a criterion."""
    body = _loaded(bodies.pair_schema, _manual(boards, byes) or {"boards": []})
    t, (proposed, expected, findings) = _run(lambda: _service(db).check_proposal(tournament_id, body))
    _print_proposed(t, proposed, findings, expected, as_json)
    if any(f.criterion for f in findings):
        raise SystemExit(1)


def _print_proposed(t, paired, findings, expected, as_json: bool) -> None:
    from recorder.api.proposal_words import english, finding_json

    found = [finding_json(t, f, english) for f in findings]
    if as_json:
        seated = lambda rnd: {"boards": rnd.boards, "byes": rnd.byes}  # noqa: E731
        answer = {"round": paired.round, "method": paired.method, **seated(paired), "findings": found}
        click.echo(json.dumps({**answer, "expected": seated(expected) if expected else None}, indent=2))
        return
    click.echo(f"round {paired.round} ({paired.method}), proposed")
    for b in paired.boards:
        say(f"  board {b['board']}: {t.seated(b['south']).name} (south) - {t.seated(b['north']).name} (north)")
    for bye in paired.byes:
        say(f"  bye: {t.seated(bye['player']).name} ({bye['points']})")
    for f in found:
        say(f"  {'board ' + str(f['board']) + ': ' if f['board'] else ''}{f['text']}")
    click.echo(f"{len(found)} finding(s)")


@tournament.command()
@click.argument("tournament_id")
@click.option("--note", default=None, help="Why, e.g. when it ends before its planned rounds.")
@DB
@BY
def finish(tournament_id, note, db, by):
    """Finish the tournament once every paired round has its results (the API's POST
    …/finish): its arbiters' rights end."""
    body = _loaded(bodies.finish_schema, {"note": note})
    _run(lambda: _service(db).finish(tournament_id, body, principal={"kind": "cli"}, recorded_by=by))
    click.echo(f"{tournament_id}: finished")


@tournament.command()
@click.argument("tournament_id")
@click.argument("round_number", type=int)
@click.option("--site", default=None, help="The site's address (http://HOST:PORT) to issue sign-in addresses for.")
@click.option("--revoke", "revoke", default=None, help="Revoke this sign-in (its id) instead.")
@DB
def signins(tournament_id, round_number, site, revoke, db):
    """A round's board sign-ins (the API's …/rounds/{r}/signins): with --site, issue one
    per board still to be played and print each board's sign-in address once (a board's
    earlier sign-ins are revoked); with --revoke ID, revoke one; else list them."""
    from recorder.auth.tokens import signin_board

    service = _service(db)
    auth = Authenticator(service.store)
    boards = _run(lambda: service.boards_to_play(tournament_id, round_number))
    if revoke is not None:
        at = signin_board(revoke)
        if at is None or at[0] != round_number:
            fail(f"round {round_number} has no sign-in {revoke!r}")
        _run(lambda: auth.revoke(revoke, tournament_id))
        click.echo(f"{revoke}: revoked")
    elif site is not None:
        base = site.rstrip("/")
        for board in boards:
            row, token = auth.issue_signin(tournament_id, round_number, board)
            game_id = board_game_id(tournament_id, round_number, board)
            click.echo(f"board {board}: {row['token_id']} {base}/sign-in#token={token}&next=/games/{game_id}")
    else:
        for row in auth.board_signins(tournament_id, round_number):
            state = f"revoked {row['revoked_at']}" if row["revoked_at"] else "valid"
            click.echo(f"{row['token_id']}  {row['holder']}  {state}")


@tournament.command()
@click.argument("tournament_id")
@click.option("--site", default=None, help="The site's address (http://HOST:PORT) to issue badge addresses for.")
@click.option("--player", "players", type=int, multiple=True, help="Only this player's badge (repeatable).")
@DB
def badges(tournament_id, site, players, db):
    """The players' sign-ins for their badges (the API's …/players/signins): with --site,
    issue one per player still in (or per --player) and print each address once (a
    player's earlier sign-ins are revoked); else list them."""
    service = _service(db)
    auth = Authenticator(service.store)
    t = _run(lambda: service.tournament(tournament_id))
    if site is None:
        for row in auth.player_signins(tournament_id):
            state = f"revoked {row['revoked_at']}" if row["revoked_at"] else "valid"
            click.echo(f"{row['token_id']}  {row['holder']}  {state}")
        return
    still_in = [e.number for e in t.entrants if not e.withdrawn]
    strays = sorted(set(players) - set(still_in))
    if strays:
        fail(f"no player still in with the starting number {strays[0]}")
    base = site.rstrip("/")
    for number in [n for n in still_in if not players or n in players]:
        row, token = auth.issue_player_signin(tournament_id, number)
        click.echo(f"player {number}: {row['token_id']} {base}/sign-in#token={token}&next=/tournaments/{tournament_id}")


@tournament.command("start-game")
@click.argument("tournament_id")
@click.argument("round_number", type=int)
@click.argument("board", type=int)
@click.option("--first-player", type=click.Choice(["south", "north"]), default=None)
@DB
@BY
def start_game(tournament_id, round_number, board, first_player, db, by):
    """Create the game of a board and print its id."""
    body = _loaded(bodies.board_game_schema, {"first_player": first_player} if first_player else {})
    recorded = _run(lambda: _service(db).start_game(tournament_id, round_number, board, body, recorded_by=by))
    click.echo(recorded.game.game_id)


@tournament.command()
@click.argument("tournament_id")
@click.argument("round_number", type=int)
@click.argument("board", type=int)
@click.argument("result", type=click.Choice(["south_wins", "north_wins", "double_forfeit"]))
@DB
@BY
def forfeit(tournament_id, round_number, board, result, db, by):
    """Record a forfeit on a board where no game was started."""
    body = _loaded(bodies.board_result_schema, {"result": result})
    _run(lambda: _service(db).record_forfeit(tournament_id, round_number, board, body, recorded_by=by))
    click.echo(f"round {round_number} board {board}: {result} by forfeit")


@tournament.command("result")
@click.argument("tournament_id")
@click.argument("round_number", type=int)
@click.argument("board", type=int)
@click.argument("result", type=click.Choice(list(BOARD_RESULTS)))
@click.option("--played/--forfeit", default=False, help="A game played on paper, or a forfeit (the default).")
@click.option("--corrects", is_flag=True, help="Replace the board's recorded result (a new event).")
@click.option("--note", default=None)
@DB
@BY
def board_result(tournament_id, round_number, board, result, played, corrects, note, db, by):
    """Enter the result of a board without a game: a game played on the board and recorded
    on paper (--played), or a forfeit; the API's POST …/boards/{b}/result."""
    raw = {"result": result, "kind": "played" if played else "forfeit", "note": note}
    body = _loaded(bodies.board_result_schema, {**raw, **({"corrects": True} if corrects else {})})
    _run(lambda: _service(db).record_forfeit(tournament_id, round_number, board, body, recorded_by=by))
    click.echo(f"round {round_number} board {board}: {result} ({body['kind']})")


@tournament.command()
@click.argument("tournament_id")
@click.option("--category", default=None, help="One category's standings (its code: U16, W...).")
@AS_JSON
@DB
def standings(tournament_id, category, as_json, db):
    """Print the standings with their tiebreaks, or one category's."""
    from recorder.tournaments.render import category_standings_text, standings_text
    from recorder.tournaments.views import standings_json

    if category is None:
        _print_view(tournament_id, as_json, db, standings_json, lambda v: standings_text(v.tournament, v.standings()))
        return
    from recorder.tournaments.prize_views import category_standings_json

    service = _service(db)
    view = _run(lambda: service.view(tournament_id))
    found = _run(lambda: category_standings_json(view, _particulars(service, view), category))
    if as_json:
        click.echo(json.dumps(found, indent=2))
    else:
        say(category_standings_text(view.tournament, found))


def _particulars(service, view) -> dict:
    from recorder.players.particulars import entrants_particulars
    from recorder.players.service import Players

    return entrants_particulars(Players(service.recorder), service, view)


@tournament.command()
@click.argument("tournament_id")
@AS_JSON
@DB
def prizes(tournament_id, as_json, db):
    """Print the prize list: who is paid what, by the standings (final once it is finished)."""
    from recorder.tournaments.prize_views import prizes_json
    from recorder.tournaments.render import prizes_text

    service = _service(db)
    view = _run(lambda: service.view(tournament_id))
    found = prizes_json(view, _particulars(service, view))
    if as_json:
        click.echo(json.dumps(found, indent=2))
    else:
        say(prizes_text(found))


@tournament.command("set-categories")
@click.argument("tournament_id")
@click.argument("body")
@DB
@BY
def set_categories(tournament_id, body, db, by):
    """Set the categories: BODY is the API's, {"categories": [{"code": "U16", "kind": "age", "under": 16}, ...]}."""
    from schemas.prizes import categories_schema

    data = _loaded(categories_schema, _json_body(body))
    written = _run(lambda: _service(db).set_categories(tournament_id, data, recorded_by=by))
    click.echo(", ".join(c["code"] for c in written.tournament.categories) or "no categories")


@tournament.command("set-prizes")
@click.argument("tournament_id")
@click.argument("body")
@DB
@BY
def set_prizes(tournament_id, body, db, by):
    """Set the prize list: BODY is the API's, {"prizes": [{"place": 1, "amount": 1000}, ...], "sharing": "hort"}."""
    from schemas.prizes import prizes_schema

    data = _loaded(prizes_schema, _json_body(body))
    written = _run(lambda: _service(db).set_prizes(tournament_id, data, recorded_by=by))
    t = written.tournament
    click.echo(f"{len(t.prizes)} prizes, {sum(p['amount'] for p in t.prizes)} in all, sharing {t.prize_sharing}")


def _json_body(text: str) -> dict:
    try:
        body = json.loads(text)
    except json.JSONDecodeError as error:
        fail(f"BODY is not JSON: {error}")
    if not isinstance(body, dict):
        fail("BODY is a JSON object")
    return body


@tournament.command()
@click.argument("tournament_id")
@AS_JSON
@DB
def crosstable(tournament_id, as_json, db):
    """Print the crosstable (a square for a round robin)."""
    from recorder.tournaments.render import crosstable_text
    from recorder.tournaments.views import crosstable_json

    _print_view(tournament_id, as_json, db, crosstable_json, lambda v: crosstable_text(v.tournament, v.crosstable()))


def _print_view(tournament_id, as_json: bool, db, as_dict, as_text) -> None:
    """One view of the tournament, as JSON or as text."""
    view = _run(lambda: _service(db).view(tournament_id))
    if as_json:  # ASCII: every stored character escaped
        click.echo(json.dumps(as_dict(view), indent=2))
    else:
        say(as_text(view))


@tournament.command("issue-token")
@click.argument("tournament_id")
@click.argument("holder")
@DB
def issue_token(tournament_id, holder, db):
    """Issue an arbiter token for one tournament; it is printed once and stored hashed."""
    service = _service(db)

    def issue():
        service.events(tournament_id)  # NotFound for an unknown tournament
        return Authenticator(service.store).issue("arbiter", holder, tournament_id)

    row, token = _run(issue)
    click.echo(f"{row['token_id']} {token}")


@tournament.command("revoke-token")
@click.argument("tournament_id")
@click.argument("token_id")
@DB
def revoke_token(tournament_id, token_id, db):
    """Revoke an arbiter token."""
    row = _run(lambda: Authenticator(_service(db).store).revoke(token_id, tournament_id))
    click.echo(f"{row['token_id']} revoked at {row['revoked_at']}")


@tournament.command()
@click.argument("tournament_id")
@DB
def tokens(tournament_id, db):
    """List a tournament's tokens (never their secrets)."""
    service = _service(db)

    def listed():
        service.events(tournament_id)  # NotFound for an unknown tournament
        return Authenticator(service.store).tokens.list_tokens(kind="arbiter", tournament_id=tournament_id)

    for row in _run(listed):
        say(
            f"{row['token_id']}  {row['holder']}  issued {row['created_at']}  "
            f"{'revoked ' + row['revoked_at'] if row['revoked_at'] else 'active'}"
        )


@tournament.command()
@click.argument("tournament_id")
@DB
def show(tournament_id, db):
    """Print a tournament: its players, and each round's boards with game ids and results."""
    from recorder.tournaments.render import entrants_text

    view = _run(lambda: _service(db).view(tournament_id))
    t = view.tournament
    say(
        f"{t.name} ({t.tournament_id}): {t.variant} {t.format}, {view.status}, "
        f"rounds {len(t.rounds)}/{t.planned_rounds or '?'}"
    )
    if t.time_control is not None:
        say(time_control_line(t.time_control))
    say(entrants_text(t))
    for rnd in t.rounds:
        click.echo(f"round {rnd.number} ({rnd.method})")
        for b in rnd.boards:
            outcome = view.outcomes.get((rnd.number, b.board))
            result = f"{outcome.result}{'' if outcome.played else ' (forfeit)'}" if outcome else "*"
            say(f"  board {b.board}: {t.entrant(b.south).name} - {t.entrant(b.north).name}  {result}")
        for bye in rnd.byes:
            say(f"  bye: {t.entrant(bye.player).name} ({bye.points})")


@tournament.command()
@click.argument("tournament_id")
@click.option("--layout", type=click.Choice(["2026", "16"]), default="2026", show_default=True, help="TRF version.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write to a file, not stdout.")
@DB
def trf(tournament_id, layout, output, db):
    """Print a tournament as a FIDE Tournament Report File (TRF-2026, or TRF-16)."""
    from recorder.players.particulars import sex_and_birth
    from recorder.players.service import Players

    service = _service(db)
    players = Players(service.recorder)
    text = _run(lambda: service.trf(tournament_id, layout, registry=lambda t: sex_and_birth(players, t)))
    if output:
        with open(output, "w", encoding="utf-8", newline="") as out:
            out.write(text)
    else:
        say_file(text)


@tournament.command("import-trf")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--variant", required=True, type=click.Choice(list(VARIANTS)))
@click.option(
    "--format",
    "format_",
    type=click.Choice(["swiss", "manual", "team_round_robin", "team_swiss"]),
    help="default: a team event for a file with team records (013), swiss otherwise",
)
@DB
@BY
def import_trf(path, variant, format_, db, by):
    """Create a tournament from a TRF (players, ratings, rounds played) and print its id."""
    try:
        with open(path, encoding="utf-8", newline="") as source:
            text = source.read()
    except UnicodeDecodeError as error:
        fail(f"{path}: not UTF-8 text (byte {error.start})")
    query = _loaded(bodies.trf_import_query_schema, {"variant": variant, **({"format": format_} if format_ else {})})
    from recorder.players.service import Players

    service = _service(db)
    registry = Players(service.recorder)
    written = _run(lambda: service.import_trf(text, query, recorded_by=by, survivor=registry.survivor_id))
    click.echo(written.tournament.tournament_id)
    if written.existed:
        say("this file made that tournament before: nothing new was stored", err=True)


@tournament.command()
@click.argument("tournament_id")
@AS_JSON
@DB
def check(tournament_id, as_json, db):
    """Pair every round again by the tournament's rules from the history before it and
    name each round whose stored pairing differs (exit status 1 if any does)."""
    from recorder.tournaments import views

    view, checks = _run(lambda: _service(db).check(tournament_id))
    report = views.check_json(view, checks)
    if as_json:
        click.echo(json.dumps(report, indent=2))  # ASCII: every stored character escaped
    else:
        for line in check_lines(report):
            say(line)
    if report["differing_rounds"]:
        raise SystemExit(1)


def check_lines(report: dict) -> list[str]:
    rules = report["pairing_rules"] or (f"Berger tables, {report['berger_order']}" if report["berger_order"] else None)
    lines = [f"{report['tournament_id']}: paired by {rules or 'no Dutch rules'}"]
    for r in report["rounds"]:
        how = "paired by hand" if r["manual"] else f"paired {r['method']}"
        verdict = {"same": "as the rules give", "differs": "DIFFERS", "no_pairing": "NO LEGAL PAIRING"}.get(
            r["status"], "not checked"
        )
        note = " (board order differs)" if r["board_order_differs"] else ""
        lines.append(f"round {r['round']} ({how}): {verdict}{note}{': ' + r['detail'] if r['detail'] else ''}")
        for f in r["forfeits"]:
            lines.append(f"  board {f['board']}: forfeit, {f['result']} (no game: not counted for colours)")
    differing = report["differing_rounds"]
    lines.append(f"{len(differing)} round(s) differ" + (f": {', '.join(map(str, differing))}" if differing else ""))
    return lines


@tournament.command()
@click.argument("tournament_id")
@click.argument("players", nargs=-1, type=int, required=True)
@click.option("--from", "first_round", type=int, default=None, help="First round (default: the next one).")
@click.option("--to", "last_round", type=int, default=None, help="Last round (default: the end).")
@DB
@BY
def forbid(tournament_id, players, first_round, last_round, db, by):
    """Forbid pairings: no two of PLAYERS (starting numbers) may meet."""
    body = {"players": list(players), "first_round": first_round, "last_round": last_round}
    body = _loaded(bodies.forbidden_pair_schema, body)
    _run(lambda: _service(db).forbid(tournament_id, body, recorded_by=by))
    click.echo(f"{', '.join(map(str, players))} will not be paired together")
