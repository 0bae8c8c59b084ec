"""The player service: decide on the latest fold, append with its version, keep the
registry's rows (recorder/players/registry.py) in the same transaction. No Flask, no SQL.

Writes go through the records' repository (recorder/records.py): load (the player's fold)
-> decide -> append at the version decided on, so a stale decision is a conflict, never a fork.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from recorder.errors import AlreadyExists, InvalidRecord, NotFound
from recorder.games.service import Recorder
from recorder.records import Repository, Saved
from recorder.store import PLAYER, Idempotency, NewEvent, ProjectionWrite, StoredEvent, every_stream_id

from . import decide as decisions
from . import is_player_id, new_player_id, search_key, word_keys
from .events import event_from_record
from .fold import RegisteredPlayer, apply, replay
from .geez import latin_key, near, sound_key
from .registry import PlayerTables

MAX_MERGE_CHAIN = 64  # merges point at records not merged when made; a chain is short
# The most records of one sound a registration compares letter by letter: a sound key is
# a name's consonants, shared by few names of two words (a bound on the cost, not a filter).
MAX_SOUNDING_ALIKE = 500


@dataclass(frozen=True)
class Written:
    events: Sequence[StoredEvent]
    player: RegisteredPlayer
    replayed: bool = False

    @classmethod
    def of(cls, saved: Saved[RegisteredPlayer]) -> Written:
        return cls(saved.events, saved.record, saved.replayed)


def row_of(p: RegisteredPlayer) -> dict:
    """The player's row in the registry table (recorder/players/registry.py)."""
    return {
        "player_id": p.player_id,
        "name": p.name,
        "name_geez": p.name_geez,
        "federation": p.federation,
        "club": p.club,
        "birth_year": p.birth_year,
        "external_id": p.external_id,
        "merged_into": p.merged_into,
        "version": p.version,
        "name_key": search_key(p.name),
        "geez_key": search_key(p.name_geez) if p.name_geez else None,
    }


def keys_of(p: RegisteredPlayer) -> list[str]:
    """The search keys of both names, from each word on."""
    return sorted(set(word_keys(p.name)) | set(word_keys(p.name_geez or "")))


def sounds_of(p: RegisteredPlayer) -> list[str]:
    """The sound keys of both names (recorder/players/geez.py)."""
    return names_sounds([p.name, p.name_geez])


def names_sounds(names: Sequence[str | None]) -> list[str]:
    return sorted({key for name in names if name and (key := sound_key(name))})


def this_year() -> int:
    return datetime.now(UTC).year


