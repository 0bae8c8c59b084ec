"""A player's record: every tournament he entered and every game he played, with results.

Read from the registry's entries and linked games, the tournaments' folds and the games
list; the records merged into a player count as his.
"""

from __future__ import annotations

import json

from recorder.games.service import Recorder
from recorder.tournaments import board_game_id
from recorder.tournaments.service import Tournaments

from .service import Players, merged_family


def merged_into(players: Players, player_id: str) -> list[str]:
    """The player's id and the ids of every record merged into him (through chains too)."""
    return merged_family(players.tables.merged(), player_id)


def player_record(recorder: Recorder, players: Players, player_id: str) -> dict:
    ids = merged_into(players, player_id)
    tournaments = Tournaments(recorder)
    entered: dict[str, dict] = {}  # one line per tournament, whatever records were entered in it
    games = []
    for tournament_id, number in players.tables.tournaments_of(ids):
        t = tournaments.tournament(tournament_id)
        line = entered.setdefault(
            tournament_id,
            {"id": tournament_id, "name": t.name, "variant": t.variant, "rated": t.rated, "number": number},
        )
        line["numbers"] = [*line.get("numbers", []), number]
        for rnd in t.rounds:
            for board in rnd.boards:
                if number not in board.players():
                    continue
                side = "south" if board.south == number else "north"
                opponent = t.seated(board.north if side == "south" else board.south)
                game_id = board_game_id(tournament_id, rnd.number, board.board)
                games.append(_game(recorder, game_id, side, opponent.name, opponent.player_id, tournament_id))
    for linked_id in ids:
        for game_id, side in players.tables.linked(linked_id):
            row = recorder.games.row(game_id)
            if row is None:
                continue
            other = "north" if side == "south" else "south"
            meta = json.loads(row["metadata"]) if row["metadata"] else {}
            other_id = meta.get(f"{other}_player") or players.tables.linked_to(game_id, other)
            games.append(_game(recorder, game_id, side, row[other], other_id, None))
    for row in players.tables.games_naming(ids):
        meta_side = "south" if row["south_player"] in ids else "north"
        opponent = row["north" if meta_side == "south" else "south"]
        other_id = row["north_player" if meta_side == "south" else "south_player"]
        games.append(_game(recorder, row["game_id"], meta_side, opponent, other_id, None))
    return {"merged_ids": ids[1:], "tournaments": list(entered.values()), "games": [g for g in games if g is not None]}


def _game(recorder: Recorder, game_id: str, side: str, opponent: str, opponent_id, tournament_id) -> dict | None:
    row = recorder.games.row(game_id)
    if row is None:
        return None  # a board not started yet
    result = row["result"]
    score = None
    if result is not None:
        score = 0.5 if result == "draw" else (1.0 if result == f"{side}_wins" else 0.0)
    return {
        "game_id": game_id,
        "variant": row["variant"],
        "tournament_id": tournament_id,
        "side": side,
        "opponent": opponent,
        "opponent_id": opponent_id,
        "status": row["status"],
        "result": result,
        "score": score,
        "date": row["date"],
    }
