"""Standings and crosstables as plain text tables (pure), for the command line.

A round robin's crosstable is the classic square: row player against column player,
by place. A Swiss crosstable lists each round as opponent's place, seat (s/n) and
result: ``4s1`` beat the 4th placed player sitting south; ``bye+``; ``*`` not yet known.
"""

from __future__ import annotations

from recorder.core.names import display_width, pad

from .views import number


def _table(header: list[str], rows: list[list]) -> str:
    """Columns lined up by display width, not by count of characters (a name in Ge'ez
    script with a combining mark, or in a wide script, is as wide as a terminal draws it)."""
    widths = [max(display_width(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(pad(str(cell), w) for cell, w in zip(line, widths)).rstrip() for line in [header, *rows]]
    return "\n".join([lines[0], "  ".join("-" * w for w in widths).rstrip(), *lines[1:]])


def entrants_text(t) -> str:
    """The players, numbered, in columns (``recorder tournament show``)."""
    rows = [
        [e.number, e.name, e.federation or "", e.rating or "", "withdrawn" if e.withdrawn else ""] for e in t.entrants
    ]
    return _table(["no", "name", "fed", "rating", ""], rows)


def _value(value) -> str:
    return str(number(value))


def standings_text(t, ranked) -> str:
    header = ["rank", "no", "name", "fed", "points", *t.tiebreaks]
    rows = [
        [
            s.rank,
            s.number,
            t.entrant(s.number).name,
            t.entrant(s.number).federation or "",
            _value(s.points),
            *(_value(s.tiebreaks[name]) for name in t.tiebreaks),
        ]
        for s in ranked
    ]
    return _table(header, rows)


def _cell_text(cell: dict) -> str:
    if cell["kind"] == "bye":
        return "bye" + cell["mark"]
    if cell["kind"] == "absent":
        return "-"
    return f"{cell['opponent_place']}{cell['colour'][0]}{cell['mark']}"


def crosstable_text(t, rows: list[dict]) -> str:
    if t.is_round_robin:
        return _square(t, rows)
    rounds = max((len(r["cells"]) for r in rows), default=0)
    header = ["place", "name", *(f"r{i}" for i in range(1, rounds + 1)), "points"]
    body = [
        [
            r["place"],
            t.entrant(r["standing"].number).name,
            *(_cell_text(c) for c in r["cells"]),
            _value(r["standing"].points),
        ]
        for r in rows
    ]
    return _table(header, body)


def _square(t, rows: list[dict]) -> str:
    """Row against column by place; a double round robin shows both games (``1½``)."""
    places = [r["place"] for r in rows]
    header = ["place", "name", *(str(p) for p in places), "points"]
    body = []
    for r in rows:
        against = {p: "" for p in places}
        for c in r["cells"]:
            if c["opponent_place"] is not None:
                against[c["opponent_place"]] += c["mark"]
        against[r["place"]] = "x"
        body.append(
            [
                r["place"],
                t.entrant(r["standing"].number).name,
                *(against[p] for p in places),
                _value(r["standing"].points),
            ]
        )
    return _table(header, body)


def category_standings_text(t, found: dict) -> str:
    """One category's standings (``prize_views.category_standings_json``): its place, the overall rank."""
    header = ["place", "rank", "no", "name", "fed", "points", *t.tiebreaks]
    rows = [
        [r["rank"], r["overall_rank"], r["number"], r["name"], r["federation"] or "", r["points"]]
        + [r["tiebreaks"][name] for name in t.tiebreaks]
        for r in found["standings"]
    ]
    category = found["category"]
    title = category["code"] + (f" ({category['name']})" if category.get("name") else "")
    return f"{title}\n" + _table(header, rows)


def prizes_text(found: dict) -> str:
    """Who is paid what (``prize_views.prizes_json``), then the money offered and paid."""
    currency = f" {found['currency']}" if found["currency"] else ""
    rows = [
        [
            a["rank"],
            a["number"],
            a["name"],
            a["category"] or "overall",
            a["place"] or "",
            f"{a['amount']}{currency}",
            "-".join(str(p) for p in a["shared_places"]) + (f" /{a['sharers']}" if a["shared_places"] else ""),
        ]
        for a in found["awards"]
    ]
    table = _table(["rank", "no", "name", "list", "place", "amount", "shared"], rows)
    state = "final" if found["final"] else "as the standings stand now"
    sums = f"offered {found['offered']}{currency}, paid {found['paid']}{currency} ({found['sharing']}; {state})"
    return f"{table}\n{sums}"
