"""The cost of one game's reads when its log is long and full of retractions.

Two Selus games are built on a fresh database, straight through the store (deciding
each command with ``commands.decide`` as a request would, then appending in chunks:
12,000 HTTP requests would only measure the network):

- the adversarial game: the setup, 150 moves (sowings, and the match decisions due), then 6,000 pairs of {a sowing,
  ``retract 1``}: 12,151 events, 6,000 retractions;
- the plain game: the setup and random legal sowings and match decisions, no
  retraction, 1,500 events.

Then, against gunicorn in the documented configuration, one client reads every
per-game endpoint of both games. Each endpoint must answer the adversarial game in
≤ 0.5 s, and its time per event must stay within 3x the plain game's: cost linear in
the log, however many retractions it holds. Then ``fairness.py`` times appends to other
games while four clients read the adversarial game.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

from recorder.core.commands import decide, decide_create
from recorder.core.game import FoldedGame, apply_event, start_game
from recorder.errors import EndlessSowing
from recorder.games.games_list import GamesList
from recorder.games.service import summary_of
from recorder.store import NewEvent, SQLiteEventStore, StoreBackend

from . import fairness
from .fairness import FairnessFigures
from .loadgen import Connection
from .server import GunicornConfig, Server, served

VARIANT = "selus"
ADVERSARIAL_SOWINGS = 150
ADVERSARIAL_PAIRS = 6_000
PLAIN_EVENTS = 1_500
CHUNK = 2_000  # events per append while building
SEED = 15

Command = dict
Chooser = Callable[[FoldedGame, random.Random], Command | None]


def setup_body(name: str) -> dict:
    return {"variant": VARIANT, "south": f"{name} S", "north": f"{name} N", "first_player": "south"}


def build(store: StoreBackend, game_id: str, body: dict, choose: Chooser, *, seed: int = SEED) -> FoldedGame:
    """Record ``choose``'s commands until it returns None, deciding each one on the game as it stands."""
    setup = decide_create(body)
    game = start_game(game_id, setup)
    pending = [NewEvent(setup.type, setup.payload())]
    stored = 0
    rng = random.Random(seed)
    while (command := choose(game, rng)) is not None:
        for event in decide(game, command):
            game = apply_event(game, event, game.version + 1)
            pending.append(NewEvent(event.type, event.payload()))
        if len(pending) >= CHUNK:
            stored = _flush(store, game, stored, pending)
    _flush(store, game, stored, pending)
    return game


def _flush(store: StoreBackend, game: FoldedGame, stored: int, pending: list[NewEvent]) -> int:
    if pending:
        store.append(game.game_id, stored, list(pending), projection=GamesList(store).write(summary_of(game)))
    stored += len(pending)
    pending.clear()
    return stored


def sowing_or_decision(game: FoldedGame, rng: random.Random) -> Command:
    """A random legal sowing, or the match decision that is due (Selus: lot, next round)."""
    state, rules = game.state, game.rules
    if state.game_over:
        raise RuntimeError(f"the {VARIANT} game ended at event {game.version}; choose another seed")
    if state.awaiting == "lot":
        return {"type": "lot", "winner": rng.choice(("south", "north"))}
    if state.awaiting == "next_round":
        return {"type": "next_round", "first_player": rng.choice(("south", "north"))}
    legal = list(rules.legal_moves(state))
    rng.shuffle(legal)
    for hole in legal:
        command = {"type": "sow", "hole": rules.board.holes[hole]}
        try:
            decide(game, command)
        except EndlessSowing:  # GEN-35: a capped sowing is refused; try another hole
            continue
        return command
    raise RuntimeError(f"no sowing ends at event {game.version}; choose another seed")


def plain(events: int = PLAIN_EVENTS) -> Chooser:
    def choose(game: FoldedGame, rng: random.Random) -> Command | None:
        return sowing_or_decision(game, rng) if game.version < events else None

    return choose


def adversarial(sowings: int = ADVERSARIAL_SOWINGS, pairs: int = ADVERSARIAL_PAIRS) -> Chooser:
    """``sowings`` moves (sowings, and a match decision when one is due), then ``pairs`` x
    {a sowing (or the decision due), retract 1}."""
    progress = {"sowings": 0, "pairs": 0, "withdraw": False}

    def choose(game: FoldedGame, rng: random.Random) -> Command | None:
        if progress["sowings"] < sowings:
            progress["sowings"] += 1
            return sowing_or_decision(game, rng)
        if progress["withdraw"]:  # the pair's sowing is down: withdraw it
            progress["withdraw"], progress["pairs"] = False, progress["pairs"] + 1
            return {"type": "retract", "count": 1, "reason": "adversary"}
        if progress["pairs"] >= pairs:
            return None
        progress["withdraw"] = True
        return sowing_or_decision(game, rng)

    return choose


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str  # relative to /api/games/{id}
    body: dict | None = None


