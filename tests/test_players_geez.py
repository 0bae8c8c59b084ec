"""The Ge'ez transliteration and the near-spelling rule of the duplicate check (pure)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.players.decide import latin_name
from recorder.players.geez import edit_distance, latin_key, near, sound_key, transliterate

SYLLABLES = st.characters(min_codepoint=0x1200, max_codepoint=0x135A)
GEEZ_NAMES = st.lists(st.text(SYLLABLES, min_size=1, max_size=8), min_size=1, max_size=3).map(" ".join)
WORDS = st.text(st.sampled_from("abdefghiklmnoprstuwyz"), min_size=2, max_size=9)
LATIN_NAMES = st.lists(WORDS, min_size=1, max_size=3).map(" ".join)
VOWELS = "aeiouy"


@settings(max_examples=300, derandomize=True, deadline=None)  # timing is the bench's, not this test's
@given(GEEZ_NAMES)
def test_a_transliteration_is_a_latin_name_that_sounds_like_its_geez_one(geez):
    latin = transliterate(geez)
    if latin:
        assert latin_name(latin) == latin and latin.isascii()
    assert sound_key(geez) == sound_key(latin)
    assert latin_key(geez) == latin_key(latin)


@settings(max_examples=300, derandomize=True, deadline=None)  # timing is the bench's, not this test's
@given(LATIN_NAMES, st.data())
def test_a_vowel_changed_or_a_letter_doubled_is_spelt_nearly_alike(name, data):
    at = data.draw(st.integers(0, len(name) - 1))
    letter = name[at]
    if letter == " ":
        return
    if letter in VOWELS:
        other = name[:at] + data.draw(st.sampled_from(VOWELS)) + name[at + 1 :]
    else:
        other = name[:at] + letter + name[at:]
    assert sound_key(other) == sound_key(name)
    assert near(latin_key(name), latin_key(other)) and near(latin_key(other), latin_key(name))


@settings(max_examples=300, derandomize=True, deadline=None)  # timing is the bench's, not this test's
@given(WORDS, WORDS, st.integers(0, 4))
def test_the_bounded_distance_is_levenshteins_up_to_its_bound(first, second, bound):
    full = levenshtein(first, second)
    assert edit_distance(first, second, bound) == (full if full <= bound else bound + 1)


def levenshtein(first: str, second: str) -> int:
    """The textbook recursion, memoised: what the banded computation must agree with."""
    from functools import cache

    @cache
    def distance(i: int, j: int) -> int:
        if i == 0 or j == 0:
            return i + j
        same = first[i - 1] == second[j - 1]
        return min(distance(i - 1, j) + 1, distance(i, j - 1) + 1, distance(i - 1, j - 1) + (not same))

    return distance(len(first), len(second))


def test_the_transliteration_reads_names_as_they_are_written_in_latin_letters():
    assert transliterate("ሰላም ተስፋይ") == "Selam Tesfay"
    assert transliterate("ዳዊት") == "Dawit" and transliterate("ሜሮን") == "Meron"
    assert transliterate("ኣበበ፡ጎይትኦም") == "Abebe Goyt'om"
    assert transliterate("፡፡") == ""
