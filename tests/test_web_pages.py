"""The web pages as HTTP resources, without a browser: what the app serves.

The browser tests (test_web_browser.py) drive the pages; these pin what any client
sees: the pages and their static files are served by the app itself, nothing points
outside the service, and an unknown game is a 404 page, not an empty shell.
"""

import re

import pytest
from browser import record

PAGES = ["/", "/tournaments/t-123"]


def static(client, url: str):
    """A static file's text, or None; the response is closed (send_file streams it)."""
    with client.get(url) as response:
        return response.get_data(as_text=True) if response.status_code == 200 else None


def test_home_page_is_served_with_a_same_origin_policy(client):
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy


def test_game_page_names_its_game_and_an_unknown_game_is_404(client):
    game_id = record(client, {"variant": "qelat", "south": "A", "north": "B", "first_player": "south"}, [])
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200 and f'data-game-id="{game_id}"' in page.get_data(as_text=True)
    assert client.get("/games/no-such-game").status_code == 404


@pytest.mark.parametrize("path", PAGES)
def test_every_script_and_stylesheet_is_served_by_the_app(client, path):
    html = client.get(path).get_data(as_text=True)
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assets = [u for u in urls if u.endswith((".js", ".css"))]
    assert assets and all(u.startswith("/web-static/") for u in assets)  # no CDN, no other host
    for url in assets:
        assert static(client, url) is not None


def test_javascript_modules_import_only_their_siblings(client):
    """No bundler, no network: every import in a module is a relative path that the app serves."""
    game_js = static(client, "/web-static/js/game.js")
    seen, queue = set(), ["game.js", "home.js", "tournament.js", "site.js"]
    while queue:
        name = queue.pop()
        if name in seen:
            continue
        seen.add(name)
        source = static(client, f"/web-static/js/{name}")
        for target in re.findall(r'from "([^"]+)"', source):
            assert target.startswith("./") and target.endswith(".js"), (name, target)
            queue.append(target[2:])
    assert "board.js" in seen and "api.js" in seen and "import" in game_js
