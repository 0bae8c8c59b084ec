"""The engine section's pure figures beside the compiled ones: the same seeded playouts
(recorder/bench/engine.py) of one variant in a second interpreter that runs the pure
modules (``RECORDER_ENGINE=python``): one process runs one engine, chosen at its start.

``python -m recorder.bench.pure VARIANT SECONDS`` prints the figures as JSON.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

from .engine import EngineFigures, measure


def measure_pure(variant: str, seconds: float) -> EngineFigures:
    env = {**os.environ, "RECORDER_ENGINE": "python"}
    command = [sys.executable, "-m", "recorder.bench.pure", variant, repr(seconds)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"the pure engine's bench of {variant} failed:\n{result.stderr}")
    return EngineFigures(**json.loads(result.stdout))


def main(variant: str, seconds: str) -> None:
    from recorder.engine import current
    from recorder.rules import find_variant

    if current().kind != "python":
        raise SystemExit(f"expected the pure engine, not {current().describe()}")
    figures = measure(find_variant(variant)({}), seconds=float(seconds))
    print(json.dumps(dataclasses.asdict(figures)))


if __name__ == "__main__":
    main(*sys.argv[1:])
