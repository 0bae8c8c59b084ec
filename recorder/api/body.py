"""Request bodies as JSON, strictly: bad input is a 4xx problem, never a 5xx.

``json.loads`` accepts things no record should hold: a lone surrogate (``"\\ud800"``,
which cannot be stored as UTF-8), nesting deep enough to exhaust the recursion limit,
and control characters. One linear walk after parsing refuses them all.
"""

from __future__ import annotations

import json
import re

from flask import request
from werkzeug.exceptions import BadRequest

from recorder.errors import InvalidRecord

from .problems import MalformedJson

MAX_DEPTH = 64  # the deepest body the API takes (a position is 3 levels)
# C0 and C1 controls but tab and newline (a note may run over lines), DEL, and surrogates.
REFUSED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def json_body(*, empty_is_object: bool = False):
    """The request's JSON value, checked (see the module docstring)."""
    data = request.get_data(cache=True)
    if not data and empty_is_object:
        return {}
    try:
        value = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise BadRequest(f"the body is not UTF-8 (byte {error.start})") from None
    except RecursionError:
        raise BadRequest(f"the JSON is nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as error:
        raise MalformedJson(error) from None
    check_json_value(value)
    return value


def check_json_value(value) -> None:
    """Refuse nesting over MAX_DEPTH, lone surrogates and control characters anywhere."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BadRequest(f"the JSON is nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            check_text(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                check_text(key)
                stack.append((inner, depth + 1))
        elif isinstance(item, list):
            stack.extend((inner, depth + 1) for inner in item)


def check_text(text: str) -> None:
    found = REFUSED.search(text)
    if found is None:
        return
    char = found.group()
    what = "a lone surrogate" if "\ud800" <= char <= "\udfff" else "the control character"
    raise InvalidRecord(f"a string holds {what} U+{ord(char):04X}", field="body")
