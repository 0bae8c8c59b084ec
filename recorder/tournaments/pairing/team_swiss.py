"""FIDE's Swiss Team Pairing System (C.04.6, in force from 1 February 2026), pure.

A team is one competitor: its tournament pairing number (TPN, art. 1.1) is its team
number, its primary score (art. 1.2) the match points unless the event says game points,
the other score its secondary one (used for colours, art. 4.2.2). The Basic Rules' colour
articles 6 and 7 never apply to teams (preface): no colour preference is absolute.

- **Absolute criteria** (art. 2.1): [C1] two teams meet once; [C2] a team that has had the
  pairing-allocated bye (PAB) or won a match by forfeit does not get the PAB.
  **Completion** (art. 2.2): [C3] the teams not yet paired can always be paired.
- **The PAB** (art. 3.4), for an odd number of teams: among the teams [C2] allows and whose
  absence leaves the others pairable (3.4.1), the lowest score (3.4.2), then the most matches
  played (3.4.3), then the largest TPN (3.4.4). It is worth a drawn match (art. 1.4): the
  caller scores it.
- **Brackets** (art. 3.2, 3.3): the highest scoregroup of the teams not yet paired, with
  upfloaters from below when needed. The set of upfloaters (art. 3.5) is the smallest that
  pairs ([C4], with [C1] and [C3]), then the one whose upfloaters have the highest scores
  taken in ascending order ([C5]), then, unless it empties the scoregroup below, the one
  leaving that scoregroup's bracket the fewest upfloaters ([C6]), then (but in the last two
  rounds) the one with the fewest teams that floated in the previous round ([C7]); of those
  the first by 3.5.3-3.5.4: each set's teams by score descending then TPN, the sets in the
  lexicographic order of those TPNs.
- **A bracket's pairing** (art. 3.6): in each pair the smaller TPN is the top member; a
  pairing's identifier is its top members' TPNs ascending, then their opponents' in that
  order, and the pairing chosen is the first by identifier among the legal ones ([C1]) with
  the fewest teams whose colour preference goes unmet ([C8]), then (type B) the fewest whose
  strong preference goes unmet ([C9]), then (but in the last two rounds) the fewest
  upfloaters met by a team of higher score that floated in the previous round ([C10]).
- **Colours** (art. 4): a team's colour in a match is its board 1 player's (art. 1.6.1),
  counted only for a match actually played. Preferences are type A unless the event says
  type B or none (art. 1.7). Type A (art. 1.7.1): White when the colour difference (White
  minus Black, art. 1.6.2) is below -1, or is 0 or -1 after two Blacks in the last two
  matches played; Black symmetrically. Type B (art. 1.7.2): those are strong; a mild one
  for White at a difference of -1, or of 0 after a Black except in the last round; Black
  symmetrically. The first team of a pair
  (art. 4.2: the higher primary score, then secondary, then the smaller TPN) and then, in
  order: both teams yet to play, the first team takes the initial colour when its TPN is
  odd, the other colour when even (4.3.1); one preference granted (4.3.2); opposite
  preferences both granted (4.3.3); a strong preference over a mild one (4.3.4, type B);
  the lower colour difference takes White (4.3.5); the
  colours alternate from the last round in which the two had different colours (4.3.6); the
  first team's preference (4.3.7); the first team's last colour alternated (4.3.8); the other
  team's (4.3.9).

A floater (art. 1.5) is a team that met an opponent of another score. The matches of the
round are listed by their first team's order (primary, secondary score, then TPN).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

WHITE, BLACK = "W", "B"
PRIMARY_SCORES = ("match_points", "game_points")
TYPE_A, TYPE_B, NO_PREFERENCES = "type_a", "type_b", "none"
COLOUR_PREFERENCES = (TYPE_A, TYPE_B, NO_PREFERENCES)  # art. 1.7: type A unless the event says otherwise


class NoTeamPairing(ValueError):
    """No pairing of the round complies with the absolute criteria (art. 3.3.3: the chief
    arbiter decides)."""


@dataclass(frozen=True)
class TeamRoundRecord:
    """One round of a team's history, as the caller read it from the stored rounds."""

    opponent: int | None  # the other team; None for the PAB or a round without a match
    colour: str | None  # W or B: its board 1 player's, in a match actually played (art. 1.6.1)
    match_points: Fraction
    game_points: Fraction
    bye: bool = False  # the pairing-allocated bye
    forfeit_win: bool = False  # a match won without a game played (art. 2.1.2)


