"""A tournament's categories and prize list: what they may be, and who belongs (pure).

A category is one of four kinds (docs/tournaments.md, *Categories and prizes*):
- ``age``: ``under`` N (U16: born in or after the tournament's year minus 16) or
  ``at_least`` N (S50: born in or before the year minus 50), FIDE's way of counting an
  age by the calendar year; the bound is worked out once, when the categories are set,
  from the tournament's start date (else the year they are set in) and stored with them;
- ``sex``: the registry's sex (``w``: women; ``m``);
- ``region``: a federation in ``federations`` or a club in ``clubs``;
- ``rating``: the rating at entry between ``min`` and ``max`` (both included).
A player the registry knows nothing of for the kind (no birth year, no sex, no rating)
belongs to no category of it. ``decide_categories`` and ``decide_prizes`` validate a
write; every refusal names its field. ``restored_category`` and ``restored_prize_list``
check the stored forms a TRF carries (trf.py, ``XMR 0000 CATEGORY`` and ``PRIZES``) as
the API checks what it takes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from recorder.core.names import name_problem
from recorder.errors import InvalidRecord

from . import MAX_RATING
from .events import CategoriesSet, PrizesSet
from .fold import Tournament
from .prizes import SHARING, Prize

KINDS = ("age", "sex", "region", "rating")
SEXES = ("m", "w")  # as FIDE's TRF writes them (column 10 of a player record)
CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9+_-]{0,15}")
CURRENCY = re.compile(r"[A-Z]{3}")
MAX_CATEGORIES = 20
MAX_PRIZES = 200
MAX_AMOUNT = 10**9
MAX_AGE = 120
MAX_LISTED = 50  # federations or clubs a region names


@dataclass(frozen=True)
class Particulars:
    """What decides an entrant's categories: the registry's sex, birth year and club, the
    entry's federation (else the registry's) and the rating at entry."""

    sex: str | None = None
    birth_year: int | None = None
    federation: str | None = None
    club: str | None = None
    rating: int | None = None


def club_key(club: str) -> str:
    return " ".join(club.split()).casefold()


def belongs(category: Mapping, p: Particulars) -> bool:
    kind = category["kind"]
    if kind == "age":
        if p.birth_year is None:
            return False
        if "born_from" in category:
            return p.birth_year >= category["born_from"]
        return p.birth_year <= category["born_until"]
    if kind == "sex":
        return p.sex == category["sex"]
    if kind == "region":
        clubs = {club_key(c) for c in category.get("clubs", [])}
        return p.federation in category.get("federations", []) or (p.club is not None and club_key(p.club) in clubs)
    low, high = category.get("min", 0), category.get("max", MAX_RATING)
    return p.rating is not None and low <= p.rating <= high


def members(categories: Sequence[Mapping], particulars: Mapping[int, Particulars]) -> dict[str, frozenset[int]]:
    """Each category's code -> the entrant numbers who belong to it."""
    return {c["code"]: frozenset(number for number, p in particulars.items() if belongs(c, p)) for c in categories}


# --------------------------------------------------------------------------- deciding


def decide_categories(t: Tournament, body: dict, finished: bool, this_year: int) -> list[CategoriesSet]:
    """The whole list of categories, replacing the one before, until the tournament finishes."""
    open_for_changes(finished, "categories")
    given = body["categories"]
    if len(given) > MAX_CATEGORIES:
        raise InvalidRecord(f"categories: at most {MAX_CATEGORIES}", field="categories")
    year = int(t.start_date[:4]) if t.start_date else this_year
    categories = [category(c, year) for c in given]
    codes = [c["code"] for c in categories]
    if len(set(codes)) < len(codes):
        raise InvalidRecord("categories: each code once", field="categories")
    named = {p["category"] for p in t.prizes if p.get("category")} - set(codes)
    if named:
        raise InvalidRecord(f"categories: the prize list names {', '.join(sorted(named))}", field="categories")
    return [CategoriesSet(categories=categories)]


def open_for_changes(finished: bool, field: str) -> None:
    if finished:
        raise InvalidRecord(f"the tournament is finished: its {field} stay as they were", field=field)


def category(given: dict, year: int) -> dict:
    """One category as stored: its code, name and kind, and what decides its members."""
    code = given["code"]
    if CODE.fullmatch(code) is None:
        raise InvalidRecord(f"categories: a code is 1-16 letters, digits, +, _ or -, not {code!r}", field="categories")
    kind = given["kind"]
    head = {"code": code, "kind": kind, **({"name": given["name"]} if given.get("name") else {})}
    rule = {"age": age_rule, "sex": sex_rule, "region": region_rule, "rating": rating_rule}[kind]
    return {**head, **rule(given, year)}


