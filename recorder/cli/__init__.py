"""The ``recorder`` command line (click): serve, records, auditing, archives, tournaments, bench."""

from .main import main

__all__ = ["main"]
