"""Printed scoresheets (issue 39): printed to PDF by Debian's Chromium and read back.

A finished game's sheet names the players, event, round and board, lists every move as
the notation writes it (compared with GET /api/games/{id}/moves), gives the result, has
lines for the three signatures, and carries the signed checkpoint as a QR code: the PDF
is drawn as an image (pypdfium2) and the code decoded (zxing-cpp), and the decoded text
is the checkpoint the API issues and `recorder verify --checkpoint` accepts. A round's
empty sheets are one A4 page per board.
"""

from __future__ import annotations

import json
import os
import re
from datetime import date
from pathlib import Path

import pytest
from browser import CHROMIUM, served_with_chromium, watched_page
from click.testing import CliRunner

from recorder.cli.main import main

playwright_api = pytest.importorskip("playwright.sync_api")
pypdfium2 = pytest.importorskip("pypdfium2")
zxingcpp = pytest.importorskip("zxingcpp")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import ADMIN, make_app  # noqa: E402

A4_POINTS = (595, 842)  # 210 x 297 mm at 72 points an inch, rounded
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
DPI = 200


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    database = str(tmp_path_factory.mktemp("sheets") / "sheets.sqlite3")
    app = make_app(database)
    with served_with_chromium(app) as server:
        server.database = database
        yield server


@pytest.fixture
def page(hall):
    with watched_page(hall.browser, timeout=15_000, base_url=hall.url) as page:
        yield page


def make_round(client) -> tuple[str, list[str]]:
    """Keren Cup, a round robin of four, round 1 paired and both boards' games started."""
    create = {"name": "Keren Cup", "variant": "qelat", "format": "round_robin", "site": "Keren"}
    tournament = client.post("/api/tournaments", headers=ADMIN, json=create).get_json()["id"]
    for name in ("Abeba Tesfaye", "Berhane Kidane", "Dawit Haile", "Selam Gebre"):
        assert client.post(f"/api/tournaments/{tournament}/players", json={"name": name}).status_code == 201
    assert client.post(f"/api/tournaments/{tournament}/rounds", json={}).status_code == 201
    games = []
    for board in (1, 2):
        url = f"/api/tournaments/{tournament}/rounds/1/boards/{board}/game"
        games.append(client.post(url, json={"first_player": "south"}).get_json()["id"])
    return tournament, games


def play_and_finish(client, game_id: str, sowings: int) -> None:
    """``sowings`` legal sowings (the first legal hole each time), then North resigns."""
    for _ in range(sowings):
        state = client.get(f"/api/games/{game_id}").get_json()
        hole = sorted(state["state"]["legal_moves"])[0]
        command = {"type": "sow", "hole": hole, "expected_version": state["version"]}
        assert client.post(f"/api/games/{game_id}/commands", json=command).status_code == 201
    version = client.get(f"/api/games/{game_id}").get_json()["version"]
    result = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": version}
    assert client.post(f"/api/games/{game_id}/commands", json=result).status_code == 201


def print_to_pdf(page, address: str) -> bytes:
    page.goto(address)
    page.wait_for_selector("#scoresheet-page[data-ready=true]")
    page.emulate_media(media="print")
    return page.pdf(prefer_css_page_size=True, print_background=True)


def pages_of(pdf: bytes) -> list:
    document = pypdfium2.PdfDocument(pdf)
    return [document[i] for i in range(len(document))]


def text_of(pdf_page) -> str:
    """The page's text, spaces collapsed; labels print in capitals (text-transform)."""
    return " ".join(pdf_page.get_textpage().get_text_range().split())


def image_of(pdf_page):
    return pdf_page.render(scale=DPI / 72).to_pil().convert("RGB")


