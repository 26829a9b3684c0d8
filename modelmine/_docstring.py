"""Reusable numpydoc fragments for the parameters that recur across public functions.

The imbalanced-learn ``Substitution`` idiom (STYLE.md, practice 11): a docstring holds
``%(name)s`` where a shared parameter block belongs, and :func:`fill_doc` substitutes the
block once, at import, so ``help()`` and the rendered docs show the full text. A fragment's
first line starts at the placeholder; its further lines carry their own indentation, as they
stand in the docstring of a module-level function (4 spaces before a parameter, 8 before
its description). A docstring filled this way must write a literal percent sign as ``%%``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

__all__ = ["fill_doc"]

T = TypeVar("T")


def fill_doc(fragments: Mapping[str, str]) -> Callable[[T], T]:
    """A decorator filling the ``%(name)s`` placeholders of a docstring from ``fragments``.

    Parameters
    ----------
    fragments : mapping of str to str
        The numpydoc text of each placeholder name.

    Returns
    -------
    callable
        The decorator: it rewrites ``obj.__doc__`` (when there is one, that is, unless
        Python runs with ``-OO``) and returns ``obj`` itself.
    """

    def decorate(obj: T) -> T:
        if obj.__doc__:
            obj.__doc__ = obj.__doc__ % fragments
        return obj

    return decorate
