"""What the pages need to work offline and be installed, without a browser: the service
worker lists every static file that exists, the manifest's icons are served, and the
new pages (spectator view, projector) answer."""

from __future__ import annotations

import json
import re

from recorder.web import STATIC


def test_the_service_worker_precaches_every_static_file_and_the_home_page(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    body = response.get_data(as_text=True)
    assets = json.loads(re.search(r"const ASSETS = (\[.*?\]);", body).group(1))
    files = {f"/web-static/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*") if p.is_file()}
    assert set(assets) == files | {"/"}
    for asset in assets:
        with client.get(asset) as served:  # a static file is streamed: close it
            assert served.status_code == 200, asset
    assert re.search(r'const VERSION = "[0-9a-f]{16}";', body)


def test_the_manifest_makes_the_site_installable(client):
    with client.get("/web-static/manifest.webmanifest") as served:
        manifest = json.loads(served.get_data(as_text=True))
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as png:
            assert png.status_code == 200 and png.get_data()[:8] == b"\x89PNG\r\n\x1a\n"
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)


def test_spectator_and_projector_pages_are_served(client):
    game = client.post("/api/games", json={"variant": "qelat", "south": "A", "north": "B", "first_player": "south"})
    game_id = game.get_json()["id"]
    watch = client.get(f"/games/{game_id}/watch").get_data(as_text=True)
    assert 'data-mode="watch"' in watch
    assert 'data-mode="record"' in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert client.get("/games/nope/watch").status_code == 404
    projector = client.get("/tournaments/t-123/projector")
    assert projector.status_code == 200 and "js/projector.js" in projector.get_data(as_text=True)
