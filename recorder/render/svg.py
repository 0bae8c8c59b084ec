"""Board diagrams as SVG: a pure function of the rules and a position (standard library only).

Drawn the way the spec draws boards (rules/README.md §1): the top row is North's back
row (row 3 on 3×6, row 2 on 2×6), row 1 South's at the bottom, columns a–f from South's
left. Each hole shows its seed count and name and is tinted by its owner this round;
a hole whose owner differs from the default (GEN-6, GEN-7) carries its owner's
initial; a special hole (wegue, walda, tuz, GEN-8) is ringed in its owner's colour and
labelled with its kind and owner. North's store is on the left (his right hand) and
South's on the right; the hole the last sowing lifted is ringed in gold. Every hole
is a ``<g class="hole" data-hole=… data-seeds=…>`` with a ``<title>`` tooltip, so the
picture can be read by machines too. Its words (the side labels, the stores, the status
line, the tooltips) go through ``gettext``, which the caller gives for the reader's
language (docs/i18n.md); without it they are English.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape

from recorder.core.names import visible
from recorder.rules.base import Rules
from recorder.rules.board import Player
from recorder.rules.state import State

# Latin first, then Ethiopic fonts, so names in Ge'ez script (ሰላም ተስፋይ) are drawn, not boxes.
FONTS = "Helvetica, Arial, 'Noto Sans', 'Noto Sans Ethiopic', 'Abyssinica SIL', sans-serif"
INK = {"south": "#1f5fa8", "north": "#a8321f"}
TINT = {"south": "#e3edf8", "north": "#f8e5e1"}
WOOD, WOOD_EDGE, GOLD = "#b07a3f", "#6e4519", "#f0b90b"
UNITS_WIDE = 10.0  # store 1.4 + six columns of 1.2 + store 1.4

Words = Callable[[str], str]


def english(text: str) -> str:
    return text


def board_svg(
    rules: Rules,
    state: State,
    *,
    last_hole: str | None = None,
    size: int = 640,
    names: tuple[str, str] | None = None,
    caption: str | None = None,
    gettext: Words = english,
) -> str:
    """The board as an SVG document ``size`` pixels wide; ``names`` are (south, north)."""
    u = size / UNITS_WIDE
    rows = rules.board.rows
    top, bottom = 0.9 * u, 0.9 * u + rows * 1.2 * u + 0.2 * u
    height = bottom + 1.5 * u
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{_n(height)}" '
        f'viewBox="0 0 {size} {_n(height)}" font-family="{FONTS}">',
        f"<title>{escape(caption or _caption(rules, state, gettext))}</title>",
        f'<rect x="0" y="0" width="{size}" height="{_n(height)}" fill="#fbf7f0"/>',
        f'<rect class="board" x="{_n(0.05 * u)}" y="{_n(top)}" width="{_n(size - 0.1 * u)}" '
        f'height="{_n(bottom - top)}" rx="{_n(0.3 * u)}" fill="{WOOD}" stroke="{WOOD_EDGE}" '
        f'stroke-width="{_n(0.06 * u)}"/>',
    ]
    parts += _side_labels(u, top, bottom, names, gettext)
    parts += _stores(u, top, bottom, state, gettext)
    for row in range(rows, 0, -1):
        y = top + 0.1 * u + (rows - row + 0.5) * 1.2 * u
        for column, letter in enumerate("abcdef"):
            x = (1.4 + (column + 0.5) * 1.2) * u
            parts += _hole(rules, state, f"{letter}{row}", x, y, u, last_hole, gettext)
    parts.append(_text(size / 2, bottom + 1.2 * u, 0.28 * u, status_line(state, gettext), cls="status", fill="#333"))
    parts.append("</svg>")
    return "\n".join(parts)


def _hole(
    rules: Rules, state: State, name: str, x: float, y: float, u: float, last_hole: str | None, gettext: Words
) -> list[str]:
    board = rules.board
    index = board.index[name]
    owner, seeds = state.owners[index].json, state.holes[index]
    special = state.specials[index]
    changed = state.owners[index] != board.default_owners[index]
    data = f'data-hole="{name}" data-seeds="{seeds}" data-owner="{owner}"'
    if special is not None:
        data += f' data-special="{rules.special_kind}" data-special-owner="{special.json}"'
    tooltip = _tooltip(rules, name, seeds, owner, special, changed, gettext)
    parts = [f'<g class="hole" id="hole-{name}" {data}>', f"<title>{escape(tooltip)}</title>"]
    parts.append(_circle(x, y, 0.5 * u, fill=TINT[owner], stroke=INK[owner], width=0.04 * u))
    if special is not None:
        parts.append(_circle(x, y, 0.42 * u, fill="none", stroke=INK[special.json], width=0.08 * u, cls="special"))
        badge = f"{gettext(str(rules.special_kind))} {gettext(special.json.capitalize())[0]}"
        parts += _special_badge(x, y + 0.44 * u, u, badge, special.json)
    if changed:
        parts.append(
            _text(
                x + 0.42 * u,
                y - 0.36 * u,
                0.2 * u,
                gettext(owner.capitalize())[0],
                cls="owner-changed",
                fill=INK[owner],
                weight="bold",
            )
        )
    if name == last_hole:
        parts.append(_circle(x, y, 0.56 * u, fill="none", stroke=GOLD, width=0.1 * u, cls="last-sowing"))
    parts.append(_text(x, y - 0.22 * u, 0.17 * u, name, cls="name", fill="#555"))
    parts.append(_text(x, y + 0.16 * u, 0.42 * u, str(seeds), cls="count", fill="#111", weight="bold", hole=name))
    parts.append("</g>")
    return parts


def _special_badge(x: float, y: float, u: float, label: str, owner: str) -> list[str]:
    """A pill on the hole's rim: the special's kind and its owner's initial, in the owner's colour."""
    return [
        f'<rect x="{_n(x - 0.42 * u)}" y="{_n(y - 0.13 * u)}" width="{_n(0.84 * u)}" height="{_n(0.26 * u)}" '
        f'rx="{_n(0.13 * u)}" fill="{INK[owner]}"/>',
        _text(x, y + 0.06 * u, 0.17 * u, label, cls="special-label", fill="#fff", weight="bold"),
    ]


def _stores(u: float, top: float, bottom: float, state: State, gettext: Words) -> list[str]:
    parts = []
    for player, x in ((Player.NORTH, 0.2 * u), (Player.SOUTH, 8.8 * u)):
        name = player.json
        middle = x + 0.5 * u
        parts += [
            f'<g class="store" data-player="{name}" data-seeds="{state.stores[player]}">',
            f'<rect x="{_n(x)}" y="{_n(top + 0.2 * u)}" width="{_n(u)}" height="{_n(bottom - top - 0.4 * u)}" '
            f'rx="{_n(0.45 * u)}" fill="{TINT[name]}" stroke="{INK[name]}" stroke-width="{_n(0.04 * u)}"/>',
            _text(
                middle, top + 0.55 * u, 0.17 * u, gettext("%(side)s store") % {"side": gettext(name)}, fill=INK[name]
            ),
            _text(
                middle,
                (top + bottom) / 2 + 0.15 * u,
                0.42 * u,
                str(state.stores[player]),
                cls="store-count",
                fill="#111",
                weight="bold",
            ),
            "</g>",
        ]
    return parts


def _side_labels(u: float, top: float, bottom: float, names: tuple[str, str] | None, gettext: Words) -> list[str]:
    labels = []
    for player, y in ((Player.NORTH, top - 0.3 * u), (Player.SOUTH, bottom + 0.6 * u)):
        text = gettext(player.json.capitalize()) + (f" — {visible(names[player])}" if names else "")
        ink = INK[player.json]
        labels.append(_text(5 * u, y, 0.32 * u, text, cls=f"side side-{player.json}", fill=ink, weight="bold"))
    return labels


def status_line(state: State, gettext: Words = english) -> str:
    if state.game_over:
        result, reason = gettext(state.result.name.replace("_", " ")), gettext(str(state.result.reason))
        return gettext("game over: %(result)s (%(reason)s)") % {"result": result, "reason": reason}
    if state.awaiting:
        return gettext("round %(round)s: awaiting %(decision)s") % {
            "round": state.round,
            "decision": gettext(state.awaiting),
        }
    if state.to_move is None:
        return gettext("round %(round)s: nobody to move") % {"round": state.round}
    return gettext("round %(round)s: %(side)s to move") % {"round": state.round, "side": gettext(state.to_move.json)}


def _caption(rules: Rules, state: State, gettext: Words) -> str:
    return gettext("%(game)s board, round %(round)s") % {"game": gettext(rules.title), "round": state.round}


def _tooltip(
    rules: Rules, name: str, seeds: int, owner: str, special: Player | None, changed: bool, gettext: Words
) -> str:
    words = {"hole": name, "count": seeds, "side": gettext(owner)}
    one = gettext("%(hole)s: %(count)s seed, %(side)s's hole")
    many = gettext("%(hole)s: %(count)s seeds, %(side)s's hole")
    # English's plural; a catalog translates both forms as its language needs.
    text = (many if seeds != 1 else one) % words
    if changed:
        text += gettext(" this round")
    if special is not None:
        text += gettext(", %(side)s's %(kind)s") % {
            "side": gettext(special.json),
            "kind": gettext(str(rules.special_kind)),
        }
    return text


def _circle(x: float, y: float, r: float, *, fill: str, stroke: str, width: float, cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<circle{klass} cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{_n(width)}"/>'
    )


def _text(
    x: float,
    y: float,
    size: float,
    text: str,
    *,
    cls: str = "",
    fill: str = "#000",
    weight: str = "normal",
    hole: str = "",
) -> str:
    attributes = f' class="{cls}"' if cls else ""
    if hole:
        attributes += f' data-hole="{hole}"'
    return (
        f'<text{attributes} x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="middle" '
        f'fill="{fill}" font-weight="{weight}">{escape(text)}</text>'
    )


def _n(value: float) -> str:
    """Coordinates to one decimal: small output, no float noise."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


__all__ = ["board_svg", "status_line"]
