"""The players' word on a finished game's record, as the fold keeps it: each player's
confirmations, the disputes and the decisions on them (core/events.py, docs/tournaments.md,
"Confirmation at the board"). Pure: no move changes it, so the fold builds a new one only
for the three events that do.

A confirmation names the record it confirms by the seq of its last effective move
(``upto``): a correction that changes the record (a retraction, then the moves recorded
again) leaves the last effective move with another seq, so a confirmation made before it
no longer counts and the player confirms the corrected record.
"""

from __future__ import annotations

from dataclasses import dataclass

from .events import DisputeDecided, Event, ResultConfirmed, ResultDisputed

SIDES = ("south", "north")


@dataclass(frozen=True)
class Signoffs:
    confirmations: tuple[tuple[int, ResultConfirmed], ...] = ()  # (seq, event)
    disputes: tuple[tuple[int, ResultDisputed], ...] = ()
    decisions: tuple[tuple[int, DisputeDecided], ...] = ()

    def after(self, seq: int, event: Event) -> Signoffs:
        if isinstance(event, ResultConfirmed):
            return Signoffs(self.confirmations + ((seq, event),), self.disputes, self.decisions)
        if isinstance(event, ResultDisputed):
            return Signoffs(self.confirmations, self.disputes + ((seq, event),), self.decisions)
        if isinstance(event, DisputeDecided):
            return Signoffs(self.confirmations, self.disputes, self.decisions + ((seq, event),))
        raise TypeError(f"not a player's word on the record: {event!r}")

    def dispute(self, seq: int) -> ResultDisputed | None:
        return next((event for at, event in self.disputes if at == seq), None)

    def decision(self, dispute_seq: int) -> tuple[int, DisputeDecided] | None:
        return next(((at, event) for at, event in self.decisions if event.dispute == dispute_seq), None)

    def open_disputes(self) -> list[tuple[int, ResultDisputed]]:
        """The disputes (and appeals) not yet decided, oldest first."""
        return [(at, event) for at, event in self.disputes if self.decision(at) is None]

    def confirmed_by(self, side: str, upto: int) -> bool:
        """Has ``side`` confirmed the record whose last effective move is ``upto``?"""
        return any(event.side == side and event.upto == upto for _, event in self.confirmations)

    def confirmed(self, upto: int) -> bool:
        """Both players confirmed this record and no dispute is open: it counts."""
        return all(self.confirmed_by(side, upto) for side in SIDES) and not self.open_disputes()


NO_SIGNOFFS = Signoffs()


def disputed_moves(signoffs: Signoffs) -> set[int]:
    """The seqs of every move a dispute (or an appeal) names, decided or not."""
    return {seq for _, event in signoffs.disputes for seq in event.moves}


def signoffs_json(signoffs: Signoffs, upto: int) -> dict[str, object]:
    """The confirmations, disputes and decisions as the API and the dossier show them."""
    return {
        "confirmed": signoffs.confirmed(upto),
        "confirmed_by": [side for side in SIDES if signoffs.confirmed_by(side, upto)],
        "confirmations": [{"seq": at, **event.payload()} for at, event in signoffs.confirmations],
        "disputes": [_dispute_json(signoffs, at, event) for at, event in signoffs.disputes],
    }


def _dispute_json(signoffs: Signoffs, at: int, event: ResultDisputed) -> dict[str, object]:
    decided = signoffs.decision(at)
    decision = {"seq": decided[0], **decided[1].payload()} if decided else None
    return {"seq": at, **event.payload(), "open": decided is None, "decision": decision}
