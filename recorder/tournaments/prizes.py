"""A tournament's prize list: who takes which prize, and how much (pure, standard library).

The prize list holds place prizes (the overall list, 1st..nth) and category prizes (a
category's list, 1st..nth of its players); amounts are whole units of the currency the
organiser pays in. The allocation, defined in docs/tournaments.md (*Prizes*):

1. **One prize per player, the highest he can take**: the prizes are given from the
   highest amount down (equal amounts in the order of the list), each to the best-placed
   player of its list (the standings' order, tie-breaks included) who holds no prize yet.
   A prize no such player is left for is not paid.
2. **Sharing** (the organiser's choice): ``none`` pays each prize to its taker.
   ``hort`` (the Hort system): in each list, the takers tied on points pool their
   prizes, and the players of that list tied with them who took no prize join them; half
   of the pool is shared equally among them all, the other half goes by the tie-break
   order, each taking half of the prize he took (nothing for those who joined). A player
   joins one pool only: the pool with the highest prize first. Amounts stay whole:
   each share is rounded down and the units left go one each to the sharers in
   tie-break order, so a pool pays out exactly what its prizes offer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

HORT = "hort"
NOT_SHARED = "none"
SHARING = (NOT_SHARED, HORT)


@dataclass(frozen=True)
class Prize:
    """A place of a list: ``category`` None is the overall list."""

    place: int
    amount: int
    category: str | None = None


@dataclass(frozen=True)
class Ranked:
    """A player as the standings place him (best first)."""

    number: int
    points: Fraction


@dataclass(frozen=True)
class Award:
    """What one player is paid, from one list: the prize he took (``prize``, an index of
    the prize list; None for a player who joined a tie for a list's places) and, when it
    was shared, the places of the pool (``pool``) and how many shared it."""

    number: int
    category: str | None
    amount: int
    prize: int | None
    pool: tuple[int, ...] = ()
    sharers: int = 1


def allocate(
    ranking: Sequence[Ranked],
    members: Mapping[str, frozenset[int]],
    prizes: Sequence[Prize],
    sharing: str = NOT_SHARED,
) -> list[Award]:
    """Every player paid, in the ranking's order. ``members``: each category's players."""
    taken = take_places(ranking, members, prizes)
    if sharing == HORT:
        awards = shared_by_hort(ranking, members, prizes, taken)
    else:
        awards = [Award(number, prizes[i].category, prizes[i].amount, i) for i, number in taken.items()]
    position = {r.number: i for i, r in enumerate(ranking)}
    return sorted(awards, key=lambda a: position[a.number])


def in_list(category: str | None, number: int, members: Mapping[str, frozenset[int]]) -> bool:
    """May the player take the prizes of this list (None: the overall list, everyone)?"""
    return category is None or number in members.get(category, frozenset())


def take_places(ranking: Sequence[Ranked], members: Mapping[str, frozenset[int]], prizes: Sequence[Prize]) -> dict:
    """Step 1: prize index -> the player who takes it, highest amount first."""
    taken: dict[int, int] = {}
    holders: set[int] = set()
    for i in sorted(range(len(prizes)), key=lambda i: (-prizes[i].amount, i)):
        category = prizes[i].category
        taker = next(
            (r.number for r in ranking if r.number not in holders and in_list(category, r.number, members)), None
        )
        if taker is not None:
            taken[i] = taker
            holders.add(taker)
    return taken


def shared_by_hort(
    ranking: Sequence[Ranked], members: Mapping[str, frozenset[int]], prizes: Sequence[Prize], taken: dict
) -> list[Award]:
    """Step 2: each list's ties pooled, the pools with the highest prize first."""
    points = {r.number: r.points for r in ranking}
    position = {r.number: i for i, r in enumerate(ranking)}
    pools: dict[tuple, list[int]] = {}
    for i, number in taken.items():
        pools.setdefault((prizes[i].category, points[number]), []).append(i)
    unpaid = {r.number for r in ranking} - set(taken.values())  # who may still join a tie
    awards = []
    for (category, score), pooled in sorted(
        pools.items(), key=lambda item: min((-prizes[i].amount, i) for i in item[1])
    ):
        takers = sorted(pooled, key=lambda i: position[taken[i]])
        joiners = [
            r.number
            for r in ranking
            if r.points == score and r.number in unpaid and in_list(category, r.number, members)
        ]
        unpaid -= set(joiners)
        awards += pool_shares(prizes, takers, [taken[i] for i in takers], joiners)
    return awards


def pool_shares(prizes: Sequence[Prize], takers: list[int], numbers: list[int], joiners: list[int]) -> list[Award]:
    """The Hort system on one pool: ``takers`` (prize indexes, tie-break order) were taken
    by ``numbers``; ``joiners`` follow them in the tie. Half of the pool is shared equally,
    half as each one's own prize; whole units, the rest one each in tie-break order."""
    own = [prizes[i].amount for i in takers] + [0] * len(joiners)
    sharers = numbers + joiners
    pool = sum(own)
    exact = [Fraction(mine, 2) + Fraction(pool, 2 * len(sharers)) for mine in own]
    whole = [int(share) for share in exact]  # shares are never negative: int() rounds down
    for k in range(pool - sum(whole)):
        whole[k] += 1
    places = tuple(sorted(prizes[i].place for i in takers))
    category = prizes[takers[0]].category
    shared = len(sharers) > 1
    return [
        Award(
            number,
            category,
            amount,
            takers[k] if k < len(takers) else None,
            places if shared else (),
            len(sharers),
        )
        for k, (number, amount) in enumerate(zip(sharers, whole, strict=True))
    ]


def offered(prizes: Sequence[Prize]) -> int:
    return sum(p.amount for p in prizes)
