"""The maximum-weight matching (networkx's blossom algorithm, exact in integers) over a
whole round, and why a round has none that keeps C.1 and C.2.
"""

from __future__ import annotations

import networkx as nx

from .criteria import Field, bye_cost, bye_takers, pair_cost
from .swiss import NoPairing, Paired, Pairs, Players, in_rank_order

BYE = 0  # the bye's node: player numbers start at 1


Matching = set[tuple[int, int]]  # the matched pairs of node numbers


class MatchingGraph(nx.Graph):  # type: ignore[misc]  # networkx has no type hints
    """A graph whose ``g[v]`` is the plain neighbour dict, not networkx's read-only view:
    the blossom algorithm reads an edge's weight through it at every dual change, and the
    view's indirection was a large part of what a bracket's matching cost (docs/decisions.md)."""

    def __getitem__(self, n: int) -> dict[int, dict[str, int]]:
        neighbours: dict[int, dict[str, int]] = self._adj[n]
        return neighbours


def heaviest_matching(g: MatchingGraph, *, maxcardinality: bool = False) -> Matching:
    """networkx's maximum-weight matching (the blossom algorithm), among the matchings of
    the most pairs when ``maxcardinality``."""
    matching: Matching = nx.max_weight_matching(g, maxcardinality=maxcardinality)
    return matching


def whole_round(f: Field, players: Players | None = None) -> Paired:
    """The best pairing of ``players`` (the whole round by default): a maximum-cardinality,
    maximum-weight matching; NoPairing when it cannot place everyone."""
    players = list(f.ranked) if players is None else players
    g = MatchingGraph()
    g.add_nodes_from(p.number for p in players)
    for i, p in enumerate(players):
        for q in players[i + 1 :]:
            if q.number not in p.opponents:  # C.1
                g.add_edge(p.number, q.number, weight=f.base - pair_cost(f, p, q))
    if len(players) % 2:
        for p in players:
            if p.number in bye_takers(f):
                g.add_edge(BYE, p.number, weight=f.base - bye_cost(f, p))
    matching = heaviest_matching(g, maxcardinality=True)
    if 2 * len(matching) != len(players) + len(players) % 2:
        raise NoPairing(why_unpaired(g, matching, len(players)))
    return pairs_and_bye(f, matching)


def pairs_and_bye(f: Field, matching: Matching) -> Paired:
    by_number = {p.number: p for p in f.ranked}
    pairs: Pairs = []
    bye = None
    for a, b in matching:
        if BYE in (a, b):
            bye = by_number[a or b]
            continue
        pairs.append(in_rank_order(by_number[a], by_number[b]))
    return pairs, bye


def why_unpaired(g: MatchingGraph, matching: Matching, players: int) -> str:
    """Exactly why no pairing keeps C.1 (no repeat) and C.2 (no second bye)."""
    met_everyone = sorted(n for n in g.nodes if n != BYE and all(m == BYE for m in g[n]))
    matched = {n for edge in matching for n in edge}
    left = sorted(n for n in g.nodes if n not in matched and n != BYE)
    boards = sum(1 for a, b in matching if BYE not in (a, b))
    rules = "a repeat game (C.1) or a second bye (C.2)" if BYE in g else "a repeat game (C.1)"
    if met_everyone:
        detail = f"player(s) {', '.join(map(str, met_everyone))} have met every other player of the round"
    else:
        detail = f"at most {boards} boards for {players} players, player(s) {', '.join(map(str, left))} left over"
    return f"every pairing of this round needs {rules}: {detail}; pair it manually"
