"""The pairing checker's findings on a proposed round, in the reader's language: each
finding's code (recorder/tournaments/proposal.py) is one whole sentence here, with the
players' names and the criterion it names as placeholders; the code and the numbers
stay as they are for programs."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext

from recorder.tournaments.fold import Tournament
from recorder.tournaments.proposal import Finding


def english(text: str, **words: object) -> str:
    """A message as its English msgid says it (the command line's language)."""
    return text % words


def N_(text: str) -> str:
    """Marks a message for the catalogs; translated where it is shown (``finding_json``)."""
    return text


FINDING_WORDS = {
    "rematch": N_("%(first)s and %(second)s have met already (%(criterion)s)"),
    "forbidden": N_("%(first)s and %(second)s may not meet in this round (%(criterion)s)"),
    "colour_thrice": N_("%(first)s would have the same seat a third time in a row (%(criterion)s)"),
    "colour_difference": N_("%(first)s would play three more games on one side than on the other (%(criterion)s)"),
    "bye_again": N_("%(first)s may not have the bye again (%(criterion)s)"),
    "unpaired": N_("%(first)s is not paired in this round: absent, scoring 0"),
    "not_engine_pair": N_("%(first)s against %(second)s is not in the pairing the rules give"),
    "seats_swapped": N_("%(first)s and %(second)s sit the other way round in the pairing the rules give"),
    "bye_differs": N_("The bye differs from the pairing the rules give"),
}


def finding_json(t: Tournament, finding: Finding, translate: Callable[..., str] = gettext) -> dict:
    """A finding for programs (its code, criterion, board, players) and its sentence, said
    by ``translate`` (the request's language; the command line's is English)."""
    names = [t.seated(n).name for n in finding.players] + ["", ""]
    words = {"first": names[0], "second": names[1], "criterion": finding.criterion}
    return {
        "code": finding.code,
        "criterion": finding.criterion or None,
        "board": finding.board,
        "players": list(finding.players),
        **finding.values,
        "text": translate(FINDING_WORDS[finding.code], **words),
    }
