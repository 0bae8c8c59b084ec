"""Player commands decide: ``decide_*(player, ...) -> [events]`` or a named error.

All validation of registry writes lives here, before anything is stored. Commands arrive
as dicts whose JSON types the schemas have checked; ``this_year`` comes from the service
(nothing here reads the clock). Every refusal names the field at fault.
"""

from __future__ import annotations

import re

from recorder.errors import InvalidRecord

from . import FEDERATION, is_player_id
from .events import (
    AffiliationChanged,
    GameLinked,
    MergeWithdrawn,
    ParticularsChanged,
    PlayerMerged,
    PlayerRegistered,
    PlayerRenamed,
)
from .fold import RegisteredPlayer
from .geez import transliterate

EARLIEST_BIRTH_YEAR = 1880
SEXES = ("m", "w")  # as FIDE's TRF writes them (a player record's column 10)
# Ethiopic, Ethiopic Supplement, Extended and Extended-A: the Ge'ez script's letters.
_ETHIOPIC = re.compile("[\u1200-\u139f\u2d80-\u2ddf\uab00-\uab2f\U0001e7e0-\U0001e7ff]")
_LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")


def display_name(text: str | None, field: str) -> str:
    """A name as stored: white space trimmed and runs of it made one space; refused empty."""
    name = " ".join((text or "").split())
    if not name:
        raise InvalidRecord(f"{field} is empty: a player needs a name", field=field)
    return name


def latin_name(text: str | None) -> str:
    name = display_name(text, "name")
    if _ETHIOPIC.search(name):
        raise InvalidRecord("name is the name in Latin script; give the Ge'ez one as name_geez", field="name")
    return name


def geez_name(text: str | None) -> str | None:
    if text is None:
        return None
    name = display_name(text, "name_geez")
    if not _ETHIOPIC.search(name) or _LATIN_LETTER.search(name):
        raise InvalidRecord("name_geez is the name in Ge'ez script (ፊደል), without Latin letters", field="name_geez")
    return name


def federation_code(text: str | None) -> str:
    """Three letters, read in capitals whatever case they were typed in ("eri" is ERI)."""
    code = text.strip().upper() if isinstance(text, str) else text
    if not isinstance(code, str) or FEDERATION.fullmatch(code) is None:
        raise InvalidRecord(f"federation is three capital letters (ETH, ERI), not {text!r}", field="federation")
    return code


def registered_names(body: dict) -> tuple[str, str | None]:
    """The Latin and Ge'ez names of a new record. A player known by his Ge'ez name only
    is registered under its transliteration (ሰላም ተስፋይ: "Selam Tesfay"), so every list,
    page and export that shows the Latin name has one."""
    name_geez = geez_name(body.get("name_geez"))
    if body.get("name") is not None or name_geez is None:
        return latin_name(body.get("name")), name_geez
    latin = transliterate(name_geez)
    if not latin:
        raise InvalidRecord("name_geez holds no letter to read a Latin name from", field="name_geez")
    return latin_name(latin), name_geez


def club_name(text: str | None) -> str | None:
    return " ".join(text.split()) or None if text is not None else None


def birth_year(year: int | None, this_year: int) -> int | None:
    if year is None:
        return None
    if year > this_year:
        raise InvalidRecord(f"birth_year {year} is in the future (this is {this_year})", field="birth_year")
    if year < EARLIEST_BIRTH_YEAR:
        raise InvalidRecord(f"birth_year is {EARLIEST_BIRTH_YEAR} or later", field="birth_year")
    return year


def sex_of(text: str | None) -> str | None:
    """m or w, read in small letters whatever case they were typed in; None: not known."""
    if text is None:
        return None
    sex = text.strip().lower()
    if sex not in SEXES:
        raise InvalidRecord(f"sex is m or w (as FIDE's TRF writes it), not {text!r}", field="sex")
    return sex


def decide_register(body: dict, this_year: int) -> PlayerRegistered:
    external = body.get("external_id")
    external = external.strip() or None if external is not None else None
    name, name_geez = registered_names(body)
    return PlayerRegistered(
        name=name,
        federation=federation_code(body.get("federation")),
        name_geez=name_geez,
        club=club_name(body.get("club")),
        birth_year=birth_year(body.get("birth_year"), this_year),
        external_id=external,
        sex=sex_of(body.get("sex")),
    )


def decide_rename(p: RegisteredPlayer, body: dict) -> list[PlayerRenamed]:
    _not_merged(p)
    name = latin_name(body.get("name", p.name))
    name_geez = geez_name(body["name_geez"]) if "name_geez" in body else p.name_geez
    if (name, name_geez) == (p.name, p.name_geez):
        raise InvalidRecord("the names are already these", field="name")
    return [PlayerRenamed(name=name, name_geez=name_geez)]


def decide_affiliation(p: RegisteredPlayer, body: dict) -> list[AffiliationChanged]:
    _not_merged(p)
    federation = federation_code(body.get("federation", p.federation))
    club = club_name(body["club"]) if "club" in body else p.club
    if (federation, club) == (p.federation, p.club):
        raise InvalidRecord("the affiliation is already this", field="federation")
    return [AffiliationChanged(federation=federation, club=club)]


def decide_particulars(p: RegisteredPlayer, body: dict, this_year: int) -> list[ParticularsChanged]:
    """Sex and birth year as they now read; a field left out keeps its value, null clears it."""
    _not_merged(p)
    sex = sex_of(body["sex"]) if "sex" in body else p.sex
    year = birth_year(body["birth_year"], this_year) if "birth_year" in body else p.birth_year
    if (sex, year) == (p.sex, p.birth_year):
        raise InvalidRecord("the sex and birth year are already these", field="sex")
    return [ParticularsChanged(sex=sex, birth_year=year)]


def decide_merge(p: RegisteredPlayer, into: RegisteredPlayer | None, body: dict) -> list[PlayerMerged]:
    """``p`` is the duplicate, ``into`` the record that survives (None: no such player)."""
    target = body.get("into")
    if not is_player_id(target) or into is None:
        raise InvalidRecord(f"into names no player: {target!r}", field="into")
    if into.player_id == p.player_id:
        raise InvalidRecord("a player cannot be merged into himself", field="into")
    if p.merged:
        raise InvalidRecord(f"{p.player_id} is already merged into {p.merged_into}", field="player_id")
    if into.merged:
        raise InvalidRecord(
            f"{into.player_id} is itself merged into {into.merged_into}: merge into that one", field="into"
        )
    return [PlayerMerged(into=into.player_id, reason=body.get("reason"))]


def decide_withdraw_merge(p: RegisteredPlayer, body: dict) -> list[MergeWithdrawn]:
    if not p.merged:
        raise InvalidRecord(f"{p.player_id} is not merged", field="player_id")
    return [MergeWithdrawn(reason=body.get("reason"))]


def decide_link_game(
    p: RegisteredPlayer, game_id: str, side: str, named: str | None, linked_to: str | None
) -> list[GameLinked]:
    """A game outside tournaments linked to this player: ``named`` is the registry id the
    game's setup gives that side (None: none), ``linked_to`` the player it is linked to
    already (None: nobody)."""
    _not_merged(p)
    if side not in ("south", "north"):
        raise InvalidRecord("side is south or north", field="side")
    if named is not None or linked_to is not None:
        raise InvalidRecord(f"the {side} of {game_id} is registry player {named or linked_to} already", field="game_id")
    return [GameLinked(game_id=game_id, side=side)]


def _not_merged(p: RegisteredPlayer) -> None:
    if p.merged:
        raise InvalidRecord(f"{p.player_id} is merged into {p.merged_into}: write to that record", field="player_id")
