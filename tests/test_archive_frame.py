"""Complete or visibly incomplete: every export ends with a line stating what it holds, and
an archive cut at any byte is refused whole, naming why (recorder/archive/frame.py)."""

import json
import re
import tracemalloc

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recorder.archive.frame import NDJSON_HEADER, NOTATION_HEADER, check_ndjson_frame, ndjson_lines, without_frame
from recorder.archive.importer import file_blocks, file_lines
from recorder.archive.ndjson import read_logs
from recorder.archive.transfer import Archive
from recorder.cli.main import main
from recorder.errors import NotationError
from recorder.store import GAME, SQLiteEventStore

NOTATION = FIXTURES / "notation"
TWO_GAMES = (NOTATION / "qelat-default.mn").read_text() + "\n" + (NOTATION / "gabata-default.mn").read_text()


def memory_archive() -> Archive:
    return Archive(SQLiteEventStore(":memory:"), recorded_by="archivist", restore=True)


@pytest.fixture(scope="module")
def exports() -> dict[str, str]:
    """Both exports of two fixture games (an archive of a Qelat and a Gabata game)."""
    archive = memory_archive()
    reports = list(archive.import_notation(TWO_GAMES, "two.mn"))
    assert [r.status for r in reports] == ["imported", "imported"]
    return {
        "notation": "".join(archive.notation_archive(archive.select())),
        "ndjson": "".join(archive.ndjson_archive(archive.select())),
    }


def import_text(archive: Archive, fmt: str, text: str) -> list:
    if fmt == "ndjson":
        return list(archive.import_ndjson_text(text, "cut.ndjson"))
    return list(archive.import_notation(text, "cut.mn"))


def test_a_notation_export_is_the_games_between_two_remarks(exports):
    text = exports["notation"]
    assert text == NOTATION_HEADER + TWO_GAMES + "\n; end of archive: 2 games\n"


def test_an_ndjson_export_ends_with_the_number_of_games_and_events(exports):
    lines = exports["ndjson"].split("\n")
    assert lines[0] + "\n" == NDJSON_HEADER and lines[-1] == ""
    events = [json.loads(line) for line in lines[1:-2]]
    assert json.loads(lines[-2]) == {"end_of_archive": {"games": 2, "events": len(events)}}
    assert len({event["game_id"] for event in events}) == 2


@pytest.mark.parametrize("fmt", ["notation", "ndjson"])
def test_an_empty_export_states_that_it_holds_nothing(fmt):
    archive = memory_archive()
    text = "".join(archive.notation_archive([]) if fmt == "notation" else archive.ndjson_archive([]))
    assert text.endswith("; end of archive: 0 games\n" if fmt == "notation" else '{"events":0,"games":0}}\n')
    assert import_text(memory_archive(), fmt, text) == []


@pytest.mark.parametrize("fmt", ["notation", "ndjson"])
def test_a_complete_export_imports_whole(exports, fmt):
    archive = memory_archive()
    reports = import_text(archive, fmt, exports[fmt])
    assert [r.status for r in reports] == ["imported", "imported"]


def assert_cut_is_refused(text: str, fmt: str, cut: int) -> None:
    """Whatever the cut, nothing is stored, and the refusal says why."""
    data = text.encode("utf-8")[:cut]
    archive = memory_archive()
    try:
        part = data.decode("utf-8")
    except UnicodeDecodeError:
        return  # cut inside a character: the API refuses the body as not UTF-8 (test_archive_import.py)
    if not part:
        assert import_text(archive, fmt, part) == []  # nothing to import; the API answers 422
        return
    with pytest.raises(NotationError, match="cut short|states"):
        import_text(archive, fmt, part)
    assert archive.store.stream_ids(GAME) == []


@pytest.mark.parametrize("fmt", ["notation", "ndjson"])
def test_an_archive_cut_at_any_line_boundary_is_refused(exports, fmt):
    """Every cut next to a line break: the likeliest places for a stream to stop."""
    data = exports[fmt].encode("utf-8")
    cuts = {0, len(data) - 1}
    for offset, byte in enumerate(data):
        if byte == ord("\n"):
            cuts |= {offset, offset + 1, offset + 2}
    for cut in sorted(c for c in cuts if c < len(data)):
        assert_cut_is_refused(exports[fmt], fmt, cut)


