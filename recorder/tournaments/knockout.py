"""Knock-out tournaments (pure): the bracket, its matches of several games, play-offs and lots.

A knock-out is a tournament of ``format: "knockout"``. Its bracket has 2^n places; the
seeds are placed in the standard order (1 v 16, 8 v 9, ...: seeds 1 and 2 meet only in
the final) and the places below the last seed are byes, so the top seeds go through
(docs/tournaments.md, *Knock-out*). Every game of every match is a board of a tournament
round: a round pairs the next game of each match still being played, so the games are
ordinary game streams and their results flow back as every board's do. Nothing here is
stored: the bracket is folded from the seeds (``BracketSeeded``), the rounds paired, the
games' results (``outcomes``) and the lots drawn (``LotDrawn``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from recorder.core.clocks import checked_time_control
from recorder.errors import AlreadyExists, InvalidRecord, NotFound

from .events import BracketSeeded, EntrantRegistered, LotDrawn, RoundPaired, StageFollowed
from .fold import Entrant, Tournament

KNOCKOUT = "knockout"
MAX_MATCH_GAMES = 10
MAX_PLAYOFF_GAMES = 10
MAX_KNOCKOUT_PLAYERS = 256  # a bracket of 256: eight rounds
# A match's state: what it waits for next.
GAME, PLAYOFF, LOT, WON, WAITING = "game", "playoff", "lot", "won", "waiting"


def checked_settings(body: dict | None) -> dict:
    """A knock-out's settings: games per match, play-off games (0: a level match goes
    straight to the lot) and the play-off's time control (the tournament's when absent)."""
    body = body or {}
    match_games = body.get("match_games", 2)
    playoff_games = body.get("playoff_games", 2)
    if type(match_games) is not int or not 1 <= match_games <= MAX_MATCH_GAMES:
        raise InvalidRecord(f"match_games is 1 to {MAX_MATCH_GAMES}", field="match_games")
    if type(playoff_games) is not int or not 0 <= playoff_games <= MAX_PLAYOFF_GAMES:
        raise InvalidRecord(f"playoff_games is 0 to {MAX_PLAYOFF_GAMES}", field="playoff_games")
    settings: dict = {"match_games": match_games, "playoff_games": playoff_games}
    if body.get("playoff_time_control") is not None:
        settings["playoff_time_control"] = checked_time_control(body["playoff_time_control"])
    return settings


def bracket_size(players: int) -> int:
    """The smallest power of two that holds every player."""
    size = 1
    while size < players:
        size *= 2
    return size


def seeding_order(size: int) -> list[int]:
    """The seeds from the top of a bracket of ``size`` places down: each pair of
    neighbours sums to size + 1 (1 v 16, 8 v 9, 4 v 13, 5 v 12, ...), as in the FIDE
    World Cup's bracket, so the higher seeds meet as late as can be."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def stage_name(stage: int, stages: int) -> str:
    """final, semi_final, quarter_final, else round_of_N: the names readers look for."""
    left = stages - stage
    return {0: "final", 1: "semi_final", 2: "quarter_final"}.get(left, f"round_of_{2 ** (left + 1)}")


# --------------------------------------------------------------------------- matches


@dataclass(frozen=True)
class MatchGame:
    """A game of a match: its board, who sat south (moved first), and its result if known."""

    round: int
    board: int
    south: int
    north: int
    playoff: bool
    result: str | None  # south_wins, north_wins, draw, double_forfeit; None while played

    def points(self, player: int) -> Fraction:
        if self.result == "draw":
            return Fraction(1, 2)
        return Fraction(1 if self.result == f"{'south' if player == self.south else 'north'}_wins" else 0)


