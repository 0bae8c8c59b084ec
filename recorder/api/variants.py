"""GET /api/variants: names, titles, board geometry and options of the five games.

Each option also carries words for people: ``label`` (what the option decides) and
``choice_labels`` (one per entry of ``choices``, in the same order), so a page can say
"Mazagebh may go straight back: no" instead of ``mazagebh_no_return true``. The words are
answered in the reader's language (``Accept-Language``, or the pages' choice; docs/i18n.md).
"""

from flask import Blueprint
from flask_babel import gettext

from recorder.rules import VARIANTS
from schemas import variant_list_schema

from .variant_words import N_

bp = Blueprint("variants", __name__, url_prefix="/api/variants")

# variant -> option -> (label, {choice: words}); every option of every game is named here
# (tests/test_live_api.py holds that), and the rules modules stay free of presentation.
OPTION_LABELS: dict[str, dict[str, tuple[str, dict[object, str]]]] = {
    "gabata": {
        "serial_capture": (
            N_("Serial capture (GAB-6)"),
            {True: N_("the landing seed sows on"), False: N_("one capture only")},
        ),
        "capture_only_from_own_hole": (
            N_("Capture from an empty opponent hole (GAB-5)"),
            {False: N_("captures"), True: N_("captures nothing")},
        ),
    },
    "lahemay_walida": {
        "group_size": (N_("Seeds that make a capture (LW-6, LW-7)"), {4: N_("four"), 3: N_("three")}),
        "after_final_capture": (
            N_("After a capture by the last seed (LW-7)"),
            {"bonus_sowing": N_("a bonus sowing"), "end_turn": N_("the turn ends")},
        ),
    },
    "qelat": {
        "mazagebh_no_return": (
            N_("A lone seed sent across an end (QEL-11, QEL-12)"),
            {True: N_("may not come straight back"), False: N_("may come straight back")},
        ),
    },
    "selus": {
        "match": (N_("Match (SEL-14..19)"), {"rounds": N_("rounds won on holes"), "single": N_("one game on points")}),
        "empty_wegue_landing": (
            N_("Last seed in an empty wegue (SEL-9)"),
            {"capture_seed": N_("is taken"), "leave_seed": N_("stays")},
        ),
        "weak_wegues": (
            N_("A wegue emptied by a capture (SEL-11)"),
            {False: N_("stays a wegue"), True: N_("becomes an ordinary hole")},
        ),
        "wegue_block": (
            N_("No wegue made in (SEL-8)"),
            {"first_turn": N_("the round's first turn"), "first_turn_each_player": N_("each player's first turn")},
        ),
    },
    "tuz": {
        "after_tuz_capture": (
            N_("After taking from a tuz (TUZ-8)"),
            {"sow_again": N_("sow again"), "end_turn": N_("the turn ends")},
        ),
    },
}


def labelled(description: dict) -> dict:
    """A variant's description with ``label`` and ``choice_labels`` on each option."""
    words = OPTION_LABELS.get(description["name"], {})
    description["title"] = gettext(description["title"])
    description["summary"] = gettext(description["summary"])
    for name, option in description["options"].items():
        label, choices = words.get(name, (name.replace("_", " "), {}))
        option["label"] = gettext(label)
        option["choice_labels"] = [
            gettext(choices[choice]) if choice in choices else str(choice) for choice in option["choices"]
        ]
        option["description"] = gettext(option["description"])
    return description


@bp.get("")
def list_variants():
    """The five games: geometry, options, decisions

    ---
    get:
      responses:
        200: {description: Variants, content: {application/json: {schema: VariantListSchema}}}
    """
    described = [labelled(rules_class().describe()) for rules_class in VARIANTS.values()]
    return variant_list_schema.dump({"variants": described})
