"""Tournament commands decide: ``decide_*(tournament, ...) -> [events]`` or a named error.

All validation of tournament writes lives here, before anything is stored. Commands
arrive as dicts whose JSON types the schemas have checked. ``outcomes`` maps
(round, board) to the board's PairingResult where one is known (service.py reads them
from the games).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from recorder.core.clocks import checked_time_control
from recorder.core.names import player_key
from recorder.errors import AlreadyExists, InvalidRecord, NotFound
from recorder.rules import rules_for

from . import (
    BOARD_RESULTS,
    C07_ROUND_ROBIN,
    C07_SWISS,
    FORMATS,
    MAX_BROADCAST_DELAY,
    MAX_DECLARED_BYES,
    MAX_FORBIDDEN_PAIRS,
    TEAM_FORMATS,
    TEAM_SWISS,
    TIEBREAKS,
    forbidden_pairs,
    knockout,
    team_swiss,
    team_tiebreaks,
    team_trf,
    teams,
    trf,
)
from .events import (
    ABSENCE_POINTS,
    BERGER_ANNEX_1,
    DEFAULT_ABSENCE_POINTS,
    DUTCH_2026,
    PAIRING_RULES,
    AbsenceCancelled,
    AbsenceDeclared,
    BoardResultRecorded,
    BroadcastSet,
    CorrectionRecorded,
    EntrantLinked,
    EntrantRegistered,
    PairingForbidden,
    PlayerCheckedIn,
    PlayerWithdrew,
    RoundPaired,
    TiebreaksChosen,
    TournamentCreated,
)
from .finish import check_open
from .fold import Entrant, PairedBoard, Tournament, bye_kind
from .pairing import DOWN, NORTH, SOUTH, UP, NoPairing, SwissPairing, SwissPlayer, pair_swiss, round_robin_round
from .pairing.team_swiss import COLOUR_PREFERENCES, TYPE_A
from .standings import BYE, FORFEIT, PLAYED, cells, round_complete, score

BYE_POINTS = (0, 0.5, 1)


def check_broadcast_delay(delay: object) -> int:
    """Whole seconds from 0 (no delay) to a day."""
    if type(delay) is not int or not 0 <= delay <= MAX_BROADCAST_DELAY:
        raise InvalidRecord(
            f"broadcast_delay is whole seconds from 0 to {MAX_BROADCAST_DELAY} (a day)", field="broadcast_delay"
        )
    return delay


def default_tiebreaks(format_: str, is_match: bool) -> list[str]:
    """FIDE's recommended list for the system, in C.07's codes: a round robin's, else the
    Swiss one's (a manual tournament is paired like a Swiss, by score); a match variant's
    round and hole differences after it."""
    chosen = list(C07_ROUND_ROBIN if format_ in ("round_robin", "double_round_robin") else C07_SWISS)
    return chosen + (["round_difference", "hole_difference"] if is_match else [])


def absence_points(chosen: object) -> float | None:
    """The bye of a declared absence: 0 or 0.5 (None: the default, a half point)."""
    if chosen is None:
        return None
    if chosen not in ABSENCE_POINTS or isinstance(chosen, bool):
        raise InvalidRecord("absence_points is 0 or 0.5", field="absence_points")
    return None if chosen == DEFAULT_ABSENCE_POINTS else chosen


def check_tiebreaks(tiebreaks: list) -> list[str]:
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise InvalidRecord(f"unknown tiebreaks {unknown}; known: {', '.join(TIEBREAKS)}", field="tiebreaks")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise InvalidRecord("a tiebreak is listed twice", field="tiebreaks")
    return list(tiebreaks)


def decide_create(body: dict) -> TournamentCreated:
    rules = rules_for(body["variant"], body.get("options") or {})  # GEN-29: InvalidRecord if unknown
    format_, rounds = body["format"], body.get("rounds")
    check_format_settings(format_, rounds, body)
    if body.get("bye_points", 1) not in BYE_POINTS:
        raise InvalidRecord("bye_points is 0, 0.5 or 1", field="bye_points")
    start, end = body.get("start_date"), body.get("end_date")
    if start and end and end < start:
        raise InvalidRecord("the tournament ends before it starts", field="end_date")
    tiebreaks = body.get("tiebreaks")
    tiebreaks = check_tiebreaks(tiebreaks) if tiebreaks is not None else default_tiebreaks(format_, rules.is_match)
    return TournamentCreated(
        name=body["name"],
        variant=rules.name,
        options=dict(rules.options),
        format=format_,
        rounds=rounds,
        tiebreaks=tiebreaks,
        bye_points=body.get("bye_points", 1),
        site=body.get("site"),
        start_date=start,
        end_date=end,
        rated=True if body.get("rated") else None,
        pairing_rules=pairing_rules(format_, body.get("pairing_rules")),
        acceleration=acceleration(format_, body.get("acceleration")),
        broadcast_delay=check_broadcast_delay(body.get("broadcast_delay", 0)) or None,
        finished_public=None if body.get("finished_public", True) else False,
        berger_order=BERGER_ANNEX_1 if format_ == "double_round_robin" else None,
        time_control=checked_time_control(body["time_control"]) if body.get("time_control") is not None else None,
        knockout=knockout.checked_settings(body.get("knockout")) if format_ == knockout.KNOCKOUT else None,
        team_boards=teams.checked_boards(body["team_boards"]) if format_ in TEAM_FORMATS else None,
        team_primary_score=checked_primary_score(format_, body.get("team_primary_score")),
        team_colour_preferences=checked_colour_preferences(format_, body.get("team_colour_preferences")),
        team_tiebreaks=team_tiebreak_order(format_, body.get("team_tiebreaks"), body.get("team_primary_score")),
        absence_points=absence_points(body.get("absence_points")),
        require_confirmation=True if body.get("require_confirmation") else None,
    )


def team_tiebreak_order(format_: str, order: list | None, primary: object = None) -> list[str] | None:
    """A team event's ranking order as given, else its default; no other format has one. A
    team Swiss's starts with its primary score (C.04.6 art. 1.2), game points first when it
    says so."""
    if format_ not in TEAM_FORMATS:
        if order is not None:
            raise InvalidRecord("a team event, and it alone, orders team tie-breaks", field="team_tiebreaks")
        return None
    first = "GPTS" if format_ == TEAM_SWISS and primary == "game_points" else "MPTS"
    default = team_tiebreaks.C07_TEAM_ROUND_ROBIN if first == "MPTS" else ("GPTS", "MPTS", "DE", "SB")
    checked = team_tiebreaks.checked_order(order) if order is not None else list(default)
    if format_ == TEAM_SWISS and checked[0] != first:
        raise InvalidRecord(f"a team Swiss's order starts with its primary score, {first}", field="team_tiebreaks")
    return checked


def check_format_settings(format_: str, rounds: int | None, body: dict) -> None:
    """The settings a format has, and only that format: its rounds, a knock-out's bracket,
    a team event's boards."""
    if format_ not in FORMATS:
        raise InvalidRecord(f"format must be one of {', '.join(FORMATS)}", field="format")
    if format_ != knockout.KNOCKOUT and body.get("knockout") is not None:
        raise InvalidRecord("knockout settings are a knock-out's", field="knockout")
    if format_ == knockout.KNOCKOUT and rounds is not None:
        raise InvalidRecord("a knock-out's rounds follow from its bracket and its results", field="rounds")
    if (format_ in TEAM_FORMATS) != (body.get("team_boards") is not None):
        raise InvalidRecord("a team event, and it alone, gives its boards a match", field="team_boards")
    if format_ in ("swiss", "manual", TEAM_SWISS) and not rounds:
        raise InvalidRecord(f"a {format_} tournament needs its number of rounds", field="rounds")
    if format_ not in ("swiss", "manual", TEAM_SWISS) and rounds is not None:
        raise InvalidRecord("a round robin's rounds follow from its players", field="rounds")


