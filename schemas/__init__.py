"""Marshmallow schemas: the HTTP boundary (and the command line's tournament writes,
which take what the API takes), and nothing else."""

from .commands import COMMAND_SCHEMAS, load_command
from .games import (
    event_list_schema,
    event_schema,
    game_create_schema,
    game_list_schema,
    game_query_schema,
    game_schema,
    recorded_schema,
    state_query_schema,
    variant_list_schema,
)

__all__ = [
    "COMMAND_SCHEMAS",
    "load_command",
    "event_list_schema",
    "event_schema",
    "game_create_schema",
    "game_list_schema",
    "game_query_schema",
    "game_schema",
    "recorded_schema",
    "state_query_schema",
    "variant_list_schema",
]
