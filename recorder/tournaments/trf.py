"""FIDE Tournament Report Files: TRF-2026 (and the older TRF-16 layout) read and written (pure).

The layout is FIDE's "Format of Tournament Report File, Version 2026" (approved by the
Council on 12/05/2025): fixed columns, one record per line, the record's kind in
columns 1-3. A player record (001) holds the starting number (5-8), sex (10), title
(11-13), name (15-47), rating (49-52), federation (54-56), FIDE number (58-68), birth
date (70-79), points (81-84), rank (86-89), then ten columns a round from column 92:
the opponent (4 digits, 0000 for none), the colour (w, b or -) and the result code.
TRF-16 is the same file without the records the 2026 version added (142 onwards).

``parse`` checks every line and refuses with ``TrfError`` naming the line and column,
holding the file to the limits the API holds a tournament to: names as every name is
taken (``recorder.core.names``), at most 99 rounds, ratings to 4000, numbers in ASCII
digits, calendar dates, forbidden-pairs groups of 2 to 50 different players and at most
10,000 forbidden pairs in all (each round's pairing, and the checker, work through them);
``write`` turns a tournament and its board results into a file; ``import_events``
turns a parsed file into the events of a new tournament. Seats are colours: south is
White (docs/tournaments.md).

What a tournament knows that TRF has no record for travels in this service's extension
record ``XMR`` (other programs ignore a code they do not know): the rated flag, late
entries, withdrawals and registry links, the categories and the prize list (as stored, in
JSON: ``categories.restored_category`` and ``restored_prize_list`` check them as the API
checks what it takes); a withdrawal also as TRF-2026's ``240 Z``
zero-point byes for the rounds still to pair, so other programs leave the player out
too. Export, import, export gives the same file, and the same tournament.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from recorder.core.clocks import checked_time_control, time_control_of, time_control_text
from recorder.core.names import name_problem, shown_problem
from recorder.errors import InvalidRecord

from . import (
    FIDE_TIEBREAKS,
    MAX_DECLARED_BYES,
    MAX_FORBIDDEN_GROUP,
    MAX_FORBIDDEN_PAIRS,
    MAX_RATING,
    MAX_ROUNDS,
    TEAM_SWISS,
    TIEBREAKS,
    forbidden_pairs,
    tiebreaks,
)
from .categories import MAX_CATEGORIES, restored_category, restored_prize_list
from .events import (
    DEFAULT_ABSENCE_POINTS,
    DUTCH_2026,
    OLD_DUTCH,
    AbsenceDeclared,
    BoardResultRecorded,
    CategoriesSet,
    EntrantRegistered,
    PairingForbidden,
    PlayerWithdrew,
    PrizesSet,
    RoundPaired,
    TournamentCreated,
    TournamentEvent,
)
from .fold import Tournament, bye_kind
from .pairing import SOUTH
from .prizes import NOT_SHARED
from .standings import ABSENT, BYE, FORFEIT, PENDING, PLAYED, cells, standings

LAYOUTS = ("2026", "16")
ROUND_START = 92  # column of round 1's opponent; each round takes ten columns
TEXT_TAGS = ("012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122", "132")
LATER_TAGS = ("142", "152", "162", "172", "182", "192", "202", "212", "222", "240", "250", "260")
TEAM_TAGS = ("310", "320", "330", "300", "362", "801", "802")  # team records not read here (013 and 352 are)
TEAM_NAME_WIDTH = 32  # 013: the team's name in columns 5-36, its players' numbers from 37, five columns each
TEAM_PLAYERS_COLUMN = 37
GAME_CODES = "+-WDL1=0"
BYE_CODES = "UHFZ"
PARTNER_CODES = {
    "1": {"0"},
    "0": {"1"},
    "=": {"="},
    "+": {"-"},
    "-": {"+", "-"},
    "W": {"L"},
    "L": {"W"},
    "D": {"D"},
    "": {""},
}
BYE_CODE = {"pab": "U", "full": "F", "half": "H", "zero": "Z"}
BYE_OF_CODE = {"U": "pab", "F": "full", "H": "half", "Z": "zero"}
ABSENCE_CODE = {1: "F", 0.5: "H", 0: "Z"}  # a declared absence's 240 type, by its points
SYSTEMS = {"FIDE_DUTCH_2025": None, "FIDE_DUTCH_2025_BAKU": "baku", "FIDE_DUTCH": None, "FIDE_DUTCH_BAKU": "baku"}
POINT_CODES = "WDLAPX"
DEFAULT_POINTS = {"W": Fraction(1), "D": Fraction(1, 2), "L": Fraction(0), "A": Fraction(0)}
TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", "G", "M", "F", "C", "WG", "WM", "WF", "WC")
DATE = re.compile(r"([0-9]{4})/([0-9]{2})/([0-9]{2})")
DIGITS = re.compile(r"[0-9]+")  # ASCII: str.isdigit() takes "²" and "١", which int() refuses or reads
NAMED_TAGS = {"012": "the tournament's name", "022": "the site"}  # the text records a tournament keeps
# This service's extension record: what the tournament knows that TRF has no record for.
# Other programs ignore a record whose code they do not know; FIDE's codes are digits.
EXTENSION = "XMR"
KEYWORD_COLUMN, VALUE_COLUMN = 10, 20  # XMR NNNN KEYWORD   value
REGISTRY_ID = re.compile(r"p-[0-9a-f]{1,64}")  # as the API takes a player_id
BYES_PER_LINE = 20  # the players a written 240 line names
PLAYER_KEYWORDS = {"ENTERED": "entries", "WITHDRAWN": "withdrawals", "PLAYER": "links"}  # -> TrfFile field
ROUND_KEYWORDS = {
    "ENTERED": ("the first round he could be paired in", 2),
    "WITHDRAWN": ("the last round before he withdrew", 0),
}
TOURNAMENT_KEYWORDS = {  # XMR 0000 ...: the tournament's own records
    "RATED": "rated",
    "TIEBREAKS": "own_tiebreaks",
    "LOTS": "lots_seed",
    "ABSENCE": "absence",
    "CATEGORY": "categories",  # one record a category, in order
    "PRIZES": "prize_list",
    "BOARDS": "team_boards",  # a team event's boards a match
    "TEAM": "team_records",  # one record a team, in the order of the 013 records
    "LINEUP": "team_lineups",  # one record a line-up of a paired round, by round then team
    "FORMAT": "team_format",  # a team Swiss's format, rounds and primary score (absent: a team round robin)
}
LISTED = ("CATEGORY", "TEAM", "LINEUP")  # the tournament's records said once an item
MAX_JSON = 16_000  # characters of a JSON value: above the longest category or prize list the API takes
LOTS_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
ABSENCE_RULES = {"0.0": 0, "0.5": 0.5}  # XMR 0000 ABSENCE: the points of a declared absence's bye
KNOWN = ", ".join([*TOURNAMENT_KEYWORDS, *PLAYER_KEYWORDS])


class TrfError(InvalidRecord):
    """A line of a TRF that does not read: names the line and column (1-based)."""

    title = "Invalid tournament report file"

    def __init__(self, line: int, column: int, detail: str):
        super().__init__(f"line {line}, column {column}: {detail}", line=line, column=column)


# --------------------------------------------------------------------------- the parsed file


@dataclass(frozen=True)
class TrfRound:
    """One round of one player: opponent (None: 0000), colour (w, b or None), result code."""

    opponent: int | None
    colour: str | None
    code: str  # upper case; "" for a blank (a game without a result yet, or a zero bye)
    column: int


@dataclass(frozen=True)
class TrfPlayer:
    line: int
    number: int
    name: str
    sex: str = ""
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    points: Fraction | None = None
    rounds: tuple[TrfRound, ...] = ()


@dataclass(frozen=True)
class TrfTeam:
    """A team record (013): the team's name and its players' starting numbers, board order."""

    line: int
    name: str
    members: tuple[int, ...]


@dataclass(frozen=True)
class TrfFile:
    text: dict = field(default_factory=dict)  # tag -> (line, text) for 012 ... 132
    planned: tuple | None = None  # (line, rounds) from 142
    initial_colour: str | None = None  # W or B (152)
    points: dict = field(default_factory=dict)  # 162: code -> points
    points_line: int = 0
    system: tuple | None = None  # (line, code) from 192
    forbidden: tuple = ()  # 260: (first round, last round, (players...))
    players: tuple[TrfPlayer, ...] = ()
    declared: tuple = ()  # 240: (round, player, line, column, type F/H/Z), byes declared for rounds to come
    tiebreaks: tuple | None = None  # (line, [codes]) from 202: C.07's codes after the points
    own_tiebreaks: tuple | None = None  # (line, [names]) from XMR 0000 TIEBREAKS: this service's list as it is
    lots_seed: str | None = None  # XMR 0000 LOTS: the drawing of lots' seed
    absence: float | None = None  # XMR 0000 ABSENCE: the points of an absence's bye (absent: a half point)
    rated: int | None = None  # the line of XMR 0000 RATED
    entries: dict = field(default_factory=dict)  # XMR ENTERED: player -> (line, first round he could play)
    withdrawals: dict = field(default_factory=dict)  # XMR WITHDRAWN: player -> (line, last round paired)
    links: dict = field(default_factory=dict)  # XMR PLAYER: player -> (line, registry player id)
    categories: tuple[dict, ...] = ()  # XMR 0000 CATEGORY: each category as stored (categories.py)
    prize_list: PrizesSet | None = None  # XMR 0000 PRIZES: the prize list, its sharing and currency
    teams: tuple[TrfTeam, ...] = ()  # 013: a team event's teams, team 1 first
    team_records: tuple = ()  # XMR 0000 TEAM: (line, JSON value) of each, team 1 first
    team_lineups: tuple = ()  # XMR 0000 LINEUP: (line, JSON value) of each, a paired round's line-up
    team_boards: tuple | None = None  # XMR 0000 BOARDS: (line, boards a match)
    team_format: tuple | None = None  # XMR 0000 FORMAT: (line, JSON value), a team Swiss's

    @property
    def played_rounds(self) -> int:
        return max((len(p.rounds) for p in self.players), default=0)

    def point_value(self, code: str) -> Fraction:
        """What a result scores under 162 (W, D, L, A, P for the bye, X unknown)."""
        if code == "P":
            return self.points.get("P", self.points.get("W", DEFAULT_POINTS["W"]))
        if code == "X":
            return self.point_value("D")
        return self.points.get(code, DEFAULT_POINTS[code])


def parse(text: str) -> TrfFile:
    """Every line read and checked; the first fault raises TrfError(line, column)."""
    found: dict = {
        "text": {},
        "points": {},
        "forbidden": [],
        "players": [],
        "forbidden_pairs": 0,
        "declared": [],
        "declared_keys": set(),  # (round, player), so a repeat is found at once
        "entries": {},
        "withdrawals": {},
        "links": {},
        "registry_ids": set(),  # those the links name, so a repeat is found at once
        "categories": [],  # (line, JSON value) of each XMR 0000 CATEGORY
        "teams": [],
        "team_records": [],
        "team_lineups": [],
    }
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        read_line(found, number, line.rstrip())
    players = tuple(found["players"])
    if not players:
        raise TrfError(1, 1, "the file has no player record (001)")
    trf = TrfFile(
        text=found["text"],
        planned=found.get("planned"),
        initial_colour=found.get("initial_colour"),
        points=found["points"],
        points_line=found.get("points_line", 0),
        system=found.get("system"),
        forbidden=tuple(found["forbidden"]),
        players=players,
        declared=tuple(found["declared"]),
        tiebreaks=found.get("tiebreaks"),
        own_tiebreaks=found.get("own_tiebreaks"),
        lots_seed=found.get("lots_seed"),
        absence=found.get("absence"),
        rated=found.get("rated"),
        entries=found["entries"],
        withdrawals=found["withdrawals"],
        links=found["links"],
        teams=tuple(found["teams"]),
        team_records=tuple(found["team_records"]),
        team_lineups=tuple(found["team_lineups"]),
        team_boards=found.get("team_boards"),
        team_format=found.get("team_format"),
        **restored_prizes(found),
    )
    check_players(trf)
    check_extensions(trf)
    return trf


def read_line(found: dict, number: int, line: str) -> None:
    tag = line[:3]
    if not line or tag == "###":
        return
    if tag in TEAM_TAGS:
        raise TrfError(number, 1, f"team record {tag} is not read here; a team is its 013 record")
    if len(line) > 3 and line[3] != " ":
        raise TrfError(number, 4, "a space must follow the record's code")
    if tag == "001":
        found["players"].append(read_player(number, line))
    elif tag in TEXT_TAGS:
        found["text"][tag] = (number, read_text(number, line, tag))
    elif tag == "142":
        found["planned"] = (number, whole(number, line, 5, len(line), "the number of rounds", low=1, high=MAX_ROUNDS))
    elif tag == "152":
        found["initial_colour"] = one_of(number, line, 5, "WB", "the initial colour")
    elif tag == "162":
        found["points"] = read_points(number, line)
        found["points_line"] = number
    elif tag == "192":
        found["system"] = (number, line[4:].strip())
    elif tag == "260":
        found["forbidden"].append(read_forbidden(number, line))
        found["forbidden_pairs"] += forbidden_pairs(len(found["forbidden"][-1][2]))
        if found["forbidden_pairs"] > MAX_FORBIDDEN_PAIRS:
            raise TrfError(number, 13, f"a tournament forbids at most {MAX_FORBIDDEN_PAIRS:,} pairs in all")
    elif tag == "240":
        read_declared(found, number, line)
    elif tag == EXTENSION:
        read_extension(found, number, line)
    elif tag == "013":
        found["teams"].append(read_team(number, line))
    elif tag == "202":
        found["tiebreaks"] = (number, read_tiebreaks(number, line))
    elif tag in ("172", "182", "212", "222", "352"):
        return  # informative for this service: ranking method, controller, team tiebreaks, time control, colours
    elif tag == "250":
        raise TrfError(number, 1, "explicit accelerations (250) are not supported; the rounds' own codes are read")
    else:
        raise TrfError(number, 1, f"unknown record {tag!r}")


def read_team(number: int, line: str) -> TrfTeam:
    """013: the name in columns 5-36, then each player's starting number in four columns,
    a blank between two (37-40, 42-45, ...), as TRF-16 lays the team section out."""
    name = cut(line, 5, 4 + TEAM_NAME_WIDTH).strip()
    if not name:
        raise TrfError(number, 5, "a team record names its team")
    if shown_problem(name) is not None:
        raise TrfError(number, 5, f"the team's name: {shown_problem(name)}")
    members = []
    for column in range(TEAM_PLAYERS_COLUMN, len(line) + 1, 5):
        if column > TEAM_PLAYERS_COLUMN and line[column - 2] != " ":
            raise TrfError(number, column - 1, "a blank separates two starting numbers")
        members.append(whole(number, line, column, column + 3, "a team player's starting number", low=1))
    if not members:
        raise TrfError(number, TEAM_PLAYERS_COLUMN, "a team record names its players")
    return TrfTeam(number, name, tuple(members))


def cut(line: str, first: int, last: int) -> str:
    """Columns first..last (1-based, inclusive), blanks where the line is shorter."""
    return line[first - 1 : last].ljust(last - first + 1)


def whole(number: int, line: str, first: int, last: int, what: str, low: int = 0, high: int | None = None) -> int:
    value = cut(line, first, last).strip()
    # More digits than any bound is past every bound (and int() refuses past 4,300 digits).
    digits = value.lstrip("0") or "0"
    read = (int(digits) if len(digits) <= 18 else 10**18) if DIGITS.fullmatch(value) else None
    if read is None or read < low:
        least = f" from {low}" if low else ""
        raise TrfError(number, first, f"{what} must be a whole number{least}, not {value[:12]!r}")
    if high is not None and read > high:
        raise TrfError(number, first, f"{what} is at most {high}, not {value[:12]}")
    return read


def read_text(number: int, line: str, tag: str) -> str:
    """A text record; the tournament's name and site are names as any other."""
    text = line[4:].strip()
    problem = name_problem(text) if tag in NAMED_TAGS else None
    if problem is not None:
        raise TrfError(number, 5, f"{NAMED_TAGS[tag]}: {problem}")
    return text


