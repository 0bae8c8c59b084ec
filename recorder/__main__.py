"""``recorder``, the console script (and ``python -m recorder``): the engine first, then the command.

``recorder serve`` is patched by gevent first of all (recorder/cli/serving.py). The first
start of any command builds the compiled rules engine when it can and none exists for
these sources (recorder/engine/auto.py), before the command imports the rules.
"""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:2] == ["serve"]:  # an event-driven server: patched before anything opens (recorder/cli/serving.py)
        from gevent import monkey

        monkey.patch_all()
    from recorder.engine.auto import ensure

    ensure(lambda line: print(line, file=sys.stderr, flush=True))
    from recorder.cli.main import main as command

    command()


if __name__ == "__main__":
    main()