@dataclass(frozen=True)
class PairingTeam:
    tpn: int
    history: tuple[TeamRoundRecord, ...]


@dataclass(frozen=True)
class TeamSwissRules:
    rounds: int  # planned: [C7] and [C10] do not apply in the last two
    primary: str = "match_points"  # art. 1.2: match points unless the event says game points
    initial_colour: str = WHITE  # art. 4.1
    colour_preferences: str = TYPE_A  # art. 1.7


@dataclass(frozen=True)
class TeamSwissPairing:
    matches: tuple[tuple[int, int], ...]  # (the team with White, the team with Black)
    bye: int | None


@dataclass(frozen=True)
class Team:
    """A team as the round's pairing sees it."""

    tpn: int
    primary: Fraction
    secondary: Fraction
    opponents: frozenset[int]
    colours: tuple[str | None, ...]  # round by round, None where it had no colour
    played: int  # matches actually played
    barred_from_bye: bool
    floated: bool  # a floater in the previous round (art. 1.5)
    kind: str = TYPE_A  # the event's colour preferences (art. 1.7)
    last_round: bool = False  # the round being paired is the event's last

    @property
    def colour_difference(self) -> int:
        return sum(1 for c in self.colours if c == WHITE) - sum(1 for c in self.colours if c == BLACK)

    @property
    def strong(self) -> str | None:
        """Type A's one preference (art. 1.7.1), type B's strong one (art. 1.7.2): worded alike."""
        difference, last = self.colour_difference, [c for c in self.colours if c is not None][-2:]
        if self.kind == NO_PREFERENCES:
            return None
        if difference < -1 or (difference in (0, -1) and last == [BLACK, BLACK]):
            return WHITE
        if difference > 1 or (difference in (0, 1) and last == [WHITE, WHITE]):
            return BLACK
        return None

    @property
    def preference(self) -> str | None:
        """The colour the team prefers, strongly or (type B alone) mildly: a colour
        difference of -1 or +1, or of 0 after a Black or a White, but in the last round."""
        if self.strong is not None or self.kind != TYPE_B:
            return self.strong
        difference, last = self.colour_difference, self.last_colour()
        if difference == -1 or (difference == 0 and not self.last_round and last == BLACK):
            return WHITE
        if difference == 1 or (difference == 0 and not self.last_round and last == WHITE):
            return BLACK
        return None

    def last_colour(self) -> str | None:
        return next((c for c in reversed(self.colours) if c is not None), None)


# --------------------------------------------------------------------------- the teams' state


def scores(record: TeamRoundRecord, primary: str) -> tuple[Fraction, Fraction]:
    mp, gp = Fraction(record.match_points), Fraction(record.game_points)
    return (mp, gp) if primary == "match_points" else (gp, mp)


def primary_after(team: PairingTeam, rounds: int, primary: str) -> Fraction:
    return sum((scores(r, primary)[0] for r in team.history[:rounds]), Fraction(0))


def floated_last(team: PairingTeam, by_tpn: dict[int, PairingTeam], primary: str) -> bool:
    """Did the team meet an opponent of another score in the previous round (art. 1.5)?"""
    if not team.history or team.history[-1].opponent not in by_tpn:
        return False
    before = len(team.history) - 1
    opponent = by_tpn[team.history[-1].opponent or 0]
    return primary_after(team, before, primary) != primary_after(opponent, before, primary)


def team_state(team: PairingTeam, by_tpn: dict[int, PairingTeam], rules: TeamSwissRules) -> Team:
    primary = rules.primary
    totals = [scores(r, primary) for r in team.history]
    return Team(
        tpn=team.tpn,
        primary=sum((s[0] for s in totals), Fraction(0)),
        secondary=sum((s[1] for s in totals), Fraction(0)),
        opponents=frozenset(r.opponent for r in team.history if r.opponent is not None),
        colours=tuple(r.colour for r in team.history),
        played=sum(1 for r in team.history if r.colour is not None),
        barred_from_bye=any(r.bye or r.forfeit_win for r in team.history),
        floated=floated_last(team, by_tpn, primary),
        kind=rules.colour_preferences,
        last_round=len(team.history) + 1 >= rules.rounds,
    )


# --------------------------------------------------------------------------- colours (art. 4)


