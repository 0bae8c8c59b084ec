"""A plain NDJSON file cut into ranges of whole games (recorder/archive/ranges.py): the logs
import workers read from the ranges are the logs ``read_logs`` reads from the whole file,
line numbers and game indexes included, wherever the cuts fall; any other file is not cut."""

import os
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.archive import ranges
from recorder.archive.frame import NDJSON_HEADER, without_frame
from recorder.archive.importer import file_lines, ndjson_tasks
from recorder.archive.ndjson import read_logs
from recorder.archive.parallel import range_logs
from recorder.archive.ranges import FileRange

TERMINATOR = '{"end_of_archive":{"events":0,"games":0}}\n'  # the ranges never read it: the frame check does


def event_line(game: str, seq: int) -> str:
    return f'{{"game_id":"{game}","hash":"h","payload":{{}},"seq":{seq},"type":"sowed"}}'


def written(text: str) -> str:
    handle, path = tempfile.mkstemp(suffix=".ndjson")
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
        out.write(text)
    return path


def logs_seen(logs) -> list:
    return [(log.index, log.game_id, log.first_line, log.raw) for log in logs]


games = st.lists(
    st.tuples(st.sampled_from(["g1", "g2", "abc", "é"]), st.integers(1, 6), st.sampled_from(["", " ", "\t", "  \t"])),
    max_size=25,
)


@settings(max_examples=300, deadline=None)
@given(games=games, framed=st.booleans(), final_newline=st.booleans(), range_bytes=st.integers(1, 600))
def test_the_ranges_of_a_plain_file_hold_the_logs_of_the_whole_file(games, framed, final_newline, range_bytes):
    lines = []
    for game, events, blank in games:  # a game repeated after another is two logs, as read_logs reads it
        lines += [event_line(game, seq) for seq in range(1, events + 1)] + ([blank] if blank else [])
    body = "\n".join(lines) + ("\n" if final_newline or framed else "")
    path = written((NDJSON_HEADER + body + TERMINATOR) if framed else body)
    try:
        whole = logs_seen(read_logs(without_frame(file_lines(path), framed), path))
        found = list(ndjson_tasks(path, framed, range_bytes))  # a cut every range_bytes: some ranges of one game
        assert all(isinstance(piece, FileRange) for piece in found)
        assert [event for piece in found for event in logs_seen(range_logs(piece))] == whole
        assert sum(piece.events for piece in found) == sum(1 for line in lines if line.strip())
    finally:
        os.remove(path)


def test_an_export_is_cut_where_the_whole_file_is_read_the_same(tmp_path):
    """Through ``ndjson_file_ranges``, as ``recorder import`` cuts a framed file."""
    body = "".join(event_line(f"g{n % 7}", seq) + "\n" for n in range(40) for seq in range(1, 4))
    path = tmp_path / "export.ndjson"
    path.write_text(NDJSON_HEADER + body + TERMINATOR, encoding="utf-8")
    found = list(ndjson_tasks(str(path), True))
    assert found[0].first_line == 2 and found[0].start == len(NDJSON_HEADER)
    whole = logs_seen(read_logs(without_frame(file_lines(str(path)), True), str(path)))
    assert [event for piece in found for event in logs_seen(range_logs(piece))] == whole


@pytest.mark.parametrize(
    "body",
    [
        event_line("g1", 1) + "\r\n" + event_line("g1", 2) + "\n",  # a carriage return: a line's end to a text reader
        "\ufeff" + event_line("g1", 1) + "\n",  # a byte order mark before the first line
        event_line("g\\u0031", 1) + "\n",  # an escape in the id: the same game as g1 to the JSON reading
        '{"seq":1,"game_id":"g1"}\n',  # keys in another order
        "\u00a0\n" + event_line("g1", 1) + "\n",  # white space str.strip() knows and ASCII does not
        "not json\n",
    ],
)
def test_a_file_that_is_not_plain_is_read_here(tmp_path, body):
    path = tmp_path / "odd.ndjson"
    path.write_bytes(body.encode("utf-8"))
    tasks = list(ndjson_tasks(str(path), False))
    whole = logs_seen(read_logs(file_lines(str(path)), str(path)))
    assert all(isinstance(task, list) for task in tasks) and logs_seen(log for task in tasks for log in task) == whole


@settings(max_examples=200, deadline=None)
@given(games=games, odd_at=st.integers(0, 30), framed=st.booleans(), range_bytes=st.integers(1, 600))
def test_ranges_up_to_a_line_that_is_not_plain_then_logs_read_here(games, odd_at, framed, range_bytes):
    """Plain ranges, then from the range where the first odd line is, logs read line by
    line: together, the logs of the whole file."""
    lines = []
    for game, events, blank in games:
        lines += [event_line(game, seq) for seq in range(1, events + 1)] + ([blank] if blank else [])
    if odd_at < len(lines) and lines[odd_at].startswith("{"):
        lines[odd_at] = lines[odd_at].replace(":", ": ", 1)  # read as JSON: the same game, not plain
    body = "\n".join(lines) + "\n"
    path = written((NDJSON_HEADER + body + TERMINATOR) if framed else body)
    try:
        whole = logs_seen(read_logs(without_frame(file_lines(path), framed), path))
        tasks = list(ndjson_tasks(path, framed, range_bytes))
        kinds = [isinstance(task, FileRange) for task in tasks]
        assert kinds == sorted(kinds, reverse=True)  # ranges first, then lists of logs
        seen = [log for task in tasks for log in (range_logs(task) if isinstance(task, FileRange) else task)]
        assert logs_seen(seen) == whole
    finally:
        os.remove(path)


def test_a_game_longer_than_many_ranges_is_scanned_once(monkeypatch):
    """A game spread over many blocks (one range until another game begins) is looked at
    once: each block's new lines, not the whole game again at every block, which made the
    cut quadratic in a game's length (an outsider's file could hold one huge game)."""
    lines = [event_line("long", seq) for seq in range(1, 5_001)] + [event_line("next", 1)]
    body = ("\n".join(lines) + "\n").encode("utf-8")
    ids_read = []
    real_id_at = ranges._id_at
    monkeypatch.setattr(ranges, "_id_at", lambda text, line: ids_read.append(1) or real_id_at(text, line))
    blocks = [body[at : at + 512] for at in range(0, len(body), 512)]  # ~580 blocks
    found = list(ranges.plain_ranges("f", blocks, 0, 1, range_bytes=512))
    assert [(piece.start, piece.events) for piece in found] == [(0, 5_000), (body.index(b'{"game_id":"next"'), 1)]
    assert len(ids_read) <= 2 * len(lines)  # linear: 1.7 million before (every line read again at every block)
