"""The team tie-breaks of FIDE's C.07 (2024) over a team round robin's matches (pure),
named by the codes FIDE's calculator (TEC-FIDE/TieBreakServer) takes, ``:GP`` for one
counted on game points instead of match points:

- ``MPTS``, ``GPTS``: the team's match points (2 a win, 1 a draw) and game points.
- ``BH``, ``BH:GP``: Buchholz, the sum of the opponents' match points, or game points.
- ``SB``: Sonneborn-Berger, each opponent's match points times the match points scored
  against it; ``SB:GP`` each opponent's game points times the game points scored against it.
- ``EMGSB``: the extended Sonneborn-Berger of team events (the Olympiad's):
  each opponent's match points times the game points scored against it.
- ``WIN``: matches won.
- ``PS``: progressive scores, the sum of the team's match points after each round.
- ``DE``: direct encounter within the ties on match points (C.07 6, as a list ``MPTS DE``
  has it): the teams tied are ordered by the match points they scored in the matches among
  themselves, again within each part that splits off until nothing moves; the value is the
  team's place within its tie (1 the first), 0 for all of a tie it separates no one of. A
  round robin counts every two teams as having met, as the individual DE does.

Only matches whose every board has a result count, as in the standings (``teams.py``); a
team's round off scores nothing and has no opponent. The values equal the calculator's
on the event's TRF (tests/test_team_tiebreaks_reference.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from recorder.errors import InvalidRecord

from . import TEAM_SWISS
from .fold import Tournament
from .teams import (
    MATCH_DRAW,
    MATCH_WIN,
    TeamRound,
    TeamStanding,
    board_points,
    match_points,
    match_score,
    standings_of,
    stored_round,
)
from .tiebreaks import places_by_splitting

TEAM_TIEBREAKS = ("MPTS", "GPTS", "BH", "BH:GP", "SB", "SB:GP", "EMGSB", "WIN", "PS", "DE")
PRIMARY = {"MPTS": "match_points", "GPTS": "game_points"}  # the score a team event ranks by first
# A team round robin's order when its creation names none (docs/decisions.md): match points,
# then game points, direct encounter and Sonneborn-Berger, C.02 13.16's list for team round robins.
C07_TEAM_ROUND_ROBIN = ("MPTS", "GPTS", "DE", "SB")


@dataclass(frozen=True)
class TeamMatchResult:
    """One team's side of a match: its opponent and the game points each scored."""

    round: int
    team: int
    opponent: int
    mine: Fraction
    theirs: Fraction

    @property
    def match_points(self) -> int:
        return match_points(self.mine, self.theirs)


def match_results(
    rounds: Sequence[TeamRound], points: Mapping[tuple[int, int], tuple[Fraction, Fraction]]
) -> list[TeamMatchResult]:
    """Both sides of every match whose boards all have a result. ``points``: (round, board)
    -> (South's points, North's)."""
    results = []
    for rnd in rounds:
        board_points = {board: pair for (number, board), pair in points.items() if number == rnd.number}
        for match in rnd.matches:
            score = match_score(rnd, match, board_points)
            if score is None:
                continue
            results.append(TeamMatchResult(rnd.number, match.first, match.second, score[0], score[1]))
            results.append(TeamMatchResult(rnd.number, match.second, match.first, score[1], score[0]))
    return results


