"""The notation's grammar, writer and reader (docs/notation.md), without a database.

Errors must name the file, the game, the line and column and what was expected; the
turn structure the text shows (numbers, sides, multi-sowing turns, passes) must be the
one the engine decides (GEN-17..GEN-20).
"""

import re
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from recorder.errors import NotationError
from recorder.notation.grammar import is_plain_comment, parse
from recorder.notation.reader import read_game
from recorder.notation.writer import layout, result_token

NOTATION = FIXTURES / "notation"
QELAT_TAGS = '[South "Abeba"]\n[North "Berhane"]\n[Result "*"]\n[Variant "qelat"]\n[FirstPlayer "south"]\n\n'


def games(text: str):
    return list(parse(text, "t.mn"))


def read(text: str):
    (game,) = games(text)
    return read_game(game)


def refusal(text: str) -> NotationError:
    with pytest.raises(NotationError) as caught:
        read(text)
    return caught.value


def fixture(name: str) -> str:
    return (NOTATION / name).read_text()


# --------------------------------------------------------------------------- grammar


def test_tags_are_json_values_with_escapes():
    (game,) = games('[Event "The \\"Open\\" \\u00e9"]\n[Round 3]\n[Position {"a": [1, 2]}]\n*')
    assert [(t.name, t.value) for t in game.tags] == [
        ("Event", 'The "Open" é'),
        ("Round", 3),
        ("Position", {"a": [1, 2]}),
    ]


def test_movetext_tokens_turns_holes_passes_decisions_comments_and_result():
    text = '[Variant "x"]\n1. S c1 d1 2. N -- {lot south} {a note} {"quoted } note"} ; a remark {not a comment\n1-0'
    (game,) = games(text)
    kinds = [(t.kind, t.value) for t in game.tokens]
    assert kinds == [
        ("turn", (1, "south")),
        ("hole", "c1"),
        ("hole", "d1"),
        ("turn", (2, "north")),
        ("pass", None),
        ("command", {"type": "lot", "winner": "south"}),
        ("command", {"type": "annotate", "text": "a note"}),
        ("command", {"type": "annotate", "text": "quoted } note"}),
        ("result", "1-0"),
    ]
    assert (game.tokens[0].line, game.tokens[0].column) == (2, 1)
    assert (game.tokens[-1].line, game.tokens[-1].column) == (3, 1)


@pytest.mark.parametrize(
    "brace, command, round_number",
    [
        ("{race north a1=3 b1=0}", {"type": "race", "winner": "north", "holes": {"a1": 3, "b1": 0}}, None),
        ("{opening plain}", {"type": "opening", "choice": "plain"}, None),
        ("{round 2 north}", {"type": "next_round", "first_player": "north"}, 2),
        (
            "{round 3 south alloc south=a1,b1 north=c1}",
            {"type": "next_round", "first_player": "south", "allocation": {"south": ["a1", "b1"], "north": ["c1"]}},
            3,
        ),
        ("{result agreement draw}", {"type": "result", "kind": "agreement", "winner": None}, None),
        (
            '{result resignation south "he said \\"enough\\" }"}',
            {"type": "result", "kind": "resignation", "winner": "south", "note": 'he said "enough" }'},
            None,
        ),
        ('{retract 2 "wrong hole"}', {"type": "retract", "count": 2, "reason": "wrong hole"}, None),
    ],
)
def test_gen_22_decisions_are_keywords_in_braces(brace, command, round_number):
    (game,) = games(f'[Variant "x"]\n{brace} *')
    assert game.tokens[0].value == command
    assert game.tokens[0].round == round_number


@pytest.mark.parametrize(
    "movetext, line, column, expected",
    [
        ("1. S c1 {race south a1=x} *", 2, 21, "hole=count such as a1=3"),
        ("1. S c1 {lot east} *", 2, 14, "the winner: south or north"),
        ("1. S c1 {round two south} *", 2, 16, "the round number"),
        ("1. S c1 {opening tuz extra} *", 2, 22, "}"),
        ("1. X c1 *", 2, 4, "S or N"),
        ("1. S g7 *", 2, 6, "a turn number such as 12., a hole such as c1, -- or a result"),
        ("1. S c1 {never closed", 2, 9, "}"),
        ("1. S c1 d1", 3, 1, "1-0, 0-1, 1/2-1/2 or *"),
    ],
)
def test_a_syntax_error_names_file_game_line_column_and_what_was_expected(movetext, line, column, expected):
    (game,) = games(f'[South "Abeba"]\n{movetext}\n')
    error = game.error
    assert error.extra["source"] == "t.mn" and error.extra["game"] == 1
    assert (error.extra["line"], error.extra["column"], error.extra["expected"]) == (line, column, expected)
    assert error.detail.startswith(f"t.mn: game 1 (Abeba v ?): line {line}, column {column}: ")