@dataclass(frozen=True)
class Match:
    stage: int
    match: int
    top: int | None  # the entrant in the upper place (None: a bye, or not yet known)
    bottom: int | None
    games: tuple[MatchGame, ...] = ()
    lot: int | None = None  # the winner by lot
    settings: tuple[int, int] = (2, 2)  # match games, play-off games

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for p in (self.top, self.bottom) if p is not None)

    def score(self, playoff: bool) -> tuple[Fraction, Fraction]:
        games = [g for g in self.games if g.playoff == playoff and g.result is not None]
        return (
            sum((g.points(self.top) for g in games if self.top is not None), Fraction(0)),
            sum((g.points(self.bottom) for g in games if self.bottom is not None), Fraction(0)),
        )

    @property
    def state(self) -> str:
        """won, or what the match waits for: a game, a play-off game, the lot; waiting: a
        game being played, or a player not yet known."""
        if self.top is None or self.bottom is None:
            return WON if self.stage == 1 and self.players else WAITING
        if any(g.result is None for g in self.games):
            return WAITING
        match_games, playoff_games = self.settings
        if self._decided(playoff=False, planned=match_games) is None:
            return GAME if self._played(playoff=False) < match_games else self._after_level(playoff_games)
        return WON

    def _after_level(self, playoff_games: int) -> str:
        if self._decided(playoff=True, planned=playoff_games) is not None:
            return WON
        if self._played(playoff=True) < playoff_games:
            return PLAYOFF
        return WON if self.lot is not None else LOT

    def _played(self, playoff: bool) -> int:
        return sum(1 for g in self.games if g.playoff == playoff)

    def _decided(self, playoff: bool, planned: int) -> int | None:
        """The player who leads by more than the games left to play, if one does."""
        top, bottom = self.score(playoff)
        left = planned - self._played(playoff)
        if top - bottom > left:
            return self.top
        if bottom - top > left:
            return self.bottom
        return None

    @property
    def winner(self) -> int | None:
        if self.state != WON:
            return None
        if len(self.players) == 1:
            return self.players[0]  # a bye
        match_games, playoff_games = self.settings
        decided = self._decided(playoff=False, planned=match_games)
        if decided is None:
            decided = self._decided(playoff=True, planned=playoff_games)
        return decided if decided is not None else self.lot

    @property
    def next_game(self) -> int:
        """The number of the match's next game, play-offs included (1 first)."""
        return len(self.games) + 1

    def seats(self) -> tuple[int, int]:
        """South and north of the next game: the first player alternates across the match,
        the upper place moving first in game 1 (South moves first in a tournament game)."""
        assert self.top is not None and self.bottom is not None
        return (self.top, self.bottom) if self.next_game % 2 == 1 else (self.bottom, self.top)


@dataclass(frozen=True)
class Bracket:
    size: int
    seeds: tuple[int, ...]  # entrant numbers, seed 1 first
    stages: tuple[tuple[Match, ...], ...]

    @property
    def champion(self) -> int | None:
        return self.stages[-1][0].winner if self.stages else None

    @property
    def current(self) -> tuple[Match, ...]:
        """The first stage with a match not yet won (the final's when all are)."""
        return next((stage for stage in self.stages if any(m.state != WON for m in stage)), self.stages[-1])

    def match(self, stage: int, match: int) -> Match:
        if not 1 <= stage <= len(self.stages) or not 1 <= match <= len(self.stages[stage - 1]):
            raise NotFound(f"the bracket has no match {match} in round {stage}", stage=stage, match=match)
        return self.stages[stage - 1][match - 1]


def seeded(t: Tournament) -> BracketSeeded | None:
    return next((e for e in t.knockout_events if isinstance(e, BracketSeeded)), None)


def settings_of(t: Tournament) -> tuple[int, int]:
    knockout = t.knockout or {}
    return knockout.get("match_games", 2), knockout.get("playoff_games", 2)


