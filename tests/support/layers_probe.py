"""A pytest plugin for tests/test_layers.py: after collection, one line per test, its id and
the layers it is marked with (``-p support.layers_probe``)."""

LAYERS = ("browser", "postgres", "slow")


def pytest_collection_finish(session):
    for item in session.items:
        marks = sorted(layer for layer in LAYERS if item.get_closest_marker(layer))
        print(f"LAYERS\t{item.nodeid}\t{','.join(marks)}")
