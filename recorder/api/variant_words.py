"""The words the rules describe themselves with (``describe()``: a game's title and summary,
each option's description), for the catalogs: the rules stay free of presentation and of
Babel, and ``GET /api/variants`` answers them in the reader's language. tests/test_i18n.py
holds this list equal to what the rules say.
"""


def N_(text: str) -> str:
    """Marks a message for the catalogs (gettext's name); it is translated where it is shown."""
    return text


RULE_WORDS = (
    N_("Selus"),
    N_("Three-row relay sowing; wegues made on a hole of three collect seeds; one ayemi each."),
    N_("a match of rounds won on holes, or one game on points"),
    N_("a last seed in an empty wegue is taken or stays"),
    N_("a wegue emptied by a capture becomes an ordinary hole"),
    N_("no wegue in the round's first turn, or in each player's first turn"),
    N_("Gabata"),
    N_("A race, then relay sowing; a lap ending in an empty hole captures the opponent's seeds in its column."),
    N_("after a capture the seed in the landing hole sows on"),
    N_("a lap ending in an empty opponent hole captures nothing"),
    N_("Qelat"),
    N_("Single-lap sowing in two directions; waldas made in eligible holes collect seeds."),
    N_("a lone seed sent across an end may not be sent straight back"),
    N_("Lahemay Walida"),
    N_("CCW relay sowing; any hole made to hold four is captured; holes change hands between rounds."),
    N_("the number of seeds a hole must be made to hold to be captured"),
    N_("what follows a capture by the last seed of a lap"),
    N_("Tuz"),
    N_("Relay sowing anticlockwise; tuzes made in the opponent's row; a match of rounds."),
    N_("after taking from the opponent's tuz the mover sows again, or his turn ends"),
)

# The games' words that the board diagrams and the problems show as they come from the
# rules (a side, a special hole's kind, a result, the decision awaited): recorder/render/svg.py
# translates each through the catalog (docs/glossary.md).
GAME_WORDS = (
    N_("south"),
    N_("north"),
    N_("South"),
    N_("North"),
    N_("wegue"),
    N_("walda"),
    N_("tuz"),
    N_("south wins"),
    N_("north wins"),
    N_("draw"),
    N_("score"),
    N_("holes"),
    N_("resignation"),
    N_("agreement"),
    N_("adjudication"),
    N_("forfeit"),
    N_("time"),  # TIME-1: a flag fallen
    N_("opening"),
    N_("race"),
    N_("lot"),
    N_("next_round"),
    N_("selus"),
    N_("gabata"),
    N_("qelat"),
    N_("lahemay_walida"),
)
