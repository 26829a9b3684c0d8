"""Declared schemas of the files modelmine stores, checked before anything is used.

Every JSON record modelmine reads back (``run.json``, ``checkpoint.json``, the bootstrap
``manifest.json``, the record inside ``base_models.npz``, ``signatures.json``,
``diagnostics.json``) is declared here as a schema and checked with :func:`check` right
after parsing: a wrong type, a missing key or a value out of range becomes one
:class:`~modelmine.exceptions.DataError` naming the file and the field, instead of a
``TypeError`` or ``KeyError`` somewhere later (or, worse, a value that loads and then
breaks the report). Array files are checked against their record by the code that reads
them (shapes that agree with each other and with the real sizes of the arrays).

A schema is a plain value:

* a type or a tuple of types (``int`` never accepts ``bool``; ``float`` accepts ``int``);
* a ``dict`` of field name to schema (a JSON object with at least these keys; more are
  allowed, so that newer minor versions stay readable);
* :class:`Optional` (a key that may be absent), :class:`ListOf`, :class:`MapOf`
  (string keys), :class:`Where` (a schema plus a predicate and what it means).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .exceptions import DataError

__all__ = ["ListOf", "MapOf", "Optional", "Where", "check", "describe"]


@dataclass(frozen=True)
class Optional:
    """A field that may be absent (when present, it must match ``schema``)."""

    schema: Any


@dataclass(frozen=True)
class ListOf:
    """A JSON list whose every item matches ``schema``."""

    schema: Any


@dataclass(frozen=True)
class MapOf:
    """A JSON object with string keys whose every value matches ``schema``."""

    schema: Any


@dataclass(frozen=True)
class Where:
    """``schema``, and ``test(value)`` must hold: ``expected`` says what that means."""

    schema: Any
    test: Callable[[Any], bool]
    expected: str


_NAMES = {
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "an object",
    type(None): "null",
}


def describe(value: Any) -> str:
    """A short description of a stored value, for error messages."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (dict, list)):
        text = repr(value)
        kind = "an object" if isinstance(value, dict) else "a list"
        return f"{kind} {text if len(text) <= 40 else text[:37] + '...'}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _expected(schema: Any) -> str:
    if isinstance(schema, Where):
        return schema.expected
    if isinstance(schema, type):
        return _NAMES.get(schema, schema.__name__)
    if isinstance(schema, tuple):
        return " or ".join(_expected(s) for s in schema)
    if isinstance(schema, dict):
        return "an object"
    if isinstance(schema, ListOf):
        return f"a list of {_expected(schema.schema).removeprefix('a ').removeprefix('an ')}"
    if isinstance(schema, MapOf):
        return "an object"
    return str(schema)


def _is(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, numbers.Real) and not isinstance(value, bool)
    return isinstance(value, kind)


def _check(value: Any, schema: Any, field: str, where: str) -> None:
    def fail(expected: str) -> DataError:
        name = f"field {field!r}" if field else "its content"
        return DataError(f"{where} is corrupt: {name} must be {expected}; it is {describe(value)}.")

    if isinstance(schema, Optional):
        _check(value, schema.schema, field, where)
    elif isinstance(schema, Where):
        _check(value, schema.schema, field, where)
        try:
            ok = bool(schema.test(value))
        except (TypeError, ValueError, OverflowError):
            ok = False
        if not ok:
            raise fail(schema.expected)
    elif isinstance(schema, type):
        if not _is(value, schema):
            raise fail(_expected(schema))
    elif isinstance(schema, tuple):
        if not any(
            _is(value, s) if isinstance(s, type) else _matches(value, s, where) for s in schema
        ):
            raise fail(_expected(schema))
    elif isinstance(schema, dict):
        if not isinstance(value, dict):
            raise fail("an object")
        for key, sub in schema.items():
            inner = f"{field}.{key}" if field else key
            if key not in value:
                if isinstance(sub, Optional):
                    continue
                raise DataError(f"{where} is corrupt: it lacks the field {inner!r}.")
            _check(value[key], sub, inner, where)
    elif isinstance(schema, ListOf):
        if not isinstance(value, list):
            raise fail(_expected(schema))
        for i, item in enumerate(value):
            _check(item, schema.schema, f"{field}[{i}]", where)
    elif isinstance(schema, MapOf):
        if not isinstance(value, dict):
            raise fail("an object")
        for key, item in value.items():
            _check(item, schema.schema, f"{field}.{key}" if field else str(key), where)
    else:  # pragma: no cover - a programming error in a declared schema
        raise TypeError(f"not a schema: {schema!r}")


def _matches(value: Any, schema: Any, where: str) -> bool:
    try:
        _check(value, schema, "", where)
    except DataError:
        return False
    return True


def check(value: Any, schema: Any, where: str) -> Any:
    """Check a parsed JSON value against ``schema``; return it unchanged.

    Parameters
    ----------
    value : object
        What ``json.loads`` returned.
    schema : schema
        See the module docstring.
    where : str
        The file, as the message should name it (``"'run1/run.json'"``).

    Raises
    ------
    DataError
        Naming the file and the first field that does not match.
    """
    _check(value, schema, "", where)
    return value


def integer_text(text: Any) -> bool:
    """True for the decimal text of a non-negative integer (how seeds are stored)."""
    return isinstance(text, str) and text.isascii() and text.isdigit() and len(text) <= 60
