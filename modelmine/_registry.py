"""One registry pattern for everything a plugin can add: operators, selectors, stability
measures and classifiers.

What every registry of modelmine does (STYLE.md, practices 5 to 8, after catalogue and
pluggy): two ways in, a decorator (usable by name at once) and an entry-point group named
after the package (``modelmine.operators``, ``modelmine.selectors``, ``modelmine.measures``,
``modelmine.classifiers``), discovered lazily on first use and cached, rescanned by
``refresh()``; a plugin that fails to load warns and the others still load; a taken name
raises and names both owners; an unknown name lists the available ones and the closest;
``available()`` returns one DataFrame shape (name, kind, origin, description, module,
entry_point); each entry records where it came from.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Generic, Protocol, TypeVar

import pandas as pd

from .exceptions import PluginWarning
from .validation import closest_names, param_error

__all__ = ["AVAILABLE_COLUMNS", "BUILT_IN", "Described", "Entry", "EntryLike", "PluginWarning",
           "Registry", "first_line", "origin_of"]

BUILT_IN = "built-in"
#: The columns of every registry's ``available()``.
AVAILABLE_COLUMNS = ["name", "kind", "origin", "description", "module", "entry_point"]


def first_line(doc: str) -> str:
    """The first line of a docstring (the one-line description of an entry)."""
    return doc.strip().splitlines()[0].strip() if doc and doc.strip() else ""


#: The installed distributions of each top-level package (``importlib.metadata``'s
#: ``packages_distributions``), read once: the scan reads every installed distribution's
#: file list (about 0.3 s in a scientific environment), and each registration of an
#: object from outside modelmine asks it. :meth:`Registry.refresh`, which rescans the
#: entry points for plugins installed since, reads it again.
_DISTRIBUTIONS: dict[str, list[str]] | None = None


def _distributions() -> dict[str, list[str]]:
    global _DISTRIBUTIONS
    if _DISTRIBUTIONS is None:
        try:
            _DISTRIBUTIONS = dict(metadata.packages_distributions())
        except Exception:  # pragma: no cover - metadata backends vary
            _DISTRIBUTIONS = {}
    return _DISTRIBUTIONS


def origin_of(module: str) -> str:
    """The distribution that provides ``module``, else its top-level package name."""
    top = module.split(".")[0]
    if top == "modelmine":
        return BUILT_IN
    dists = _distributions().get(top)
    return dists[0] if dists else top


class Described:
    """What every registry entry says about itself: who registered it, its available() row.

    Mixed into :class:`Entry`, the operators and the stability measures (each a frozen
    dataclass with ``name``, ``kind``, ``origin``, ``description``, ``module``,
    ``qualname`` and ``entry_point``).
    """

    name: str
    kind: str
    origin: str
    description: str
    module: str
    qualname: str
    entry_point: str | None

    def owner(self) -> str:
        """Who registered it, for messages: origin and qualified name."""
        where = f"{self.module}.{self.qualname}" if self.qualname else self.module
        return f"{self.origin!r} ({where})"

    def row(self) -> dict[str, Any]:
        """Its row of ``available()``."""
        return {"name": self.name, "kind": self.kind, "origin": self.origin,
                "description": self.description, "module": self.module,
                "entry_point": self.entry_point}


@dataclass(frozen=True, eq=False)
class Entry(Described):
    """One registered object and where it came from.

    Attributes
    ----------
    name, kind : str
        Its registry name and its kind (what kinds mean depends on the registry).
    obj : object
        What was registered (a class, a function).
    description : str
        One line (the first line of the docstring unless given).
    origin : str
        ``"built-in"``, the distribution of a plugin, or the top-level module of user code.
    module, qualname : str
        Where the object is defined.
    entry_point : str or None
        ``"name = module:attr"`` for entries found through the entry-point group.
    """

    name: str
    kind: str
    obj: Any
    description: str
    origin: str
    module: str
    qualname: str
    entry_point: str | None = None


class EntryLike(Protocol):
    """What a registry needs of its entries (:class:`Entry` and the operators' own)."""

    @property
    def name(self) -> str: ...

    @property
    def entry_point(self) -> str | None: ...

    def owner(self) -> str: ...

    def row(self) -> dict[str, Any]: ...


E = TypeVar("E", bound=EntryLike)


class Registry(Generic[E]):
    """A registry of one kind of plugin object: see the module docstring.

    Parameters
    ----------
    what : str
        What it holds, singular ("selector"), for messages.
    group : str or None
        The entry-point group scanned (None: none, for isolated registries in tests).
    builtins : callable or None
        Called once, on first use, to register the built-ins.
    """

    def __init__(self, what: str, *, group: str | None,
                 builtins: Callable[[Registry[E]], None] | None = None) -> None:
        self.what = what
        self.group = group
        self._builtins = builtins
        self._entries: dict[str, E] = {}
        self._loaded = False
        self._discovered = False
        self._loading = False

    # ------------------------------------------------------------- loading
    def _ensure(self) -> None:
        if (self._loaded and self._discovered) or self._loading:
            return
        self._loading = True
        try:
            if not self._loaded:
                self._loaded = True
                if self._builtins is not None:
                    self._builtins(self)
            if not self._discovered:
                self._discovered = True
                self._discover()
        finally:
            self._loading = False

    def _entry_points(self) -> Sequence[Any]:
        if self.group is None:
            return []
        return list(metadata.entry_points(group=self.group))

    def _discover(self) -> None:
        for ep in self._entry_points():
            dist = getattr(getattr(ep, "dist", None), "name", None) or ep.value.split(":")[0]
            label = f"{ep.name} = {ep.value}"
            try:
                obj = ep.load()
            except Exception as exc:
                warnings.warn(f"modelmine {self.what} plugin {label!r} from {dist!r} failed "
                              f"to load and was skipped: {type(exc).__name__}: {exc}",
                              PluginWarning, stacklevel=4)
                continue
            try:
                self._add(self._from_entry_point(obj, origin=dist, entry_point=label,
                                                 ep_name=ep.name))
            except (TypeError, ValueError) as exc:
                warnings.warn(f"modelmine {self.what} plugin {label!r} from {dist!r} was "
                              f"skipped: {exc}", PluginWarning, stacklevel=4)

    def _from_entry_point(self, obj: Any, *, origin: str, entry_point: str,
                          ep_name: str) -> E:
        """Build the entry of an object found through the entry-point group."""
        raise NotImplementedError

    def _add(self, entry: E) -> E:
        taken = self._entries.get(entry.name)
        if taken is not None:
            raise ValueError(f"The {self.what} name {entry.name!r} is already registered by "
                             f"{taken.owner()}; {entry.owner()} cannot register it too. "
                             "Choose another name.")
        self._entries[entry.name] = entry
        return entry

    @staticmethod
    def describe(obj: Any, description: str | None) -> dict[str, str]:
        """module, qualname and one-line description of an object being registered."""
        module = getattr(obj, "__module__", None) or type(obj).__module__
        qualname = getattr(obj, "__qualname__", type(obj).__name__)
        return {"module": module, "qualname": qualname,
                "description": description or first_line(inspect.getdoc(obj) or "")}

    @staticmethod
    def caller_origin(obj: Any) -> str:
        """The origin of an object registered by a decorator (its package or __main__)."""
        module = getattr(obj, "__module__", None) or ""
        return origin_of(module) if module != "__main__" else "__main__"

    # -------------------------------------------------------------- public
    def unregister(self, name: str) -> E:
        """Remove an entry (built-ins included) and return it."""
        self._ensure()
        if name not in self._entries:
            raise self.unknown(name, "unregister")
        return self._entries.pop(name)

    def refresh(self) -> None:
        """Forget the plugins found through entry points and scan the group again (and the
        installed distributions, which name the origin of what is registered)."""
        global _DISTRIBUTIONS
        _DISTRIBUTIONS = None
        self._entries = {n: e for n, e in self._entries.items() if e.entry_point is None}
        self._discovered = False
        self._ensure()

    def names(self) -> list[str]:
        """Registered names, in registration order."""
        self._ensure()
        return list(self._entries)

    def __contains__(self, name: object) -> bool:
        self._ensure()
        return name in self._entries

    def __len__(self) -> int:
        self._ensure()
        return len(self._entries)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def unknown(self, name: Any, func: str, param: str | None = None,
                expected: str | None = None) -> Exception:
        """The error for a name that is not registered: the list, and the closest name."""
        names = list(self._entries)
        listed = ", ".join(repr(n) for n in names)
        close = closest_names(name, names) if isinstance(name, str) else []
        hint = f"Did you mean {close[0]!r}?" if close else None
        return param_error(param or self.what, func,
                           expected or f"one of the available {self.what}s ({listed})",
                           name, hint=hint,
                           exc=ValueError if isinstance(name, str) else TypeError)

    def entry(self, name: Any, *, func: str = "get", param: str | None = None) -> E:
        """The entry registered under ``name`` (unknown: error with the closest name)."""
        self._ensure()
        if not isinstance(name, str) or name not in self._entries:
            raise self.unknown(name, func, param)
        return self._entries[name]

    def available(self) -> pd.DataFrame:
        """One row per entry: name, kind, origin, description, module, entry_point."""
        self._ensure()
        return pd.DataFrame([e.row() for e in self._entries.values()],
                            columns=AVAILABLE_COLUMNS)

    def kinds(self, names: Any, *, param: str | None = None,
              func: str = "get") -> dict[str, str]:
        """Check names given by a user; return ``{name: kind}`` in their order.

        The one place where such names are validated: an unknown name raises
        :class:`ValueError` listing the registered ones and the closest; a repeated name,
        or none, is refused. ``param`` and ``func`` name the caller's parameter and function
        in the message.
        """
        param = param or f"{self.what}s"
        given = [names] if isinstance(names, str) else list(names)
        table = self.available()
        known = dict(zip(table["name"].astype(str), table["kind"].astype(str), strict=True))
        kinds: dict[str, str] = {}
        for name in given:
            if not isinstance(name, str) or name not in known:
                close = closest_names(name, known) if isinstance(name, str) else []
                raise param_error(param, func, f"one of the available {self.what}s ("
                                  + ", ".join(repr(n) for n in known) + ")", name,
                                  hint=f"Did you mean {close[0]!r}?" if close else None,
                                  exc=ValueError if isinstance(name, str) else TypeError)
            if name in kinds:
                raise param_error(param, func, f"distinct {self.what} names",
                                  f"{name!r} twice", show=False)
            kinds[name] = known[name]
        if not kinds:
            raise param_error(param, func, f"at least one {self.what} name", "none",
                              show=False)
        return kinds


R = TypeVar("R", bound="Registry[Any]")

#: The default registry of each kind of plugin object, set by the package that fills it
#: when that package is imported. A module below that package finds the registry here
#: without importing it: ``RunSpec`` checks operator names, yet sits below ``base_models``,
#: which the operators import (issue 38: no import cycle between the stages).
_DEFAULTS: dict[str, Registry[Any]] = {}


def set_default(registry: R) -> R:
    """Make ``registry`` the default one of its kind (``registry.what``); returns it."""
    _DEFAULTS[registry.what] = registry
    return registry


def default_of(what: str) -> Registry[Any]:
    """The default registry of ``what`` ("operator", ...), set by its package on import."""
    try:
        return _DEFAULTS[what]
    except KeyError:
        raise RuntimeError(f"no default {what} registry: modelmine.{what}s is not "
                           "imported (import modelmine first)") from None
