"""Every per-game endpoint answers the adversarial game (12,151 events, 6,000 retractions)
within a generous but honest bound, at a cost per event close to a plain game's.

The games are built straight through the store (``recorder.bench.cost``: each command
decided as a request would be). The bound here is generous (the machine is shared);
``recorder bench --only cost`` prints the figures beside the real targets (≤ 0.5 s per
endpoint, ≤ 3x the plain game's time per event). The per-event comparison uses the
process's CPU time, which other work on the machine does not inflate.
"""

import time

import pytest

from recorder.bench import cost

pytestmark = pytest.mark.timeout(300)

# The bench's target is 0.5 s an endpoint; 4x that for a shared machine (the slowest endpoint
# took 0.61 s at a load average of 8, docs/decisions.md, *Tests*). Before the fold kept its
# states, /moves took minutes.
WALL_BOUND_SECONDS = 2.0
CPU_RATIO_BOUND = 4.0  # the bench's target is 3x the plain game's CPU per event; 2.2x at most was seen


@pytest.fixture
def games(app):
    return cost.build_both(app.extensions["recorder"].store)


def timed(client, game_id, endpoint):
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    response = client.open(f"/api/games/{game_id}{endpoint.path}", method=endpoint.method, json=endpoint.body)
    wall, cpu = time.perf_counter() - started_wall, time.process_time() - started_cpu
    assert response.status_code == 200, (endpoint.name, response.get_data(as_text=True)[:300])
    return response, wall, cpu


def test_every_per_game_endpoint_is_linear_in_the_log_however_many_retractions(client, games):
    adversarial, plain = games["adversarial"], games["plain"]
    assert (adversarial.version, plain.version) == (12_151, 1_500)
    client.get(f"/api/games/{adversarial.game_id}")  # the state cache holds each game, as in service
    client.get(f"/api/games/{plain.game_id}")
    for endpoint, plain_endpoint in zip(cost.endpoints(adversarial), cost.endpoints(plain)):
        _, wall, cpu = timed(client, adversarial.game_id, endpoint)
        _, _, plain_cpu = timed(client, plain.game_id, plain_endpoint)
        ratio = (cpu / adversarial.version) / (max(plain_cpu, 1e-3) / plain.version)
        assert wall <= WALL_BOUND_SECONDS, f"{endpoint.name}: {wall:.1f} s"
        assert ratio <= CPU_RATIO_BOUND, f"{endpoint.name}: {ratio:.1f}x the plain game's CPU per event"


def test_the_adversarial_game_reads_back_as_it_was_recorded(client, games):
    game = games["adversarial"]
    events = client.get(f"/api/games/{game.game_id}/events").get_json()["events"]
    retractions = [entry for entry in events if entry["type"] == "moves_retracted"]
    assert len(events) == 12_151 and len(retractions) == 6_000
    assert all(entry["retracts"] == [entry["seq"] - 1] for entry in retractions)
    moves = client.get(f"/api/games/{game.game_id}/moves").get_json()["moves"]
    assert [move["seq"] for move in moves] == [seq for seq, _ in game.moves]
    claim = {"position": {"holes": dict(zip(game.rules.board.holes, game.state.holes))}}
    report = client.post(f"/api/games/{game.game_id}/claims", json=claim).get_json()
    assert report["stood"] and report["matches"][-1]["seq"] == 12_151 and report["matches"][-1]["effective"]
    assert client.get(f"/api/games/{game.game_id}/verify").get_json()["ok"] is True