def one_of(number: int, line: str, column: int, allowed: str, what: str) -> str:
    value = cut(line, column, column)
    if value.upper() not in allowed or value == " ":
        raise TrfError(number, column, f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return value.upper()


def decimal(number: int, line: str, first: int, last: int, what: str) -> Fraction | None:
    value = cut(line, first, last).strip()
    if not value:
        return None
    if not re.fullmatch(r"[0-9]{1,3}(\.[0-9])?", value):
        raise TrfError(number, first, f"{what} must read like 11.5, not {value!r}")
    return Fraction(value)


def read_points(number: int, line: str) -> dict:
    points = {}
    for column in range(6, len(line) + 1, 9):
        code = one_of(number, line, column, POINT_CODES, "a point code")
        value = decimal(number, line, column + 1, column + 4, "points")
        if value is None:
            raise TrfError(number, column + 1, f"no points for {code}")
        points[code] = value
    return points


def read_forbidden(number: int, line: str) -> tuple:
    """Players no two of whom may meet: 2 to 50 different ones, as the API takes them."""
    first = whole(number, line, 5, 7, "the first round", low=1, high=MAX_ROUNDS)
    last = whole(number, line, 9, 11, "the last round", low=first, high=MAX_ROUNDS)
    columns = range(13, len(line) + 1, 5)
    if len(columns) > MAX_FORBIDDEN_GROUP:
        column = columns[MAX_FORBIDDEN_GROUP]
        raise TrfError(number, column, f"a prohibited pairing names at most {MAX_FORBIDDEN_GROUP} players")
    players: list[int] = []
    for column in columns:
        player = whole(number, line, column, column + 3, "a starting number", low=1)
        if player in players:
            raise TrfError(number, column, f"a prohibited pairing names player {player} twice")
        players.append(player)
    if len(players) < 2:
        raise TrfError(number, 13, "a prohibited pairing names at least two players")
    return (first, last, tuple(players), number)


def read_tiebreaks(number: int, line: str) -> list[str]:
    """202: C.07's codes after the points (``PTS`` first may be named), separated by commas
    or blanks; each one this service computes, once."""
    codes: list[str] = []
    for found in re.finditer(r"[^,\s]+", line[4:]):
        code, column = found.group(), found.start() + 5
        if code.upper() == "PTS" and not codes:
            continue
        try:
            canonical = tiebreaks.parse(code.upper()).code
        except tiebreaks.UnknownTiebreak:
            canonical = ""
        if canonical not in FIDE_TIEBREAKS:
            raise TrfError(number, column, f"{code[:12]!r} is not a C.07 tie-break computed here")
        if canonical in codes:
            raise TrfError(number, column, f"{canonical} is named twice")
        codes.append(canonical)
    return codes


def read_declared(found: dict, number: int, line: str) -> None:
    """240: byes declared for a round ahead, F (full point), H (half) or Z (zero): a player's
    zero-point byes for every round to come are his withdrawal, any other his absences
    (``check_declared``)."""
    kind = one_of(number, line, 5, "FHZ", "the type of bye")
    round_number = whole(number, line, 7, 9, "the round", low=1, high=MAX_ROUNDS)
    for column in range(11, max(len(line), 11) + 1, 5):
        if len(found["declared"]) >= MAX_DECLARED_BYES:
            raise TrfError(number, column, f"a file declares at most {MAX_DECLARED_BYES:,} zero-point byes")
        player = whole(number, line, column, column + 3, "a starting number", low=1)
        if (round_number, player) in found["declared_keys"]:
            raise TrfError(number, column, f"player {player}'s bye in round {round_number} is declared twice")
        found["declared_keys"].add((round_number, player))
        found["declared"].append((round_number, player, number, column, kind))


def read_extension(found: dict, number: int, line: str) -> None:
    """XMR NNNN KEYWORD value: RATED (NNNN 0000), ENTERED (a late entry: the first round he
    could be paired in), WITHDRAWN (the last round paired before the player withdrew, 000
    before round 1), PLAYER (his registry id)."""
    player = whole(number, line, 5, 8, "the starting number (0000 for the tournament)")
    keyword = cut(line, KEYWORD_COLUMN, VALUE_COLUMN - 2).strip()
    if keyword in TOURNAMENT_KEYWORDS:
        read_tournament_extension(found, number, line, player, keyword)
        return
    if keyword not in PLAYER_KEYWORDS:
        raise TrfError(number, KEYWORD_COLUMN, f"unknown {EXTENSION} record {keyword[:12]!r}: {KNOWN}")
    kept = found[PLAYER_KEYWORDS[keyword]]
    if player == 0 or player in kept:
        raise TrfError(number, 5, f"{keyword} names a player (from 0001), once: not {player:04d}")
    if keyword in ROUND_KEYWORDS:
        what, low = ROUND_KEYWORDS[keyword]
        kept[player] = (number, whole(number, line, VALUE_COLUMN, VALUE_COLUMN + 2, what, low=low, high=MAX_ROUNDS))
        return
    registry_id = line[VALUE_COLUMN - 1 :].strip()
    if not REGISTRY_ID.fullmatch(registry_id):
        raise TrfError(number, VALUE_COLUMN, f"a registry player's id is p- and hex digits, not {registry_id[:12]!r}")
    if registry_id in found["registry_ids"]:
        raise TrfError(number, VALUE_COLUMN, f"registry player {registry_id} is entered twice")
    found["registry_ids"].add(registry_id)
    kept[player] = (number, registry_id)


def read_tournament_extension(found: dict, number: int, line: str, player: int, keyword: str) -> None:
    """XMR 0000 RATED; XMR 0000 TIEBREAKS the list as this service names it (when it holds
    names C.07 has no code for); XMR 0000 LOTS the drawing of lots' seed; XMR 0000 PRIZES
    the prize list. Each once; XMR 0000 CATEGORY, a category, once each."""
    key = TOURNAMENT_KEYWORDS[keyword]
    if player != 0 or (key in found and keyword not in LISTED):
        raise TrfError(number, 5, f"{keyword} is said once, of the tournament: its number is 0000")
    value = line[VALUE_COLUMN - 1 :].strip()
    if keyword in LISTED:
        found[key].append((number, json_value(number, value)))
    elif keyword == "BOARDS":
        found[key] = (number, whole(number, line, VALUE_COLUMN, len(line), "the boards a match", low=1, high=20))
    elif keyword in ("PRIZES", "FORMAT"):
        found[key] = (number, json_value(number, value))
    elif keyword == "RATED":
        found[key] = number
    elif keyword == "ABSENCE":
        if value not in ABSENCE_RULES:
            raise TrfError(number, VALUE_COLUMN, f"an absence scores {' or '.join(ABSENCE_RULES)}, not {value[:12]!r}")
        found[key] = ABSENCE_RULES[value]
    elif keyword == "LOTS":
        if not LOTS_SEED.fullmatch(value):
            raise TrfError(number, VALUE_COLUMN, "the seed of the lots is 1 to 64 letters, digits or - _")
        found[key] = value
    else:
        names = [name for name in value.split(",") if name]
        unknown = [name for name in names if name not in TIEBREAKS]
        if unknown or len(set(names)) != len(names):
            detail = f"unknown tie-break {unknown[0][:20]!r}" if unknown else "a tie-break is named twice"
            raise TrfError(number, VALUE_COLUMN, detail)
        found[key] = (number, names)


def json_value(number: int, value: str) -> object:
    """A record's value in JSON, bounded: a value too long, or nested past what the reader
    follows, is refused as a value that is not JSON is."""
    if len(value) > MAX_JSON:
        raise TrfError(number, VALUE_COLUMN, f"a record's value is at most {MAX_JSON:,} characters")
    try:
        return json.loads(value)
    except json.JSONDecodeError as problem:
        detail = problem.msg
    except RecursionError:
        detail = "nested too deep"
    except ValueError as problem:  # a number of more digits than Python reads
        detail = str(problem)[:60]
    raise TrfError(number, VALUE_COLUMN, f"the value is not JSON as this service writes it: {detail}")


def restored_prizes(found: dict) -> dict:
    """The categories and the prize list the XMR records carry, each checked as the API
    checks what it takes (an age's bound against the year of 042, the start date), and
    the list's categories against those of the file; a fault names the record's line."""
    dated = found["text"].get("042")
    year = int(iso_date(dated[0], dated[1])[:4]) if dated else None
    categories: list[dict] = []
    for number, given in found["categories"]:
        made = restored(number, restored_category, given, year)
        if len(categories) == MAX_CATEGORIES:
            raise TrfError(number, 5, f"a tournament has at most {MAX_CATEGORIES} categories")
        if any(c["code"] == made["code"] for c in categories):
            raise TrfError(number, VALUE_COLUMN, f"categories: each code once, not {made['code']} again")
        categories.append(made)
    listed = found.get("prize_list")
    codes = {c["code"] for c in categories}
    prize_list = restored(listed[0], restored_prize_list, listed[1], codes) if listed else None
    return {"categories": tuple(categories), "prize_list": prize_list}


def restored(number: int, read: Callable, *given):
    """What ``read`` makes of the record's value; its refusal as the record's, naming its line."""
    try:
        return read(*given)
    except InvalidRecord as refused:
        raise TrfError(number, VALUE_COLUMN, refused.detail) from None


def read_player(number: int, line: str) -> TrfPlayer:
    check_blank_columns(number, line)
    name, federation = read_name_and_federation(number, line)
    sex, title = read_sex_and_title(number, line)
    rating, fide_id = read_rating_and_fide_id(number, line)
    rank = cut(line, 86, 89).strip()
    if rank and not DIGITS.fullmatch(rank):
        raise TrfError(number, 86, f"the rank must be a whole number, not {rank!r}")
    rounds = read_rounds(number, line)
    return TrfPlayer(
        line=number,
        number=whole(number, line, 5, 8, "the starting number", low=1),
        name=name,
        sex=sex,
        title=title,
        rating=int(rating) if rating and int(rating) else None,
        federation=federation,
        fide_id=fide_id,
        birth=cut(line, 70, 79).strip(),
        points=decimal(number, line, 81, 84, "the points"),
        rounds=rounds,
    )


def check_blank_columns(number: int, line: str) -> None:
    for gap in (9, 14, 48, 53, 57, 69, 80, 85, 90, 91):
        if cut(line, gap, gap) != " ":
            raise TrfError(number, gap, "a blank column is expected here (between fields)")


def read_name_and_federation(number: int, line: str) -> tuple[str, str]:
    name = cut(line, 15, 47).strip()
    if not name:
        raise TrfError(number, 15, "a player needs a name (columns 15-47)")
    if name_problem(name) is not None:
        raise TrfError(number, 15, f"the player's name: {name_problem(name)}")
    federation = cut(line, 54, 56).strip()
    if federation and shown_problem(federation) is not None:
        raise TrfError(number, 54, f"the federation: {shown_problem(federation)}")
    return name, federation


def read_sex_and_title(number: int, line: str) -> tuple[str, str]:
    sex = cut(line, 10, 10).strip()
    if sex and sex.lower() not in "mwf":
        raise TrfError(number, 10, f"sex is m or w, not {sex!r}")
    title = cut(line, 11, 13).strip()
    if title and title.upper() not in TITLES:
        raise TrfError(number, 11, f"the title is one of {', '.join(TITLES[:8])} (or blank), not {title!r}")
    return sex, title


def read_rating_and_fide_id(number: int, line: str) -> tuple[str, str]:
    """The rating's and the FIDE number's columns, checked (a blank rating is none)."""
    rating = cut(line, 49, 52).strip()
    if rating and not DIGITS.fullmatch(rating):
        raise TrfError(number, 49, f"the rating must be a whole number, not {rating!r}")
    if rating and int(rating) > MAX_RATING:
        raise TrfError(number, 49, f"the rating is at most {MAX_RATING}, not {rating}")
    fide_id = cut(line, 58, 68).strip()
    if fide_id and not DIGITS.fullmatch(fide_id):
        raise TrfError(number, 58, f"the FIDE number must be digits, not {fide_id!r}")
    return rating, fide_id


def read_rounds(number: int, line: str) -> tuple[TrfRound, ...]:
    columns = range(ROUND_START, len(line) + 1, 10)
    if len(columns) > MAX_ROUNDS:
        raise TrfError(number, columns[MAX_ROUNDS], f"a tournament has at most {MAX_ROUNDS} rounds")
    return tuple(read_round(number, line, c) for c in columns)


def read_round(number: int, line: str, column: int) -> TrfRound:
    opponent = cut(line, column, column + 3)
    if opponent.strip() and not DIGITS.fullmatch(opponent.strip()):
        raise TrfError(number, column, f"the opponent must be a starting number or 0000, not {opponent!r}")
    for gap in (column + 4, column + 6, column + 8, column + 9):
        if cut(line, gap, gap) != " ":
            raise TrfError(number, gap, "a blank column is expected here")
    colour = cut(line, column + 5, column + 5).lower()
    code = cut(line, column + 7, column + 7).upper().strip()
    against = int(opponent) if opponent.strip() and int(opponent) else None
    if colour not in "wb- ":
        raise TrfError(number, column + 5, f"the colour is w, b or -, not {colour!r}")
    if against is None:
        if colour in "wb":
            raise TrfError(number, column + 5, "a round without an opponent has no colour")
        if code and code not in BYE_CODES:
            raise TrfError(number, column + 7, f"a round without an opponent is a bye (U, H, F, Z), not {code!r}")
        return TrfRound(None, None, code or "Z", column)
    if colour not in "wb":
        raise TrfError(number, column + 5, "a game needs its colour, w or b")
    if code and code not in GAME_CODES:
        raise TrfError(number, column + 7, f"a game's result is one of {' '.join(GAME_CODES)}, not {code!r}")
    return TrfRound(against, colour, code, column)


def check_players(trf: TrfFile) -> None:
    """Starting numbers 1..N in order; every game named by both players, with opposite
    colours and matching results; one pairing-allocated bye a round; points as scored."""
    for index, p in enumerate(trf.players, start=1):
        if p.number != index:
            raise TrfError(p.line, 5, f"starting numbers must run 1, 2, 3 ... in order: expected {index}")
    by_number = {p.number: p for p in trf.players}
    for p in trf.players:
        for r, cell in enumerate(p.rounds, start=1):
            check_partner(trf, by_number, p, r, cell)
        scored = sum((points_of(trf, c) for c in p.rounds), Fraction(0))
        if p.points is not None and p.points != scored:
            raise TrfError(p.line, 81, f"the points say {float(p.points)}, the rounds score {float(scored)}")
    for r in range(1, trf.played_rounds + 1):
        takers = [p for p in trf.players if len(p.rounds) >= r and p.rounds[r - 1].code == "U"]
        if len(takers) > 1:
            second = takers[1]
            raise TrfError(second.line, second.rounds[r - 1].column + 7, f"a second pairing-allocated bye in round {r}")
    planned = trf.planned
    if planned is not None and planned[1] < trf.played_rounds:
        raise TrfError(planned[0], 5, f"{trf.played_rounds} rounds are played, more than the {planned[1]} planned")


def check_partner(trf: TrfFile, by_number: dict, p: TrfPlayer, r: int, cell: TrfRound) -> None:
    if cell.opponent is None:
        return
    q = by_number.get(cell.opponent)
    if q is None or q is p:
        raise TrfError(p.line, cell.column, f"round {r}: no player {cell.opponent} to meet")
    theirs = q.rounds[r - 1] if len(q.rounds) >= r else None
    if theirs is None or theirs.opponent != p.number:
        raise TrfError(p.line, cell.column, f"round {r}: player {q.number} does not name {p.number} as his opponent")
    if theirs.colour == cell.colour:
        raise TrfError(p.line, cell.column + 5, f"round {r}: both {p.number} and {q.number} have {cell.colour}")
    if theirs.code not in PARTNER_CODES[cell.code]:
        mine, other = cell.code or "blank", theirs.code or "blank"
        raise TrfError(p.line, cell.column + 7, f"round {r}: results {mine} and {other} do not go together")


def check_extensions(trf: TrfFile) -> None:
    """Every player the XMR and 240 records name exists, and what they say fits his rounds."""
    count = len(trf.players)
    for kept in (trf.entries, trf.withdrawals, trf.links):
        for player, (line, _) in kept.items():
            if player > count:
                raise TrfError(line, 5, f"no player {player} in the file")
    check_entries(trf)
    check_withdrawals(trf)
    check_declared(trf)


def unpaired(trf: TrfFile, player: int, rounds: range) -> int | None:
    """The first of ``rounds`` in which the player has a game or a bye; None if none."""
    for r in rounds:
        cell = cell_of(trf.players[player - 1], r)
        if cell.opponent is not None or cell.code != "Z":
            return r
    return None


def check_entries(trf: TrfFile) -> None:
    """A late entry enters for a round up to the one after the last paired, plays none
    before it, and has a higher starting number than every entry for an earlier round
    (numbers follow registration)."""
    played = trf.played_rounds
    for player, (line, first) in trf.entries.items():
        if first > played + 1:
            raise TrfError(
                line, VALUE_COLUMN, f"a late entry is for round at most {played + 1} (the next to pair), not {first}"
            )
        r = unpaired(trf, player, range(1, first))
        if r is not None:
            raise TrfError(line, VALUE_COLUMN, f"player {player} enters for round {first} but is paired in round {r}")
    latest = (1, 0)  # (entry round, player) of the latest entry so far, in starting order
    for p in trf.players:
        first = trf.entries.get(p.number, (0, 1))[1]
        if first < latest[0]:
            line = trf.entries[latest[1]][0]
            detail = f"player {latest[1]} enters for round {latest[0]}, player {p.number} after him for round {first}"
            raise TrfError(line, VALUE_COLUMN, f"{detail}: starting numbers follow registration")
        latest = max(latest, (first, p.number))


def check_withdrawals(trf: TrfFile) -> None:
    """A withdrawal comes after a round paired (not before his entry), and the player has
    no game or bye after it."""
    played = trf.played_rounds
    for player, (line, last) in trf.withdrawals.items():
        if last > played:
            raise TrfError(line, VALUE_COLUMN, f"round {last} is not paired: he withdraws after a round that is")
        if last < trf.entries.get(player, (0, 1))[1] - 1:
            raise TrfError(line, VALUE_COLUMN, f"player {player} withdraws after round {last}, before he entered")
        r = unpaired(trf, player, range(last + 1, played + 1))
        if r is not None:
            raise TrfError(
                line, VALUE_COLUMN, f"player {player} withdrew after round {last} but is paired in round {r}"
            )


def check_declared(trf: TrfFile) -> None:
    """A 240 bye is for a round to come, of a player in the file; a withdrawn player's
    (XMR WITHDRAWN) are zero-point ones, his withdrawal's."""
    played, count = trf.played_rounds, len(trf.players)
    planned = trf.planned[1] if trf.planned else played
    for r, player, line, column, kind in trf.declared:
        if player > count:
            raise TrfError(line, column, f"no player {player} in the file")
        if r <= played:
            raise TrfError(line, 7, f"round {r} is paired already: its bye is in the player's record")
        if r > planned:
            raise TrfError(line, 7, f"the tournament has {planned} rounds, not {r}")
        if player in trf.withdrawals and kind != "Z":
            raise TrfError(line, 5, f"player {player} withdrew: his byes to come are zero-point ones (Z)")


def declared_withdrawals(trf: TrfFile) -> set[int]:
    """The players whose 240 byes are a withdrawal: named by XMR WITHDRAWN, or (a file
    without it) zero-point byes for every round to come. A file with XMR 0000 ABSENCE
    (this service's, declaring absences) names its withdrawals by XMR WITHDRAWN alone."""
    if trf.absence is not None:
        return set(trf.withdrawals)
    played = trf.played_rounds
    planned = trf.planned[1] if trf.planned else played
    rounds_of: dict[int, set] = {}
    for r, player, _, _, kind in trf.declared:
        rounds_of.setdefault(player, set()).add(r if kind == "Z" else 0)
    every = set(range(played + 1, planned + 1))
    return {p for p, rounds in rounds_of.items() if p in trf.withdrawals or rounds == every}


def declared_absences(trf: TrfFile) -> list[AbsenceDeclared]:
    """The 240 byes that are not a withdrawal: absences from a round to come, each scoring
    as its type (F a win, H a draw, Z nothing, under 162)."""
    gone = declared_withdrawals(trf)
    return [
        AbsenceDeclared(player=player, round=r, points=as_number(points_of(trf, TrfRound(None, None, kind, column))))
        for r, player, _, column, kind in trf.declared
        if player not in gone
    ]


def withdrawn_after(trf: TrfFile) -> dict[int, int]:
    """Player -> the last round paired before he withdrew: as XMR WITHDRAWN says, else
    the last round paired when his zero-point byes (240 Z) fill every round to come."""
    found = {p: trf.played_rounds for p in declared_withdrawals(trf)}
    return {**found, **{p: last for p, (_, last) in trf.withdrawals.items()}}


def points_of(trf: TrfFile, cell: TrfRound) -> Fraction:
    value = {"1": "W", "+": "W", "W": "W", "F": "W", "=": "D", "D": "D", "H": "D", "U": "P"}.get(cell.code)
    if value is None:
        return trf.point_value("L") if cell.code in ("0", "L") else trf.point_value("A")
    return trf.point_value(value)


# --------------------------------------------------------------------------- writing


def write(t: Tournament, outcomes: dict, layout: str = "2026", registry: Mapping[int, tuple] | None = None) -> str:
    """The tournament as a TRF (CR LF line ends: the CR the format asks for, and an LF).
    ``registry``: entrant number -> (sex, birth year) as the registry knows them, for the
    player records' sex (column 10) and birth date (70-79, ``YYYY/00/00``: a year alone)."""
    if layout not in LAYOUTS:
        raise InvalidRecord(f"layout must be one of {', '.join(LAYOUTS)}", field="layout")
    table = cells(t, outcomes)
    ranks = {s.number: s.rank for s in standings(t, outcomes)}
    lines = header(t, layout)
    for e in t.entrants:
        points = sum((c.points for c in table[e.number] if c.points is not None), Fraction(0))
        rounds = "  ".join(round_cell(t, e.number, c) for c in table[e.number])
        known = (registry or {}).get(e.number, (None, None))
        fields = player_fields(e, points, ranks[e.number], *known)
        lines.append((fields + ("  " + rounds if rounds else "")).rstrip())
    lines += team_records(t)
    lines += extension_records(t)
    return "\r\n".join(lines) + "\r\n"


def team_records(t: Tournament) -> list[str]:
    """013, one a team: its name (cut to the record's 32 columns: the whole name travels in
    XMR 0000 TEAM) and its players' starting numbers, board order, then the reserves."""
    lines = []
    for team in t.teams:
        members = " ".join(f"{n:4d}" for n in (*team.players, *team.reserves))
        lines.append(f"013 {team.name[:TEAM_NAME_WIDTH]:<{TEAM_NAME_WIDTH}}{members}")
    return lines


def team_extension_records(t: Tournament) -> list[str]:
    """What a team's 013 record cannot say: its registry team, its whole names, how many of
    its players are reserves; and the event's boards a match."""
    if not t.teams:
        return []
    lines = [f"{EXTENSION} 0000 {'BOARDS':<9} {t.team_boards}"]
    if t.format == TEAM_SWISS:
        settings = {
            "format": t.format,
            "rounds": t.planned,
            "team_primary_score": t.team_primary_score or "match_points",
        }
        if t.team_colour_preferences:  # type B or none; type A, the default, goes unsaid
            settings["team_colour_preferences"] = t.team_colour_preferences
        lines.append(f"{EXTENSION} 0000 {'FORMAT':<9} {as_json(settings)}")
    for team in t.teams:
        told = {"team_id": team.team_id, "name": team.name, "name_geez": team.name_geez, "reserves": len(team.reserves)}
        lines.append(f"{EXTENSION} 0000 {'TEAM':<9} {as_json(told)}")
    paired = len(t.rounds)  # a round to come keeps its line-ups to itself until it is paired
    for (number, team), players in sorted(t.lineups.items()):
        if number <= paired:
            told = {"round": number, "team": team, "players": list(players)}
            lines.append(f"{EXTENSION} 0000 {'LINEUP':<9} {as_json(told)}")
    return lines


def extension_records(t: Tournament) -> list[str]:
    """What the tournament knows that TRF has no record for, in this service's own records."""
    lines = [f"{EXTENSION} 0000 RATED"] if t.rated else []
    if t.tiebreaks and not c07_codes(t):
        lines.append(f"{EXTENSION} 0000 {'TIEBREAKS':<9} {','.join(t.tiebreaks)}".rstrip())
    if "LOTS" in t.tiebreaks:
        lines.append(f"{EXTENSION} 0000 {'LOTS':<9} {t.draw_seed}")
    lines += [f"{EXTENSION} 0000 {'CATEGORY':<9} {as_json(c)}" for c in t.categories]
    lines += team_extension_records(t)
    if t.prizes or t.prize_sharing != NOT_SHARED or t.currency:
        listed = {"prizes": list(t.prizes), "sharing": t.prize_sharing, "currency": t.currency}
        lines.append(f"{EXTENSION} 0000 {'PRIZES':<9} {as_json({k: v for k, v in listed.items() if v is not None})}")
    if t.absence_points != DEFAULT_ABSENCE_POINTS or absences_to_come(t):
        # Also says that the file's withdrawals are its XMR WITHDRAWN records alone, so an
        # absence from every round to come is not read back as a withdrawal.
        lines.append(f"{EXTENSION} 0000 {'ABSENCE':<9} {float(t.absence_points):.1f}")
    for e in t.entrants:
        if e.entered_round > 1:
            lines.append(f"{EXTENSION} {e.number:4d} {'ENTERED':<9} {e.entered_round:03d}")
        if e.withdrawn_after is not None:
            lines.append(f"{EXTENSION} {e.number:4d} {'WITHDRAWN':<9} {e.withdrawn_after:03d}")
        if e.player_id is not None:
            lines.append(f"{EXTENSION} {e.number:4d} {'PLAYER':<9} {e.player_id}")
    return lines


def as_json(value: object) -> str:
    """A value on one line of the file, the same text for the same value."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def c07_codes(t: Tournament) -> bool:
    """Whether the tournament's list is C.07's codes alone (202 holds it), not empty."""
    return bool(t.tiebreaks) and all(name in FIDE_TIEBREAKS for name in t.tiebreaks)


def absences_to_come(t: Tournament) -> list:
    """The absences declared for rounds still to pair, of players still in the event."""
    to_come = range(len(t.rounds) + 1, (t.planned_rounds or 0) + 1)
    return [a for a in t.absences if a.round in to_come and not t.seated(a.player).withdrawn]


def declared_byes(t: Tournament) -> list[str]:
    """240: the byes of the rounds still to pair, by type: each declared absence's (F, H,
    Z by its points), and a withdrawn player's zero-point bye in each round (TRF-2026's way
    to tell another program to leave him out); the withdrawals' none past the limit a file
    is read to (the XMR records alone then carry them, so the file still reads back)."""
    gone = [e.number for e in t.entrants if e.withdrawn]
    to_come = range(len(t.rounds) + 1, (t.planned_rounds or 0) + 1)
    away = absences_to_come(t)
    if len(gone) * len(to_come) + len(away) > MAX_DECLARED_BYES:
        gone = []
    lines = []
    for r in to_come:
        for code in "FHZ":
            players = sorted([a.player for a in away if a.round == r and ABSENCE_CODE[a.points] == code])
            players = sorted(players + gone) if code == "Z" else players
            for start in range(0, len(players), BYES_PER_LINE):
                named = " ".join(f"{p:4d}" for p in players[start : start + BYES_PER_LINE])
                lines.append(f"240 {code} {r:03d} {named}")
    return lines


def header(t: Tournament, layout: str) -> list[str]:
    """The tournament's records: TRF-16's, then (TRF-2026) those the 2026 version added."""
    return text_records(t) if layout == "16" else text_records(t) + later_records(t)


def text_records(t: Tournament) -> list[str]:
    lines = [f"012 {t.name}"]
    lines += [f"022 {t.site}"] if t.site else []
    lines += [f"042 {t.start_date.replace('-', '/')}"] if t.start_date else []
    lines += [f"052 {t.end_date.replace('-', '/')}"] if t.end_date else []
    lines += [f"062 {len(t.entrants)}", f"072 {sum(1 for e in t.entrants if e.rating)}"]
    lines += [f"082 {len(t.teams)}"] if t.teams else []
    lines += [f"092 {t.format.replace('_', ' ')}"]
    lines += [f"122 {time_control_text(t.time_control)}"] if t.time_control else []  # allotted times
    return lines


def later_records(t: Tournament) -> list[str]:
    lines = [f"142 {t.planned_rounds}"] if t.planned_rounds else []
    lines += [f"152 {'B' if t.initial_colour == 'black' else 'W'}"]
    if t.bye_points != 1:
        lines += [f"162  P{float(t.bye_points):4.1f}"]
    if t.format == "swiss" and t.pairing_rules == DUTCH_2026:
        lines += ["192 FIDE_DUTCH_2025" + ("_BAKU" if t.acceleration == "baku" else "")]
    if c07_codes(t):
        lines += ["202 " + ",".join(t.tiebreaks)]
    for group in t.forbidden:
        last = group.last_round or t.planned_rounds or len(t.rounds) or group.first_round
        lines += [f"260 {group.first_round:03d} {last:03d} " + " ".join(f"{p:4d}" for p in group.players)]
    return lines + team_colours(t) + declared_byes(t)


def team_colours(t: Tournament) -> list[str]:
    """352: the first-named team's colour on each board of a match, White on the odd boards
    (teams.py), which also tells another program the boards a match."""
    if not t.team_boards:
        return []
    return ["352 " + "WB" * (t.team_boards // 2) + "W" * (t.team_boards % 2)]


def player_fields(e, points: Fraction, rank: int, sex: str | None = None, birth_year: int | None = None) -> str:
    rating = f"{e.rating:4d}" if e.rating and e.rating <= 9999 else "    "
    federation = e.federation if e.federation and len(e.federation) <= 3 else ""
    birth = f"{birth_year:04d}/00/00" if birth_year else ""
    return (
        f"001 {e.number:4d} {sex or ' ':1}    {e.name[:33]:<33} {rating} {federation:<3} {'':11} {birth:<10} "
        f"{float(points):4.1f} {rank:4d}"
    )


def round_cell(t: Tournament, number: int, c) -> str:
    if c.kind in (PLAYED, FORFEIT, PENDING):
        colour = "w" if c.colour == SOUTH else "b"
        return f"{c.opponent:4d} {colour} {game_code(t, c)}"
    if c.kind == BYE:
        rnd = t.round(c.round)
        assert rnd is not None
        bye = next(b for b in rnd.byes if b.player == number)
        return f"0000 - {BYE_CODE[bye_kind(rnd, bye)]}"
    assert c.kind == ABSENT
    return "0000 - Z"


def game_code(t: Tournament, c) -> str:
    if c.kind == PENDING:
        return " "
    won, drawn = c.points == 1, c.points == Fraction(1, 2)
    if c.kind == PLAYED:
        return "1" if won else "=" if drawn else "0"
    reason = t.forfeits[(c.round, c.board)].reason
    if reason == "short_game" or drawn:
        return "W" if won else "D" if drawn else "L"
    return "+" if won else "-"


# --------------------------------------------------------------------------- importing


def import_events(
    trf: TrfFile, created: TournamentCreated, survivor: Callable[[str], str | None] = lambda player_id: player_id
) -> list[TournamentEvent]:
    """The events of a new tournament holding the file's players and rounds: ``created``
    is the creation event as the request describes it, completed from the file.
    ``survivor``: the registry's id of a player a link names (merges followed), None for
    one the registry does not hold (refused, naming the line)."""
    events: list[TournamentEvent] = [created, *prize_list_events(trf)]
    links = registry_links(trf, survivor)

    def entering(r: int) -> list[TournamentEvent]:
        """The players who could first be paired in round r, registered before it is paired."""
        return [
            EntrantRegistered(p.number, p.name, p.federation or None, p.rating, links.get(p.number))
            for p in trf.players
            if trf.entries.get(p.number, (0, 1))[1] == r
        ]

    events += entering(1)
    for first, last, players, line in trf.forbidden:
        if any(n > len(trf.players) for n in players):
            raise TrfError(line, 13, "a prohibited pairing names a player the file does not hold")
        events.append(PairingForbidden(list(players), first, last))
    scores = {p.number: Fraction(0) for p in trf.players}
    rank = strength_order(trf)
    leaving = withdrawn_after(trf)
    events += [PlayerWithdrew(number) for number, last in sorted(leaving.items()) if last == 0]
    for r in range(1, trf.played_rounds + 1):
        events += round_events(trf, r, scores, rank)
        events += entering(r + 1)
        events += [PlayerWithdrew(number) for number, last in sorted(leaving.items()) if last == r]
        for p in trf.players:
            scores[p.number] += points_of(trf, cell_of(p, r))
    return events + declared_absences(trf)


def prize_list_events(trf: TrfFile) -> list[TournamentEvent]:
    """The categories and the prize list as set before round 1, while they still could be."""
    categories = [CategoriesSet(categories=list(trf.categories))] if trf.categories else []
    return [*categories, *([trf.prize_list] if trf.prize_list is not None else [])]


def registry_links(trf: TrfFile, survivor: Callable[[str], str | None]) -> dict[int, str]:
    """Player -> the registry player he is (XMR PLAYER), each held by the registry, once."""
    links: dict[int, str] = {}
    taken: set[str] = set()  # the survivors linked so far (two merged ids may share one)
    for number, (line, registry_id) in sorted(trf.links.items(), key=lambda item: item[1][0]):
        found = survivor(registry_id)
        if found is None:
            raise TrfError(line, VALUE_COLUMN, f"{registry_id} is not a player of this registry")
        if found in taken:
            raise TrfError(line, VALUE_COLUMN, f"{registry_id} is registry player {found}, entered already")
        taken.add(found)
        links[number] = found
    return links


def strength_order(trf: TrfFile) -> dict[int, int]:
    ordered = sorted(trf.players, key=lambda p: (p.rating is None, -(p.rating or 0), p.number))
    return {p.number: i for i, p in enumerate(ordered, start=1)}


def cell_of(p: TrfPlayer, r: int) -> TrfRound:
    return p.rounds[r - 1] if len(p.rounds) >= r else TrfRound(None, None, "Z", ROUND_START + 10 * (r - 1))


def round_events(trf: TrfFile, r: int, scores: dict, rank: dict) -> list[TournamentEvent]:
    pairs = []
    byes = []
    for p in trf.players:
        c = cell_of(p, r)
        if c.opponent is not None and c.colour == "w":
            pairs.append((p.number, c.opponent))
        elif c.opponent is None and c.code != "Z":
            kind = BYE_OF_CODE[c.code]
            points = trf.point_value({"pab": "P", "full": "W", "half": "D"}[kind])
            byes.append({"player": p.number, "points": as_number(points), "kind": kind})
    pairs.sort(key=lambda sn: board_key(scores, rank, *sn))
    boards = [{"board": i, "south": s, "north": n} for i, (s, n) in enumerate(pairs, start=1)]
    events: list[TournamentEvent] = [RoundPaired(round=r, method="imported", boards=boards, byes=byes)]
    by_number = {p.number: p for p in trf.players}
    for b in boards:
        result = board_result(cell_of(by_number[b["south"]], r).code, cell_of(by_number[b["north"]], r).code)
        if result is not None:
            events.append(BoardResultRecorded(r, b["board"], result[0], result[1]))
    return events


def board_key(scores: dict, rank: dict, south: int, north: int) -> tuple:
    """C.04.2's board order: the higher score of the pair, the sum, the rank of the pair's
    higher player (by score, then pairing number)."""
    a, b = scores[south], scores[north]
    higher = min((south, north), key=lambda n: (-scores[n], rank[n]))
    return (-max(a, b), -(a + b), rank[higher])


def board_result(south: str, north: str) -> tuple[str, str] | None:
    """(result, reason) of a board from White's and Black's codes; None without a result."""
    if not south:
        return None
    if south == "-" and north == "-":
        return "double_forfeit", "forfeit"
    winner = "south_wins" if south in "1+W" else "north_wins" if north in "1+W" else "draw"
    reason = "played" if south in "1=0" else "forfeit" if south in "+-" else "short_game"
    return winner, reason


def as_number(points: Fraction) -> float | int:
    return int(points) if points.denominator == 1 else float(points)


def creation_fields(trf: TrfFile) -> dict:
    """What the file says of the tournament itself, as fields of its creation event."""
    text = {tag: value for tag, (_, value) in trf.text.items()}
    fields_: dict = {"name": text.get("012") or "Imported tournament", "site": text.get("022") or None}
    for tag, key in (("042", "start_date"), ("052", "end_date")):
        if text.get(tag):
            fields_[key] = iso_date(trf.text[tag][0], text[tag])
    fields_["rounds"] = trf.planned[1] if trf.planned else max(trf.played_rounds, 1)
    fields_["bye_points"] = bye_points(trf)
    fields_["pairing_rules"], fields_["acceleration"] = system(trf)
    fields_["initial_colour"] = "black" if initial_colour(trf) == "B" else None
    fields_["rated"] = True if trf.rated is not None else None
    fields_["lots_seed"] = trf.lots_seed
    fields_["absence_points"] = trf.absence
    # 122, allotted times, is free text: kept when it is a time control as this service writes one
    fields_["time_control"] = allotted_times(text.get("122"))
    return fields_


def listed_tiebreaks(trf: TrfFile) -> list[str] | None:
    """The file's tie-breaks: this service's own list as it was (XMR 0000 TIEBREAKS), else
    C.07's codes (202); None when it names none."""
    listed = trf.own_tiebreaks or trf.tiebreaks
    return list(listed[1]) if listed else None