def test_parsing_resumes_at_the_next_games_tags_after_an_error():
    text = '[Event "bad\n[South "x"]\n1. S c1 *\n\n[Variant "a"]\n1. S zz *\n[Variant "b"]\n* [Variant "c"] *'
    found = games(text)
    assert [game.error is None for game in found] == [False, False, True, True]
    assert [game.tag("Variant").value for game in found[1:]] == ["a", "b", "c"]
    assert found[0].error.extra["line"] == 1 and found[1].error.extra["line"] == 6


def test_a_game_missing_its_result_before_the_next_tags_is_an_error_and_the_next_game_is_read():
    found = games('[Variant "a"]\n1. S c1\n[Variant "b"]\n*')
    assert "before this game's result token" in found[0].error.detail
    assert found[1].error is None and found[1].tag("Variant").value == "b"


@pytest.mark.parametrize(
    "text, plain",
    [
        ("a fine sowing", True),
        ("round about", False),
        ("round-about", True),
        ("lot;", False),
        ('"q"', False),
        ("a } b", False),
        (" padded", False),
        ("two\nlines", False),
        ("back\\slash", False),
        ("émigré ✓", True),
        ("", False),
    ],
)
def test_comments_are_written_plain_only_when_they_read_back_unchanged(text, plain):
    assert is_plain_comment(text) is plain


def test_layout_wraps_before_column_80_and_ends_a_line_after_a_remark():
    units = [f"{n}. S a1" for n in range(1, 30)]
    lines = layout(units[:3] + ["; a remark"] + units[3:]).splitlines()
    assert lines[0] == "1. S a1 2. N a1 3. S a1 ; a remark".replace(" N ", " S ")
    assert all(len(line) < 80 for line in lines)


# --------------------------------------------------------------------------- reading against the engine


def test_gen_23_tags_become_the_setup():
    read_back = read(
        '[Event "Open"]\n[Date "2026-11"]\n[Round 4]\n[South "A"]\n[North "B"]\n[Result "*"]\n'
        '[Variant "lahemay_walida"]\n[group_size "3"]\n[FirstPlayer "north"]\n[Tournament "t-1"]\n[Board 2]\n\n*'
    )
    setup = read_back.setup
    assert (setup.variant, setup.south, setup.north, setup.first_player) == ("lahemay_walida", "A", "B", "north")
    assert setup.options == {"group_size": 3, "after_final_capture": "bonus_sowing"}
    assert setup.metadata == {"event": "Open", "date": "2026-11", "round": 4, "tournament_id": "t-1", "board": 2}


@pytest.mark.parametrize(
    "tags, line, detail",
    [
        ('[South "A"]\n[North "B"]\n[Result "*"]\n', 1, "the Variant tag is missing"),
        ('[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "kalah"]\n', 4, "unknown variant 'kalah'"),
        ('[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "qelat"]\n[group_size "4"]\n', 5, "not an option"),
        ('[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "qelat"]\n[mazagebh_no_return "yes"]\n', 5, "true, false"),
        ('[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "gabata"]\n[FirstPlayer "south"]\n', 5, "GEN-30"),
        ('[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "qelat"]\n', 4, "first_player is required"),
        ('[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "qelat"]\n[Annotator "C"]\n', 5, "unknown tag"),
        ('[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "qelat"]\n[Date "22/11/2026"]\n', 5, "date"),
        ('[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "qelat"]\n[Date "2026-11-31"]\n', 5, "date"),
        ('[South ""]\n[North "B"]\n[Result "*"]\n[Variant "qelat"]\n[FirstPlayer "south"]\n', 1, "south must be"),
        ('[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "qelat"]\n[Position "{}"]\n', 5, "JSON object"),
        ('[South "A"]\n[South "B"]\n', 2, "appears twice"),
    ],
)
def test_gen_29_gen_30_gen_31_a_bad_tag_is_refused_at_its_line(tags, line, detail):
    error = refusal(tags + "\n*")
    assert error.extra["line"] == line and detail in error.detail


