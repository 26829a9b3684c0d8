"""Validation at the door: one helper per kind of argument, one message shape everywhere.

Every public function of modelmine validates its arguments once, with these helpers, and
then works on clean values. A failed check raises one class,
:class:`modelmine.exceptions.InvalidParameterError` (a ``ValueError`` and a ``TypeError``,
as scikit-learn's), whose message has a single shape::

    The 'n_features' parameter of bootstrap must be an integer in [1, 2000]. Got 0 instead.

so that a user always learns which parameter was wrong, what was expected and what was given.

The module is public: plugin authors (operators, selectors) use the same helpers, so that
their parameters fail the way the built-ins do (see ``plugins/modelmine-stabcomb``).
"""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Iterable, Sequence
from typing import Any, Literal, overload

import numpy as np
import scipy.sparse as sp

from .exceptions import InvalidParameterError

__all__ = [
    "check_choice",
    "check_fraction_or_count",
    "check_int",
    "check_real",
    "param_error",
]


def _show(value: Any) -> str:
    """Render a given value for an error message, short and unambiguous."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    if sp.issparse(value):
        return f"a sparse matrix of shape {value.shape}"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def param_error(
    name: str, func: str, expected: str, got: Any, *, exc: type[Exception] = ValueError,
    hint: str | None = None, show: bool = True,
) -> Exception:
    """Build the standard exception for a bad parameter value.

    An :class:`~modelmine.exceptions.InvalidParameterError` naming ``name`` and ``func``
    (its ``param`` and ``func``), whose message has the one shape of this module.

    Parameters
    ----------
    name : str
        Parameter name, as the user wrote it.
    func : str
        Public function or class that received it.
    expected : str
        What was expected, completing "must be ...".
    got : object
        The value given; rendered with ``repr`` (arrays by shape and dtype).
    exc : type of Exception, default=ValueError
        What kind of error it is: ``ValueError`` (a wrong value) and ``TypeError`` (a
        value of the wrong kind) both give an ``InvalidParameterError``, which is both;
        any other class (``ImportError``, ``NotApplicableError``, ...) is built as it is.
    hint : str, optional
        A further sentence (for example the closest valid name).
    show : bool, default=True
        If False, ``got`` is used verbatim as a description instead of being rendered.
    """
    given = _show(got) if show else str(got)
    message = f"The {name!r} parameter of {func} must be {expected}. Got {given} instead."
    if hint:
        message += " " + hint
    if exc in (ValueError, TypeError):
        return InvalidParameterError(message, param=name, func=func)
    return exc(message)


@overload
def check_int(
    value: Any, name: str, func: str, *, min_value: int | None = ...,
    max_value: int | None = ..., allow_none: Literal[False] = ...,
) -> int: ...


@overload
def check_int(
    value: Any, name: str, func: str, *, min_value: int | None = ...,
    max_value: int | None = ..., allow_none: bool,
) -> int | None: ...


def check_int(
    value: Any, name: str, func: str, *, min_value: int | None = None,
    max_value: int | None = None, allow_none: bool = False,
) -> int | None:
    """Check an integer parameter (numpy integers accepted, bools refused).

    Parameters
    ----------
    value : object
        What the user gave.
    name, func : str
        The parameter and the public function, for the message.
    min_value, max_value : int, optional
        Inclusive bounds.
    allow_none : bool, default=False
        Accept None (returned as is).

    Returns
    -------
    int or None

    Raises
    ------
    TypeError
        Not an integer (a bool is not one).
    ValueError
        Out of bounds.
    """
    if value is None and allow_none:
        return None
    bounds = _bounds_text(min_value, max_value)
    expected = "an integer" + bounds + (" or None" if allow_none else "")
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise param_error(name, func, expected, value, exc=TypeError)
    value = int(value)
    if (min_value is not None and value < min_value) or (
        max_value is not None and value > max_value
    ):
        raise param_error(name, func, expected, value)
    return value


@overload
def check_real(
    value: Any, name: str, func: str, *, low: float | None = ..., high: float | None = ...,
    closed: str = ..., allow_none: Literal[False] = ...,
) -> float: ...


@overload
def check_real(
    value: Any, name: str, func: str, *, low: float | None = ..., high: float | None = ...,
    closed: str = ..., allow_none: bool,
) -> float | None: ...


def check_real(
    value: Any, name: str, func: str, *, low: float | None = None, high: float | None = None,
    closed: str = "both", allow_none: bool = False,
) -> float | None:
    """Check a finite real parameter in an interval.

    Parameters
    ----------
    value : object
    name, func : str
        The parameter and the public function, for the message.
    low, high : float, optional
        The interval's ends (None: unbounded).
    closed : {"both", "left", "right", "neither"}, default="both"
        Which ends belong to the interval.
    allow_none : bool, default=False

    Returns
    -------
    float or None

    Raises
    ------
    TypeError
        Not a real number.
    ValueError
        Not finite, or outside the interval.
    """
    if value is None and allow_none:
        return None
    left = "[" if closed in ("both", "left") else "("
    right = "]" if closed in ("both", "right") else ")"
    lo = "-inf" if low is None else f"{low:g}"
    hi = "inf" if high is None else f"{high:g}"
    expected = f"a real number in {left}{lo}, {hi}{right}" + (" or None" if allow_none else "")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise param_error(name, func, expected, value, exc=TypeError)
    value = float(value)
    ok = np.isfinite(value)
    if low is not None:
        ok &= value >= low if left == "[" else value > low
    if high is not None:
        ok &= value <= high if right == "]" else value < high
    if not ok:
        raise param_error(name, func, expected, value)
    return value


def check_flag(value: Any, name: str, func: str) -> bool:
    """Check a boolean parameter (Python or numpy bools; 0 / 1 and strings refused).

    Raises
    ------
    TypeError
        Not a bool.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise param_error(name, func, "a bool (True or False)", value, exc=TypeError)
    return bool(value)


