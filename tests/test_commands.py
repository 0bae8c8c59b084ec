"""Deciding and folding in one step: ``commands.execute`` gives what ``decide`` then
``apply_event`` give, and plays each sowing once."""

from recorder.core.commands import decide, decide_create, execute
from recorder.core.game import apply_event, start_game
from recorder.rules import rules_for


def qelat_game():
    return start_game("g", decide_create({"variant": "qelat", "south": "A", "north": "B", "first_player": "south"}))


def test_execute_equals_decide_then_fold():
    game = qelat_game()
    for command in ({"type": "sow", "hole": "c1"}, {"type": "annotate", "text": "ok"}, {"type": "sow", "hole": "d2"}):
        events, after = execute(game, command)
        assert events == decide(game, command)
        assert after == apply_event(game, events[0], game.version + 1)
        game = after
    assert game.version == 4  # the setup is event 1


def test_execute_plays_a_sowing_once(monkeypatch):
    game = qelat_game()
    rules_class, played = type(game.rules), []
    original = rules_class.play

    def counting_play(self, state, hole, trace=None):
        played.append(hole)
        return original(self, state, hole, trace)

    monkeypatch.setattr(rules_class, "play", counting_play)
    execute(game, {"type": "sow", "hole": "c1"})
    assert len(played) == 1


def test_a_setup_does_not_share_its_options_with_the_cached_rules():
    setup = decide_create({"variant": "tuz", "south": "A", "north": "B", "first_player": "south"})
    setup.options["after_tuz_capture"] = "changed"
    assert rules_for("tuz").options["after_tuz_capture"] != "changed"