def refuse(code: str, why: str) -> InvalidRecord:
    return InvalidRecord(f"categories: {code}: {why}", field="categories")


def age_rule(given: dict, year: int) -> dict:
    under, at_least = given.get("under"), given.get("at_least")
    if (under is None) == (at_least is None):
        raise refuse(given["code"], "an age category names under or at_least, one of them")
    age: int = given["under"] if under is not None else given["at_least"]
    if not 1 <= age <= MAX_AGE:
        raise refuse(given["code"], f"an age is 1 to {MAX_AGE}")
    if under is not None:
        return {"under": age, "born_from": year - age}
    return {"at_least": age, "born_until": year - age}


def sex_rule(given: dict, year: int) -> dict:
    if given.get("sex") not in SEXES:
        raise refuse(given["code"], "sex is m or w")
    return {"sex": given["sex"]}


def region_rule(given: dict, year: int) -> dict:
    federations = given.get("federations") or []
    clubs = [" ".join(c.split()) for c in given.get("clubs") or [] if c.strip()]
    if not federations and not clubs:
        raise refuse(given["code"], "a region names federations or clubs")
    if len(federations) > MAX_LISTED or len(clubs) > MAX_LISTED:
        raise refuse(given["code"], f"a region names at most {MAX_LISTED} federations and {MAX_LISTED} clubs")
    codes = [f.strip().upper() for f in federations]
    if any(re.fullmatch(r"[A-Z]{3}", f) is None for f in codes):
        raise refuse(given["code"], "a federation is three letters (ETH, ERI)")
    return {**({"federations": codes} if codes else {}), **({"clubs": clubs} if clubs else {})}


def rating_rule(given: dict, year: int) -> dict:
    low, high = given.get("min"), given.get("max")
    if low is None and high is None:
        raise refuse(given["code"], "a rating group names min, max or both")
    if any(r is not None and not 0 <= r <= MAX_RATING for r in (low, high)):
        raise refuse(given["code"], f"a rating is 0 to {MAX_RATING}")
    if low is not None and high is not None and low > high:
        raise refuse(given["code"], "min is above max")
    return {k: v for k, v in (("min", low), ("max", high)) if v is not None}


def decide_prizes(t: Tournament, body: dict, finished: bool) -> list[PrizesSet]:
    """The whole prize list and its sharing, replacing the one before, until the tournament finishes."""
    open_for_changes(finished, "prizes")
    return [prize_list(body, {c["code"] for c in t.categories})]


def prize_list(body: dict, codes: set[str]) -> PrizesSet:
    """A prize list as given (its shape checked: ``PrizesSchema`` or ``restored_prize_list``),
    naming only the categories of ``codes``."""
    given = body["prizes"]
    if len(given) > MAX_PRIZES:
        raise InvalidRecord(f"prizes: at most {MAX_PRIZES}", field="prizes")
    if body.get("sharing", "none") not in SHARING:
        raise InvalidRecord(f"sharing is one of {', '.join(SHARING)}", field="sharing")
    currency = body.get("currency")
    if currency is not None and CURRENCY.fullmatch(currency) is None:
        raise InvalidRecord("currency is three capital letters (ERN, ETB)", field="currency")
    prizes = [prize_of(p, codes) for p in given]
    check_places(prizes)
    return PrizesSet(prizes=[stored(p) for p in prizes], sharing=body.get("sharing", "none"), currency=currency)


def prize_of(given: dict, codes: set[str]) -> Prize:
    category = given.get("category")
    if category is not None and category not in codes:
        raise InvalidRecord(f"prizes: no category {category!r} in this tournament", field="prizes")
    if not 0 <= given["amount"] <= MAX_AMOUNT:
        raise InvalidRecord(f"prizes: an amount is a whole number from 0 to {MAX_AMOUNT}", field="prizes")
    return Prize(given["place"], given["amount"], category)


def check_places(prizes: list[Prize]) -> None:
    """Each list's places are 1, 2, 3... in order, and a lower place never pays more."""
    lists: dict[str | None, list[Prize]] = {}
    for p in prizes:
        lists.setdefault(p.category, []).append(p)
    for category, places in lists.items():
        which = category or "the overall list"
        if [p.place for p in places] != list(range(1, len(places) + 1)):
            raise InvalidRecord(f"prizes: {which}'s places are 1, 2, 3... in order", field="prizes")
        if any(a.amount < b.amount for a, b in zip(places, places[1:], strict=False)):
            raise InvalidRecord(f"prizes: in {which} a lower place pays no more than a higher one", field="prizes")