def checked_primary_score(format_: str, chosen: object) -> str | None:
    """A team Swiss ranks and pairs on match points unless it says game points (C.04.6
    art. 1.2); only a team Swiss says it. Match points are recorded as the absence of the field."""
    if chosen is None:
        return None
    if format_ != TEAM_SWISS:
        raise InvalidRecord("only a team Swiss chooses its primary score", field="team_primary_score")
    if chosen not in teams.PRIMARY_SCORES:
        raise InvalidRecord(
            f"team_primary_score is one of {', '.join(teams.PRIMARY_SCORES)}", field="team_primary_score"
        )
    return None if chosen == "match_points" else str(chosen)


def checked_colour_preferences(format_: str, chosen: object) -> str | None:
    """A team Swiss's colour preferences are type A unless it says type B or none (C.04.6
    art. 1.7); only a team Swiss says it. Type A is recorded as the absence of the field."""
    if chosen is None:
        return None
    if format_ != TEAM_SWISS:
        raise InvalidRecord("only a team Swiss chooses its colour preferences", field="team_colour_preferences")
    if chosen not in COLOUR_PREFERENCES:
        choices = ", ".join(COLOUR_PREFERENCES)
        raise InvalidRecord(f"team_colour_preferences is one of {choices}", field="team_colour_preferences")
    return None if chosen == TYPE_A else str(chosen)


