"""The pages' languages: English, and every language with a catalog under ``translations/``.

Which language a page is in: the one the reader chose on the page (``?lang=`` sets the
``lang`` cookie; the chooser in the header sends it), else the best of the browser's
``Accept-Language``, else English. The messages are gettext catalogs in two domains:
``messages`` for the templates and the Python code, ``js`` for the JavaScript modules;
each page embeds the ``js`` catalog of its language as JSON, which ``static/js/i18n.js``
reads, so both halves of a page are translated from the same catalogs (docs/i18n.md).
"""

from __future__ import annotations

import gettext
import json
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from flask import Flask, Response, request
from flask_babel import Babel, get_locale
from markupsafe import Markup

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
DEFAULT_LANGUAGE = "en"
COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600


@lru_cache(maxsize=1)
def languages() -> tuple[str, ...]:
    """English and every language whose catalogs are compiled: a new folder is a new language."""
    found = sorted(path.parent.parent.name for path in TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo"))
    return (DEFAULT_LANGUAGE, *(code for code in found if code != DEFAULT_LANGUAGE))


def chosen_language() -> str | None:
    """The reader's own choice, if it names a language we have: the query, else the cookie."""
    for choice in (request.args.get(COOKIE), request.cookies.get(COOKIE)):
        if choice in languages():
            return choice
    return None


def select_locale() -> str:
    return chosen_language() or request.accept_languages.best_match(languages()) or DEFAULT_LANGUAGE


@cache
def language_name(code: str) -> str:
    """A language's name in itself, from Babel's locale data (the chooser lists these)."""
    return (Locale.parse(code).get_display_name(code) or code).capitalize()


def script_catalog(code: str) -> Catalog | None:
    path = TRANSLATIONS / code / "LC_MESSAGES" / "js.mo"
    if not path.exists():
        return None
    with path.open("rb") as file:
        return read_mo(file)


@cache
def script_messages(code: str) -> dict[str, str | list[str]]:
    """The ``js`` catalog of a language, msgid to translation (a list of forms for a
    message with plurals; empty for English)."""
    catalog = script_catalog(code)
    messages: dict[str, str | list[str]] = {}
    for message in catalog or ():
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple | list):
            messages[message.id[0]] = [str(form) for form in message.string]
        else:
            messages[str(message.id)] = str(message.string)
    return messages


def plural_table(code: str) -> list[int]:
    """The plural form of each count 0..199 under the language's catalog rule (English's
    rule without a catalog), for the JavaScript's ngettext."""
    catalog = script_catalog(code)
    plural = gettext.c2py((catalog or Catalog(locale=code)).plural_expr)
    return [plural(n) for n in range(200)]


# The Ethiopian calendar's date is shown beside the Gregorian one in a language whose
# catalog translates its pattern (Tigrinya and Amharic do; English does not).
ETHIOPIAN_DATE = "%(day)s %(month)s %(year)s E.C."


@cache
def script_data(code: str) -> dict:
    """What ``static/js/i18n.js`` reads: the script catalog and Babel's locale data it needs."""
    locale = Locale.parse(code)
    messages = script_messages(code)
    return {
        "lang": code,
        "messages": messages,
        "plurals": plural_table(code),
        "locale": {
            "months": [locale.months["format"]["wide"][month] for month in range(1, 13)],
            "date_pattern": locale.date_formats["long"].pattern,
            "group": locale.number_symbols["latn"]["group"],
            "decimal": locale.number_symbols["latn"]["decimal"],
            "ethiopian": ETHIOPIAN_DATE in messages,
        },
    }


@cache
def script_json(code: str) -> Markup:
    """``script_data`` as JSON safe inside ``<script type="application/json">``: the
    characters HTML would read escaped, the Ge'ez script kept as UTF-8 (a third of the
    size of ``\\uXXXX`` escapes)."""
    text = json.dumps(script_data(code), ensure_ascii=False, sort_keys=True)
    for character, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("'", "\\u0027")):
        text = text.replace(character, escaped)
    return Markup(text)


def page_language() -> dict:
    """What every template needs: the language, its direction, the chooser, the script data."""
    locale = get_locale()
    code = str(locale) if locale else DEFAULT_LANGUAGE
    return {
        "page_lang": code,
        "page_dir": locale.text_direction if locale else "ltr",
        "page_languages": [(other, language_name(other)) for other in languages()],
        "page_i18n": script_json(code),
    }


# What is answered in the reader's language: a shared cache must not hand it to another.
SPOKEN_TYPES = {"text/html", "image/svg+xml", "application/problem+json"}
SPOKEN_PATHS = {"/api/variants"}


def keep_choice(response: Response) -> Response:
    """A language chosen with ``?lang=`` is kept in the browser for the next pages."""
    if response.mimetype in SPOKEN_TYPES or request.path in SPOKEN_PATHS:
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    choice = request.args.get(COOKIE)
    if choice in languages() and request.cookies.get(COOKIE) != choice:
        response.set_cookie(COOKIE, choice, max_age=COOKIE_SECONDS, samesite="Lax")
    return response


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    Babel(app, locale_selector=select_locale)
    app.context_processor(page_language)
    app.after_request(keep_choice)
