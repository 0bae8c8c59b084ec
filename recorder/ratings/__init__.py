"""Ratings: Glicko-2 (``glicko2``) and the rating lists computed from rated games (``lists``).

Both modules are pure (standard library only, no I/O, no clock): results in, ratings out.
``service`` reads the games and the registry from the store and keeps the published lists
beside it, a projection rebuilt from the events (docs/players.md).
"""