def acceleration(format_: str, chosen: str | None) -> str | None:
    if chosen is None:
        return None
    if format_ != "swiss" or chosen != "baku":
        raise InvalidRecord("acceleration is baku (C.04.5.1), for a Swiss tournament", field="acceleration")
    return chosen


def pairing_rules(format_: str, chosen: str | None) -> str | None:
    """A Swiss is paired by the text in force (2026) unless the organiser names the 2017
    text; other formats record none (an absent field reads as the 2017 text)."""
    if format_ != "swiss":
        if chosen is not None:
            raise InvalidRecord("only a Swiss tournament is paired by the Dutch rules", field="pairing_rules")
        return None
    if chosen is not None and chosen not in PAIRING_RULES:
        raise InvalidRecord(f"pairing_rules is one of {', '.join(PAIRING_RULES)}", field="pairing_rules")
    return chosen or DUTCH_2026


def decide_import(text: str, body: dict, survivor: Callable[[str], str | None] = lambda player_id: player_id) -> list:
    """A tournament started in another program, from its TRF: the creation event (the
    variant and format from the request, the rest from the file), its players, and the
    rounds already played with their results; withdrawals, registry links (``survivor``:
    the registry's id of the player a link names, None when it holds none) and the rated
    flag from this service's own records. A fault names the line and column."""
    parsed = trf.parse(text)
    fields = trf.creation_fields(parsed)
    team_event = bool(parsed.teams or parsed.team_records or parsed.team_boards or parsed.team_format)
    told = team_trf.told_format(parsed) if team_event else {"format": None, "rounds": fields["rounds"]}
    format_ = imported_format(body.get("format"), told["format"])
    created = decide_create(
        {
            "name": fields["name"],
            "variant": body["variant"],
            "options": body.get("options") or {},
            "format": format_,
            "rounds": told["rounds"],
            "team_boards": team_trf.boards_of(parsed) if team_event else None,
            "team_primary_score": told.get("team_primary_score"),
            "team_colour_preferences": told.get("team_colour_preferences"),
            "tiebreaks": body.get("tiebreaks") or trf.listed_tiebreaks(parsed),
            "bye_points": fields["bye_points"],
            "site": fields.get("site"),
            "start_date": fields.get("start_date"),
            "end_date": fields.get("end_date"),
            "rated": fields["rated"],
            "time_control": fields.get("time_control"),
        }
    )
    created = replace(
        created,
        pairing_rules=fields["pairing_rules"] if created.format == "swiss" else None,
        initial_colour=fields["initial_colour"],
        acceleration=fields["acceleration"],
        lots_seed=fields.get("lots_seed"),
        absence_points=fields.get("absence_points"),
    )
    if team_event:
        return team_trf.team_import_events(parsed, created, survivor)
    return trf.import_events(parsed, created, survivor)


def imported_format(asked: str | None, team_format: str | None) -> str:
    """A file with team records is a team round robin's, or a team Swiss's when its XMR 0000
    FORMAT says so, and its format is that alone."""
    if team_format is None:
        return asked or "swiss"
    if asked not in (None, team_format):
        raise InvalidRecord(f"a file with team records (013) is imported as a {team_format}", field="format")
    return team_format


def decide_broadcast(t: Tournament, body: dict) -> list[BroadcastSet]:
    """A new delay (and finished games' publicity) for the public reads from now on; a
    read after it applies it to every move, earlier ones included."""
    delay = check_broadcast_delay(body["broadcast_delay"])
    finished_public = bool(body.get("finished_public", t.finished_public))
    return [BroadcastSet(broadcast_delay=delay, finished_public=finished_public)]


def decide_tiebreaks(t: Tournament, body: dict) -> list[TiebreaksChosen]:
    """The order is fixed before round 1, so nobody chooses it knowing who it favours."""
    if t.rounds:
        raise InvalidRecord("tiebreaks are chosen before round 1 is paired", field="tiebreaks")
    return [TiebreaksChosen(tiebreaks=check_tiebreaks(body["tiebreaks"]))]