def allotted_times(value: str | None) -> dict | None:
    """Record 122 as a time control (``core.clocks``), when it is one that can exist; any
    other free text says nothing this service keeps."""
    control = time_control_of(value) if value else None
    if control is None:
        return None
    try:
        return checked_time_control(control)
    except InvalidRecord:
        return None


def iso_date(line: int, value: str) -> str:
    found = DATE.fullmatch(value)
    if not found:
        raise TrfError(line, 5, f"a date reads YYYY/MM/DD, not {value[:12]!r}")
    iso = "-".join(found.groups())
    try:
        date.fromisoformat(iso)
    except ValueError:
        raise TrfError(line, 5, f"{value} is not a day of the calendar") from None
    return iso


def bye_points(trf: TrfFile) -> float | int:
    for code, expected in DEFAULT_POINTS.items():
        if trf.point_value(code) != expected:
            scored = float(trf.point_value(code))
            raise TrfError(trf.points_line, 6, f"{code} scores {scored}: only 1, 0.5 and 0 are kept here")
    points = trf.point_value("P")
    if points not in (0, Fraction(1, 2), 1):
        raise TrfError(trf.points_line, 6, "the pairing-allocated bye scores 0, 0.5 or 1 here")
    return as_number(points)


def system(trf: TrfFile) -> tuple[str, str | None]:
    if trf.system is None:
        return DUTCH_2026, None
    line, code = trf.system
    if code not in SYSTEMS:
        raise TrfError(line, 5, f"the tournament type {code!r} is not paired here; known: {', '.join(SYSTEMS)}")
    return DUTCH_2026, SYSTEMS[code]


def initial_colour(trf: TrfFile) -> str | None:
    """152, else the colour of the highest-ranked player paired in round 1 (TRF-2026)."""
    if trf.initial_colour:
        return trf.initial_colour
    for p in trf.players:  # in starting-number order
        c = cell_of(p, 1)
        if c.opponent is not None:
            return "W" if c.colour == "w" else "B"
    return None


__all__ = ["LAYOUTS", "OLD_DUTCH", "TrfError", "TrfFile", "creation_fields", "import_events", "parse", "write"]
