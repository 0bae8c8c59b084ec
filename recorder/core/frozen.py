"""A frozen dataclass made with its fields set at once.

A frozen dataclass's ``__init__`` sets each field in turn through ``object.__setattr__``
(its own ``__setattr__`` refuses). Where one is made per event (the fold's games, the
events read back from a store or an archive) that costs more than the work around it,
so the fields are set at once, through the instance's ``__dict__``. The instance is the
one ``__init__`` makes of the same fields (equal, same repr, frozen, pickled alike);
the callers' tests hold it to that.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_new_object, _set_attribute = object.__new__, object.__setattr__


def made_at_once(cls: type[T], fields: dict[str, Any]) -> T:
    """An instance of the frozen dataclass ``cls`` whose every field ``fields`` holds, by
    name (all of them, defaults included), without ``cls.__init__``."""
    instance: T = _new_object(cls)
    _set_attribute(instance, "__dict__", fields)
    return instance