def decide_register(t: Tournament, body: dict) -> list[EntrantRegistered]:
    """A new entrant; after round 1 only in a Swiss or manual event (a late entry).
    ``player_id``: the registry player he is (the service found him; his name by default)."""
    player_id = body.get("player_id")
    if player_id is not None and any(e.player_id == player_id for e in t.entrants):
        raise AlreadyExists(f"registry player {player_id} is already entered", field="player_id")
    name = (body.get("name") or "").strip()
    if not name:
        raise InvalidRecord("a player needs a name", field="name")
    if any(player_key(e.name) == player_key(name) for e in t.entrants):  # the games list's "same name"
        raise AlreadyExists(f"{name!r} is already registered", field="name")
    if t.rounds and t.is_round_robin:
        raise InvalidRecord("a round robin's players are fixed once round 1 is paired", field="name")
    if t.format in TEAM_FORMATS:
        raise InvalidRecord("a team event's players enter with their team (POST …/teams)", field="name")
    if knockout.seeded(t) is not None:
        raise InvalidRecord("a knock-out's players are fixed once its bracket is seeded", field="name")
    if t.planned_rounds and t.rounds and len(t.rounds) >= t.planned_rounds:
        raise InvalidRecord("every round is paired; it is too late to enter", field="name")
    return [EntrantRegistered(len(t.entrants) + 1, name, body.get("federation"), body.get("rating"), player_id)]


def decide_link(t: Tournament, number: int, player_id: str) -> list[EntrantLinked]:
    """An entrant named by his name alone linked to his registry record."""
    entrant = _entrant(t, number)
    if entrant.player_id is not None:
        raise AlreadyExists(f"{entrant.name} is registry player {entrant.player_id} already", field="number")
    if any(e.player_id == player_id for e in t.entrants):
        raise AlreadyExists(f"registry player {player_id} is already entered", field="player_id")
    return [EntrantLinked(number=number, player_id=player_id)]


def decide_withdraw(t: Tournament, number: int, body: dict) -> list[PlayerWithdrew]:
    entrant = _entrant(t, number)
    if entrant.withdrawn:
        raise InvalidRecord(f"{entrant.name} has already withdrawn", field="number")
    return [PlayerWithdrew(number=number, reason=body.get("reason"))]


def decide_absence(t: Tournament, body: dict) -> list[AbsenceDeclared]:
    """A player says he will miss a round still to pair: the pairing leaves him out of it
    and gives him the tournament's absence bye (``absence_points``)."""
    number, round_number = body["player"], body["round"]
    entrant = _entrant(t, number)
    _round_to_come(t, round_number)
    if entrant.withdrawn:
        raise InvalidRecord(f"{entrant.name} has withdrawn: he is paired in no round to come", field="player")
    if t.absence(number, round_number) is not None:
        raise AlreadyExists(f"{entrant.name} has already said he will miss round {round_number}", field="round")
    if len(t.absences) >= MAX_DECLARED_BYES:
        raise InvalidRecord(f"a tournament holds at most {MAX_DECLARED_BYES:,} declared absences", field="round")
    return [AbsenceDeclared(player=number, round=round_number, points=t.absence_points)]


def decide_check_in(t: Tournament, number: int, round_number: int, present: bool) -> list:
    """A player checks in for a round with his own sign-in: absent is the arbiter's absence
    decision (a round still to pair, left out of it with the absence bye); present is
    recorded once for a round still to pair or the round being played."""
    if not present:
        return decide_absence(t, {"player": number, "round": round_number})
    entrant = _entrant(t, number)
    if entrant.withdrawn:
        raise InvalidRecord(f"{entrant.name} has withdrawn: he is paired in no round to come", field="player")
    if round_number < len(t.rounds) or (t.planned_rounds and round_number > t.planned_rounds):
        raise InvalidRecord(f"round {round_number} is not the round being played nor one to come", field="round")
    if t.absence(number, round_number) is not None:
        raise InvalidRecord(
            f"{entrant.name} said he will miss round {round_number}: the arbiter takes it back", field="round"
        )
    if (round_number, number) in t.check_ins:
        raise AlreadyExists(f"{entrant.name} has checked in for round {round_number} already", field="round")
    return [PlayerCheckedIn(player=number, round=round_number)]


def decide_cancel_absence(t: Tournament, number: int, round_number: int) -> list[AbsenceCancelled]:
    """A declared absence taken back, while its round is still to pair."""
    entrant = _entrant(t, number)
    if t.absence(number, round_number) is None:
        raise NotFound(f"{entrant.name} has not said he will miss round {round_number}", round=round_number)
    _round_to_come(t, round_number)
    return [AbsenceCancelled(player=number, round=round_number)]


