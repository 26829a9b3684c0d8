"""Small helpers shared by every stage: read-only arrays and JSON values."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

__all__ = ["jsonable", "readonly"]


def readonly(a: Any, *, copy: bool = False) -> np.ndarray:
    """``a`` as an array that cannot be written through (copied first if ``copy``)."""
    arr = np.array(a, copy=True) if copy else np.asarray(a)
    arr.flags.writeable = False
    return arr


def jsonable(value: Any, *, unknown: Literal["str", "repr", "raise"] = "str") -> Any:
    """A JSON-serialisable copy of ``value``.

    Mappings become dicts with string keys; lists, tuples, ranges and arrays become lists;
    sets become sorted lists; numpy scalars become Python numbers; NaN and infinities
    (which JSON cannot hold) become None. Anything else is rendered with ``str`` or
    ``repr``, or refused with :class:`TypeError` (``unknown="raise"``, for values a plugin
    hands back, so that the caller can name the plugin).
    """
    def convert(v: Any) -> Any:
        if isinstance(v, Mapping):
            return {str(k): convert(x) for k, x in v.items()}
        if isinstance(v, np.ndarray):
            return [convert(x) for x in v.tolist()]
        if isinstance(v, list | tuple | range):
            return [convert(x) for x in v]
        if isinstance(v, set | frozenset):
            return sorted((convert(x) for x in v), key=lambda x: (str(type(x)), x))
        if v is None or isinstance(v, str):
            return v
        if isinstance(v, bool | np.bool_):
            return bool(v)
        if isinstance(v, numbers.Integral):
            return int(v)
        if isinstance(v, numbers.Real):
            f = float(v)
            return f if math.isfinite(f) else None
        if unknown == "raise":
            raise TypeError(f"{type(v).__name__} is not JSON-serialisable")
        return repr(v) if unknown == "repr" else str(v)

    return convert(value)
