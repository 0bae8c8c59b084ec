"""Every worked example of the spec (examples.json) recorded through the HTTP API.

A game is created at the vector's ``before`` position (GEN-42), the ``play`` events are
sent as commands, and the state read back is compared with ``after``.
"""

import pytest
from conftest import expected_view, load_examples, play_command, spec_view

from recorder.rules import VARIANTS

EXAMPLES = load_examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_gen_42_vector_through_api(api, example):
    assert example["variant"] in VARIANTS, f"{example['variant']} is not registered"
    game = api.create(
        variant=example["variant"], options=example["options"], south="S", north="N", position=example["before"]
    )
    for item in example["play"]:
        api.command(game["id"], **play_command(item))
    state = api.state(game["id"])
    assert spec_view(state, example["after"]) == expected_view(example["after"])
    assert state["legal_moves"] == example["after"].get("legal_moves", [])