def _round_to_come(t: Tournament, round_number: int) -> None:
    """A round not yet paired, and not past the tournament's last."""
    if round_number < t.next_round:
        raise InvalidRecord(f"round {round_number} is paired already; the next is {t.next_round}", field="round")
    planned = t.planned_rounds
    if planned and round_number > planned:
        raise InvalidRecord(f"the tournament has {planned} rounds, not {round_number}", field="round")


def absence_byes(absent: dict[int, float]) -> list[dict]:
    """The byes of the players who declared they would miss the round, by their points."""
    return [{"player": p, "points": points, "kind": ABSENCE_KIND[points]} for p, points in sorted(absent.items())]


ABSENCE_KIND = {0: "zero", 0.5: "half", 1: "full"}


def decide_forbid(t: Tournament, body: dict) -> list[PairingForbidden]:
    """Players who must not meet (family, team-mates), from ``first_round`` on (default the
    next round) to ``last_round`` (default the end); rounds already paired stay as they are."""
    players = list(body["players"])
    if len(players) < 2 or len(set(players)) != len(players):
        raise InvalidRecord("name at least two different players", field="players")
    pairs = sum(forbidden_pairs(len(set(group.players))) for group in t.forbidden) + forbidden_pairs(len(players))
    if pairs > MAX_FORBIDDEN_PAIRS:
        raise InvalidRecord(f"a tournament forbids at most {MAX_FORBIDDEN_PAIRS:,} pairs in all", field="players")
    for number in players:
        _entrant(t, number)
    first = body.get("first_round") or t.next_round
    last = body.get("last_round")
    if first < t.next_round:
        raise InvalidRecord(
            f"round {first} is paired already; the first round is {t.next_round} or later", field="first_round"
        )
    if last is not None and last < first:
        raise InvalidRecord("the last round comes before the first", field="last_round")
    return [PairingForbidden(players=players, first_round=first, last_round=last)]


def decide_board_result(t: Tournament, round_number: int, board: int, body: dict, has_game: bool):
    """A result for a board on which no game was started (a game records its own): a game
    played on the board and recorded on paper (kind ``played``), or a forfeit (kind
    ``forfeit``, the default: the meaning every result had before kinds). A recorded result
    is replaced only by one that says it ``corrects`` it, as a new event; after the
    tournament finished, only after the admin's correction of the board (the guard's)."""
    _board(t, round_number, board)
    result, kind = body["result"], body.get("kind") or "forfeit"
    if result not in BOARD_RESULTS:
        raise InvalidRecord(f"result must be one of {', '.join(BOARD_RESULTS)}", field="result")
    if kind == "forfeit" and result == "draw":
        raise InvalidRecord("a forfeit is won, lost, or lost by both: a draw is played (kind played)", field="result")
    if kind == "played" and result == "double_forfeit":
        raise InvalidRecord("a double forfeit is no game played: give kind forfeit", field="result")
    if has_game:
        raise AlreadyExists("a game was started on this board: record its result in the game (GEN-28)")
    recorded = (round_number, board) in t.forfeits
    if recorded and not body.get("corrects"):
        raise AlreadyExists("this board already has a result: a new one says it corrects it (corrects: true)")
    if body.get("corrects") and not recorded:
        raise InvalidRecord("this board has no result to correct", field="corrects")
    return [BoardResultRecorded(round_number, board, result, kind, body.get("note"))]


def decide_correction(
    t: Tournament, round_number: int, board: int, body: dict, finished: bool, principal: dict
) -> list[CorrectionRecorded]:
    """The admin's correction of a board of a finished tournament (``finished``: its
    status now; a tournament corrected once stays open to corrections)."""
    _board(t, round_number, board)
    if not finished and not t.corrections:
        raise InvalidRecord(
            f"tournament {t.tournament_id} is not finished: its arbiter records this board's result", field="round"
        )
    reason = " ".join((body.get("reason") or "").split())
    if not reason:
        raise InvalidRecord("a correction says why: give a reason", field="reason")
    return [CorrectionRecorded(round_number, board, reason, principal)]