def test_gen_21_an_illegal_sowing_is_refused_with_the_legal_ones_expected():
    error = refusal(QELAT_TAGS + "1. S f1 2. N a1 *")
    assert (error.extra["line"], error.extra["column"]) == (7, 14)
    assert "north may not sow a1 now" in error.detail
    assert error.extra["expected"] == "one of a2 b2 c2 d2 e2 f2"


@pytest.mark.parametrize(
    "movetext, detail, expected",
    [
        ("1. S f1 3. N b2 *", "the next turn is 2. N, not 3. N", "2. N"),
        ("1. N f1 *", "the next turn is 1. S, not 1. N", "1. S"),
        ("1. S f1 b2 *", "a sowing that starts a turn follows its turn number", "2. N"),
        ("1. S f1 2. N -- *", "nobody passes here", "a hole"),
        ("1. S *", "turn 1 has no sowing", "a hole"),
        ("1. S f1 {lot south} *", "qelat has no lot decision", "one of a2 b2 c2 d2 e2 f2"),
        ("1. S f1 1-0", "the moves give the result *, not 1-0", "*"),
    ],
)
def test_gen_17_turn_numbers_and_sides_are_the_engines(movetext, detail, expected):
    error = refusal(QELAT_TAGS + movetext)
    assert detail in error.detail
    assert error.extra["expected"] == expected


def test_gen_18_a_multi_sowing_turn_is_one_numbered_turn():
    text = fixture("tuz-match-seed34.mn")
    assert "13. S e1 f1 c1 14. N c2" in text
    error = refusal(text.replace("13. S e1 f1 c1 14. N c2", "13. S e1 14. S f1 c1 15. N c2"))
    assert "turn 13 goes on: south sows again (GEN-18)" in error.detail


def test_gen_19_gen_20_a_pass_must_be_written_and_is_never_recorded():
    text = fixture("qelat-default.mn")
    assert "79. N b2 80. S -- 81. N a2" in text
    read_back = read(text)
    assert all(event.type != "pass" for event in read_back.events)
    assert sum(1 for event in read_back.events if event.type == "sowed") == 80
    error = refusal(text.replace("80. S -- 81. N a2", "80. N a2"))
    assert "south passes here (GEN-19)" in error.detail and error.extra["expected"] == "80. S --"


def test_gen_27_round_numbers_are_checked():
    text = fixture("selus-rounds-1372.mn")
    error = refusal(text.replace("{round 2 south}", "{round 3 south}"))
    assert "the next round is round 2, not 3" in error.detail


def test_the_result_tag_must_agree_with_the_moves():
    text = fixture("gabata-default.mn")
    tag = re.search(r'\[Result "([^"]+)"\]', text).group(1)
    other = "1-0" if tag != "1-0" else "0-1"
    error = refusal(text.replace(f'[Result "{tag}"]', f'[Result "{other}"]'))
    assert "the Result tag says" in error.detail and error.extra["line"] == 3


def test_result_tokens():
    state = read(fixture("gabata-default.mn")).game.state
    assert result_token(state) in ("1-0", "0-1", "1/2-1/2")
    assert result_token(read(QELAT_TAGS + "*").game.state) == "*"


# --------------------------------------------------------------------------- the documentation


def doc_examples() -> list[str]:
    return re.findall(r"```mn\n(.*?)```", (ROOT / "docs" / "notation.md").read_text(), re.S)


def test_the_documentation_has_an_example_of_every_decision_and_of_passes():
    examples = "".join(doc_examples())
    for token in ("{race ", "{opening ", "{lot ", "{round ", " alloc ", "{result ", "{retract ", " -- ", "; round"):
        assert token in examples, token


@pytest.mark.parametrize("index", range(len(doc_examples())))
def test_every_documentation_example_reads(index):
    for game in games(doc_examples()[index]):
        read_game(game)


# --------------------------------------------------------------------------- layering


def test_fixture_folder_holds_three_complete_games_per_variant():
    from recorder.rules import VARIANTS

    counts = {variant: 0 for variant in VARIANTS}
    for path in Path(NOTATION).glob("*.mn"):
        for game in games(path.read_text()):
            read_back = read_game(game)
            assert read_back.game.state.game_over, path.name
            counts[read_back.setup.variant] += 1
    assert all(count >= 3 for count in counts.values()), counts