def endpoints(game: FoldedGame) -> list[Endpoint]:
    """Every per-game read, at the far end of the log where the "at" ones cost most."""
    last = game.version
    claim = {"holes": dict(zip(game.rules.board.holes, game.state.holes))}  # stood thousands of times
    # A well-formed checkpoint no key signed: the whole record is verified, then the signature refused.
    checkpoint = f"mancala-checkpoint/1 game={game.game_id} version={last} result=none head={'0' * 64} key=k sig=AAAA"
    return [
        Endpoint("state?at=N", "GET", f"/state?at={last - 1}"),
        Endpoint("events", "GET", "/events"),
        Endpoint("moves", "GET", "/moves"),
        Endpoint("notation", "GET", "/notation"),
        Endpoint("notation?history=full", "GET", "/notation?history=full"),
        Endpoint("verify", "GET", "/verify"),
        Endpoint("verify a checkpoint", "POST", "/verify", {"checkpoint": checkpoint}),
        Endpoint("trace", "GET", f"/events/{last}/trace"),
        Endpoint("board.svg?at=N", "GET", f"/board.svg?at={last - 1}"),
        Endpoint("what-if", "POST", "/what-if", {"options": {"weak_wegues": True}}),
        Endpoint("claims", "POST", "/claims", {"position": claim}),
    ]


@dataclass(frozen=True)
class CostFigures:
    events: dict  # "adversarial"/"plain" -> events in the game
    seconds: dict  # endpoint name -> {"adversarial": s, "plain": s} (median wall time)
    cpu: dict  # the same, the server's CPU seconds (user + system): what load on the machine does not inflate
    server: str
    fairness: FairnessFigures | None = None

    def per_event_ratio(self, name: str, *, cpu: bool = False) -> float:
        times = (self.cpu if cpu else self.seconds)[name]
        per_event = {kind: max(times[kind], 1e-3) / self.events[kind] for kind in times}
        return per_event["adversarial"] / per_event["plain"]


def build_both(store: StoreBackend) -> dict[str, FoldedGame]:
    return {
        "adversarial": build(store, "adversarial", setup_body("Adversary"), adversarial()),
        "plain": build(store, "plain", setup_body("Plain"), plain()),
    }


def measure(*, repeats: int, config: GunicornConfig, fairness_seconds: float = 0.0) -> CostFigures:
    with tempfile.TemporaryDirectory(prefix="recorder-bench-") as folder:
        path = os.path.join(folder, "cost.sqlite3")
        store = SQLiteEventStore(path)
        games = build_both(store)
        store.close()
        with served(path, config) as server:
            connection = Connection(server.port, timeout=120)
            for game in games.values():  # each worker folds each game once, as in service
                for _ in range(config.workers * 2):
                    connection.call("GET", f"/api/games/{game.game_id}")
            seconds: dict[str, dict[str, float]] = {}
            cpu: dict[str, dict[str, float]] = {}
            for kind, game in games.items():
                for endpoint in endpoints(game):
                    samples = sorted(timed(server, connection, game.game_id, endpoint) for _ in range(repeats))
                    wall, used = samples[len(samples) // 2]
                    seconds.setdefault(endpoint.name, {})[kind] = wall
                    cpu.setdefault(endpoint.name, {})[kind] = used
            connection.close()
            fair = None
            if fairness_seconds:
                fair = fairness.measure(server.port, games["adversarial"].game_id, seconds=fairness_seconds)
    events = {kind: game.version for kind, game in games.items()}
    return CostFigures(events, seconds, cpu, config.describe(), fair)


def timed(server: Server, connection: Connection, game_id: str, endpoint: Endpoint) -> tuple[float, float]:
    """Wall seconds of one request, and the server CPU seconds it used (one request in flight)."""
    cpu_before = server.cpu_seconds() or 0.0
    started = time.perf_counter()
    reply = connection.call(endpoint.method, f"/api/games/{game_id}{endpoint.path}", endpoint.body)
    elapsed = time.perf_counter() - started
    used = (server.cpu_seconds() or 0.0) - cpu_before
    if reply.status != 200:
        raise RuntimeError(f"{endpoint.name} of {game_id} answered {reply.status}: {reply.body!r:.300}")
    return elapsed, used
