"""The players bench: a registry of N players and G rated games rebuilt into rating lists.

Built through the real paths on a fresh SQLite file: the players registered by the
registry's service (seeded names in Latin script, a fifth with a Ge'ez name too, the same
name twice registered as two people with ``force``); rated tournaments created by the
tournaments' service; the games restored from an NDJSON log as ``recorder import``
restores one (the restore keeps each event's recording time), each a setup naming its
two registry players and its tournament and a result, spread over the twelve months
before this one. Then, each timed: the rebuild of every published list (``recorder
ratings rebuild``); a new result recorded through the service and the current month's
list asked for at once (how soon the result shows); and searches of the registry by a
prefix of a name, in either script.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from recorder.core import chain
from recorder.core.commands import decide_create

FIRST = [
    "Abeba", "Berhane", "Chaltu", "Dawit", "Eleni", "Fikre", "Genet", "Haile", "Iyasu", "Kidane",
    "Lemlem", "Meron", "Nardos", "Ogbazghi", "Petros", "Rahel", "Selam", "Tesfaye", "Yonas", "Zewdu",
    "Almaz", "Bereket", "Daniel", "Ephrem", "Freweini", "Girma", "Hagos", "Kahsay", "Luam", "Mulu",
]  # fmt: skip
FAMILY = [
    "Alemu", "Bekele", "Desta", "Gebre", "Hailu", "Kebede", "Mengistu", "Negash", "Tadesse", "Woldu",
    "Asfaw", "Berhe", "Demissie", "Fisseha", "Gebremedhin", "Habte", "Kiros", "Mehari", "Tekle", "Zerai",
]  # fmt: skip
GEEZ = {"Abeba": "ኣበባ", "Selam": "ሰላም", "Dawit": "ዳዊት", "Haile": "ሃይሌ", "Meron": "ሜሮን", "Yonas": "ዮናስ"}
FEDERATIONS = ("ETH", "ERI", "DJI", "SOM", "SDN")
VARIANT = "qelat"
PLAYERS_PER_TOURNAMENT = 100


@dataclass(frozen=True)
class PlayersFigures:
    players: int
    games: int
    build_seconds: float
    rebuild_seconds: float
    entries: int
    periods: int
    reflect_ms: list[float]
    search_ms: list[float]
    duplicate_ms: list[float]  # a registration's duplicate check: the same name or one spelt nearly alike
    near_found: int  # of the duplicate checks, those that found the registered name misspelt

    @property
    def duplicate_p99_ms(self) -> float:
        return _p99(self.duplicate_ms)

    @property
    def reflect_p99_ms(self) -> float:
        return _p99(self.reflect_ms)

    @property
    def search_p99_ms(self) -> float:
        return _p99(self.search_ms)


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def names(count: int, rng: random.Random) -> list[tuple[str, str | None]]:
    """Seeded (Latin, Ge'ez or None) names: first and family names, a middle initial past
    the combinations (so a search finds many players by one prefix, as it would)."""
    found = []
    pairs = len(FIRST) * len(FAMILY)
    for index in range(count):
        first, family = FIRST[index % len(FIRST)], FAMILY[(index // len(FIRST)) % len(FAMILY)]
        cycle = index // pairs  # the 601st player on is "Abeba B. Alemu", then "C.", ...
        middle = f" {chr(ord('A') + cycle % 26)}." if cycle else ""
        geez = GEEZ.get(first) if rng.random() < 0.2 else None
        found.append((f"{first}{middle} {family}", geez))
    return found


def months_before(now: datetime, count: int) -> list[str]:
    year, month = now.year, now.month
    found = []
    for _ in range(count):
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
        found.append(f"{year:04d}-{month:02d}")
    return found[::-1]


def game_lines(game_id: str, body: dict, winner: str | None, when: str) -> Iterator[str]:
    """A game's NDJSON log as an export writes it: its setup and its result, chained."""
    setup = decide_create(body)
    result = {"kind": "resignation" if winner else "agreement", "winner": winner, "note": None}
    entries = [
        (kind, chain.canonical_json(payload))
        for kind, payload in (("game_created", setup.payload()), ("result_recorded", result))
    ]
    for (kind, text), (seq, prev_hash, digest) in zip(
        entries, chain.new_links(game_id, chain.START, entries, when, "bench")
    ):
        yield chain.line_text(game_id, seq, kind, text, when, "bench", prev_hash, digest)


def measure(players: int, games: int, seed: int = 2026, folder: str | None = None) -> PlayersFigures:
    from recorder.archive.transfer import Archive
    from recorder.games.service import Recorder
    from recorder.players.service import Players
    from recorder.ratings.service import Ratings
    from recorder.store.backends import open_store
    from recorder.tournaments.service import Tournaments

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        store = open_store(str(Path(scratch) / "players.sqlite3"))
        recorder = Recorder(store)
        registry, tournaments = Players(recorder), Tournaments(recorder)
        start = time.perf_counter()
        ids = []
        with store.batch():
            for index, (name, geez) in enumerate(names(players, rng)):
                body: dict = {"name": name, "federation": FEDERATIONS[index % len(FEDERATIONS)], "name_geez": geez}
                ids.append(registry.register(body, recorded_by="bench", force=True).player.player_id)
        events = []
        for number in range(max(1, players // PLAYERS_PER_TOURNAMENT)):
            body = {"name": f"Rated Open {number}", "variant": VARIANT, "format": "manual", "rounds": 12}
            events.append(tournaments.create({**body, "rated": True}, recorded_by="bench").tournament.tournament_id)
        periods = months_before(datetime.now(UTC), 12)
        archive = Archive(store, restore=True, recorded_by="bench")
        lines: list[str] = []
        with store.batch():
            for number in range(games):
                tournament = number % len(events)
                group = ids[tournament * PLAYERS_PER_TOURNAMENT : (tournament + 1) * PLAYERS_PER_TOURNAMENT] or ids
                south, north = rng.sample(group, 2)
                when = f"{periods[number * len(periods) // games]}-{rng.randint(1, 28):02d}T12:00:00.000000Z"
                body = {
                    "variant": VARIANT,
                    "south": south,
                    "north": north,
                    "first_player": "south",
                    "south_player": south,
                    "north_player": north,
                    "tournament_id": events[tournament],
                }
                winner = rng.choice(("south", "north", "south", "north", None))
                lines += game_lines(f"bench{number:07d}", body, winner, when)
                if len(lines) >= 2_000:
                    _imported(archive.import_ndjson(lines))
                    lines = []
            _imported(archive.import_ndjson(lines))
        build = time.perf_counter() - start
        ratings = Ratings(recorder)
        start = time.perf_counter()
        entries = ratings.rebuild()
        rebuild = time.perf_counter() - start
        reflect = [_new_result(recorder, ratings, events[0], ids, rng) for _ in range(50)]
        search = [_search(registry, rng) for _ in range(500)]
        checks = [_duplicate_check(registry, rng) for _ in range(500)]
        store.close()
    duplicates = [ms for ms, _ in checks]
    found = sum(hit for _, hit in checks)
    return PlayersFigures(players, games, build, rebuild, entries, len(periods), reflect, search, duplicates, found)


def _imported(reports) -> None:
    for report in reports:
        if report.status != "imported":
            raise RuntimeError(f"the bench's game was refused: {report.to_json()}")


def _new_result(recorder, ratings, tournament_id: str, ids: list[str], rng: random.Random) -> float:
    """A rated game recorded now, then this month's list asked for: ms until it shows."""
    south, north = rng.sample(ids[:PLAYERS_PER_TOURNAMENT], 2)
    body = {"variant": VARIANT, "south": south, "north": north, "first_player": "south"}
    body |= {"south_player": south, "north_player": north, "tournament_id": tournament_id}
    game = recorder.create_game(body, recorded_by="bench").game
    before = next((e.games for e in ratings.current(VARIANT).entries if e.player_id == south), 0)
    result = {"type": "result", "kind": "resignation", "winner": "south"}
    recorder.record(game.game_id, result, expected_version=1, recorded_by="bench")
    start = time.perf_counter()
    current = ratings.current(VARIANT)
    elapsed = 1000 * (time.perf_counter() - start)
    after = next(e.games for e in current.entries if e.player_id == south)
    if after != before + 1:
        raise RuntimeError("the new result is not in the current list")
    return elapsed


def _duplicate_check(registry, rng: random.Random) -> tuple[float, bool]:
    """A registration's duplicate check of a registered name misspelt: a letter of its
    family name dropped, doubled or changed into a vowel. (ms, whether it was found)"""
    family = rng.choice(FAMILY)
    at = rng.randrange(1, len(family))
    misspelt = rng.choice(
        [family[:at] + family[at + 1 :], family[:at] + family[at] + family[at:], family[:at] + "e" + family[at + 1 :]]
    )
    name = f"{rng.choice(FIRST)} {misspelt}"
    start = time.perf_counter()
    found = registry.same_names({"name": name})
    return 1000 * (time.perf_counter() - start), bool(found)


def _search(registry, rng: random.Random) -> float:
    first = rng.choice(FIRST)
    text = rng.choice([first[:3].lower(), first.upper(), rng.choice(FAMILY)[:4], GEEZ.get(first) or first])
    start = time.perf_counter()
    registry.search(text)
    return 1000 * (time.perf_counter() - start)