def first_team(a: Team, b: Team) -> tuple[Team, Team]:
    """Art. 4.2: the higher primary score, then the higher secondary, then the smaller TPN."""
    return (a, b) if (-a.primary, -a.secondary, a.tpn) <= (-b.primary, -b.secondary, b.tpn) else (b, a)


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def by_preferences(first: Team, second: Team) -> str | None:
    """Art. 4.3.2-4.3.4: the first team's colour when the preferences decide it (4.3.4, a
    strong preference against a mild one for the same colour, arises in type B alone)."""
    mine, theirs = first.preference, second.preference
    if mine is not None and (theirs is None or theirs != mine):
        return mine
    if theirs is not None and mine is None:
        return other(theirs)
    if mine is not None and (first.strong is None) != (second.strong is None):
        return mine if first.strong is not None else other(mine)
    return None


def by_history(first: Team, second: Team) -> str | None:
    """Art. 4.3.5-4.3.6: the lower colour difference White; else alternate from the last
    round in which the two had different colours."""
    if first.colour_difference != second.colour_difference:
        return WHITE if first.colour_difference < second.colour_difference else BLACK
    for mine, theirs in zip(reversed(first.colours), reversed(second.colours), strict=False):
        if mine is not None and theirs is not None and mine != theirs:
            return other(mine)
    return None


def first_teams_colour(first: Team, second: Team, initial: str) -> str:
    """The colour of the first team of the pair (art. 4.3)."""
    if first.played == 0 and second.played == 0:  # 4.3.1
        return initial if first.tpn % 2 == 1 else other(initial)
    decided = by_preferences(first, second) or by_history(first, second)
    if decided is not None:
        return decided
    if first.preference is not None:  # 4.3.7
        return first.preference
    if first.last_colour() is not None:  # 4.3.8
        return other(first.last_colour() or WHITE)
    return second.last_colour() or initial  # 4.3.9: the other team's alternated, the first's the opposite


def allocate(a: Team, b: Team, initial: str) -> tuple[Team, Team]:
    """(the team with White, the team with Black)."""
    first, second = first_team(a, b)
    return (first, second) if first_teams_colour(first, second, initial) == WHITE else (second, first)


def unmet_preferences(white: Team, black: Team) -> int:
    """[C8]: the teams of the pair whose colour preference goes unmet."""
    return int(white.preference == BLACK) + int(black.preference == WHITE)


def unmet_strong_preferences(white: Team, black: Team) -> int:
    """[C9] (type B): the teams of the pair whose strong colour preference goes unmet."""
    return int(white.strong == BLACK) + int(black.strong == WHITE)


# --------------------------------------------------------------------------- legality


def can_meet(a: Team, b: Team) -> bool:
    """[C1], whichever team's history names the meeting."""
    return b.tpn not in a.opponents and a.tpn not in b.opponents


def pairable(teams: Iterable[Team]) -> bool:
    """[C1]/[C3]: can these teams all be paired among themselves?"""
    ordered = tuple(sorted(teams, key=lambda t: t.tpn))
    return _pairable(ordered)


@lru_cache(maxsize=65536)
def _pairable(teams: tuple[Team, ...]) -> bool:
    if not teams:
        return True
    head, rest = teams[0], teams[1:]
    return any(can_meet(head, partner) and _pairable(rest[:i] + rest[i + 1 :]) for i, partner in enumerate(rest))


# --------------------------------------------------------------------------- the bye (art. 3.4)


def pairing_allocated_bye(teams: Sequence[Team]) -> Team | None:
    if len(teams) % 2 == 0:
        return None
    candidates = sorted((t for t in teams if not t.barred_from_bye), key=lambda t: (t.primary, -t.played, -t.tpn))
    for team in candidates:
        if pairable(t for t in teams if t is not team):  # 3.4.1
            return team
    raise NoTeamPairing("no team can have the pairing-allocated bye and leave the others pairable (C.04.6 3.4)")


# --------------------------------------------------------------------------- upfloaters (art. 3.5)

Upfloaters = tuple["Team", ...]


def minimal_upfloaters(residents: Sequence[Team], lower: Sequence[Team], rest: Sequence[Team]) -> list[Upfloaters]:
    """[C4] with [C1] and [C3]: the sets of the fewest upfloaters that let the bracket and
    the teams left after it both be paired."""
    for count in range(len(residents) % 2, len(lower) + 1, 2):
        legal = [
            chosen
            for chosen in combinations(lower, count)
            if pairable([*residents, *chosen]) and pairable(t for t in rest if t not in chosen)
        ]
        if legal:
            return legal
    raise NoTeamPairing("no bracket of the round can be paired (C.04.6 3.3.3: the chief arbiter decides)")


