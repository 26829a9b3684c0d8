"""One vocabulary for the evaluation functions, and their old parameter names as aliases.

:func:`modelmine.evaluate`, :func:`modelmine.evaluation.evaluate_thresholds` and
:func:`modelmine.evaluation.compare_aggregations` name the same things the same way (issue 23,
``docs/DEVELOPING.md``, "Vocabulary"): ``selectors``, ``operators``, ``classifiers``,
``n_folds``, ``random_state`` (default 0), ``n_jobs``. The names they had before are still
accepted; giving a setting under both names is an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..validation import param_error

__all__ = ["one_of", "renamed"]


def renamed(func: str, old: Mapping[str, Any],
            current: Mapping[str, tuple[str, Any, Any]]) -> dict[str, Any]:
    """The values of renamed parameters, taken from their new or their old name.

    Parameters
    ----------
    func : str
        The public function, for the messages.
    old : mapping
        The keywords the function received beyond its own (``**old_names``).
    current : mapping of old name -> (new name, value given for it, its default)

    Returns
    -------
    dict
        New name -> value.

    Raises
    ------
    TypeError
        An unknown keyword (as Python says it), or a setting given under both names.
    """
    unknown = sorted(set(old) - set(current))
    if unknown:
        raise TypeError(f"{func}() got an unexpected keyword argument {unknown[0]!r}")
    out = {}
    for name, (new, value, default) in current.items():
        if name in old:
            if not (value is default or (type(value) is type(default) and value == default)):
                raise param_error(new, func, f"given once ({name!r} is its old name)",
                                  f"both {new!r} and {name!r}", exc=TypeError, show=False)
            value = old[name]
        out[new] = value
    return out


def one_of(value: Any, name: str, func: str, what: str) -> Any:
    """``value`` itself, or the element of a one-element list: the functions that evaluate
    one selector, operator or classifier take the shared plural name too."""
    if isinstance(value, list | tuple):
        if len(value) != 1:
            raise param_error(name, func, f"a single {what} (a name, or a list of one)",
                              list(value))
        return value[0]
    return value