def game_setup(t: Tournament, round_number: int, board: int, body: dict) -> dict:
    """The POST /api/games body of the game on a board: the tournament decides everything
    but who moves first (south unless the arbiter says otherwise) and the date."""
    b = _board(t, round_number, board)
    if (round_number, board) in t.forfeits:
        raise AlreadyExists("this board's result is recorded in the tournament (a forfeit, or an imported game)")
    rules = rules_for(t.variant, t.options)
    first = body.get("first_player")
    if rules.has_first_player and first is None:
        first = "south"
    south, north = t.seated(b.south), t.seated(b.north)
    setup = {
        "variant": t.variant,
        "options": dict(t.options),
        "south": south.name,
        "north": north.name,
        "south_player": south.player_id,
        "north_player": north.player_id,
        "first_player": first,
        "event": t.name,
        "site": t.site,
        "date": body.get("date") or t.start_date,
        "round": round_number,
        "board": board,
        "tournament_id": t.tournament_id,
        "time_control": knockout.time_control_of(t, round_number, board),
    }
    return {k: v for k, v in setup.items() if v is not None}


# --------------------------------------------------------------------------- pairing


def decide_pair(t: Tournament, outcomes: dict, body: dict) -> list:
    """The next round: manual boards when given, else Berger or Swiss by the format."""
    check_open(t)
    number = t.next_round
    planned = t.planned_rounds
    if planned is not None and number > planned:
        raise InvalidRecord(f"all {planned} rounds are paired")
    if t.rounds and not round_complete(t, outcomes, len(t.rounds)):
        raise InvalidRecord(f"round {len(t.rounds)} is not finished: every board needs a result first")
    if t.format == knockout.KNOCKOUT:
        return knockout.decide_pair(t, outcomes, body)
    if t.format in TEAM_FORMATS:
        if body.get("boards") is not None:
            raise InvalidRecord("a team event's boards are laid out by its teams' board order", field="boards")
        if t.format == TEAM_SWISS:
            return team_swiss.decide_team_swiss_pair(t, outcomes)
        return teams.decide_team_pair(t)
    if body.get("boards") is not None:
        return [manual_round(t, number, body["boards"], body.get("byes") or [])]
    if body.get("byes"):
        raise InvalidRecord("byes are given only with manual boards", field="byes")
    if t.format == "manual":
        raise InvalidRecord("a manual tournament needs its boards", field="boards")
    if t.is_round_robin:
        return berger(t, number)
    return [swiss(t, outcomes, number)]


def manual_round(t: Tournament, number: int, boards: list, byes: list) -> RoundPaired:
    active = {e.number for e in t.active_in(number)}
    absent = t.absent_from(number)
    placed = [p for b in boards for p in (b["south"], b["north"])] + [b["player"] for b in byes]
    for player in placed:
        if player not in active:
            raise InvalidRecord(f"player {player} cannot be paired in round {number}", field="boards")
        if player in absent:
            raise InvalidRecord(
                f"player {player} said he will miss round {number}: take his absence back first", field="boards"
            )
    if len(set(placed)) != len(placed):
        raise InvalidRecord("a player is paired twice", field="boards")
    if any(b["points"] not in BYE_POINTS for b in byes):
        raise InvalidRecord("a bye scores 0, 0.5 or 1", field="byes")
    if not boards and not byes:
        raise InvalidRecord("a round needs at least one board or bye", field="boards")
    return RoundPaired(
        round=number,
        method="manual",
        boards=[{"board": i, "south": b["south"], "north": b["north"]} for i, b in enumerate(boards, start=1)],
        byes=[{"player": b["player"], "points": b["points"]} for b in byes] + absence_byes(absent),
    )


def round_robin_field(t: Tournament) -> list[Entrant]:
    """The players of the Berger table: those in the event when round 1 is paired."""
    return [e for e in t.entrants if e.is_active_in(1)]


def annex_order(t: Tournament) -> bool:
    """Whether a double round robin reverses its first cycle's last two rounds (C.05 Annex
    1): those created since; older ones keep the order they began with, since a table
    changed mid-event would pair the round already played again."""
    return t.berger_order == BERGER_ANNEX_1


