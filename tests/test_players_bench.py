"""The players bench counts what it says: players, rated games, lists, results, searches."""

from recorder.bench import parse_sections
from recorder.bench.players import measure, months_before, names


def test_the_players_section_is_known():
    assert parse_sections("players") == ("players",)


def test_the_bench_names_are_seeded_and_distinct():
    import random

    first, second = names(700, random.Random(1)), names(700, random.Random(1))
    assert first == second and len({latin for latin, _ in first}) == 700
    assert any(geez for _, geez in first)


def test_months_before_run_back_across_the_year_end():
    from datetime import datetime

    assert months_before(datetime(2026, 2, 10), 3) == ["2025-11", "2025-12", "2026-01"]


def test_the_players_bench_rebuilds_lists_reflects_results_and_searches():
    figures = measure(200, 600, seed=3)
    assert figures.players == 200 and figures.games == 600 and figures.periods == 12
    assert figures.entries >= 200  # every player rated in the months after his first game
    assert len(figures.reflect_ms) == 50 and len(figures.search_ms) == 500
    assert len(figures.duplicate_ms) == 500 and 0 < figures.near_found <= 500