def fewest(sets: list[Upfloaters], measure: Callable[[Upfloaters], Any]) -> list[Upfloaters]:
    best = min(measure(s) for s in sets)
    return [s for s in sets if measure(s) == best]


def next_bracket_upfloaters(remaining: Sequence[Team], chosen: Upfloaters, following: Fraction | None) -> int:
    """[C6]: the upfloaters the following scoregroup's bracket would need (0 when this set
    empties that scoregroup)."""
    left = [t for t in remaining if t not in chosen]
    if following is None or not any(t.primary == following for t in left):
        return 0
    residents = [t for t in left if t.primary == following]
    lower = [t for t in left if t.primary < following]
    try:
        return len(minimal_upfloaters(residents, lower, lower)[0])
    except NoTeamPairing:
        return len(left)


def set_order(chosen: Upfloaters) -> tuple[int, ...]:
    """3.5.3-3.5.4: the set's teams by score descending then TPN; sets compared by those TPNs."""
    return tuple(t.tpn for t in sorted(chosen, key=lambda t: (-t.primary, t.tpn)))


def choose_upfloaters(residents: list[Team], remaining: list[Team], late: bool) -> Upfloaters:
    lower = sorted((t for t in remaining if t.primary < residents[0].primary), key=lambda t: (-t.primary, t.tpn))
    rest = [t for t in remaining if t not in residents]
    sets = minimal_upfloaters(residents, lower, rest)
    if sets == [()]:
        return ()
    sets = fewest(sets, lambda s: tuple(-t.primary for t in sorted(s, key=lambda t: t.primary)))  # [C5]
    following = lower[0].primary if lower else None
    sets = fewest(sets, lambda s: next_bracket_upfloaters(rest, s, following))  # [C6]
    if not late:
        sets = fewest(sets, lambda s: sum(1 for t in s if t.floated))  # [C7]
    return min(sets, key=set_order)


# --------------------------------------------------------------------------- a bracket (art. 3.6)


class Bracket:
    """The teams of one bracket, TPN order, and the cost of each legal pair: [C8] first,
    then [C9] (type B), then [C10], as one number (a bracket's count of each is below its
    size plus one, the number's base)."""

    def __init__(self, teams: Sequence[Team], residents_score: Fraction, initial: str, late: bool):
        self.teams = tuple(sorted(teams, key=lambda t: t.tpn))
        self.initial = initial
        scale = len(self.teams) + 1
        self.unit = scale * scale  # the cost of one unmet colour preference ([C8])
        self.cost: dict[tuple[int, int], int] = {}
        self.memo: dict[int, int | None] = {}
        for i, j in combinations(range(len(self.teams)), 2):
            a, b = self.teams[i], self.teams[j]
            if can_meet(a, b):
                white, black = allocate(a, b, initial)
                floating = 0 if late else floaters_opposed(a, b, residents_score)
                strong = unmet_strong_preferences(white, black) if a.kind == TYPE_B else 0
                unmet = unmet_preferences(white, black) * scale + strong
                self.cost[(i, j)] = unmet * scale + floating

    def best(self, paired: int) -> int | None:
        """The least cost of pairing the teams not in the ``paired`` bit mask."""
        if paired not in self.memo:
            self.memo[paired] = self.least(paired)
        return self.memo[paired]

    def least(self, paired: int) -> int | None:
        size = len(self.teams)
        free = [i for i in range(size) if not paired >> i & 1]
        if not free:
            return 0
        head, found, floor = free[0], None, self.floor(free)
        for j in free[1:]:
            if (head, j) in self.cost:
                rest = self.best(paired | 1 << head | 1 << j)
                if rest is not None and (found is None or self.cost[(head, j)] + rest < found):
                    found = self.cost[(head, j)] + rest
                if found is not None and found <= floor:  # nothing is cheaper: stop at the first such pairing
                    return found
        return found

    def floor(self, members: Iterable[int]) -> int:
        """The least cost these teams can be paired at, whoever has met whom: the teams
        wanting one colour beyond the others pair among themselves, one unmet preference
        ([C8]) a pair."""
        wants = [self.teams[i].preference for i in members]
        white, black = wants.count(WHITE), wants.count(BLACK)
        return max(white - (len(wants) - white), black - (len(wants) - black), 0) // 2 * self.unit


def floaters_opposed(a: Team, b: Team, residents_score: Fraction) -> int:
    """[C10]: an upfloater of the pair, met by a team of a higher score that floated in the
    previous round (two upfloaters of one score float neither, art. 1.5)."""
    return sum(
        1
        for mine, theirs in ((a, b), (b, a))
        if mine.primary < residents_score and theirs.primary > mine.primary and theirs.floated
    )