class Players:
    def __init__(self, recorder: Recorder, year: Callable[[], int] = this_year):
        self.recorder = recorder
        self.store = recorder.store
        self.tables = PlayerTables(recorder.store)
        self.year = year
        self.records: Repository[RegisteredPlayer] = Repository(
            recorder.store, PLAYER, fold, noun="player", owns=is_player_id, projection=self._rows_after
        )

    # -- Reading --------------------------------------------------------------------

    def events(self, player_id: str) -> list[StoredEvent]:
        return self.records.events(player_id)

    def player(self, player_id: str) -> RegisteredPlayer:
        return self.records.load(player_id)

    def must_exist(self, player_id: str, *, field: str) -> RegisteredPlayer:
        """A player a write names: InvalidRecord naming ``field`` when there is none."""
        try:
            return self.player(player_id)
        except NotFound:
            raise InvalidRecord(f"{field} names no registered player: {player_id!r}", field=field) from None

    def survivor(self, player_id: str) -> RegisteredPlayer:
        """The record a (possibly merged) id answers with: merges followed to the end."""
        p = self.player(player_id)
        for _ in range(MAX_MERGE_CHAIN):
            if p.merged_into is None:
                return p
            p = self.player(p.merged_into)
        raise NotFound(f"the merges of {player_id} do not end", player_id=player_id)

    def survivor_at(self, player_id: str, moment: str) -> RegisteredPlayer | None:
        """The record a (possibly merged) id answered with at ``moment`` (the store's
        ``recorded_at``): each record folded from its events up to then, merges made by
        then followed; None when the registry held no such record then."""
        p = self._as_of(player_id, moment)
        for _ in range(MAX_MERGE_CHAIN):
            if p is None or p.merged_into is None:
                return p
            p = self._as_of(p.merged_into, moment)
        raise NotFound(f"the merges of {player_id} do not end", player_id=player_id)

    def _as_of(self, player_id: str, moment: str) -> RegisteredPlayer | None:
        events = [e for e in self.events(player_id) if e.recorded_at <= moment]
        return fold(player_id, events) if events else None

    def geez_names_of_games(self, games: Sequence[tuple[str, dict]]) -> dict[tuple[str, str], str]:
        """(game id, side) -> the Ge'ez name of the registry player who played it, for a
        page of games ``(game id, metadata)``: the ids their metadata name, else the player
        linked after the fact; a merged record answers with its survivor's name. A few
        queries per page, whatever its length (``PlayerTables.rows`` takes 500 at a time)."""
        players = self.tables.linked_players([game_id for game_id, _ in games])
        for game_id, metadata in games:
            for side in ("south", "north"):
                named = metadata.get(f"{side}_player")
                if isinstance(named, str) and is_player_id(named):
                    players[(game_id, side)] = named
        geez = self.geez_names(sorted(set(players.values())))
        return {seat: geez[player_id] for seat, player_id in players.items() if player_id in geez}

    def geez_names(self, player_ids: Sequence[str]) -> dict[str, str]:
        """player id -> his Ge'ez name, for those the registry has one of; a merged record
        answers with its survivor's. One batched read of the rows, and one per merge step."""
        rows = self.tables.rows(list(player_ids))
        for _ in range(MAX_MERGE_CHAIN):
            missing = {r["merged_into"] for r in rows.values() if r["merged_into"] and r["merged_into"] not in rows}
            if not missing:
                break
            rows.update(self.tables.rows(sorted(missing)))
        names = {}
        for player_id in player_ids:
            row = rows.get(player_id)
            for _ in range(MAX_MERGE_CHAIN):
                if row is None or row["merged_into"] is None:
                    break
                row = rows.get(row["merged_into"])
            if row is not None and row["name_geez"]:
                names[player_id] = row["name_geez"]
        return names

    def survivor_id(self, player_id: str) -> str | None:
        """The id a (possibly merged) player answers with; None when the registry holds none."""
        try:
            return self.survivor(player_id).player_id
        except NotFound:
            return None

    def search(self, text: str, *, limit: int = 20) -> list[dict]:
        return self.tables.search(search_key(text), limit=limit)

    def same_names(self, body: dict) -> list[dict]:
        """Players (not merged) a new record may duplicate: a name with the same search
        key, or one spelt nearly alike (the same sound key, and ``geez.near`` letter by
        letter, either name read in Latin letters)."""
        names = [n for n in (body.get("name"), body.get("name_geez")) if n and n.strip()]
        same = self.tables.same_names([search_key(n) for n in names])
        mine = {latin_key(n) for n in names}
        alike = [
            row
            for row in self.tables.sounding_like(names_sounds(names), limit=MAX_SOUNDING_ALIKE)
            if any(near(key, theirs) for key in mine for theirs in _latin_keys(row))
        ]
        exact = {row["player_id"] for row in same}
        return [*same, *(row for row in alike if row["player_id"] not in exact)]  # the same names first

    # -- Writing --------------------------------------------------------------------

    def register(
        self,
        body: dict,
        *,
        recorded_by: str,
        principal: dict | None = None,
        idempotency: Idempotency | None = None,
        force: bool = False,
    ) -> Written:
        """A new record; refused (409 with the candidates) when a player not merged has a
        name with the same search key, unless ``force`` confirms it is another person.
        ``principal``: who registers him, kept in the event (``PlayerEvent.principal``)."""
        original = self.records.replayed(idempotency)
        if original is not None:
            return Written.of(original)
        event = replace(decisions.decide_register(body, self.year()), principal=principal)
        if not force:
            candidates = self.same_names(event.payload())
            if candidates:
                raise AlreadyExists(
                    f"{len(candidates)} registered player(s) have this name:"
                    " pick one, or send force to register another person",
                    field="name",
                    candidates=[candidate_json(c) for c in candidates],
                )
        player_id = new_player_id()
        saved = self.records.create(
            player_id,
            [NewEvent(event.type, event.payload())],
            recorded_by=recorded_by,
            idempotency=idempotency,
            projection=self._rows_of(fold_new(player_id, event)),
        )
        return Written.of(saved)

    def execute(
        self,
        player_id: str,
        decide: Callable[[RegisteredPlayer], list],
        *,
        expected_version: int | None = None,
        recorded_by: str,
        principal: dict | None = None,
        idempotency: Idempotency | None = None,
    ) -> Written:
        """Decide on the latest fold and append at its version; each event names ``principal``."""

        def decided(p: RegisteredPlayer) -> list:
            return [replace(event, principal=principal) for event in decide(p)]

        saved = self.records.execute(
            player_id, decided, expected_version=expected_version, recorded_by=recorded_by, idempotency=idempotency
        )
        return Written.of(saved)

    def _rows_after(self, p: RegisteredPlayer, events: list) -> ProjectionWrite:
        """The registry's rows of the player once ``events`` follow his fold ``p``."""
        after = p
        for offset, event in enumerate(events, start=1):
            after = apply_one(after, event, p.version + offset)
        return self._rows_of(after)

    def _rows_of(self, p: RegisteredPlayer) -> ProjectionWrite:
        return self.tables.write(row_of(p), keys_of(p), p.linked_games, sounds_of(p))

    def rename(self, player_id: str, body: dict, **write) -> Written:
        return self.execute(player_id, lambda p: decisions.decide_rename(p, body), **write)

    def change_affiliation(self, player_id: str, body: dict, **write) -> Written:
        return self.execute(player_id, lambda p: decisions.decide_affiliation(p, body), **write)

    def change_particulars(self, player_id: str, body: dict, **write) -> Written:
        year = self.year()
        return self.execute(player_id, lambda p: decisions.decide_particulars(p, body, year), **write)

    def merge(self, player_id: str, body: dict, **write) -> Written:
        """``player_id`` (the duplicate) into ``body["into"]`` (the record that survives).

        Refused (409 naming the tournaments) when both records, or records merged into
        them, are entrants of one tournament, unless ``entered_twice`` confirms it: one
        person entered twice is for the arbiter to see before the entries become one."""
        into_id = body.get("into")

        def decide(p: RegisteredPlayer) -> list:
            into = self._found(into_id) if isinstance(into_id, str) and is_player_id(into_id) else None
            events = decisions.decide_merge(p, into, body)
            shared = self.shared_tournaments(p.player_id, events[0].into)
            if shared and not body.get("entered_twice"):
                raise AlreadyExists(
                    f"{p.player_id} and {events[0].into} are both entered in {', '.join(shared)}:"
                    " send entered_twice to merge them all the same",
                    field="into",
                    tournaments=shared,
                )
            return events

        return self.execute(player_id, decide, **write)

    def shared_tournaments(self, first: str, second: str) -> list[str]:
        """The tournaments where both players (or records merged into them) are entered."""
        merged = self.tables.merged()

        def entered(player_id: str) -> set[str]:
            ids = merged_family(merged, player_id)
            return {tournament_id for tournament_id, _ in self.tables.tournaments_of(ids)}

        return sorted(entered(first) & entered(second))

    def link_game(self, player_id: str, game_id: str, side: str, **write) -> Written:
        """A game outside tournaments recorded before the registry: its ``side`` is this
        player (an event on the player's stream; the game's own events stay as they are)."""
        setup = self.recorder.setup_of(game_id)
        if setup is None:
            raise InvalidRecord(f"game_id names no game: {game_id!r}", field="game_id")
        metadata = getattr(setup, "metadata", {}) or {}
        if metadata.get("tournament_id"):
            raise InvalidRecord(f"{game_id} is a tournament's game: link its entrant instead", field="game_id")

        def decide(p: RegisteredPlayer) -> list:
            named = metadata.get(f"{side}_player")
            return decisions.decide_link_game(p, game_id, side, named, self.tables.linked_to(game_id, side))

        return self.execute(player_id, decide, **write)

    def withdraw_merge(self, player_id: str, body: dict, **write) -> Written:
        return self.execute(player_id, lambda p: decisions.decide_withdraw_merge(p, body), **write)

    def _found(self, player_id: str) -> RegisteredPlayer | None:
        try:
            return self.player(player_id)
        except NotFound:
            return None

    # -- Projections ----------------------------------------------------------------

    def player_ids(self) -> list[str]:
        return list(every_stream_id(self.store, PLAYER))

    def rebuild(self) -> int:
        """Rewrite every player's row and keys from his events; returns how many."""
        ids = self.player_ids()
        for start in range(0, len(ids), 500):
            rows = []
            for player_id in ids[start : start + 500]:
                events = self.store.read(player_id)
                p = fold(player_id, events)
                created, updated = events[0].recorded_at, events[-1].recorded_at
                rows.append((row_of(p), keys_of(p), created, updated, p.linked_games, sounds_of(p)))
            self.tables.replace(rows)
        self.tables.drop_orphans(set(ids))
        return len(ids)

    def fill_sound_keys(self) -> int:
        """A registry from before the sound keys were kept gets them from its rows' names
        (what ``rebuild`` writes), once: the next time there are some. Returns how many players."""
        if not self.tables.sounds_missing():
            return 0
        names = self.tables.names()
        self.tables.add_sounds({player_id: names_sounds([name, geez]) for player_id, name, geez in names})
        return len(names)

    def check(self) -> list[str]:
        """One line per disagreement between the registry's rows and the events."""
        problems = []
        ids = self.player_ids()
        for player_id in ids:
            events = self.store.read(player_id)
            p = fold(player_id, events)
            expected = {**row_of(p), "created_at": events[0].recorded_at, "updated_at": events[-1].recorded_at}
            stored = self.tables.row(player_id)
            if stored != expected:
                problems.append(f"players: {player_id}: the row differs from what its events give")
            elif self.tables.keys(player_id) != keys_of(p):
                problems.append(f"players: {player_id}: the search keys differ from its names'")
            elif self.tables.linked(player_id) != sorted(p.linked_games):
                problems.append(f"players: {player_id}: the linked games differ from its events'")
            elif self.tables.sounds(player_id) != sounds_of(p):
                problems.append(f"players: {player_id}: the sound keys differ from its names'")
        for orphan in sorted(set(self.tables.all_ids()) - set(ids)):
            problems.append(f"players: {orphan}: a row without a player")
        return problems