def test_a_finished_games_scoresheet_prints_with_a_qr_code_that_verify_accepts(hall, page):
    tournament, games = make_round(hall.client)
    game_id = games[0]
    play_and_finish(hall.client, game_id, sowings=6)
    pdf = print_to_pdf(page, f"/games/{game_id}/scoresheet")
    sheets = pages_of(pdf)
    assert len(sheets) == 1
    assert tuple(round(x) for x in sheets[0].get_size()) == A4_POINTS
    text = text_of(sheets[0])
    game = hall.client.get(f"/api/games/{game_id}").get_json()
    for expected in (
        game["south"],
        game["north"],
        "Keren Cup",
        "Keren",
        "ROUND 1",
        "BOARD 1",
        "South won (resignation)",
    ):
        assert expected in text, expected
    assert [word in text for word in ("SIGNATURE: SOUTH", "SIGNATURE: NORTH", "SIGNATURE: ARBITER")] == [True] * 3
    moves = hall.client.get(f"/api/games/{game_id}/moves").get_json()["moves"]
    assert len(moves) == 7
    for move in moves:
        assert move["notation"] in text, move["notation"]

    decoded = [code.text for code in zxingcpp.read_barcodes(image_of(sheets[0]))]
    issued = hall.client.get(f"/api/games/{game_id}/checkpoint").get_json()["text"]
    assert decoded == [issued]
    verified = CliRunner().invoke(main, ["verify", "--checkpoint", decoded[0], "--db", hall.database])
    assert verified.exit_code == 0, verified.output
    assert verified.output.startswith(f"valid   checkpoint {game_id}: the record matches the checkpoint at event 8")


def test_the_printed_sheet_is_black_on_white(hall, page):
    _, games = make_round(hall.client)
    play_and_finish(hall.client, games[1], sowings=2)
    image = image_of(pages_of(print_to_pdf(page, f"/games/{games[1]}/scoresheet"))[0])
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None
    tinted = sum(count for count, (r, g, b) in colours if max(r, g, b) - min(r, g, b) > 16)
    assert tinted == 0  # greys only: black ink, its anti-aliased edges, white paper
    (_, (r, g, b)) = max(colours)
    assert (r, g, b) == (255, 255, 255)  # most of the page is white paper


def test_an_unfinished_game_prints_without_a_checkpoint(hall, page):
    _, games = make_round(hall.client)
    pdf = print_to_pdf(page, f"/games/{games[0]}/scoresheet")
    sheet = pages_of(pdf)[0]
    assert "No checkpoint yet" in text_of(sheet) and "Not finished" in text_of(sheet)
    assert zxingcpp.read_barcodes(image_of(sheet)) == []


def test_a_round_prints_an_empty_scoresheet_per_board_before_play(hall, page):
    tournament, games = make_round(hall.client)
    round_1 = hall.client.get(f"/api/tournaments/{tournament}/rounds/1").get_json()
    pdf = print_to_pdf(page, f"/tournaments/{tournament}/rounds/1/scoresheets")
    sheets = pages_of(pdf)
    assert len(sheets) == len(round_1["boards"]) == 2
    for sheet, board in zip(sheets, round_1["boards"]):
        assert tuple(round(x) for x in sheet.get_size()) == A4_POINTS
        text = text_of(sheet)
        assert board["south"]["name"] in text and board["north"]["name"] in text
        assert f"BOARD {board['board']}" in text and "ROUND 1" in text and "Keren Cup" in text
        assert "75" in text and text.count("SIGNATURE") == 3
        assert zxingcpp.read_barcodes(image_of(sheet)) == []


def fixture_game(client, name: str) -> tuple[str, dict]:
    """A game of fixtures/games recorded through the API (no date given), and what the
    fixture expects of it."""
    fixture = json.loads((FIXTURES / f"{name}.json").read_text())
    created = client.post("/api/games", headers=ADMIN, json=fixture["setup"])
    game_id, version = created.get_json()["id"], 1
    for command in fixture["commands"]:
        answer = client.post(
            f"/api/games/{game_id}/commands", headers=ADMIN, json={**command, "expected_version": version}
        )
        assert answer.status_code == 201, answer.get_json()
        version = answer.get_json()["version"]
    return game_id, fixture["expect"]