def check_fraction_or_count(
    value: Any, name: str, func: str, *, total: int, what: str = "transactions"
) -> int:
    """Turn a fraction in (0, 1] or an absolute count in [1, total] into a count.

    A float is a fraction of ``total`` (rounded up, so that ``support >= value`` holds);
    an integer is an absolute count (the convention of ``min_support`` throughout, as
    in pyfim's negative supports and mlxtend's fractions).

    Returns
    -------
    int
        The count, in [1, total].
    """
    expected = f"a fraction in (0, 1] or a count of {what} in [1, {total}]"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise param_error(name, func, expected, value, exc=TypeError)
    if isinstance(value, numbers.Integral):
        count = int(value)
        if not 1 <= count <= total:
            raise param_error(name, func, expected, value)
        return count
    frac = float(value)
    if not (np.isfinite(frac) and 0.0 < frac <= 1.0):
        raise param_error(name, func, expected, value)
    # Guard against 0.2 * 150 = 30.000000000000004 rounding up to 31.
    return max(1, int(np.ceil(round(frac * total, 9))))


def closest_names(name: str, options: Iterable[str], n: int = 1) -> list[str]:
    """The option names closest to ``name`` (case-insensitive), for 'did you mean' hints."""
    options = list(options)
    lowered = {o.lower(): o for o in options}
    hits = difflib.get_close_matches(str(name).lower(), list(lowered), n=n, cutoff=0.5)
    return [lowered[h] for h in hits]


@overload
def check_choice(value: Any, name: str, func: str, options: Sequence[str]) -> str: ...
@overload
def check_choice(value: Any, name: str, func: str, options: Sequence[str], *,
                 allow_none: bool) -> str | None: ...
def check_choice(value: Any, name: str, func: str, options: Sequence[str], *,
                 allow_none: bool = False) -> str | None:
    """Check that ``value`` is one of ``options`` (or None, with ``allow_none``); the error
    lists them and the closest one.

    Returns
    -------
    str or None
        ``value``.
    """
    if (isinstance(value, str) and value in options) or (allow_none and value is None):
        return value
    listed = ("None or " if allow_none else "") + "one of " + ", ".join(repr(o) for o in options)
    close = closest_names(value, options) if isinstance(value, str) else []
    hint = f"Did you mean {close[0]!r}?" if close else None
    raise param_error(name, func, listed, value, hint=hint)


def _bounds_text(min_value: int | None, max_value: int | None) -> str:
    if min_value is not None and max_value is not None:
        return f" in [{min_value}, {max_value}]"
    if min_value is not None:
        return f" >= {min_value}"
    if max_value is not None:
        return f" <= {max_value}"
    return ""
