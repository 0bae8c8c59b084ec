"""Tamper evidence: recompute a record's hash chain and replay it with full validation.

Two independent checks over one game's stored events, both naming the first event
that fails:

- the chain (``chain.first_broken_link``): every event's hash recomputes from its
  content and links to the previous event's hash, seqs 1, 2, 3... with no gap;
- the replay: the setup is decided again (``commands.decide_create``) and every later
  event is decided again on the game as it then stood (``commands.decide`` through
  ``redecide``), so an edited hole, a player who was not to move, or a decision that
  was not due is refused exactly as it would have been when it was recorded.

The store's triggers make events immutable through the service; these checks catch
what a triggerless connection, a restored backup or a hand-edited export changed.
Pure: no Flask, no SQL (the caller reads the stored events).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from recorder.core import chain, ids
from recorder.core.events import GameCreated, event_from_record
from recorder.core.game import FoldedGame, start_game
from recorder.core.redecide import redecide_folded, redecide_setup
from recorder.errors import InvalidRecord, RecorderError

NOT_A_GAME_ID = "the id is not a game id (docs/security.md)"


def verify_record(game_id: str, stored: Sequence[Any]) -> dict:
    """The verification report of one game's stored events (``StoredEvent``-like objects).
    A sound record under an id no game may have (only a write behind the service's back
    makes one) fails too: every verification, over HTTP or on the command line, says so."""
    replay_problem, game = replay_break(game_id, stored)
    result = game.state.result.name if game is not None and game.state.game_over else None
    report = _report(game_id, stored, chain_break(stored), replay_problem, result)
    if report["ok"] and not ids.is_game_id(game_id):
        report = {**report, "ok": False, "detail": NOT_A_GAME_ID}
    return report


def held_to_head(report: dict, heads: Sequence[Any]) -> dict:
    """A game's report held against its stream's recorded head (``store.stream_heads(id)``):
    failed when its events end before or after the head, or not at its hash (the chain that
    is left after its last events were deleted still links: only the head tells), or when
    the streams table does not name it."""
    if not report["ok"]:
        return report
    if not heads:
        return {**report, "ok": False, "detail": "the stream is not in the streams table (its row was deleted)"}
    problem = None if heads[0].agrees else head_problem(heads[0])
    return report if problem is None else {**report, "ok": False, "detail": problem}


def head_problem(head: Any) -> str | None:
    """What is wrong with a stream's events against its recorded head (``StreamHead``), or None."""
    kind = "tournament" if head.stream_type == "tournament" else "game"
    if head.last_seq is None:
        return (
            f"the streams table names it, the events table holds none of its events (the {kind}'s events were deleted)"
        )
    if head.head_seq is None:
        return "no head is recorded for it (its stream_heads row was deleted)"
    if head.last_seq < head.head_seq:
        return (
            f"its recorded head is event {head.head_seq}, the events end at event {head.last_seq}:"
            f" its last {head.head_seq - head.last_seq} event(s) were deleted"
        )
    if head.last_seq > head.head_seq:
        return (
            f"its recorded head is event {head.head_seq}, the events go on to event {head.last_seq}:"
            " events were added behind the service's back"
        )
    if head.last_hash != head.head_hash:
        return f"event {head.last_seq} is not its recorded head (another hash): the event was replaced"
    return None


def _report(stream_id: str, stored: Sequence[Any], chain_problem, replay_problem, result: str | None) -> dict:
    """A stream's verification report: its chain, its replay, and the first broken link."""
    problems = [p for p in (chain_problem, replay_problem) if p is not None]
    first = min(problems, key=lambda p: p["seq"]) if problems else None
    return {
        "game_id": stream_id,
        "ok": not problems,
        "version": len(stored),
        "head_hash": stored[-1].hash if stored else None,
        "chain_intact": chain_problem is None,
        "replay_valid": replay_problem is None,
        "first_broken_link": first["seq"] if first else None,
        "detail": f"event {first['seq']}: {first['detail']}" if first else "the record is intact",
        "problems": problems,
        "result": result,
    }