def team_tiebreaks(
    teams: int,
    rounds: Sequence[TeamRound],
    points: Mapping[tuple[int, int], tuple[Fraction, Fraction]],
    round_robin: bool = True,
    bye: tuple[int, Fraction] = (0, Fraction(0)),
) -> dict[int, dict[str, Fraction]]:
    """Team number -> each of ``TEAM_TIEBREAKS`` -> its value (``round_robin``: every two
    teams count as having met, for direct encounter; a team Swiss's have met only if they
    played; ``bye``: the match and game points of a round off, a team Swiss's bye)."""
    results = match_results(rounds, points)
    played = {team: [r for r in results if r.team == team] for team in range(1, teams + 1)}
    off = {team: [rnd.number for rnd in rounds if rnd.off == team] for team in played}
    mp = {team: Fraction(sum(r.match_points for r in mine)) + bye[0] * len(off[team]) for team, mine in played.items()}
    gp = {team: sum((r.mine for r in mine), Fraction(0)) + bye[1] * len(off[team]) for team, mine in played.items()}
    numbers = [r.number for r in rounds]
    found = {team: values_of(mine, mp, gp, numbers) for team, mine in played.items()}
    for team, rounds_off in off.items():  # the bye scores in the team's own points, not as a match
        found[team]["MPTS"], found[team]["GPTS"] = mp[team], gp[team]
        found[team]["PS"] += sum(bye[0] * sum(1 for n in numbers if n >= r) for r in rounds_off)
    ties: dict[Fraction, list[int]] = {}
    for team in sorted(mp):
        ties.setdefault(mp[team], []).append(team)
    for tied in ties.values():
        for team, place in direct_encounter(tied, results, round_robin).items():
            found[team]["DE"] = Fraction(place)
    return found


def encounter_parts(members: list[int], results: Sequence[TeamMatchResult], round_robin: bool) -> list[list[int]]:
    """One step of direct encounter: the members by the match points they scored against
    each other, those level sharing a part. When not every member met every other (a team
    Swiss), C.07 6 as for players: a team goes above the rest only if its match points beat
    the most any of them could have had by winning the matches they did not play."""
    group = set(members)
    among = {team: sum(r.match_points for r in results if r.team == team and r.opponent in group) for team in members}
    met = {team: len({r.opponent for r in results if r.team == team and r.opponent in group}) for team in members}
    if not round_robin and any(met[team] < len(members) - 1 for team in members):
        return unmet_parts(members, among, met)
    parts: list[list[int]] = []
    for team in sorted(members, key=lambda team: (-among[team], team)):
        if parts and among[parts[-1][0]] == among[team]:
            parts[-1].append(team)
        else:
            parts.append([team])
    return parts


def unmet_parts(members: list[int], among: Mapping[int, int], met: Mapping[int, int]) -> list[list[int]]:
    most = {team: among[team] + (len(members) - 1 - met[team]) * MATCH_WIN for team in members}
    ordered = sorted(members, key=lambda team: (-among[team], -most[team], team))
    parts: list[list[int]] = []
    for i, team in enumerate(ordered[:-1]):
        if among[team] <= max(most[other] for other in ordered[i + 1 :]):
            return [*parts, ordered[i:]]
        parts.append([team])
    return [*parts, ordered[-1:]]


def direct_encounter(
    members: list[int], results: Sequence[TeamMatchResult], round_robin: bool = True
) -> dict[int, int]:
    """Places within a tie, from 1, by direct encounter applied again within each part it
    splits off until nothing moves; 0 for all when it separates no one."""
    return places_by_splitting(members, lambda part: encounter_parts(part, results, round_robin))


def values_of(
    mine: list[TeamMatchResult], mp: Mapping[int, Fraction], gp: Mapping[int, Fraction], round_numbers: list[int]
) -> dict[str, Fraction]:
    team_mp = sum((Fraction(r.match_points) for r in mine), Fraction(0))
    by_round = {r.round: r.match_points for r in mine}
    running, progressive = Fraction(0), Fraction(0)
    for number in round_numbers:
        running += by_round.get(number, 0)
        progressive += running
    return {
        "MPTS": team_mp,
        "GPTS": sum((r.mine for r in mine), Fraction(0)),
        "BH": sum((mp[r.opponent] for r in mine), Fraction(0)),
        "BH:GP": sum((gp[r.opponent] for r in mine), Fraction(0)),
        "SB": sum((mp[r.opponent] * r.match_points for r in mine), Fraction(0)),
        "SB:GP": sum((gp[r.opponent] * r.mine for r in mine), Fraction(0)),
        "EMGSB": sum((mp[r.opponent] * r.mine for r in mine), Fraction(0)),
        "WIN": Fraction(sum(1 for r in mine if r.mine > r.theirs)),
        "PS": progressive,
    }


