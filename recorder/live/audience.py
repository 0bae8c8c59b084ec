"""A tournament's broadcast delay: what a public read shows of its games.

A tournament may hold its moves back from the public for ``broadcast_delay`` seconds
(docs/tournaments.md). A read of one of its games by anyone whose token does not reach
the tournament (no token, a recorder's, another tournament's arbiter's) shows the game
as if its log ended at its last event recorded at least that long ago: its ``horizon``.
The tournament's arbiters and the admin see every event at once. A finished game is
public whole unless the tournament set ``finished_public`` false. The game's setup is
always shown (its pairing is public anyway), so a game never seems not to exist.

An ``Audience`` is handed its clock and whether the reader's token reaches a tournament
(recorder/api/broadcast.py builds one per request): the same filter serves a request and a
live stream for its whole lifetime, so it holds no request.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from recorder.core import ids
from recorder.core.game import FoldedGame
from recorder.errors import NotFound
from recorder.games.service import Recorder, summary_of
from recorder.tournaments.broadcast import public_horizon
from recorder.tournaments.fold import Tournament

STORED_TIME = "%Y-%m-%dT%H:%M:%S.%fZ"  # recorded_at's form (store.utc_now): sorts as text


class Settings:
    """Each tournament as last folded, per process, refolded only once its stream has grown:
    a read of a tournament's game costs one indexed look at the tournament's version (the
    folds are the tournaments' repository's, recorder/records.py)."""

    def __init__(self, tournaments):
        self.tournaments = tournaments

    def of(self, tournament_id: str, version: int) -> Tournament | None:
        try:
            return self.tournaments.records.load(tournament_id, version)
        except NotFound:
            return None


class Audience:
    """Who reads, and when: what one request (or one live stream, for its lifetime) may
    see of each game. Holds no request: a stream keeps using it after the request."""

    def __init__(
        self, recorder: Recorder, settings: Settings, clock: Callable[[], datetime], reaches: Callable[[str], bool]
    ):
        self.recorder = recorder
        self.settings = settings
        self.clock = clock
        self.reaches = reaches
        self.shaped = False  # some answer depended on the token (a delaying tournament was read)
        self._folds: dict[str, FoldedGame] = {}  # each held-back game's visible fold, the latest asked
        self._tournaments: dict[str, str | None] = {}  # each game's tournament, from its immutable setup

    def delaying(self, tournament_id: str | None) -> Tournament | None:
        """The tournament when it holds moves back from this reader (as it stands now)."""
        if tournament_id is None:
            return None
        version = self.recorder.store.version(tournament_id)
        t = self.settings.of(tournament_id, version) if version else None
        if t is None or t.broadcast_delay == 0:
            return None
        self.shaped = True
        return None if self.reaches(tournament_id) else t

    def tournament_of(self, game_id: str) -> str | None:
        """The game's tournament, read once: a live watcher asks at every look, and the
        live process folds no game whose setup it could keep."""
        if game_id not in self._tournaments:
            setup = self.recorder.setup_of(game_id)
            metadata = getattr(setup, "metadata", None) or {}
            self._tournaments[game_id] = metadata.get("tournament_id") or ids.tournament_of_board(game_id)
        return self._tournaments[game_id]

    def sees_all(self, game_id: str) -> bool:
        """Whether this reader's token reaches the game's tournament (no delay ever holds it back)."""
        tournament_id = self.tournament_of(game_id)
        return tournament_id is not None and self.reaches(tournament_id)

    def horizon(self, game_id: str) -> int | None:
        """The last event of the game this reader may see now; None: all of them."""
        t = self.delaying(self.tournament_of(game_id))
        if t is None:
            return None
        cut = (self.clock() - timedelta(seconds=t.broadcast_delay)).astimezone(UTC).strftime(STORED_TIME)
        aged = self.recorder.store.version(game_id, at=cut)
        finished = self.recorder.game(game_id).state.game_over
        return public_horizon(t.broadcast_delay, t.finished_public, finished, aged)

    def held_back_seconds(self, game_id: str) -> int:
        """How far behind the hall this reader sees the game (0: as it happens)."""
        t = self.delaying(self.tournament_of(game_id))
        return 0 if t is None else t.broadcast_delay

    def game(self, game_id: str, at: int | None = None) -> FoldedGame:
        """The game after event ``at`` (the latest visible when None); 404 beyond what this
        reader may see, worded as for an event the game does not have."""
        upto = self.horizon(game_id)
        if upto is not None and at is not None and at > upto:
            raise NotFound(f"game {game_id} has {upto} events, not {at}", version=upto)
        game = self.recorder.game_at(game_id, at if at is not None else upto)
        if at is not None and game.version < at:
            raise NotFound(f"game {game_id} has {game.version} events, not {at}", version=game.version)
        return game

    def row(self, row: dict) -> dict:
        """A games list row as this reader may see it: a held-back game's status, result
        and last change are those of its visible events; ``horizon`` its visible version."""
        if row.get("tournament_id") is None:
            return row
        upto = self.horizon(row["game_id"])
        if upto is None:
            return row
        summary = summary_of(self.visible_fold(row["game_id"], upto))
        last = self.recorder.store.read(row["game_id"], after=upto - 1, upto=upto)
        changed = last[0].recorded_at if last else row.get("updated_at")
        return {**row, "status": summary["status"], "result": summary["result"], "updated_at": changed, "horizon": upto}

    def visible_fold(self, game_id: str, upto: int) -> FoldedGame:
        """The game after event ``upto``, folded once per reader and horizon (a tournament
        stream asks at every look)."""
        fold = self._folds.get(game_id)
        if fold is None or fold.version != upto:
            fold = self._folds[game_id] = self.recorder.game_at(game_id, upto)
        return fold
