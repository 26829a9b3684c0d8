"""Small helpers shared by every stage: read-only arrays and JSON values."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

__all__ = ["FrozenDict", "FrozenList", "frozen", "is_positional", "jsonable", "library_versions",
           "positional_names", "readonly"]


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


class FrozenDict(dict):
    """A dict that cannot be changed after it is built (every mutator raises TypeError).

    A dict subclass rather than :class:`types.MappingProxyType`, so that results holding
    one still pickle (joblib, Dask), compare equal to plain dicts and dump as JSON.
    """

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{type(self).__name__} is read-only: build a new dict from it "
                        "(dict(value)) to change it.")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


class ImmutableSlots:
    """Base of the result objects whose ``__slots__`` are set once, in ``__init__``.

    ``__init__`` assigns with ``object.__setattr__``; afterwards setting or deleting an
    attribute raises AttributeError. Pickling (joblib, Dask) goes through the slots.
    """

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}.")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}.")

    def __getstate__(self) -> dict[str, Any]:
        slots: tuple[str, ...] = type(self).__slots__
        return {k: getattr(self, k) for k in slots}

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)


class FrozenList(tuple):
    """A tuple that also compares equal to a list with the same items.

    What :func:`frozen` makes of a list, so that a frozen record still equals the same
    record read back from JSON (where sequences are lists).
    """

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            return tuple.__eq__(self, tuple(other))
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__


def frozen(value: Any) -> Any:
    """A read-only copy of a JSON-like value, all the way down.

    Mappings become :class:`FrozenDict`, lists and tuples :class:`FrozenList`, arrays read-only
    copies; other values are kept. :func:`jsonable` turns the result back into plain JSON.
    """
    if isinstance(value, Mapping):
        return FrozenDict({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return FrozenList(frozen(v) for v in value)
    if isinstance(value, np.ndarray):
        return readonly(value, copy=True)
    return value


def library_versions() -> dict[str, str]:
    """Versions of modelmine, Python and the libraries whose results it reports."""
    import platform
    from importlib import metadata

    from ._version import __version__

    out = {"modelmine": __version__, "python": platform.python_version()}
    for dist in ("numpy", "scipy", "scikit-learn", "pandas", "matplotlib"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


def positional_names(p: int) -> np.ndarray:
    """The names of ``p`` features whose data carry none: ``x0``, ``x1``, ..., each its
    column's position (0-based, as ``X[:, j]``), scikit-learn's ``get_feature_names_out``
    convention. Every door names such columns so (an array, the embedded datasets, a
    ``.mat`` file), so that one column has one name everywhere."""
    return np.array([f"x{j}" for j in range(p)])


def is_positional(names: Any) -> bool:
    """Whether ``names`` are :func:`positional_names` (the data carried no names)."""
    shown = [str(n) for n in names]
    return shown == positional_names(len(shown)).tolist()
