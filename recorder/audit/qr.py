"""A checkpoint as a QR code, for the printed scoresheet: scanning it gives back the
checkpoint's one line of text, which ``recorder verify --checkpoint TEXT`` (or
``POST /api/games/{id}/verify``) checks.

The code is drawn by ``segno`` as SVG, black modules on white with the four-module quiet
zone the standard asks for, at error correction level M (15 % of the code may be
smudged or torn and it still reads): a checkpoint of 250 to 260 characters is version 11
or 12, 61 or 65 modules a side, which prints sharp at 45 mm.
"""

from __future__ import annotations

import io

import segno


def checkpoint_qr_svg(text: str) -> str:
    """The SVG of a QR code holding exactly ``text``; scalable (no fixed size, a viewBox)."""
    code = segno.make_qr(text, error="m", boost_error=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, omitsize=True, dark="#000", light="#fff", border=4)
    return out.getvalue().decode("ascii")


def address_qr_svg(address: str) -> str:
    """The SVG of a QR code holding an address (a board sign-in's card): level M, as above;
    an address of some 110 characters is version 6 or 7, 41 or 45 modules a side."""
    return checkpoint_qr_svg(address)
