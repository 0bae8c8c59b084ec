"""GET /api/variants: names, titles, board geometry and options of the five games.

Each option also carries words for people: ``label`` (what the option decides) and
``choice_labels`` (one per entry of ``choices``, in the same order), so a page can say
"Mazagebh may go straight back: no" instead of ``mazagebh_no_return true``.
"""

from flask import Blueprint

from recorder.rules import VARIANTS
from schemas import variant_list_schema

bp = Blueprint("variants", __name__, url_prefix="/api/variants")

# variant -> option -> (label, {choice: words}); every option of every game is named here
# (tests/test_live_api.py holds that), and the rules modules stay free of presentation.
OPTION_LABELS: dict[str, dict[str, tuple[str, dict[object, str]]]] = {
    "gabata": {
        "serial_capture": ("Serial capture (GAB-6)", {True: "the landing seed sows on", False: "one capture only"}),
        "capture_only_from_own_hole": (
            "Capture from an empty opponent hole (GAB-5)",
            {False: "captures", True: "captures nothing"},
        ),
    },
    "lahemay_walida": {
        "group_size": ("Seeds that make a capture (LW-6, LW-7)", {4: "four", 3: "three"}),
        "after_final_capture": (
            "After a capture by the last seed (LW-7)",
            {"bonus_sowing": "a bonus sowing", "end_turn": "the turn ends"},
        ),
    },
    "qelat": {
        "mazagebh_no_return": (
            "A lone seed sent across an end (QEL-11, QEL-12)",
            {True: "may not come straight back", False: "may come straight back"},
        ),
    },
    "selus": {
        "match": ("Match (SEL-14..19)", {"rounds": "rounds won on holes", "single": "one game on points"}),
        "empty_wegue_landing": (
            "Last seed in an empty wegue (SEL-9)",
            {"capture_seed": "is taken", "leave_seed": "stays"},
        ),
        "weak_wegues": (
            "A wegue emptied by a capture (SEL-11)",
            {False: "stays a wegue", True: "becomes an ordinary hole"},
        ),
        "wegue_block": (
            "No wegue made in (SEL-8)",
            {"first_turn": "the round's first turn", "first_turn_each_player": "each player's first turn"},
        ),
    },
    "tuz": {
        "after_tuz_capture": (
            "After taking from a tuz (TUZ-8)",
            {"sow_again": "sow again", "end_turn": "the turn ends"},
        ),
    },
}


def labelled(description: dict) -> dict:
    """A variant's description with ``label`` and ``choice_labels`` on each option."""
    words = OPTION_LABELS.get(description["name"], {})
    for name, option in description["options"].items():
        label, choices = words.get(name, (name.replace("_", " "), {}))
        option["label"] = label
        option["choice_labels"] = [choices.get(choice, str(choice)) for choice in option["choices"]]
    return description


@bp.get("")
def list_variants():
    described = [labelled(rules_class().describe()) for rules_class in VARIANTS.values()]
    return variant_list_schema.dump({"variants": described})
