"""The file ``recorder export --output`` writes past the page cache (recorder/archive/export_file.py):
the same bytes as a buffered text file, whatever the sizes, the characters or the file system."""

from __future__ import annotations

import contextlib
import errno
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.archive import export_file
from recorder.archive.export_file import ALIGNMENT, DirectFile, open_export, write_export

# Multi-byte characters land across the buffers' edges: é (2 bytes), U+2028 (3), 𝄞 (4).
TEXTS = ["", "a", "é" * 3000, "\u2028" * 4096, "𝄞" * 2049, "x" * (2 * ALIGNMENT), "line\n" * 5000]


def _written(path, chunks: list[str], buffer_size: int) -> bytes:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)  # the buffers' logic, on any file system
    with contextlib.closing(DirectFile(fd, buffer_size)) as out:
        for chunk in chunks:
            out.write(chunk)
    return path.read_bytes()


@pytest.mark.parametrize("buffer_size", [ALIGNMENT, 2 * ALIGNMENT, export_file.BUFFER])
def test_a_direct_export_file_holds_exactly_the_text_written(tmp_path, buffer_size):
    chunks = TEXTS + TEXTS[::-1]
    assert _written(tmp_path / "out", chunks, buffer_size) == "".join(chunks).encode("utf-8")


@settings(max_examples=60, deadline=None)
@given(chunks=st.lists(st.text(max_size=3000), max_size=12), blocks=st.integers(1, 3))
def test_any_text_in_any_chunks_is_written_byte_for_byte(tmp_path_factory, chunks, blocks):
    path = tmp_path_factory.mktemp("direct") / "out"
    assert _written(path, chunks, blocks * ALIGNMENT) == "".join(chunks).encode("utf-8")


def test_write_export_gives_the_text_whichever_way_the_file_system_takes_it(tmp_path):
    path = tmp_path / "archive.ndjson"
    chunks = ['{"archive":"mancala-recorder"}\n', "é\u2028\n" * 10_000, '{"end_of_archive":{}}\n']
    write_export(str(path), chunks)
    assert path.read_bytes() == "".join(chunks).encode("utf-8")
    write_export(str(path), ["shorter\n"])  # an existing file is replaced, not written over in part
    assert path.read_bytes() == b"shorter\n"


def test_standard_output_devices_and_file_systems_without_direct_io_are_written_through_the_cache(
    tmp_path, monkeypatch
):
    assert export_file._open_direct("-") is None
    assert export_file._open_direct(os.devnull) is None  # a device, not a regular file
    assert export_file._open_direct(str(tmp_path)) is None  # a folder: the buffered open names the fault

    def no_direct_io(path, flags, mode=0o777):
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(export_file.os, "open", no_direct_io)
    assert export_file._open_direct(str(tmp_path / "new.mn")) is None
    with open_export(str(tmp_path / "new.mn")) as out:
        assert not isinstance(out, DirectFile)
        out.write("; a notation archive\n")
    assert (tmp_path / "new.mn").read_text(encoding="utf-8") == "; a notation archive\n"


def test_a_file_that_cannot_be_opened_is_an_error_not_a_fallback(tmp_path, monkeypatch):
    def denied(path, flags, mode=0o777):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(export_file.os, "open", denied)
    with pytest.raises(PermissionError):
        export_file._open_direct(str(tmp_path / "out.ndjson"))


def test_a_direct_write_the_file_system_refuses_is_written_through_the_cache(tmp_path, monkeypatch):
    real_write, refused, stopped = os.write, [], []

    def refuses_the_first(fd, data):
        if not refused:
            refused.append(len(data))
            raise OSError(errno.EINVAL, "Invalid argument")
        return real_write(fd, data)

    def stop_direct(fd):  # O_DIRECT was on the first time, off since
        stopped.append(fd)
        return len(stopped) == 1

    monkeypatch.setattr(export_file.os, "write", refuses_the_first)
    monkeypatch.setattr(export_file, "_stop_direct", stop_direct)
    text = "x" * (3 * ALIGNMENT + 10)
    assert _written(tmp_path / "out", [text], ALIGNMENT) == text.encode()
    assert refused == [ALIGNMENT] and len(stopped) == 2  # once for the refusal, once for the tail


def test_a_failed_write_is_raised_and_the_file_closed(tmp_path):
    (tmp_path / "out").write_bytes(b"")
    fd = os.open(tmp_path / "out", os.O_RDONLY)  # every write fails: EBADF
    with pytest.raises(OSError) as failed, contextlib.closing(DirectFile(fd, ALIGNMENT)) as out:
        out.write("x" * (4 * ALIGNMENT))
    assert failed.value.errno == errno.EBADF
    with pytest.raises(OSError):
        os.fstat(fd)  # closed


def test_a_buffer_of_part_blocks_is_refused():
    with pytest.raises(ValueError, match="multiple of 4096"):
        DirectFile(-1, ALIGNMENT + 1)


def test_without_fcntl_a_refused_direct_write_is_raised_not_retried(tmp_path, monkeypatch):
    """Off POSIX there is no O_DIRECT to turn off: _stop_direct says so, and the caller raises."""
    monkeypatch.setattr(export_file, "fcntl", None)
    fd = os.open(tmp_path / "out", os.O_WRONLY | os.O_CREAT)
    try:
        assert export_file._stop_direct(fd) is False
    finally:
        os.close(fd)