def bracket(t: Tournament, outcomes: dict) -> Bracket | None:
    """The bracket as the rounds paired and the results known make it; None before seeding.
    Each board belongs to the match of its stage between its two players (two players
    meet in one match only); a stage begins once every match of the one before is won."""
    seeding = seeded(t)
    if seeding is None:
        return None
    seeds = tuple(seeding.seeds)
    size = max(bracket_size(len(seeds)), 2)
    lots = {(e.stage, e.match): e.winner for e in t.knockout_events if isinstance(e, LotDrawn)}
    places = [seeds[s - 1] if s <= len(seeds) else None for s in seeding_order(size)]
    stages: list[tuple[Match, ...]] = []
    rounds = list(t.rounds)
    while len(places) >= 2:
        number = len(stages) + 1
        matches = [
            Match(
                number, i + 1, places[2 * i], places[2 * i + 1], lot=lots.get((number, i + 1)), settings=settings_of(t)
            )
            for i in range(len(places) // 2)
        ]
        while rounds and not all(m.state == WON for m in matches) and all(m.players for m in matches):
            matches = with_round(matches, rounds.pop(0), outcomes, settings_of(t)[0])
        stages.append(tuple(matches))
        places = [m.winner for m in matches]
    return Bracket(size, seeds, tuple(stages))


def with_round(matches: list[Match], rnd, outcomes: dict, match_games: int) -> list[Match]:
    """The stage's matches with one more paired round's games added to theirs."""
    by_players = {frozenset(m.players): i for i, m in enumerate(matches)}
    found = list(matches)
    for board in rnd.boards:
        i = by_players.get(frozenset(board.players()))
        if i is None:
            continue  # not a match of this stage (the stored round says otherwise: shown as it is)
        m = found[i]
        outcome = outcomes.get((rnd.number, board.board))
        game = MatchGame(
            rnd.number,
            board.board,
            board.south,
            board.north,
            playoff=len(m.games) >= match_games,
            result=outcome.result if outcome is not None else None,
        )
        found[i] = Match(m.stage, m.match, m.top, m.bottom, m.games + (game,), m.lot, m.settings)
    return found


# --------------------------------------------------------------------------- decisions


def strength(e: Entrant) -> tuple:
    """Seeding by rating: highest first, unrated last, then the starting number."""
    return (e.rating is None, -(e.rating or 0), e.number)


def check_field(players: int) -> None:
    if players < 2:
        raise InvalidRecord("a knock-out needs at least two players", field="players")
    if players > MAX_KNOCKOUT_PLAYERS:
        raise InvalidRecord(f"a knock-out takes at most {MAX_KNOCKOUT_PLAYERS} players", field="players")


def decide_pair(t: Tournament, outcomes: dict, body: dict) -> list:
    """The next game of every match of the current stage that needs one (a regular game
    or a play-off game); seeded by rating first if no stage handed the bracket over."""
    if body.get("boards") is not None or body.get("byes"):
        raise InvalidRecord("a knock-out pairs its matches from the bracket, not by hand", field="boards")
    events: list = []
    if seeded(t) is None:
        field = sorted((e for e in t.entrants if not e.withdrawn), key=strength)
        check_field(len(field))
        events.append(BracketSeeded(seeds=[e.number for e in field], by="rating"))
        t = replace(t, knockout_events=t.knockout_events + (events[0],))
    current = bracket(t, outcomes)
    assert current is not None
    if current.champion is not None:
        raise InvalidRecord(f"the knock-out is over: {t.seated(current.champion).name} won the final")
    needing = [m for m in current.current if m.state in (GAME, PLAYOFF)]
    if not needing:
        level = [m for m in current.current if m.state == LOT]
        raise InvalidRecord(
            "every match left is level after its play-off games: record the lot of "
            + ", ".join(f"round {m.stage} match {m.match}" for m in level),
            field="lots",
        )
    boards = []
    for i, m in enumerate(needing, start=1):
        south, north = m.seats()
        boards.append({"board": i, "south": south, "north": north})
    return events + [RoundPaired(round=t.next_round, method=KNOCKOUT, boards=boards)]


def decide_lot(t: Tournament, outcomes: dict, body: dict) -> list[LotDrawn]:
    """The arbiter records the lot's winner, only of a match level after every game and
    play-off game it plays (a lot is the last resort)."""
    current = bracket(t, outcomes) if t.format == KNOCKOUT else None
    if current is None:
        raise InvalidRecord("a lot decides a match of a knock-out whose bracket is seeded", field="stage")
    m = current.match(body["stage"], body["match"])
    if m.lot is not None:
        raise AlreadyExists(f"round {m.stage} match {m.match} was decided by lot already")
    if m.state != LOT:
        raise InvalidRecord(
            f"round {m.stage} match {m.match} is not level after its play-off games ({m.state}): no lot",
            field="match",
        )
    if body["winner"] not in m.players:
        raise InvalidRecord(f"the winner is one of players {m.top} and {m.bottom}", field="winner")
    return [LotDrawn(stage=m.stage, match=m.match, winner=body["winner"], note=body.get("note"))]


def decide_handover(t: Tournament, standings: list, source: Tournament, finished: bool, body: dict) -> list:
    """A stage's hand-over: the top ``qualifiers`` of a finished stage's final standings
    enter this knock-out, seeded by their places there (the registrations, then the bracket)."""
    if t.format != KNOCKOUT:
        raise InvalidRecord("only a knock-out is seeded from another stage", field="source")
    if t.entrants or seeded(t) is not None:
        raise AlreadyExists("this knock-out has its players already: a stage hands over to an empty one")
    if source.tournament_id == t.tournament_id or source.format == KNOCKOUT:
        raise InvalidRecord("the stage before is a Swiss or a round robin", field="source")
    if not finished:
        raise InvalidRecord(f"{source.name} is not finished: its final standings seed the knock-out", field="source")
    qualifiers = body["qualifiers"]
    check_field(qualifiers)
    if qualifiers > len(standings):
        raise InvalidRecord(f"{source.name} ranks {len(standings)} players, not {qualifiers}", field="qualifiers")
    events: list = []
    for number, standing in enumerate(standings[:qualifiers], start=1):
        e = source.seated(standing.number)
        events.append(EntrantRegistered(number, e.name, e.federation, e.rating, e.player_id))
    places = [s.rank for s in standings[:qualifiers]]
    seeds = list(range(1, qualifiers + 1))
    return events + [BracketSeeded(seeds=seeds, by="standings", source=source.tournament_id, source_places=places)]


def won(t: Tournament, outcomes: dict) -> bool:
    """Whether the knock-out's final is won: it finished then."""
    current = bracket(t, outcomes)
    return current is not None and current.champion is not None


def check_not_won(t: Tournament, outcomes: dict) -> None:
    """An arbiter's finish (finish.py) is for a knock-out stopped before its final is won."""
    if t.format == KNOCKOUT and won(t, outcomes):
        raise AlreadyExists(f"tournament {t.tournament_id} is already finished: its final is won")


def next_stages(t: Tournament) -> list[dict]:
    """The knock-outs this tournament's players were handed over to, first first."""
    return [{"id": e.stage, "name": e.name} for e in t.knockout_events if isinstance(e, StageFollowed)]


def decide_stage_followed(source: Tournament, stage: Tournament) -> list[StageFollowed]:
    """The stage before records the hand-over too (once), so each stage names the next."""
    if any(s["id"] == stage.tournament_id for s in next_stages(source)):
        return []
    return [StageFollowed(stage=stage.tournament_id, name=stage.name)]


def playoff_game(t: Tournament, round_number: int, board: int) -> bool:
    """Whether a board's game is a play-off game: its players met in ``match_games`` games
    before it (two players meet in one match only), read from the pairings alone."""
    rnd = t.round(round_number)
    found = rnd.board(board) if rnd is not None else None
    if found is None:
        return False
    pair = frozenset(found.players())
    before = sum(1 for r in t.rounds[: round_number - 1] for b in r.boards if frozenset(b.players()) == pair)
    return before >= settings_of(t)[0]


def time_control_of(t: Tournament, round_number: int, board: int) -> dict | None:
    """A board game's time control: a play-off game's is the faster one, when set."""
    if t.format == KNOCKOUT and playoff_game(t, round_number, board):
        return (t.knockout or {}).get("playoff_time_control") or t.time_control
    return t.time_control


# --------------------------------------------------------------------------- views


def bracket_json(t: Tournament, outcomes: dict, game_id_of, names_geez: Mapping[int, str] | None = None) -> dict:
    """The bracket as the API and the page give it (``game_id_of(round, board)``; each
    player's registry Ge'ez name from ``names_geez``, entrant number -> name)."""
    current = bracket(t, outcomes)
    geez = names_geez or {}
    match_games, playoff_games = settings_of(t)
    base = {
        "tournament_id": t.tournament_id,
        "name": t.name,
        "match_games": match_games,
        "playoff_games": playoff_games,
        "playoff_time_control": (t.knockout or {}).get("playoff_time_control"),
        "seeding": seeding_json(t),
    }
    if current is None:
        return {**base, "size": None, "stages": [], "champion": None}
    stages = len(current.stages)
    return {
        **base,
        "size": current.size,
        "stages": [
            {
                "stage": i,
                "name": stage_name(i, stages),
                "matches": [match_json(t, m, current.seeds, game_id_of, geez) for m in matches],
            }
            for i, matches in enumerate(current.stages, start=1)
        ],
        "champion": player_json(t, current.champion, current.seeds, geez),
    }


def seeding_json(t: Tournament) -> dict | None:
    seeding = seeded(t)
    if seeding is None:
        return None
    return {"by": seeding.by, "source": seeding.source, "source_places": seeding.source_places}


def player_json(t: Tournament, number: int | None, seeds: tuple[int, ...], geez: Mapping[int, str]) -> dict | None:
    if number is None:
        return None
    name = t.seated(number).name
    return {"number": number, "name": name, "name_geez": geez.get(number), "seed": seeds.index(number) + 1}


def match_json(t: Tournament, m: Match, seeds: tuple[int, ...], game_id_of, geez: Mapping[int, str]) -> dict:
    score, playoff = m.score(playoff=False), m.score(playoff=True)
    return {
        "stage": m.stage,
        "match": m.match,
        "players": [player_json(t, p, seeds, geez) for p in (m.top, m.bottom)],
        "state": m.state,
        "score": [float(score[0]), float(score[1])],
        "playoff_score": [float(playoff[0]), float(playoff[1])],
        "lot": m.lot,
        "winner": m.winner,
        "games": [
            {
                "game": n,
                "round": g.round,
                "board": g.board,
                "game_id": game_id_of(g.round, g.board),
                "south": g.south,
                "north": g.north,
                "playoff": g.playoff,
                "result": g.result,
            }
            for n, g in enumerate(m.games, start=1)
        ],
    }