def with_tiebreaks(t: Tournament, outcomes: Mapping, standings: Sequence[TeamStanding]) -> list[TeamStanding]:
    """The event's standings, each team's tie-breaks beside its scores (``outcomes``: (round,
    board) -> a result with ``.result``, as ``teams.standings_of`` reads them)."""
    rounds = [stored_round(t, rnd.number) for rnd in t.rounds]
    swiss = t.format == TEAM_SWISS
    bye = (MATCH_DRAW, Fraction(t.team_boards or 0, 2)) if swiss else (0, Fraction(0))  # C.04.6 art. 1.4
    values = team_tiebreaks(len(t.teams), rounds, board_points(t, outcomes), round_robin=not swiss, bye=bye)
    return [replace(s, tiebreaks=values[s.team]) for s in standings]


# --------------------------------------------------------------------------- ranking by an order


def checked_order(order: list) -> list[str]:
    """A team event's ranking order: its primary score (MPTS or GPTS) first, then team
    tie-breaks, each once."""
    if not order or order[0] not in PRIMARY:
        raise InvalidRecord("a team event's order starts with MPTS or GPTS, its primary score", field="team_tiebreaks")
    unknown = [code for code in order if code not in TEAM_TIEBREAKS]
    if unknown:
        raise InvalidRecord(
            f"unknown team tie-breaks {unknown}; known: {', '.join(TEAM_TIEBREAKS)}", field="team_tiebreaks"
        )
    if len(set(order)) != len(order):
        raise InvalidRecord("a team tie-break is listed twice", field="team_tiebreaks")
    return list(order)


def order_of(t: Tournament) -> list[str]:
    """The event's ranking order: as created, or the default for an event created before."""
    return list(t.team_tiebreaks or C07_TEAM_ROUND_ROBIN)


def split_by(group: list[TeamStanding], code: str, results: Sequence[TeamMatchResult]) -> list[list[TeamStanding]]:
    """A tied group split by one criterion, best first: higher values, or for DE the places
    direct encounter gives within this group (0 for all when it separates no one)."""
    if code == "DE":
        places = direct_encounter([s.team for s in group], results)
        key = {s.team: Fraction(places[s.team]) for s in group}
    else:
        key = {s.team: -s.tiebreaks[code] for s in group}
    parts: list[list[TeamStanding]] = []
    for s in sorted(group, key=lambda s: (key[s.team], s.team)):
        if parts and key[parts[-1][0].team] == key[s.team]:
            parts[-1].append(s)
        else:
            parts.append([s])
    return parts


def rank_by_order(
    standings: Sequence[TeamStanding], order: Sequence[str], results: Sequence[TeamMatchResult]
) -> list[TeamStanding]:
    """The standings ranked by the order, each criterion breaking only the ties the ones
    before it leave (C.07 4.1); teams level on all share the place, listed by number."""
    groups = [sorted(standings, key=lambda s: s.team)]
    for code in order:
        groups = [part for group in groups for part in split_by(group, code, results)]
    ranked, place = [], 1
    for group in groups:
        ranked += [replace(s, rank=place) for s in group]
        place += len(group)
    return ranked


def ranked_standings(t: Tournament, outcomes: Mapping) -> list[TeamStanding]:
    """The event's team standings ranked by its order (``outcomes`` as ``with_tiebreaks``)."""
    order = order_of(t)
    rounds = [stored_round(t, rnd.number) for rnd in t.rounds]
    standings = with_tiebreaks(t, outcomes, standings_of(t, outcomes))
    return rank_by_order(standings, order, match_results(rounds, board_points(t, outcomes)))
