"""A round proposed before it is published (pure): the pairing the engine would store for
the next round, and the checker's findings on a round an arbiter changed by hand.

Nothing here stores anything. A proposal is ``decide.decide_pair`` with no boards given:
the events ``POST …/rounds`` with ``{}`` would store, at the same tournament version. A
check takes a proposed round's boards and byes (validated as a manual round is) and
names each criterion it breaks, as the pairing sees the history (``decide.swiss_players``):

- ``rematch`` (C.1): two players who have met already (under the 2026 text a forfeited
  game was no meeting; under 2017 as read here it was);
- ``forbidden`` (C.1): two players the tournament forbids to meet in this round;
- ``colour_thrice``, ``colour_difference`` (C.3, the absolute colour criteria): a seat
  that gives a player the same colour for three games in a row, or more than two games of
  one colour over the other (A.7 lets a topscorer's give way in the last round: named anyway);
- ``bye_again`` (C.2): the bye for a player who has had one or scored a point unplayed;
- ``unpaired``: an active player the round leaves out (an absence, scored 0);
- ``not_engine_pair``, ``seats_swapped``, ``bye_differs``: where it differs from the
  engine's own pairing (Swiss and round robins; a manual tournament has none).

Cost: one pairing of the round (what the engine would pair, as ``POST …/rounds`` costs)
and a pass over the proposed boards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from recorder.errors import InvalidRecord

from .decide import decide_pair, swiss_players
from .events import BoardResultRecorded, RoundPaired
from .fold import Tournament
from .pairing import NORTH, SOUTH, SwissPlayer, colour_difference

# code -> the criterion it names (docs/tournaments.md, "A round proposed, checked, published")
CRITERIA = {
    "rematch": "C.1",
    "forbidden": "C.1",
    "colour_thrice": "C.3",
    "colour_difference": "C.3",
    "bye_again": "C.2",
    "unpaired": "",
    "not_engine_pair": "",
    "seats_swapped": "",
    "bye_differs": "",
}


@dataclass(frozen=True)
class Finding:
    code: str  # a key of CRITERIA
    players: tuple[int, ...]
    board: int | None = None
    values: dict = field(default_factory=dict)  # what the sentence names beside the players

    @property
    def criterion(self) -> str:
        return CRITERIA[self.code]


@dataclass(frozen=True)
class Proposal:
    """The next round as the engine pairs it (``paired``), with the forfeits pairing it
    records (a Berger board against a withdrawn player), and its own findings."""

    paired: RoundPaired
    forfeits: tuple[BoardResultRecorded, ...]
    findings: tuple[Finding, ...]


def propose(t: Tournament, outcomes: dict) -> Proposal:
    """What ``POST …/rounds`` with ``{}`` would store now; a refusal is the same error."""
    events = decide_pair(t, outcomes, {})
    paired = next(e for e in events if isinstance(e, RoundPaired))
    forfeits = tuple(e for e in events if isinstance(e, BoardResultRecorded))
    findings = check_round(t, outcomes, paired, expected=paired)
    return Proposal(paired, forfeits, tuple(findings))


def check_proposal(t: Tournament, outcomes: dict, body: dict) -> tuple[RoundPaired, RoundPaired | None, list]:
    """The proposed round (boards and byes, as ``POST …/rounds`` takes them), the engine's
    round (None when it pairs none: a manual tournament, or no pairing exists), and the
    findings. A round that could not be stored at all is the same 422 as publishing it."""
    given = {"boards": body.get("boards") or [], "byes": body.get("byes") or []}
    proposed = next(e for e in decide_pair(t, outcomes, given) if isinstance(e, RoundPaired))
    expected = engine_round(t, outcomes)
    return proposed, expected, check_round(t, outcomes, proposed, expected)


def engine_round(t: Tournament, outcomes: dict) -> RoundPaired | None:
    if t.format == "manual":
        return None
    try:
        return next(e for e in decide_pair(t, outcomes, {}) if isinstance(e, RoundPaired))
    except InvalidRecord:  # no pairing satisfies the rules: the check names what the hand one breaks
        return None


def check_round(t: Tournament, outcomes: dict, proposed: RoundPaired, expected: RoundPaired | None) -> list[Finding]:
    players = {p.number: p for p in swiss_players(t, outcomes, proposed.round)}
    findings = []
    for board in proposed.boards:
        findings += board_findings(t, players, board, proposed.round)
    findings += bye_findings(players, proposed)
    placed = {p for b in proposed.boards for p in (b["south"], b["north"])} | {b["player"] for b in proposed.byes}
    findings += [Finding("unpaired", (n,)) for n in sorted(players) if n not in placed]
    if expected is not None and expected is not proposed:
        findings += engine_differences(proposed, expected)
    return findings


def board_findings(t: Tournament, players: dict[int, SwissPlayer], board: dict, round_number: int) -> list[Finding]:
    south, north, number = board["south"], board["north"], board["board"]
    found = []
    if north in players[south].opponents:
        forbidden = any(g.applies_to(round_number) and {south, north} <= set(g.players) for g in t.forbidden)
        found.append(Finding("forbidden" if forbidden else "rematch", (south, north), number))
    for player, colour in ((south, SOUTH), (north, NORTH)):
        found += colour_findings(players[player], colour, number)
    return found


def colour_findings(p: SwissPlayer, colour: str, board: int) -> list[Finding]:
    """C.3: the seat would be a third of one colour in a row, or a difference over two."""
    found = []
    if p.colours[-2:] == (colour, colour):
        found.append(Finding("colour_thrice", (p.number,), board, {"colour": colour}))
    difference = colour_difference(p) + (1 if colour == SOUTH else -1)
    if abs(difference) > 2:
        found.append(Finding("colour_difference", (p.number,), board, {"colour": colour, "difference": difference}))
    return found


def bye_findings(players: dict[int, SwissPlayer], proposed: RoundPaired) -> list[Finding]:
    """C.2: a bye scoring a point for a player who may not have the pairing-allocated one."""
    return [
        Finding("bye_again", (b["player"],))
        for b in proposed.byes
        if b["points"] >= 1 and b["player"] in players and players[b["player"]].had_bye
    ]


def engine_differences(proposed: RoundPaired, expected: RoundPaired) -> list[Finding]:
    wanted = {frozenset((b["south"], b["north"])): (b["south"], b["north"]) for b in expected.boards}
    found = []
    for board in proposed.boards:
        pair = (board["south"], board["north"])
        if frozenset(pair) not in wanted:
            found.append(Finding("not_engine_pair", pair, board["board"]))
        elif wanted[frozenset(pair)] != pair:
            found.append(Finding("seats_swapped", pair, board["board"]))
    given = sorted(b["player"] for b in proposed.byes)
    engine = sorted(b["player"] for b in expected.byes)
    if given != engine:
        found.append(Finding("bye_differs", tuple(given), values={"engine": ", ".join(map(str, engine)) or "-"}))
    return found
