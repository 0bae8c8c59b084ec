"""What every answer but a page says about itself, set in one place (docs/security.md, *Framing*).

An API answer is data: JSON, NDJSON, problem+json that may quote a client's text, an SVG
board, a live stream. None of it is to be run, framed or guessed at:

- ``X-Content-Type-Options: nosniff``: a browser takes the answer as the type it names,
  never as HTML or script sniffed from a body the client chose (a player's name, a note);
- ``Content-Security-Policy: default-src 'none'``: an answer opened as a document (a JSON
  or SVG address typed into the bar, an SVG's own links) runs nothing and loads nothing;
  an SVG drawn by a page as an image needs neither (its fills are attributes, not styles);
- ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` (for browsers without the
  former): no page elsewhere frames an answer.

The pages (the ``web`` blueprint) set their own policy (recorder/web/__init__.py), and the
embeddable boards a ``frame-ancestors`` list the admin chooses: this leaves them as they are.
"""

from __future__ import annotations

from flask import Flask, Response, request

API_POLICY = "default-src 'none'; frame-ancestors 'none'"
API_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": API_POLICY,
    "X-Frame-Options": "DENY",
}
PAGES = "web"  # the blueprint whose answers carry a page's policy


def init_app(app: Flask) -> None:
    app.after_request(data_only)


def data_only(response: Response) -> Response:
    if request.blueprint != PAGES:
        for name, value in API_HEADERS.items():
            response.headers.setdefault(name, value)
    return response
