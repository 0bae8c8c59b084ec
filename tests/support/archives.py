"""The games' event logs as an NDJSON export holds them, for tests that compare logs."""

from __future__ import annotations

from collections.abc import Iterable

from recorder.archive.transfer import Archive


def event_logs(archive: Archive, game_ids: Iterable[str]) -> str:
    """The lines of ``Archive.ndjson_archive`` (what ``recorder export`` and GET /api/export
    write) between its header and its terminator: every event of each game, in order."""
    lines = "".join(archive.ndjson_archive(game_ids)).splitlines(keepends=True)
    return "".join(lines[1:-1])