def berger(t: Tournament, number: int) -> list:
    """Berger tables on the field's order; boards against a withdrawn player are forfeits.
    A player who declared he would miss the round is left out with his absence bye, and
    his scheduled opponent, ready to play, has a full-point bye (as a forfeit would score)."""
    field = round_robin_field(t)
    if len(field) < 2:
        raise InvalidRecord("a round robin needs at least two players")
    pairs, off = round_robin_round(len(field), number, t.format == "double_round_robin", annex_order(t))
    absent = t.absent_from(number)
    seated = [(field[s - 1].number, field[n - 1].number) for s, n in pairs]
    kept = [(s, n) for s, n in seated if s not in absent and n not in absent]
    boards = [{"board": i, "south": s, "north": n} for i, (s, n) in enumerate(kept, start=1)]
    byes = [{"player": field[off - 1].number, "points": 0}] if off and field[off - 1].number not in absent else []
    stood_up = sorted(p for pair in seated if set(pair) & absent.keys() for p in pair if p not in absent)
    byes += absence_byes(absent) + [{"player": p, "points": 1, "kind": "full"} for p in stood_up]
    events: list = [RoundPaired(round=number, method="berger", boards=boards, byes=byes)]
    for b in boards:
        gone = [not t.seated(b[seat]).is_active_in(number) for seat in ("south", "north")]
        if any(gone):
            result = "double_forfeit" if all(gone) else ("north_wins" if gone[0] else "south_wins")
            events.append(BoardResultRecorded(number, b["board"], result, "forfeit", "withdrawal"))
    return events


def swiss_players(t: Tournament, outcomes: dict, number: int, absent: frozenset = frozenset()) -> list[SwissPlayer]:
    """The round's players as the pairing sees them. Pairing numbers: by rating (highest
    first, unrated last, then starting number); under the 2026 text numbered among the
    players who hold a number (this round's, and those paired before: numbered()), so E.5
    alternates down the boards however many have not yet come.
    ``absent``: players not to be paired this round (a bye they asked for)."""
    table = cells(t, outcomes)
    rules_2026 = t.pairing_rules == DUTCH_2026
    playing = [e for e in t.active_in(number) if e.number not in absent]
    ranked = numbered(t, playing) if rules_2026 else t.entrants
    by_strength = sorted(ranked, key=strength)
    rank = {e.number: i for i, e in enumerate(by_strength, start=1)}
    virtual = virtual_points(t, number)
    barred = forbidden_partners(t, number)
    floats = float_histories(table, unplayed_downfloat=rules_2026)
    pab = pairing_allocated_byes(t)
    return [
        SwissPlayer(
            number=e.number,
            rank=rank[e.number],
            score=int(score(table[e.number]) * 2) + virtual.get(e.number, 0),
            opponents=met(table[e.number], played_only=rules_2026) | barred.get(e.number, set()),
            colours=tuple(c.colour for c in table[e.number] if c.kind == PLAYED and c.colour),  # a game has its seat
            had_bye=(no_bye_2026 if rules_2026 else no_bye_2017)(table[e.number], pab.get(e.number, ())),
            floats=floats[e.number],
            unplayed=sum(1 for c in table[e.number] if c.kind != PLAYED),
        )
        for e in playing
    ]


def numbered(t: Tournament, playing: list) -> list:
    """The players who hold pairing numbers (2026): this round's, and every one who was
    paired (on a board or given the pairing-allocated bye) in a round before."""
    paired_before = {p for rnd in t.rounds for b in rnd.boards for p in b.players()}
    paired_before |= {b.player for rnd in t.rounds for b in rnd.byes if bye_kind(rnd, b) == "pab"}
    here = {e.number for e in playing}
    return [e for e in t.entrants if e.number in here or e.number in paired_before]


def met(row: list, played_only: bool = False) -> frozenset:
    """Who a player may not meet again (C.1): under the 2026 text those he has played (a
    forfeited game was not played, so they may still meet); under 2017 as read here, a
    forfeit counts as a meeting too."""
    return frozenset(c.opponent for c in row if c.opponent is not None and (c.kind == PLAYED or not played_only))


def strength(e: Entrant) -> tuple:
    """The initial ranking (C.04.2): rating, highest first; unrated last; starting number."""
    return (e.rating is None, -(e.rating or 0), e.number)