def chain_break(stored: Sequence[Any]) -> dict | None:
    """The first broken link of the hash chain and why it is broken, or None."""
    seq = chain.first_broken_link(stored, getattr(stored, "texts", None))  # a store's StoredEvents hold them
    if seq is None:
        return None
    index = next(i for i, event in enumerate(stored) if event.seq == seq)
    previous = stored[index - 1] if index else None
    return {"seq": seq, "check": "chain", "detail": _link_problem(previous, stored[index])}


def _link_problem(previous: Any, event: Any) -> str:
    head = (previous.seq, previous.hash) if previous is not None else chain.START
    broken = chain.unlinked(head, event.seq, event.prev_hash)
    if broken == "seq":
        return f"sequence number {event.seq} where {head[0] + 1} was due: an event is missing or out of order"
    if broken == "prev_hash":
        return "prev_hash is not the previous event's hash: the chain was cut or re-linked"
    return "its hash does not recompute from its content: the stored event was changed"


def replay_break(game_id: str, stored: Sequence[Any]) -> tuple[dict | None, FoldedGame | None]:
    """Decide every stored event again in order; the first refused one, and the game up to it."""
    game: FoldedGame | None = None
    for record in stored:
        try:
            event = event_from_record(record.type, record.payload)
        except Exception as error:
            return _problem(record.seq, f"unreadable {record.type!r} event: {error}"), game
        try:
            game = _fold_checked(game_id, game, event, record.seq)
        except Exception as error:  # a corrupt record must be reported, never crash the check
            detail = error.detail if isinstance(error, RecorderError) else f"{type(error).__name__}: {error}"
            return _problem(record.seq, f"{event.type} is not valid here: {detail}"), game
    return None, game


def _fold_checked(game_id: str, game: FoldedGame | None, event: Any, seq: int) -> FoldedGame:
    if game is None:
        if seq != 1 or not isinstance(event, GameCreated):
            raise InvalidRecord("a game's first event must be its setup (GEN-23)")
        return start_game(game_id, redecide_setup(event))
    if isinstance(event, GameCreated):
        raise InvalidRecord("a setup may only be the first event (GEN-23)")
    return redecide_folded(game, event, seq)


def _problem(seq: int, detail: str) -> dict:
    return {"seq": seq, "check": "replay", "detail": detail}


def verify_tournament(tournament_id: str, stored: Sequence[Any]) -> dict:
    """A tournament stream's report, in the shape of a game's: its hash chain, then its
    fold (every event read and applied in order). Tournament events are decided when
    written; a fold that fails or a chain that breaks is reported like a game's."""
    from recorder.tournaments.events import event_from_record as tournament_event
    from recorder.tournaments.fold import replay as fold_tournament

    chain_problem = chain_break(stored)
    fold_problem = None
    try:
        fold_tournament(tournament_id, ((e.seq, tournament_event(e.type, e.payload)) for e in stored))
    except Exception as error:  # a corrupt record must be reported, never crash the check
        fold_problem = _problem(len(stored), f"the tournament does not fold: {type(error).__name__}: {error}")
    return _report(tournament_id, stored, chain_problem, fold_problem, None)


def verify_team(team_id: str, stored: Sequence[Any]) -> dict:
    """A team stream's report, as a player's: its hash chain, then its fold."""
    from recorder.teams.events import event_from_record as team_event
    from recorder.teams.fold import replay as fold_team

    chain_problem = chain_break(stored)
    fold_problem = None
    try:
        fold_team(team_id, ((e.seq, team_event(e.type, e.payload)) for e in stored))
    except Exception as error:  # a corrupt record must be reported, never crash the check
        fold_problem = _problem(len(stored), f"the team does not fold: {type(error).__name__}: {error}")
    return _report(team_id, stored, chain_problem, fold_problem, None)


def verify_player(player_id: str, stored: Sequence[Any]) -> dict:
    """A player stream's report, as a tournament's: its hash chain, then its fold."""
    from recorder.players.events import event_from_record as player_event
    from recorder.players.fold import replay as fold_player

    chain_problem = chain_break(stored)
    fold_problem = None
    try:
        fold_player(player_id, ((e.seq, player_event(e.type, e.payload)) for e in stored))
    except Exception as error:  # a corrupt record must be reported, never crash the check
        fold_problem = _problem(len(stored), f"the player does not fold: {type(error).__name__}: {error}")
    return _report(player_id, stored, chain_problem, fold_problem, None)