def stored(p: Prize) -> dict:
    return {"place": p.place, "amount": p.amount, **({"category": p.category} if p.category else {})}


def prizes_of(t: Tournament) -> list[Prize]:
    return [Prize(p["place"], p["amount"], p.get("category")) for p in t.prizes]


# --------------------------------------------------------------------------- restoring (a TRF's records)

TEXTS = "texts"  # a list of strings
CATEGORY_FIELDS: dict[str, type | str] = {
    **dict.fromkeys(("code", "kind", "name", "sex"), str),
    **dict.fromkeys(("under", "at_least", "born_from", "born_until", "min", "max"), int),
    **dict.fromkeys(("federations", "clubs"), TEXTS),
}
PRIZE_FIELDS: dict[str, type | str] = {"place": int, "amount": int, "category": str}
PRIZE_LIST_FIELDS: dict[str, type | str] = {"prizes": list, "sharing": str, "currency": str}
TYPE_WORDS: dict[type | str, str] = {int: "a whole number", str: "a text", list: "a list", TEXTS: "a list of texts"}
BOUNDS = {"under": "born_from", "at_least": "born_until"}  # an age and the birth-year bound counted from it


def shaped(given: object, allowed: Mapping[str, type | str], what: str) -> dict:
    """``given`` as a JSON object of ``allowed`` keys, each of its type (a whole number is
    no boolean), as the API's schemas take one."""
    if not isinstance(given, dict):
        raise InvalidRecord(f"{what}: an object, not {type(given).__name__}", field=what)
    for key, value in given.items():
        kind = allowed.get(key)
        if kind is None:
            raise InvalidRecord(f"{what}: no field {key[:20]!r}: {', '.join(allowed)}", field=what)
        if kind == TEXTS:
            right = type(value) is list and all(type(item) is str for item in value)
        else:
            right = type(value) is kind
        if not right:
            raise InvalidRecord(f"{what}: {key} is {TYPE_WORDS[kind]}", field=what)
    return given


def restored_category(given: object, year: int | None) -> dict:
    """A category as stored, read back (a TRF's ``XMR 0000 CATEGORY``): refused unless it
    is exactly what ``category`` makes of it. An age's bound gives the year it was counted
    from, which must be ``year`` (the tournament's start date's) when there is one."""
    found = shaped(given, CATEGORY_FIELDS, "categories")
    code, kind = found.get("code"), found.get("kind")
    if code is None or kind not in KINDS:
        raise InvalidRecord(f"categories: a category has a code and a kind: {', '.join(KINDS)}", field="categories")
    names = [("the name", found["name"])] if "name" in found else []
    for what, name in names + [("a club", club) for club in found.get("clubs", [])]:
        if name_problem(name) is not None:
            raise refuse(code, f"{what}: {name_problem(name)}")
    counted = counted_from(found)
    if counted is not None and year is not None and counted != year:
        raise refuse(code, f"an age bound is counted from the tournament's year, {year}, not {counted}")
    made = category({k: v for k, v in found.items() if k not in BOUNDS.values()}, counted or 0)
    if made != found:
        raise refuse(code, "not a category as this service stores one")
    return made


def counted_from(found: dict) -> int | None:
    """The year an age category's bound was counted from (None: no age and bound given)."""
    for age, bound in BOUNDS.items():
        if age in found and bound in found:
            counted: int = found[age] + found[bound]
            if not 1 <= counted <= 9999:
                raise refuse(found["code"], "an age bound is counted from a year of the calendar")
            return counted
    return None


def restored_prize_list(given: object, codes: set[str]) -> PrizesSet:
    """A prize list as stored, read back (a TRF's ``XMR 0000 PRIZES``): its shape, then
    each prize and the list as ``decide_prizes`` checks them."""
    found = shaped(given, PRIZE_LIST_FIELDS, "prizes")
    if "prizes" not in found:
        raise InvalidRecord("prizes: the list of prizes is missing", field="prizes")
    for prize in found["prizes"]:
        if not {"place", "amount"} <= shaped(prize, PRIZE_FIELDS, "prizes").keys():
            raise InvalidRecord("prizes: a prize has a place and an amount", field="prizes")
    return prize_list(found, codes)