@pytest.mark.parametrize("fmt", ["notation", "ndjson"])
@settings(
    derandomize=True, max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(fraction=st.floats(min_value=0, max_value=1, exclude_max=True))
def test_an_archive_cut_at_any_byte_is_refused(exports, fmt, fraction):
    data = exports[fmt].encode("utf-8")
    assert_cut_is_refused(exports[fmt], fmt, int(fraction * len(data)))


@pytest.mark.parametrize("fmt", ["notation", "ndjson"])
def test_a_terminator_stating_other_counts_is_refused(exports, fmt):
    text = exports[fmt]
    forged = text.replace("2 games", "3 games") if fmt == "notation" else text.replace('"games":2', '"games":3')
    with pytest.raises(NotationError, match="states 3 games"):
        import_text(memory_archive(), fmt, forged)


def test_a_cut_archive_is_refused_over_http_with_the_reason(client, exports):
    cut = exports["ndjson"][: len(exports["ndjson"]) // 2]
    response = client.post("/api/import", data=cut.encode(), content_type="application/x-ndjson")
    assert response.status_code == 422
    assert "cut short" in response.get_json()["detail"]
    assert client.get("/api/games").get_json()["games"] == []


def test_http_exports_end_with_their_terminators(client):
    client.post("/api/import", data=TWO_GAMES.encode(), content_type="text/x-mancala-notation")
    notation = client.get("/api/export").get_data(as_text=True)
    ndjson = client.get("/api/export", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True)
    assert notation.endswith("\n; end of archive: 2 games\n")
    assert json.loads(ndjson.split("\n")[-2])["end_of_archive"]["games"] == 2


def test_recorder_import_refuses_a_cut_file_and_stores_nothing(tmp_path, exports):
    db, path = str(tmp_path / "cut.sqlite3"), tmp_path / "cut.ndjson"
    path.write_text(exports["ndjson"][:-30])
    result = CliRunner().invoke(main, ["import", "--db", db, str(path)])
    assert result.exit_code == 1 and "cut short" in result.output
    with SQLiteEventStore(db) as store:
        assert store.stream_ids(GAME) == []


def test_hand_written_notation_needs_no_frame():
    reports = list(memory_archive().import_notation(TWO_GAMES, "hand.mn"))
    assert [r.status for r in reports] == ["imported", "imported"]


# -- A file read a line at a time (recorder import) -------------------------------------------


@settings(derandomize=True, max_examples=100, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(["a", "{", '"', " ", "\n", "\r", "\u2028", "\u0085", "é"])))
def test_a_file_read_a_line_or_a_block_at_a_time_gives_its_whole_text(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("lines") / "archive.ndjson"
    path.write_text(text, encoding="utf-8", newline="")
    with open(path, encoding="utf-8") as handle:  # universal newlines, as the whole-text read
        whole = handle.read()
    assert list(file_lines(str(path))) == whole.split("\n")
    assert "".join(file_blocks(str(path), size=3)) == whole  # the frame's pass reads it in blocks


def streamed(path: str) -> list[str]:
    framed, _ = check_ndjson_frame(file_blocks(path, size=7), path)
    return list(without_frame(file_lines(path), framed))


def test_a_file_checked_a_line_at_a_time_is_refused_or_read_as_its_whole_text(tmp_path, exports):
    """Every cut next to a line break: the same refusal, or the same lines, as the whole text."""
    text = exports["ndjson"]
    path = tmp_path / "cut.ndjson"
    cuts = {0, 1, len(text)} | {i + d for i, c in enumerate(text) if c == "\n" for d in (-1, 0, 1, 2)}
    for cut in sorted(c for c in cuts if 0 <= c <= len(text)):
        path.write_text(text[:cut], encoding="utf-8")
        try:
            expected: object = [line for line in ndjson_lines(text[:cut], str(path)) if line]
        except NotationError as error:
            expected = error.detail
        try:
            found: object = [line for line in streamed(str(path)) if line]
        except NotationError as error:
            found = error.detail
        assert found == expected, cut


def test_reading_an_ndjson_file_holds_one_game_not_the_file(tmp_path, exports):
    """Peak memory while every game of a file is read: the same for 60 games and 600."""
    body = exports["ndjson"].split("\n")[1:-2]
    first_id = json.loads(body[0])["game_id"]
    game = [line for line in body if json.loads(line)["game_id"] == first_id]

    def peak(games: int) -> int:
        path = tmp_path / f"{games}.ndjson"
        with open(path, "w", encoding="utf-8") as handle:
            for number in range(games):
                handle.writelines(line.replace(first_id, f"{first_id[:-6]}{number:06d}") + "\n" for line in game)
        tracemalloc.start()
        framed, _ = check_ndjson_frame(file_blocks(str(path)), str(path))
        logs = sum(1 for _ in read_logs(without_frame(file_lines(str(path)), framed), str(path)))
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert logs == games
        return top

    small, large = peak(60), peak(600)
    assert large < 1.5 * small and large < (tmp_path / "600.ndjson").stat().st_size / 10


# -- The frame checked in blocks: the counts a line at a time give ---------------------------------


def frame_a_line_at_a_time(text: str) -> tuple[bool, int]:
    """The frame's check written the plain way, one line at a time: what the check in
    blocks must give for every text, cut anywhere."""
    lines = text.split("\n")
    first, after = lines[0], lines[1:]
    if first != NDJSON_HEADER[:-1]:
        if first and NDJSON_HEADER.startswith(first) and not after:
            raise NotationError("cut inside the first line")
        return False, sum(1 for line in lines if line.strip())
    body, tail = after[:-2], after[-2:]
    if len(tail) < 2 or tail[-1] != "":
        raise NotationError("cut")
    try:
        stated = json.loads(tail[0])["end_of_archive"]
    except (ValueError, KeyError, TypeError):
        raise NotationError("no terminator") from None
    games, events = counts_a_line_at_a_time(body)
    if (stated["games"], stated["events"]) != (games, events):
        raise NotationError("other counts")
    return True, events


def counts_a_line_at_a_time(body: list[str]) -> tuple[int, int]:
    """(games, events): the non-blank lines, and the runs of one game id among them (a
    line naming no game belongs to the game before it, or starts the first)."""
    games, events, current = 0, 0, None
    for line in body:
        if not line.strip():
            continue
        events += 1
        found = re.match(r'\{"game_id":("(?:[^"\\]|\\.)*")', line)
        game_id = found.group(1) if found else current
        if game_id != current or games == 0:
            games, current = games + 1, game_id
    return games, events


LINE_PIECES = [
    '{"game_id":"a","seq":1}',
    '{"game_id":"a","seq":2}',
    '{"game_id":"b"}',
    '{"game_id":"a\\"b"}',  # an escaped quote inside the id
    r'{"game_id":"a\\"}',  # an escaped backslash ending the id
    '{"game_id":"c',  # no closing quote: names no game
    '{"seq":3}',  # names no game: belongs to the game before it
    "",
    " \t",
    "\u2028",  # whitespace to str.strip(), not a line break
    "\u0085x",
    "é",
]


def framed_text(pieces: list[str], stated: tuple[int, int] | None, header: bool, end: bool) -> str:
    """The pieces as lines, framed or not; the terminator states ``stated``, or (None) the true counts."""
    stated = stated or counts_a_line_at_a_time(pieces)
    terminator = json.dumps({"end_of_archive": {"events": stated[1], "games": stated[0]}})
    return (NDJSON_HEADER if header else "") + "".join(p + "\n" for p in pieces) + (terminator + "\n" if end else "")


def outcome(check, text: str) -> object:
    try:
        return check(text)
    except NotationError:
        return "refused"


@settings(derandomize=True, max_examples=400, deadline=None)
@given(
    pieces=st.lists(st.sampled_from(LINE_PIECES), max_size=12),
    stated=st.none() | st.tuples(st.integers(0, 6), st.integers(0, 12)),
    header=st.booleans(),
    end=st.booleans(),
    cut=st.none() | st.integers(0, 400),
    block=st.integers(1, 9),
)
def test_a_frame_checked_in_blocks_counts_as_line_by_line(pieces, stated, header, end, cut, block):
    """Any text, cut anywhere, read in blocks of any size: the same verdict and event count
    as the plain line-by-line check (the games and events of every line, blank lines,
    whitespace other than a newline, lines naming no game)."""
    text = framed_text(pieces, stated, header, end)
    text = text if cut is None else text[: len(text) - cut % (len(text) + 1)]  # cut anywhere

    def in_blocks(whole: str) -> tuple[bool, int]:
        return check_ndjson_frame([whole[i : i + block] for i in range(0, len(whole), block)], "f")

    assert outcome(in_blocks, text) == outcome(frame_a_line_at_a_time, text)


@pytest.mark.parametrize("fmt", ["notation", "ndjson"])
def test_a_byte_order_mark_that_an_editor_put_before_an_export_is_ignored(exports, fmt, tmp_path):
    """A text editor saving an archive may put U+FEFF first (RFC 8259 lets a reader ignore
    it): the text imports as the export did, through the API's reading and from a file,
    and a file cut short with one is refused as one without it."""
    marked = "\ufeff" + exports[fmt]
    assert [r.status for r in import_text(memory_archive(), fmt, marked)] == ["imported", "imported"]
    path = tmp_path / f"marked.{'ndjson' if fmt == 'ndjson' else 'mn'}"
    path.write_text(marked, encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "--db", str(tmp_path / "t.sqlite3"), str(path)])
    assert result.exit_code == 0 and "imported 2 games, refused 0" in result.stdout
    path.write_text(marked[: len(marked) // 2], encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "--db", str(tmp_path / "cut.sqlite3"), str(path)])
    assert result.exit_code == 1 and "the archive is cut short" in result.stderr