def virtual_points(t: Tournament, number: int) -> dict[int, int]:
    """C.04.5.1 Baku acceleration, in half-points: the accelerated rounds are the first half
    of the tournament (rounded up); in the first half of those (rounded up) every player of
    GA pairs with 1 virtual point, in the rest with 0.5. GA: the first 2 * ceil(N / 4) of the
    round 1 field by the initial ranking, and any later entry ranked above its last player."""
    planned = t.planned_rounds
    if t.acceleration != "baku" or not planned:
        return {}
    accelerated = -(-planned // 2)
    if number > accelerated:
        return {}
    points = 2 if number <= -(-accelerated // 2) else 1
    first = sorted(t.active_in(1), key=strength)
    if not first:
        return {}
    last = first[min(2 * -(-len(first) // 4), len(first)) - 1]
    return {e.number: points for e in t.entrants if strength(e) <= strength(last)}


def forbidden_partners(t: Tournament, number: int) -> dict[int, set]:
    """Player -> those he may not meet in this round (pairing_forbidden): left out of the
    pairing like a game already played (C.1)."""
    barred: dict[int, set] = {}
    for group in t.forbidden:
        if group.applies_to(number):
            members = set(group.players)  # once each: a group stored before the limits may repeat one
            for player in members:
                barred.setdefault(player, set()).update(members)
    for player, others in barred.items():
        others.discard(player)
    return barred


def pairing_allocated_byes(t: Tournament) -> dict[int, tuple[int, ...]]:
    """Player -> the rounds in which he had the pairing-allocated bye."""
    found: dict[int, tuple[int, ...]] = {}
    for rnd in t.rounds:
        for bye in rnd.byes:
            if bye_kind(rnd, bye) == "pab":
                found[bye.player] = found.get(bye.player, ()) + (rnd.number,)
    return found


def no_bye_2017(row: list, pab_rounds: tuple) -> bool:
    """C.04.1.d (2017): a bye (of any kind: the rule as this service first read it) or a
    forfeit win rules out the pairing-allocated bye."""
    return any(c.kind == BYE or (c.kind == FORFEIT and c.points == 1) for c in row)


def no_bye_2026(row: list, pab_rounds: tuple) -> bool:
    """C.04.1.4 (2026): the pairing-allocated bye already, or a full point scored in a round
    without playing (a forfeit win, a full-point bye), rules it out; a half-point bye does not."""
    return bool(pab_rounds) or any(c.kind in (BYE, FORFEIT) and c.points is not None and c.points >= 1 for c in row)


def float_histories(table: dict, unplayed_downfloat: bool = False) -> dict[int, tuple]:
    """A.4.b round by round: after a game played between different scores the higher player
    has a downfloat, the lower an upfloat. Byes, forfeits and absences give none, except
    under the 2026 text (1.4.3): scoring more than a loss without playing is a downfloat."""
    before = {n: 0 for n in table}
    history: dict[int, list] = {n: [] for n in table}
    for r in range(len(next(iter(table.values()), []))):
        for n, row in table.items():
            c = row[r]
            if c.kind != PLAYED:
                history[n].append(DOWN if unplayed_downfloat and c.points else None)
            else:
                mine, theirs = before[n], before[c.opponent]
                history[n].append(DOWN if mine > theirs else UP if mine < theirs else None)
        for n, row in table.items():
            before[n] += row[r].points or 0
    return {n: tuple(h) for n, h in history.items()}


def swiss_pairing(t: Tournament, outcomes: dict, number: int, absent: frozenset = frozenset()) -> SwissPairing:
    """Round ``number`` by the tournament's Dutch rules, from the rounds before it."""
    players = swiss_players(t, outcomes, number, absent)
    if len(players) < 2:
        raise InvalidRecord("a Swiss round needs at least two players")
    final = number if number == t.planned_rounds else None
    initial = NORTH if t.initial_colour == "black" else SOUTH
    return pair_swiss(players, final_round=final, initial=initial, rules=t.pairing_rules)


def swiss(t: Tournament, outcomes: dict, number: int) -> RoundPaired:
    """The round by the Dutch rules, the players who declared they would miss it left out
    (each with his absence bye)."""
    absent = t.absent_from(number)
    try:
        pairing = swiss_pairing(t, outcomes, number, frozenset(absent))
    except NoPairing as error:
        raise InvalidRecord(str(error), field="boards") from None
    boards = [{"board": i, "south": s, "north": n} for i, (s, n) in enumerate(pairing.boards, start=1)]
    byes = [{"player": pairing.bye, "points": t.bye_points}] if pairing.bye is not None else []
    return RoundPaired(round=number, method="swiss", boards=boards, byes=byes + absence_byes(absent))


# --------------------------------------------------------------------------- lookups


def _entrant(t: Tournament, number: int) -> Entrant:
    entrant = t.entrant(number)
    if entrant is None:
        raise NotFound(f"no player {number} in {t.name}", number=number)
    return entrant


def _board(t: Tournament, round_number: int, board: int) -> PairedBoard:
    rnd = t.round(round_number)
    found: PairedBoard | None = rnd.board(board) if rnd is not None else None
    if found is None:
        raise NotFound(f"round {round_number} has no board {board}", round=round_number, board=board)
    return found
