"""``from recorder import Game``: the engine's front door, as the README documents it."""

import re
from dataclasses import replace
from pathlib import Path

import pytest
from support.playouts import random_record

from recorder import Game
from recorder.core.game import replay
from recorder.errors import IllegalMove, InvalidRecord
from recorder.rules import VARIANTS

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)


def test_the_readme_example_runs_as_written():
    blocks = readme_python_blocks()
    assert blocks, "the README shows the front door in a ```python block"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


def test_gen_21_a_sowing_out_of_turn_is_refused_and_changes_nothing():
    game = Game("selus", first_player="north")
    with pytest.raises(IllegalMove):
        game.sow("a1")  # South's hole
    assert game.to_move == "north" and len(game.events) == 1


def test_gen_30_gabata_names_no_first_player():
    with pytest.raises(InvalidRecord):
        Game("gabata", first_player="south")
    assert Game("gabata").awaiting == "race"


def test_gen_22_an_awaited_decision_comes_before_any_sowing():
    tuz = Game("tuz", first_player="south")
    with pytest.raises(IllegalMove):
        tuz.sow("f1")
    tuz.opening("plain")
    assert tuz.to_move == "north" and tuz.legal_moves()


def test_gen_42_a_game_can_start_from_a_state_it_rendered():
    game = Game("lahemay_walida", first_player="south")
    game.sow("c1")
    shown = game.state_json()
    position = {k: shown[k] for k in ("holes", "stores", "to_move", "first_turn_of_round", "owners", "specials")}
    again = Game("lahemay_walida", position=position)
    assert again.state_json()["holes"] == shown["holes"] and again.legal_moves() == game.legal_moves()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_live_play_replay_and_the_fold_agree_on_random_games(variant):
    for seed in range(3):
        record = random_record(variant, seed, max_events=80, notes=0.1, retractions=0.1, results=0.05)
        setup = {k: v for k, v in record.setup.items() if k in ("options", "south", "north", "first_player")}
        game = Game(record.setup["variant"], **setup)
        for command in record.commands:
            game.play(command)
        assert game.state == record.game.state
        stored = [{"type": e.type, "payload": e.payload()} for e in game.events]  # as the API lists them
        assert Game.replay(stored).state == game.state == Game.replay(game.events).state
        assert replay("game", enumerate(game.events, start=1)).state == game.state


def test_replay_checks_every_event_again():
    game = Game("qelat", first_player="south")
    game.sow("f1")
    setup, sowed = game.events
    forged = [setup, replace(sowed, hole="a2")]  # a North hole, with South to move
    with pytest.raises(IllegalMove):
        Game.replay(forged)
