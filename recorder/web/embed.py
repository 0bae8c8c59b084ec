"""Who may frame the embeddable boards: the admin's list of origins (docs/deployment.md).

``$RECORDER_EMBED_ANCESTORS`` (or the ``EMBED_ANCESTORS`` key) is a space-separated list
of origins, ``scheme://host[:port]``, or ``'self'``; it becomes the embed pages'
``frame-ancestors``. Anything else (a path, a wildcard, a directive separator) is refused
when the app starts, so a typo cannot open the pages to every site.
"""

from __future__ import annotations

import re

DEFAULT_ANCESTORS = "'self'"

LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
HOST = rf"{LABEL}(?:\.{LABEL})*|\[[0-9A-Fa-f:.]+\]"  # a name, an IPv4 address or a bracketed IPv6 one
# http(s), a host, an optional port: nothing more (no path, no user, no wildcard).
ORIGIN = re.compile(rf"https?://(?:{HOST})(?::[0-9]{{1,5}})?")


class EmbedAncestorsError(ValueError):
    """The configured list names something that is not an origin."""


def frame_ancestors(setting: str | None) -> str:
    """The ``frame-ancestors`` source list for ``setting``: its origins in order, once each."""
    words = (DEFAULT_ANCESTORS if setting is None else setting).split()
    if not words:
        raise EmbedAncestorsError("RECORDER_EMBED_ANCESTORS is empty: name 'self' or at least one origin")
    for word in words:
        if word != "'self'" and not is_origin(word):
            raise EmbedAncestorsError(
                f"RECORDER_EMBED_ANCESTORS: {word!r} is not an origin (scheme://host[:port]) or 'self'"
            )
    return " ".join(dict.fromkeys(word.lower() if word != "'self'" else word for word in words))


def is_origin(word: str) -> bool:
    if not ORIGIN.fullmatch(word):
        return False
    port = word.rsplit(":", 1)[-1] if word.count(":") > 1 and not word.endswith("]") else None
    return port is None or 0 < int(port) <= 65535