def assignment_cost(bracket: Bracket, tops: tuple[int, ...], bottoms: tuple[int, ...]) -> int | None:
    """The least cost of giving each top member (indices, in order) a larger bottom member."""

    @cache
    def from_top(k: int, used: int) -> int | None:
        if k == len(tops):
            return 0
        found = None
        for b, bottom in enumerate(bottoms):
            pair = (tops[k], bottom)
            if not used >> b & 1 and bottom > tops[k] and pair in bracket.cost:
                rest = from_top(k + 1, used | 1 << b)
                if rest is not None and (found is None or bracket.cost[pair] + rest < found):
                    found = bracket.cost[pair] + rest
                if found is not None and found <= floor(k, used):
                    return found
        return found

    def floor(k: int, used: int) -> int:
        return bracket.floor([*tops[k:], *(bottom for b, bottom in enumerate(bottoms) if not used >> b & 1)])

    return from_top(0, 0)


def first_pairing(bracket: Bracket) -> list[tuple[Team, Team]]:
    """3.6.3-3.6.4: the first pairing by identifier of the least cost."""
    size = len(bracket.teams)
    target = bracket.best(0)
    if target is None:
        raise NoTeamPairing("a bracket cannot be paired (C.04.6 3.3.3: the chief arbiter decides)")
    for tops in combinations(range(size), size // 2):
        bottoms = tuple(i for i in range(size) if i not in tops)
        if assignment_cost(bracket, tops, bottoms) == target:
            return [(bracket.teams[t], bracket.teams[b]) for t, b in first_bottoms(bracket, tops, bottoms, target)]
    raise NoTeamPairing("a bracket cannot be paired (C.04.6 3.3.3: the chief arbiter decides)")


def first_bottoms(
    bracket: Bracket, tops: tuple[int, ...], bottoms: tuple[int, ...], target: int
) -> list[tuple[int, int]]:
    """The top members' opponents, each the smallest that still reaches the least cost."""
    chosen: list[tuple[int, int]] = []
    spent, left = 0, list(bottoms)
    for k, top in enumerate(tops):
        for bottom in left:
            pair = (top, bottom)
            if bottom < top or pair not in bracket.cost:
                continue
            rest = assignment_cost(bracket, tops[k + 1 :], tuple(b for b in left if b != bottom))
            if rest is not None and spent + bracket.cost[pair] + rest == target:
                chosen.append(pair)
                spent += bracket.cost[pair]
                left.remove(bottom)
                break
    return chosen


# --------------------------------------------------------------------------- the round


def pair_team_round(teams: Sequence[PairingTeam], rules: TeamSwissRules) -> TeamSwissPairing:
    """The next round of a team Swiss. ``teams``: every team to pair, its history one record
    a round paired so far."""
    if rules.primary not in PRIMARY_SCORES:
        raise ValueError(f"the primary score is one of {', '.join(PRIMARY_SCORES)}")
    by_tpn = {t.tpn: t for t in teams}
    if rules.colour_preferences not in COLOUR_PREFERENCES:
        raise ValueError(f"the colour preferences are one of {', '.join(COLOUR_PREFERENCES)}")
    state = [team_state(t, by_tpn, rules) for t in teams]
    round_number = len(teams[0].history) + 1 if teams else 1
    late = round_number >= rules.rounds - 1  # [C7] and [C10] are not applied in the last two rounds
    bye = pairing_allocated_bye(state)
    remaining = [t for t in state if t is not bye]
    if not pairable(remaining):
        raise NoTeamPairing("no pairing of the round complies with [C1] (C.04.6 3.3.3: the chief arbiter decides)")
    pairs: list[tuple[Team, Team]] = []
    while remaining:
        top = max(t.primary for t in remaining)
        residents = sorted((t for t in remaining if t.primary == top), key=lambda t: t.tpn)
        bracket_teams = [*residents, *choose_upfloaters(residents, remaining, late)]
        pairs += first_pairing(Bracket(bracket_teams, top, rules.initial_colour, late))
        remaining = [t for t in remaining if t not in bracket_teams]
    seated = [allocate(a, b, rules.initial_colour) for a, b in pairs]
    seated.sort(key=lambda pair: min((-t.primary, -t.secondary, t.tpn) for t in pair))
    return TeamSwissPairing(tuple((w.tpn, b.tpn) for w, b in seated), bye.tpn if bye else None)
