"""The rules of the five games, pure: standard library only, no I/O, no clock.

``VARIANTS`` maps each variant id (GEN-1) to its rules class; ``find_variant(name)``
looks one up, and ``rules_for(name, options)`` builds the rules with options fixed
(GEN-29). Instances are cached: rules objects are immutable once configured.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from recorder.errors import InvalidRecord

from .base import Rules
from .gabata import Gabata
from .lahemay_walida import LahemayWalida
from .qelat import Qelat
from .selus import Selus
from .tuz import Tuz

VARIANTS: dict[str, type[Rules]] = {}


def register(rules_class: type[Rules]) -> type[Rules]:
    VARIANTS[rules_class.name] = rules_class
    return rules_class


for _rules in (Selus, Gabata, Qelat, LahemayWalida, Tuz):  # GEN-1's order
    register(_rules)


def find_variant(name: str) -> type[Rules]:
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(VARIANTS))
        raise InvalidRecord(f"unknown variant {name!r}; known variants: {known}", field="variant") from None


def rules_for(name: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of one game with its options checked and fixed (GEN-29, GEN-31)."""
    return _cached_rules(name, json.dumps(options or {}, sort_keys=True))


@lru_cache(maxsize=256)
def _cached_rules(name: str, options_json: str) -> Rules:
    return find_variant(name)(json.loads(options_json))