def merged_family(merged: dict[str, str], player_id: str) -> list[str]:
    """The player's id and the ids of every record merged into him (through chains too);
    ``merged`` maps each merged record to the record it was merged into."""
    found = [player_id]
    for other in sorted(merged):
        target = merged[other]
        for _ in range(MAX_MERGE_CHAIN):
            if target not in merged:
                break
            target = merged[target]
        if target == player_id:
            found.append(other)
    return found


def fold(player_id: str, events: Sequence[StoredEvent]) -> RegisteredPlayer:
    return replay(player_id, ((e.seq, event_from_record(e.type, e.payload)) for e in events))


def fold_new(player_id: str, event) -> RegisteredPlayer:
    return replay(player_id, [(1, event)])


def apply_one(p: RegisteredPlayer, event, seq: int) -> RegisteredPlayer:
    return apply(p, event, seq)


def _latin_keys(row: dict) -> list[str]:
    return [latin_key(name) for name in (row["name"], row["name_geez"]) if name]


def candidate_json(row: dict) -> dict:
    """A registered player as a duplicate check or a search shows him."""
    return {
        "id": row["player_id"],
        "name": row["name"],
        "name_geez": row["name_geez"],
        "federation": row["federation"],
        "club": row["club"],
        "birth_year": row["birth_year"],
    }
