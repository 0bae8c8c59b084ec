"""The pages in English, Tigrinya and Amharic (docs/i18n.md): the catalogs are complete and
true to their sources, the language is chosen as documented, and the API answers a person
in his language while a program's fields stay as they were.

Every message is extracted again here with Babel's own extractors from the same
configuration files the docs' commands use, and compared with the committed catalogs: a
string added to a template or a script without its translations fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from conftest import make_app

from recorder import errors, web
from recorder.api.problems import TITLES
from recorder.api.variant_words import RULE_WORDS
from recorder.rules import VARIANTS
from recorder.web import i18n

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "recorder" / "web" / "translations"
SCRIPTS = ROOT / "recorder" / "web" / "static" / "js"
DOMAINS = ("messages", "js")
LANGUAGES = tuple(code for code in i18n.languages() if code != "en")  # every catalog folder: ti, am, and any new one
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
TAG = re.compile(r'</?[a-z]+(?:\s+[a-z-]+="[^"]*")*\s*>')  # an HTML tag, its attributes quoted


def message_id(message) -> str:
    return message.id[0] if isinstance(message.id, tuple | list) else message.id


def extracted(domain: str) -> set[str]:
    """The messages Babel finds in the sources today, as ``pybabel extract -F`` would."""
    with (TRANSLATIONS / f"{domain}.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = extract_from_dir(str(ROOT), method_map, options_map)
    return {text[0] if isinstance(text, tuple) else text for _, _, text, _, _ in found if text}


def catalog(language: str, domain: str):
    with (TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as file:
        return read_po(file, locale=language)


def template(domain: str):
    with (TRANSLATIONS / f"{domain}.pot").open("rb") as file:
        return read_po(file)


@pytest.fixture(scope="module")
def sources() -> dict[str, set[str]]:
    return {domain: extracted(domain) for domain in DOMAINS}


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_of_the_sources_is_in_the_template(sources, domain):
    in_template = {message_id(m) for m in template(domain) if m.id}
    assert sources[domain] - in_template == set(), "run the extract command of docs/i18n.md"
    assert in_template - sources[domain] == set(), "the template keeps messages no source has"


def test_every_literal_the_scripts_translate_is_extracted(sources):
    """A message inside another _() call's arguments or inside a template literal's ${}
    is invisible to Babel's JavaScript extractor: every _("…") in the scripts must be found."""
    for script in sorted(SCRIPTS.glob("*.js")):
        code = re.sub(r"^\s*//.*$", "", script.read_text(), flags=re.MULTILINE)
        for match in re.finditer(r'\b(?:_|ngettext)\(\s*"((?:[^"\\]|\\.)*)"', code):
            assert json.loads(f'"{match.group(1)}"') in sources["js"], (script.name, match.group(1))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_catalog_translates_every_message(sources, language, domain):
    messages = [m for m in catalog(language, domain) if m.id]
    assert {message_id(m) for m in messages} == sources[domain]
    untranslated = [m.id for m in messages if not all(m.string) or "fuzzy" in m.flags]
    assert untranslated == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_no_translation_drops_or_adds_a_placeholder_or_a_tag(language, domain):
    for message in catalog(language, domain):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        wanted = sorted(set(PLACEHOLDER.findall(ids[-1])))
        for string in strings:
            assert sorted(set(PLACEHOLDER.findall(string))) == wanted, (message.id, string)
            assert sorted(TAG.findall(string)) == sorted(TAG.findall(ids[0])), (message.id, string)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogs_are_the_catalogs(language, domain):
    """The .mo files the service reads are compiled from the .po files as committed."""

    def forms(string):
        return tuple(string) if isinstance(string, tuple | list) else string

    with (TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.mo").open("rb") as file:
        compiled = {message_id(m): forms(m.string) for m in read_mo(file) if m.id}
    written = {message_id(m): forms(m.string) for m in catalog(language, domain) if m.id}
    assert compiled == written, "run the compile command of docs/i18n.md"


def test_the_rule_words_are_what_the_rules_say():
    said = set()
    for rules_class in VARIANTS.values():
        described = rules_class().describe()
        said |= {described["title"], described["summary"]}
        said |= {option["description"] for option in described["options"].values()}
    assert set(RULE_WORDS) == said


def every_error(cls):
    """Every subclass, once every module that may define one is imported (the app's)."""
    for sub in cls.__subclasses__():
        yield sub
        yield from every_error(sub)


def test_every_named_error_title_is_in_the_catalog(tmp_path):
    make_app(str(tmp_path / "errors.sqlite3"))  # imports the API and what it serves
    titles = {errors.RecorderError.title} | {cls.title for cls in every_error(errors.RecorderError)}
    assert titles <= set(TITLES)


def test_a_new_language_is_a_folder_of_catalogs():
    assert i18n.languages()[0] == "en"  # the messages themselves
    assert {"ti", "am"} <= set(i18n.languages())
    for code in LANGUAGES:
        assert (TRANSLATIONS / code / "LC_MESSAGES" / "js.mo").exists(), code


# -- Choosing the language --------------------------------------------------------------


@pytest.fixture
def client(tmp_path):
    app = make_app(str(tmp_path / "i18n.sqlite3"))
    yield app.test_client()
    app.extensions["recorder"].store.close()


def page_language(response) -> tuple[str, str]:
    head = re.search(r'<html lang="([^"]+)" dir="([^"]+)">', response.get_data(as_text=True))
    assert head, "the page names its language"
    return head.group(1), head.group(2)


def test_without_a_choice_the_page_is_english(client):
    assert page_language(client.get("/")) == ("en", "ltr")


def test_the_browser_language_is_taken_when_nothing_was_chosen(client):
    headers = {"Accept-Language": "am-ET,am;q=0.9,en;q=0.5"}
    assert page_language(client.get("/", headers=headers)) == ("am", "ltr")
    assert page_language(client.get("/", headers={"Accept-Language": "fr, de"})) == ("en", "ltr")


def test_the_readers_choice_is_kept_in_a_cookie_and_wins(client):
    response = client.get("/?lang=ti", headers={"Accept-Language": "am"})
    assert page_language(response) == ("ti", "ltr")
    assert "lang=ti" in response.headers["Set-Cookie"]
    assert page_language(client.get("/", headers={"Accept-Language": "am"})) == ("ti", "ltr")


def test_what_is_said_in_a_language_varies_by_it(client):
    for path in ("/", "/api/variants", "/api/games/nothing-here"):
        assert {"Accept-Language", "Cookie"} <= set(client.get(path).headers["Vary"].split(", ")), path


def test_an_unknown_choice_is_ignored(client):
    response = client.get("/?lang=xx", headers={"Accept-Language": "am"})
    assert page_language(response) == ("am", "ltr")
    assert "Set-Cookie" not in response.headers


HOSTILE_CHOICES = ["x" * 5000, "../../etc/passwd", "ti%00", "en_US;drop", "%E1%88%A0"]


@pytest.mark.parametrize("choice", HOSTILE_CHOICES)
def test_a_hostile_choice_is_ignored_and_costs_nothing(client, choice):
    # In the address, in the cookie and in the browser's header: English, nothing kept.
    response = client.get(f"/?lang={choice}")
    assert response.status_code == 200 and page_language(response) == ("en", "ltr")
    assert "Set-Cookie" not in response.headers
    for path in ("/", "/api/variants"):
        assert client.get(path, headers={"Cookie": f"lang={choice}"}).status_code == 200, path
    assert page_language(client.get("/", headers={"Cookie": f"lang={choice}"})) == ("en", "ltr")


def test_a_malformed_or_huge_accept_language_falls_back_to_english(client):
    for header in ("ti;q=abc, am;q=2, *;q=-1", "\t;;,,q=", ",".join(["zz;q=0.5"] * 20_000), "x" * 100_000):
        response = client.get("/", headers={"Accept-Language": header})
        assert response.status_code == 200 and page_language(response)[0] in ("en", "ti", "am"), header[:40]
    assert page_language(client.get("/", headers={"Accept-Language": "x" * 100_000})) == ("en", "ltr")


def test_the_page_embeds_its_script_catalog_as_data(client):
    text = client.get("/?lang=am").get_data(as_text=True)
    data = json.loads(re.search(r'<script id="i18n" type="application/json">(.*?)</script>', text).group(1))
    assert data["lang"] == "am"
    assert data["messages"]["South"] == "ደቡብ"
    assert data["messages"]["Withdraw their %(count)s move and record mine"] == [
        "የእነሱን %(count)s እንቅስቃሴ ሰርዘህ የእኔን መዝግብ",
        "የእነሱን %(count)s እንቅስቃሴዎች ሰርዘህ የእኔን መዝግብ",
    ]
    assert data["plurals"][:3] == [0, 0, 1]  # Amharic: 0 and 1 take the singular (CLDR)
    assert data["locale"]["months"][0] == "ጃንዋሪ"  # Babel's locale data
    assert data["locale"]["ethiopian"] is True


def test_the_chooser_lists_each_language_in_itself(client):
    text = client.get("/").get_data(as_text=True)
    for code, name in (("en", "English"), ("ti", "ትግርኛ"), ("am", "አማርኛ")):
        assert f'<option value="{code}" lang="{code}"' in text
        assert name in text


# -- The API: words for people translated, fields for programs stable --------------------


def test_the_variants_answer_in_the_readers_language(client):
    variants = client.get("/api/variants", headers={"Accept-Language": "ti"}).get_json()["variants"]
    selus = next(v for v in variants if v["name"] == "selus")
    assert selus["title"] == "ሰለስ"
    assert selus["special_kind"] == "wegue"  # a field for programs, never translated
    assert selus["options"]["match"]["choices"] == ["rounds", "single"]
    assert selus["options"]["match"]["label"] == "ግጥም (SEL-14..19)"
    english = client.get("/api/variants").get_json()["variants"]
    assert next(v for v in english if v["name"] == "selus")["title"] == "Selus"


def test_a_problem_title_is_translated_and_its_type_is_not(client):
    answer = client.get("/api/games/nothing-here", headers={"Accept-Language": "am"})
    problem = answer.get_json()
    assert answer.status_code == 404
    assert problem["title"] == "ያልታወቀ ጨዋታ"
    assert problem["type"].endswith("/unknown-game")
    assert client.get("/api/games/nothing-here").get_json()["title"] == "Unknown game"


def test_the_board_diagram_speaks_the_readers_language(client):
    created = client.post(
        "/api/games", json={"variant": "selus", "south": "ሰላም", "north": "ዳዊት", "first_player": "south"}
    )
    game_id = created.get_json()["id"]
    svg = client.get(f"/api/games/{game_id}/board.svg", headers={"Accept-Language": "ti"}).get_data(as_text=True)
    assert "መኽዘን ደቡብ" in svg and "ዙርያ 1፦ ተራ ደቡብ" in svg
    english = client.get(f"/api/games/{game_id}/board.svg").get_data(as_text=True)
    assert "south store" in english and "round 1: south to move" in english


def offline_words(response) -> dict:
    found = re.search(r"const OFFLINE_WORDS = (\{.*?\});\n", response.get_data(as_text=True))
    assert found, "the worker holds its offline words"
    return json.loads(found.group(1))


def test_the_service_worker_says_offline_in_every_language_from_the_catalogs(client):
    words = offline_words(client.get("/sw.js"))
    assert set(words) == set(i18n.languages())
    english = words["en"]
    assert english["page"].startswith("This page was not opened on this device while the network was up")
    for language in LANGUAGES:
        translations = {message_id(message): message.string for message in catalog(language, "messages")}
        for key in ("title", "page", "detail"):
            assert words[language][key] == translations[english[key]], (language, key)
            assert not re.search(r"[A-Za-z]", words[language][key]), (language, key)
        assert words[language]["dir"] == "ltr"


def test_one_service_worker_serves_every_language(client):
    """The worker picks the reader's language offline: it is the same whatever the request's
    language, so a language chosen later needs no new worker and no cache varies by it."""
    english = client.get("/sw.js")
    for headers in ({"Accept-Language": "ti"}, {"Cookie": "lang=am"}):
        answer = client.get("/sw.js?lang=am", headers=headers)
        assert answer.get_data() == english.get_data()
        assert "Accept-Language" not in answer.headers.get("Vary", "")


def glossary_rows() -> list[tuple[str, ...]]:
    """The glossary's (English, Tigrinya, Amharic) rows, each word without its gloss."""
    rows = []
    for line in (ROOT / "docs" / "glossary.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and line.startswith("|") and not set(cells[0]) <= {"-"} and cells[0] != "English":
            rows.append(tuple(re.sub(r"\s*\(.*\)$", "", cell) for cell in cells[:3]))
    return rows


def test_the_glossary_and_the_catalogs_use_the_same_words():
    rows = glossary_rows()
    assert len(rows) > 40
    checked = 0
    for language, index in (("ti", 1), ("am", 2)):  # the glossary's columns
        translations = {}
        for domain in DOMAINS:
            translations.update({m.id: m.string for m in catalog(language, domain) if isinstance(m.id, str)})
        for row in rows:
            if row[0] in translations:
                assert translations[row[0]] == row[index], (language, row)
                checked += 1
    assert checked >= 2 * 12  # the games, their special holes, the sides, the decisions and results


def test_the_tigrinya_sign_in_line_addresses_no_one_as_a_man():
    # It said ኣቲኻ ... ትኽእል ("you (m.) are signed in ... you (m.) may"): the line says who is
    # signed in, in forms that are neither masculine nor feminine.
    with (TRANSLATIONS / "ti" / "LC_MESSAGES" / "js.po").open("rb") as file:
        catalog = read_po(file, locale="ti")
    lines = [m.string for m in catalog if isinstance(m.id, str) and m.id.startswith("Signed in")]
    assert len(lines) == 7  # the admin, a kept token, a recorder, an arbiter, a board sign-in, a badge, a captain
    for line in lines:
        assert not any(form in line for form in ("ኣቲኻ", "ኣቲኺ", "ትኽእል", "ክትምዝግብ")), line


def test_an_address_no_page_has_answers_in_the_readers_language(client):
    response = client.get("/no-such-page", headers={"Accept-Language": "ti"})
    assert response.status_code == 404 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "ኣይተረኽበን" in page and "ኣብዚ ኣድራሻ ገጽ የለን።" in page and "Not Found" not in page
    assert response.headers["Content-Security-Policy"] == web.CONTENT_SECURITY_POLICY  # a page's, not an API answer's
    api = client.get("/api/no-such-thing", headers={"Accept-Language": "ti"})
    assert api.status_code == 404 and api.mimetype == "application/problem+json"
