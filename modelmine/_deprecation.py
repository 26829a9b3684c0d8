"""Names that left a public ``__all__`` stay importable for one release, with a warning.

A package lists them in a ``_MOVED`` mapping, old name -> the dotted path of where the thing
lives now, and sets ``__getattr__ = moved_names(__name__, _MOVED)``. A path through a private
module (a ``_`` part) means the name is no longer public at all; the warning says so.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any


def moved_names(module: str, moved: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving the names of ``moved`` with a FutureWarning."""

    def __getattr__(name: str) -> Any:
        if name not in moved:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        home, _, attr = moved[name].rpartition(".")
        value = getattr(importlib.import_module(home), attr)
        if any(part.startswith("_") for part in home.split(".")):
            advice = "it is no longer public and will not be importable from here"
        else:
            advice = f"use {moved[name]}; the old name goes"
        warnings.warn(f"{module}.{name} left the public API (issue 38): {advice} in the "
                      "next release.", FutureWarning, stacklevel=2)
        return value

    return __getattr__


def renamed_accessor(owner: str, old: str, new: str) -> None:
    """Warn that the table accessor ``owner.old`` is now ``owner.new`` (issue 38: every
    result gives its table as ``to_frame()``)."""
    warnings.warn(f"{owner}.{old} is deprecated and goes in the next release; use "
                  f"{owner}.{new} (every result gives its table as to_frame()).",
                  FutureWarning, stacklevel=3)


#: A keyword not given (so that None, a value users pass, stays a value).
UNSET: Any = type("Unset", (), {"__repr__": lambda self: "<unset>"})()


def renamed_keyword(func: str, old: str, new: str, old_value: Any, new_value: Any,
                    default: Any) -> Any:
    """The value of the keyword ``new`` of ``func``, also given under its old name ``old``
    (issue 38: one name per thing): the old name keeps working for one release, with a
    FutureWarning naming the new one; both at once is a TypeError."""
    if old_value is UNSET:
        return new_value
    if new_value is not default and new_value != default:
        raise TypeError(f"{func}() got both {new}= and its old name {old}=; give {new}= "
                        "alone.")
    warnings.warn(f"{func}(): the keyword {old}= is deprecated and goes in the next "
                  f"release; use {new}= (issue 38: one name per thing).", FutureWarning,
                  stacklevel=3)
    return old_value


def renamed_option_note(old: str, new: str) -> str:
    """The note ``modelmine`` prints on stderr for an old option spelling."""
    return (f"modelmine: {old} is deprecated and goes in the next release; use {new} "
            "(issue 38: one name per thing).")
