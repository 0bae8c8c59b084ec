"""Ge'ez script (ፊደል) to Latin letters, and the sound of a name in either script.

The transliteration is the plain one Eritrean and Ethiopian names are usually given in
Latin letters: each syllable is its consonant and its order's vowel (first and fifth
order ``e``, second ``u``, third ``i``, fourth ``a``, sixth none, seventh ``o``), so
ሰላም ተስፋይ reads "Selam Tesfay". The glottal and pharyngeal consonants (አ, ዐ) are their
vowel alone, an ejective is its plain consonant, a labialised row adds ``w``. Only the
Ethiopic block's syllables are read; other Ethiopic letters are dropped.
"""

from __future__ import annotations

import re

from . import search_key

# Each row of eight syllables from U+1200 on: its consonant, or None for a labialised
# row (consonant + w, with its own vowels) keyed by the plain consonant below.
_ROWS = (
    "h l h m s r s sh q *q q *q b v t ch h *h n ny ' k *k kh *kh w ' z zh y d dd j g *g gg t ch p ts ts f p"
).split()
_ORDERS = ("e", "u", "i", "a", "e", "", "o", "wa")
_LABIAL_ORDERS = ("we", "", "wi", "wa", "we", "w", "", "")
_EXTRA = {"\u1358": "mya", "\u1359": "rya", "\u135a": "fya"}
_WORD_SPACE = re.compile("[\u1360-\u1368]+")  # ፠ ፡ ። ፣ ፤ ፥ ፦ ፧ ፨: the script's punctuation
_ETHIOPIC_LETTER = re.compile("[\u1200-\u137f]")


def _syllable(code: int) -> str | None:
    row, order = divmod(code - 0x1200, 8)
    if not 0 <= row < len(_ROWS):
        return _EXTRA.get(chr(code))
    consonant = _ROWS[row]
    if consonant.startswith("*"):
        vowel = _LABIAL_ORDERS[order]
        return consonant[1:] + vowel if vowel else None
    vowel = _ORDERS[order]
    if consonant == "'":  # አ, ዐ: the vowel alone; the first order reads "a" at a word's start
        return vowel or ""
    return consonant + vowel


def _is_glottal(char: str) -> bool:
    row = (ord(char) - 0x1200) // 8
    return 0 <= row < len(_ROWS) and _ROWS[row] == "'"


def transliterate(text: str) -> str:
    """A Ge'ez name in Latin letters, each word capitalised: "ሰላም ተስፋይ" -> "Selam Tesfay"."""
    words = []
    for word in _WORD_SPACE.sub(" ", text).split():
        letters = []
        for index, char in enumerate(word):
            if not _ETHIOPIC_LETTER.match(char):
                letters.append(char)
                continue
            syllable = _syllable(ord(char)) or ""
            if index == 0 and char in "\u12a0\u12d0":  # አ, ዐ begin a name as "A"
                syllable = "a"
            elif index > 0 and _is_glottal(char) and syllable:
                syllable = "'" + syllable  # a glottal stop inside a word: ጎይትኦም -> Goyt'om
            letters.append(syllable)
        latin = "".join(letters)
        if latin.strip("'"):
            words.append(latin[0].upper() + latin[1:])
    return " ".join(words)


def latin_key(text: str) -> str:
    """The search key of a name in Latin letters, a Ge'ez one transliterated first."""
    return search_key(transliterate(text) if _ETHIOPIC_LETTER.search(text) else text)


_SOUND_SPELLINGS = (("ph", "f"), ("q", "k"), ("c", "k"))
_VOWELS = re.compile("[aeiouy]+")
_REPEATS = re.compile(r"(.)\1+")


def sound_key(text: str) -> str:
    """What a name sounds like, roughly: its consonants in order, in Latin letters (a
    Ge'ez name transliterated), vowels and ``y`` dropped, a doubled letter one, ``q`` and
    ``c`` read ``k``, ``ph`` read ``f``: "Selam Tesfaye", "Selam Tesfay" and ሰላም ተስፋይ
    all give ``slmtsf``. Names that share it are compared letter by letter (``near``)."""
    key = _REPEATS.sub(r"\1", latin_key(text))  # first: "pph" is "ph", so f
    for spelling, sound in _SOUND_SPELLINGS:
        key = key.replace(spelling, sound)
    return _REPEATS.sub(r"\1", _VOWELS.sub("", key))


def near(first: str, second: str) -> bool:
    """Two names' Latin keys (``latin_key``) spelt nearly alike: at most one letter added,
    dropped or changed, two for names of ten letters or more."""
    allowed = 1 if min(len(first), len(second)) < 10 else 2
    return edit_distance(first, second, allowed) <= allowed


def edit_distance(first: str, second: str, bound: int) -> int:
    """Levenshtein's distance, or ``bound + 1`` when it exceeds ``bound``. Only the cells
    within ``bound`` of the diagonal are computed (a path leaving that band costs more than
    ``bound``), so two names of n letters cost n * (2 * bound + 1) steps, not n * n."""
    if abs(len(first) - len(second)) > bound:
        return bound + 1
    beyond = bound + 1
    previous = {j: j for j in range(min(len(second), bound) + 1)}
    for i, a in enumerate(first, start=1):
        current = {}
        for j in range(max(0, i - bound), min(len(second), i + bound) + 1):
            if j == 0:
                current[j] = i
                continue
            change = previous.get(j - 1, beyond) + (a != second[j - 1])
            current[j] = min(previous.get(j, beyond) + 1, current.get(j - 1, beyond) + 1, change)
        if min(current.values()) > bound:
            return beyond
        previous = current
    return min(previous.get(len(second), beyond), beyond)