VISUAL_LINES = """(item) => {
  // The text of each line the item is laid out on, read character by character.
  const lines = [];
  let top = null;
  const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;  // a space swallowed at a line's end
      if (top === null || Math.abs(rect.top - top) > 2) { lines.push(""); top = rect.top; }
      lines[lines.length - 1] += node.data[i];
    }
  }
  return lines.map((line) => line.replace(/\u00a0/g, " ").trim());
}"""


def test_a_pass_is_never_split_across_lines_on_the_sheet(hall, page):
    # Qelat, seeded playout 0: turn 80 is South's pass, printed "79. N b2 80. S --". It once
    # printed as "... 80. S -" with the second "-" alone on the next line; a line may end
    # between turns or between a turn's holes only. Narrow columns make every turn wrap.
    game_id, _ = fixture_game(hall.client, "qelat-default")
    page.goto(f"/games/{game_id}/scoresheet")
    page.wait_for_selector("#scoresheet-page[data-ready=true]")
    page.evaluate(
        "() => { for (const list of document.querySelectorAll('.sheet-moves')) list.style.columns = '9 12mm'; }"
    )
    items = page.locator(".sheet-moves li")
    notations = items.all_inner_texts()
    assert any(re.search(r"\b80\. S --", " ".join(text.split())) for text in notations)
    wrapped = 0
    for index in range(items.count()):
        lines = items.nth(index).evaluate(VISUAL_LINES)
        wrapped += len(lines) > 1
        assert " ".join(lines) == " ".join(notations[index].split()), lines  # breaks only at spaces
        for line in lines[:-1]:
            assert not re.search(r"(\d+\.|\b[SN])$", line), lines  # a turn's number and side stay with its hole
    assert wrapped > 0


def test_the_result_line_gives_the_score_and_the_sheet_the_date(hall, page):
    # The fixture ends on the board, North ahead 37 to 11 (QEL-13). The game names no date:
    # the sheet gives the day its record began, where it was blank.
    game_id, expect = fixture_game(hall.client, "qelat-default")
    began = date.fromisoformat(hall.client.get(f"/api/games/{game_id}").get_json()["created_at"][:10])
    assert expect["result"] == "north_wins"
    text = text_of(pages_of(print_to_pdf(page, f"/games/{game_id}/scoresheet"))[0])
    assert f"North won (score), {expect['score']['south']}–{expect['score']['north']}" in text, text[-900:]
    assert f"DATE {began:%B} {began.day}, {began.year}" in text, text[:300]


def test_a_games_appeal_dossier_prints_its_parts_and_saves_the_signed_file_verify_accepts(hall, page, tmp_path):
    tournament, games = make_round(hall.client)
    game_id = games[1]
    play_and_finish(hall.client, game_id, sowings=4)
    page.goto(f"/games/{game_id}/dossier?moves=2,3")
    page.wait_for_selector("#dossier-page[data-ready=true]")
    assert page.locator(".dossier-trace").evaluate_all("els => els.map((e) => e.dataset.seq)") == ["2", "3"]
    assert "GEN-11" in page.locator(".dossier-trace").first.inner_text()
    checkpoint = hall.client.get(f"/api/games/{game_id}/checkpoint").get_json()["text"]
    assert page.locator(".checkpoint-text").inner_text() == checkpoint
    assert page.locator(".dossier-table tbody tr").count() == 6  # the setup, 4 sowings, the result
    with page.expect_download() as download:
        page.click("#dossier-file")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == f"{game_id}.dossier"
    assert saved.read_bytes() == hall.client.get(f"/api/games/{game_id}/dossier?moves=2,3").get_data()
    verified = CliRunner().invoke(main, ["verify", "--dossier", str(saved)])
    assert verified.exit_code == 0, verified.output
    assert f"ok      checkpoint: {checkpoint}" in verified.output
    page.emulate_media(media="print")
    assert "Appeal dossier" in text_of(pages_of(page.pdf(prefer_css_page_size=True, print_background=True))[0])
