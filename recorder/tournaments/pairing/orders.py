"""The handbook's order of candidates within a bracket (C.04.3 D) as costs a matching
minimises: the exchanges (the fewest exchanged, the smallest difference of the sums of
the numbers moved, the highest number moved out of S1, the lowest moved in) and the
transpositions of S2 (the lexicographically smallest sequence of partners).
"""

from __future__ import annotations

from .swiss import Digits, Players


def mixed_radix(components: list[tuple[Digits, int]]) -> Digits:
    """Per-key cost from components, most significant first: (key -> value, bound on a sum)."""
    total: Digits = {}
    unit = 1
    for values, bound in reversed(components):
        for key, value in values.items():
            total[key] = total.get(key, 0) + value * unit
        unit *= bound + 1
    return total


def exchange_digits(order: Players, first: int) -> Digits:
    """The four exchange rules as costs over ``order`` (the group's players, S1 its first
    ``first``): keys (a, b) for a pair, (a,) for a player floating out of the group."""
    n = len(order)
    idx = {p.number: i for i, p in enumerate(order)}
    top = 1 << n
    count: Digits = {}
    sums: Digits = {}
    outs: Digits = {}
    ins: Digits = {}
    for i, p in enumerate(order):
        for q in order[i + 1 :]:
            j = idx[q.number]
            key = (p.number, q.number)
            if j < first:  # both in S1: q (the higher number) moves out
                sums[key], outs[key] = n - j, top - (1 << j)
            elif i >= first:  # both in S2: p (the lower number) moves in
                count[key], sums[key], ins[key] = 1, i, top - (1 << (n - i))
    for i, p in enumerate(order[:first]):  # S1 players floating move out
        sums[(p.number,)], outs[(p.number,)] = n - i, top - (1 << i)
    return mixed_radix([(count, n), (sums, n * n + n), (outs, n * top), (ins, n * top)])


def transposition_digits(s1: Players, s2: Players) -> Digits:
    """S1[i] against S2[j] costs j at the i-th place: the smallest sequence of partners first."""
    radix = len(s2) + 1
    k = len(s1)
    return {(p.number, q.number): j * radix ** (k - 1 - i) for i, p in enumerate(s1) for j, q in enumerate(s2)}


def mdp_digits(mdps: Players, residents: Players, paired: int) -> Digits:
    """The MDP exchange (``paired`` of them form S1 at first) and S2's transposition."""
    m = len(mdps)
    top = 1 << m
    count: Digits = {}
    sums: Digits = {}
    outs: Digits = {}
    ins: Digits = {}
    for i, p in enumerate(mdps):
        for q in residents:
            key = (p.number, q.number)
            sums[key] = i
            if i >= paired:
                count[key], ins[key] = 1, top - (1 << (m - i))
            else:
                outs[key] = 1 << i
    order = mixed_radix([(count, m), (sums, m * m), (outs, top), (ins, m * top)])
    trans = transposition_digits(mdps, residents)
    bound = (len(residents) + 1) ** m
    return {key: value * (bound + 1) + trans[key] for key, value in order.items()}
