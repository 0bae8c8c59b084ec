"""Berger round-robin tables (FIDE C.05 Annex 1), pure.

Player n sits on board 1 against the player the table rotates to; he is north in odd
rounds and south in even ones. An odd field adds a dummy: whoever meets it has the round
off. A double round robin repeats the cycle with the seats swapped, the first cycle's
last two rounds played in reverse order.
"""

from __future__ import annotations


def berger_cycle_length(n: int) -> int:
    return n - 1 if n % 2 == 0 else n


def berger_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` (1-based, within one cycle) for players 1..n as (south, north)
    pairs in board order. With n odd, a pair holding n + 1 (the dummy) is a bye."""
    size = n + (n % 2)
    rotating, half = size - 1, size // 2
    if not 1 <= round_number <= rotating:
        raise ValueError(f"a {n}-player cycle has rounds 1..{rotating}")
    a = ((round_number - 1) * half) % rotating  # index of the player facing the fixed one
    fixed = (size, a + 1) if round_number % 2 == 0 else (a + 1, size)
    others = [((a + i) % rotating + 1, (a - i) % rotating + 1) for i in range(1, half)]
    return [fixed, *others]


def round_robin_round(
    n: int, round_number: int, double: bool, annex_order: bool = True
) -> tuple[list[tuple[int, int]], int | None]:
    """Boards (south, north) and the player with the round off (odd n), seats swapped in
    the second cycle of a double round robin. ``annex_order``: a double round robin's
    first cycle plays its last two rounds in reverse order (C.05 Annex 1), so no player
    sits alike three rounds running across the cycles; False is the order of tournaments
    created before (the cycle played twice as it stands)."""
    boards, bye = [], None
    swap = double and round_number > berger_cycle_length(n)
    for south, north in berger_round(n, table_round(n, round_number, double and annex_order)):
        if n % 2 and n + 1 in (south, north):
            bye = north if south == n + 1 else south
            continue
        boards.append((north, south) if swap else (south, north))
    return boards, bye


def table_round(n: int, round_number: int, last_two_reversed: bool) -> int:
    """The Berger table's round played as tournament round ``round_number``."""
    cycle = berger_cycle_length(n)
    in_cycle = (round_number - 1) % cycle + 1
    if last_two_reversed and round_number <= cycle and cycle >= 2 and in_cycle >= cycle - 1:
        return 2 * cycle - 1 - in_cycle  # cycle - 1 <-> cycle
    return in_cycle
