"""The service's own standings (GET /api/tournaments/{id}/standings of a tournament imported
through the API) against FIDE's calculator, for C.07's recommended lists: the Swiss list on
every tournament of the pairing corpus and the hundred random ones, the round-robin list on
every round robin. Every file, every player, every value of the list: none is chosen."""

from fractions import Fraction

from test_tiebreaks_reference import REFERENCE, SOURCES
from test_tiebreaks_standings import reference_values
from tournament_support import ADMIN_TOKEN, bearer, make_app

from recorder.tournaments import C07_ROUND_ROBIN, C07_SWISS

# The calculator's values for exactly these lists (fixtures/tiebreaks/README.md)
SWISS = sorted((REFERENCE / "c07-swiss" / "swiss").glob("*.json"))
RANDOM = sorted((REFERENCE / "c07-swiss" / "random").glob("*.json"))
ROUND_ROBIN = sorted((REFERENCE / "c07-round-robin").glob("*.json"))


def test_the_c07_list_references_cover_every_file_of_each_set():
    assert [p.stem for p in SWISS] == sorted(p.stem for p in SOURCES["swiss"].glob("*.trf")) and len(SWISS) == 130
    assert [p.stem for p in RANDOM] == sorted(p.stem for p in SOURCES["random"].glob("*.trf")) and len(RANDOM) == 100
    assert [p.stem for p in ROUND_ROBIN] == sorted(p.stem for p in SOURCES["round_robin"].glob("*.trf"))


def service_standings(client, text: str, format_: str) -> dict:
    headers = {"Content-Type": "text/plain", **bearer(ADMIN_TOKEN)}
    response = client.post(f"/api/tournaments/trf?variant=qelat&format={format_}", data=text.encode(), headers=headers)
    assert response.status_code == 201, response.get_json()
    return client.get(f"/api/tournaments/{response.get_json()['id']}/standings").get_json()


def compare(client, paths, source: str, listed: tuple, round_robin: bool) -> tuple[int, list[str]]:
    compared, wrong = 0, []
    for path in paths:
        text = (SOURCES[source] / f"{path.stem}.trf").read_text()
        text = (
            "\n".join(line for line in text.splitlines() if not line.startswith("202"))
            + "\n202 "
            + ",".join(listed)
            + "\n"
        )
        table = service_standings(client, text, "manual" if round_robin else "swiss")
        assert table["tiebreaks"] == list(listed)
        want = reference_values(path, round_robin)
        for s in table["standings"]:
            for code in ("PTS", *listed):
                mine = s["points"] if code == "PTS" else s["tiebreaks"][code]
                compared += 1
                if Fraction(str(mine)) != want[s["number"]][code]:
                    wrong.append(
                        f"{path.stem} player {s['number']} {code}: ours {mine}, reference {want[s['number']][code]}"
                    )
    return compared, wrong


def test_the_service_standings_of_every_swiss_file_equal_fides_calculator_for_c07s_swiss_list(tmp_path):
    app = make_app(tmp_path)
    try:
        client = app.test_client()
        compared, wrong = compare(client, SWISS, "swiss", C07_SWISS, round_robin=False)
        more, found = compare(client, RANDOM, "random", C07_SWISS, round_robin=False)
    finally:
        app.extensions["recorder"].store.close()
    assert compared + more == (4646 + 10024) * (1 + len(C07_SWISS))
    assert wrong + found == [], f"{len(wrong + found)} values differ:\n" + "\n".join((wrong + found)[:40])


def test_every_round_robins_standings_equal_fides_calculator_for_c07s_round_robin_list():
    """A TRF is imported as a Swiss or manual tournament, so the round robins are built as
    round robins from their events (the standings are the tournament's own, standings())."""
    from test_tiebreaks_standings import imported_with

    from recorder.tournaments.standings import standings

    checked = 0
    for path in ROUND_ROBIN:
        t, outcomes = imported_with(
            (SOURCES["round_robin"] / f"{path.stem}.trf").read_text(), "round_robin", list(C07_ROUND_ROBIN)
        )
        want = reference_values(path, True)
        for s in standings(t, outcomes):
            assert s.points == want[s.number]["PTS"], path.stem
            assert dict(s.tiebreaks) == {code: want[s.number][code] for code in C07_ROUND_ROBIN}, path.stem
            checked += 1
    assert checked == 140
