"""Games: the recording service (commands in, events stored, games folded).

The rules are in ``recorder.rules``, a game's events, commands and fold in
``recorder.core``; this package decides commands against the folded game and appends
what they produce (service.py).
"""
