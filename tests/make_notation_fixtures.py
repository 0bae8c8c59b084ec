"""Write fixtures/notation/*.mn: complete games of every variant in the notation.

Run from the project root: ``.venv/bin/python tests/make_notation_fixtures.py``. It is
deterministic: the games are the JSON fixtures (fixtures/games/*.json) recorded in
memory, plus seeded random playouts that show what those lack (metadata tags, notes,
allocations, results off the board, a custom start position, a retraction, several
games in one file). Each file is exactly what ``recorder export --full-history`` writes
for its games, which tests/test_notation_fixtures.py checks byte for byte.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.playouts import Record, random_record  # noqa: E402

from recorder.core.commands import decide, decide_create  # noqa: E402
from recorder.core.events import Event  # noqa: E402
from recorder.core.game import apply_event, start_game  # noqa: E402
from recorder.notation.writer import write_archive, write_game  # noqa: E402
from recorder.rules.positions import FIELDS  # noqa: E402
from recorder.rules.state import state_to_json  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fixtures" / "notation"


def events_of(setup: dict, commands: list[dict]) -> list:
    game = start_game("fixture", decide_create(setup))
    events: list[tuple[int, Event]] = [(1, game.setup)]
    for command in commands:
        for event in decide(game, command):
            game = apply_event(game, event, game.version + 1)
            events.append((game.version, event))
    return events


def text_of(record: Record) -> str:
    return write_game(events_of(record.setup, record.commands), full_history=True)


def complete(variant: str, first_seed: int, **kwargs) -> Record:
    """The first seeded playout from ``first_seed`` on that ends with the game over."""
    for seed in range(first_seed, first_seed + 200):
        record = random_record(variant, seed, max_events=600, **kwargs)
        if record.game.state.game_over:
            return record
    raise RuntimeError(f"no complete {variant} game from seed {first_seed}")


def resigned(variant: str, seed: int) -> Record:
    """A game cut short: some moves, then a resignation with a note (GEN-28)."""
    record = random_record(variant, seed, max_events=30, metadata=True)
    resignation = {"type": "result", "kind": "resignation", "winner": "north", "note": "South resigned: time trouble"}
    return Record(record.setup, [*record.commands, resignation], record.game)


def from_position(seed: int) -> Record:
    """A Qelat game that starts from a position reached in another game (GEN-42)."""
    before = random_record("qelat", seed, max_events=24)
    position = {k: v for k, v in state_to_json(before.game.rules, before.game.state).items() if k in FIELDS}
    setup = {**before.setup, "position": position, "event": "Problem 12: from a disputed position"}
    del setup["first_player"]
    rest = complete("qelat", seed + 1)
    game = start_game("fixture", decide_create(setup))
    commands = []
    for command in rest.commands:  # replay what is legal of another game's choices, then finish
        try:
            events = decide(game, command)
        except Exception:
            break
        for event in events:
            game = apply_event(game, event, game.version + 1)
        commands.append(command)
    commands.append({"type": "result", "kind": "agreement", "winner": None, "note": "drawn by agreement"})
    return Record(setup, commands, game)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for path in sorted((ROOT / "fixtures" / "games").glob("*.json")):
        record = json.loads(path.read_text())
        (OUT / f"{path.stem}.mn").write_text(write_game(events_of(record["setup"], record["commands"])))
    extra = {
        "qelat-asmara-open.mn": [complete("qelat", 100, metadata=True, notes=0.03)],
        "selus-match-annotated.mn": [complete("selus", 200, metadata=True, notes=0.02, options={"match": "rounds"})],
        "gabata-resignation.mn": [resigned("gabata", 300)],
        "lahemay_walida-retraction.mn": [complete("lahemay_walida", 400, metadata=True, retractions=0.02)],
        "tuz-allocations.mn": [complete("tuz", 500, metadata=True)],
        "qelat-from-position.mn": [from_position(600)],
        "mixed-archive.mn": [complete(v, 700, metadata=True, results=0.05) for v in ("gabata", "qelat", "tuz")],
    }
    for name, records in extra.items():
        (OUT / name).write_text("".join(write_archive(text_of(record) for record in records)))
    print(f"wrote {len(list(OUT.glob('*.mn')))} files to {OUT}")


if __name__ == "__main__":
    main()
