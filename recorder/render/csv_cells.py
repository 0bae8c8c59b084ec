"""CSV cells a spreadsheet will not run: OWASP's advice against CSV (formula) injection.

A spreadsheet opening a CSV evaluates a cell that starts with ``=``, ``+``, ``-`` or
``@`` (and, in some, after a leading tab or carriage return) as a formula: a player's
name ``=HYPERLINK("http://…")`` would become a link that leaks the sheet, ``=cmd|…``
a command. Every CSV the service writes passes its text cells through here; such a cell
is prefixed with a single quote, which the spreadsheet shows as text. Numbers are left
alone (they come from the service, not from a name someone typed).
"""

from __future__ import annotations

from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: object) -> object:
    """A text cell that would start a formula, prefixed with ``'``; anything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def spreadsheet_row(values: Iterable[object]) -> list[object]:
    return [spreadsheet_cell(value) for value in values]
