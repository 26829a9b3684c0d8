"""The operator registry: one registry, two ways in (a decorator and an entry-point group).

An operator maps base models to one signature (kind ``"single"``) or to k alternative
signatures (kind ``"multi"``), as the model aggregation operators of Woznica, Nguyen and
Kalousis (KDD 2012, section 2). Operators enter a registry

- through :func:`register_operator` (a decorator, usable by name at once), or
- through the entry-point group ``modelmine.operators`` of an installed distribution,
  discovered lazily on first use, cached, and rescanned by :func:`refresh`.

The operator protocol, checked when an operator registers (never on first use)::

    def op(base, *, n_features, [random_state=None], [other=default, ...]) -> Signature
    def op(base, *, n_signatures, [n_features=None], [random_state=None], ...) -> SignatureSet

- the first parameter takes the :class:`~modelmine.BaseModels` positionally;
- a single-model operator takes ``n_features`` (an int, resolved by :func:`aggregate`), a
  multi-model operator ``n_signatures`` (and optionally ``n_features``);
- every other parameter has a default and can be passed by keyword; no ``*args`` and no
  ``**kwargs`` (so that :func:`aggregate` can name the parameters an operator accepts);
- a single-model operator returns a :class:`Signature` or a 1-D array of feature indices;
  a multi-model operator returns a :class:`SignatureSet` or a sequence of those. Anything
  else is refused by :func:`aggregate` with an error naming the operator and its plugin.

The module-level functions act on a default :class:`OperatorRegistry`; tests and
applications that need isolation build their own instance.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .._registry import BUILT_IN, Described, Registry, first_line, origin_of, set_default
from ..base_models import BaseModels
from ..validation import param_error
from ._aggregate import distinct_models, run_operator
from ._signature import Signature, SignatureSet
from ._two_level import aggregate_two_level

__all__ = [
    "ENTRY_POINT_GROUP",
    "Operator",
    "OperatorRegistry",
    "aggregate",
    "available",
    "declare_operator",
    "default_registry",
    "get_operator",
    "refresh",
    "register_operator",
]

ENTRY_POINT_GROUP = "modelmine.operators"
KINDS = ("single", "multi")
_SPEC_ATTR = "__modelmine_operator__"
_RESERVED = ("n_features", "n_signatures", "random_state")
_MISSING = object()


def _all_features(base: BaseModels) -> int:
    return base.n_features_in


def linear_nbytes(n_models: int, n_distinct: int, n_features_in: int, n_signatures: int,
                  params: Any = None) -> int:
    """The memory of an operator that reads the b x p ranks, scores and subsets once:
    four b x p float64 arrays (the ranks or scores as float, their order, a copy, a
    result), the default estimate of the built-ins without their own."""
    return 4 * 8 * int(n_models) * int(n_features_in)


@dataclass(frozen=True, eq=False)
class Operator(Described):
    """A registered operator and where it came from.

    Attributes
    ----------
    name, kind : str
        Its registry name and ``"single"`` or ``"multi"``.
    func : callable
        The implementation (see the protocol in the module docstring).
    description : str
        One line (the first line of the docstring unless given).
    origin : str
        ``"built-in"``, the distribution of a plugin, or the top-level module of user code.
    module, qualname, doc : str
        Where the function is defined and its full docstring.
    entry_point : str or None
        ``"name = module:attr"`` for operators found through the entry-point group.
    order_invariant : bool
        True when the definition makes the result independent of the order of the base
        models (checked by :func:`modelmine.testing.check_operator`).
    max_features, max_signatures : callable
        ``base -> int``: the largest n_features (single) / n_signatures (multi) the
        operator can serve for these base models.
    params : dict
        Operator-specific keyword parameters and their defaults.
    accepts_random_state, accepts_n_features : bool
    variable_size : bool
        A single-model operator whose signature may hold fewer than n_features features,
        or none (the error-controlled ones: ``stabilitySelection``, ``stabl``). It gets
        ``n_features=None`` unless one is asked (then a cap), and :func:`aggregate` checks
        ``len(signature) <= n_features`` instead of equality.
    requires : tuple of str
        What the base models must have for the operator to apply: ``"error-control"``
        (subsamples of n/2 or complementary pairs), ``"artificial-features"``.
        :func:`modelmine.testing.check_operator` builds its synthetic base models with
        them.
    nbytes : callable or None
        ``(n_models, n_distinct, n_features_in, n_signatures, params) -> int``: the bytes
        the operator holds at its peak on b base models of p features, at most
        ``n_distinct`` of them distinct, with its ``params``; estimated before the first
        fit (:func:`modelmine.base_models._checks.operators_nbytes`), as
        :meth:`modelmine.selectors.Selector.prepare_nbytes` estimates a selector's shared
        work. Built-ins without their own take a few b x p arrays; None (a plugin that
        gives none): not estimated.
    """

    name: str
    kind: str
    func: Callable[..., Any]
    description: str = ""
    origin: str = BUILT_IN
    module: str = ""
    qualname: str = ""
    doc: str = ""
    entry_point: str | None = None
    order_invariant: bool = True
    max_features: Callable[[BaseModels], int] = _all_features
    max_signatures: Callable[[BaseModels], int] = distinct_models
    params: dict[str, Any] = field(default_factory=dict)
    accepts_random_state: bool = False
    accepts_n_features: bool = True
    variable_size: bool = False
    requires: tuple[str, ...] = ()
    nbytes: Callable[..., int] | None = None

    @property
    def is_plugin(self) -> bool:
        return self.origin != BUILT_IN


    def __call__(self, base: BaseModels, **kwargs: Any) -> Signature | SignatureSet:
        """Run through :func:`aggregate`-style validation of the default registry."""
        return run_operator(self, base, **kwargs)


def declare_operator(
    name: str | None = None,
    *,
    kind: str = "single",
    description: str | None = None,
    order_invariant: bool = True,
    max_features: Callable[[BaseModels], int] | None = None,
    max_signatures: Callable[[BaseModels], int] | None = None,
    variable_size: bool = False,
    requires: tuple[str, ...] = (),
    nbytes: Callable[..., int] | None = None,
    func: str = "declare_operator",
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a function as an operator without registering it (for plugins).

    A plugin module decorates its functions with this and lists them in the entry-point
    group ``modelmine.operators`` of its ``pyproject.toml``; the registry reads the marks
    when it discovers the entry point (the entry-point name is the operator name unless
    ``name`` is given). Nothing is registered at import, so importing a plugin has no side
    effect. Arguments are those of :func:`register_operator` (which marks, then
    registers, the same way); ``variable_size`` marks a single-model operator whose
    ``n_features`` is a cap (its error control decides the size), ``requires`` names what
    the base models must hold (for example ``("artificial",)``), ``nbytes`` estimates its
    peak memory before the first fit (:attr:`Operator.nbytes`).
    """
    if kind not in KINDS:
        raise param_error("kind", func, "one of 'single', 'multi'", kind)

    def mark(func: Callable[..., Any]) -> Callable[..., Any]:
        setattr(func, _SPEC_ATTR, {
            "name": name, "kind": kind, "description": description,
            "order_invariant": order_invariant, "max_features": max_features,
            "max_signatures": max_signatures, "variable_size": variable_size,
            "requires": tuple(requires), "nbytes": nbytes,
        })
        return func

    return mark


def _check_protocol(name: str, kind: str, func: Callable[..., Any], owner: str) -> dict[str, Any]:
    """Check a call signature against the operator protocol; return what it accepts."""
    if not callable(func):
        raise TypeError(f"Operator {name!r} from {owner} cannot be registered: "
                        f"{func!r} is not callable.")
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"Operator {name!r} from {owner} cannot be registered: its call "
                        f"signature cannot be read ({exc}).") from None
    params = list(sig.parameters.values())

    def refuse(reason: str) -> TypeError:
        return TypeError(
            f"Operator {name!r} from {owner} cannot be registered: its call signature "
            f"{name}{sig} does not fit the operator protocol: {reason}. Expected "
            + ("op(base, *, n_features, ...)" if kind == "single"
               else "op(base, *, n_signatures, ...)") + ".")

    if not params or params[0].kind not in (inspect.Parameter.POSITIONAL_ONLY,
                                            inspect.Parameter.POSITIONAL_OR_KEYWORD):
        raise refuse("the first parameter must take the base models positionally")
    if params[0].default is not inspect.Parameter.empty:
        raise refuse(f"the base-models parameter {params[0].name!r} must not have a default")
    rest = {p.name: p for p in params[1:]}
    for p in params[1:]:
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            raise refuse(f"*{p.name} is not allowed (parameters must be named)")
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            raise refuse(f"**{p.name} is not allowed (parameters must be named, so that "
                         "aggregate can check them)")
        if p.kind is inspect.Parameter.POSITIONAL_ONLY:
            raise refuse(f"{p.name!r} is positional-only (it must be passable by keyword)")
    needed = "n_features" if kind == "single" else "n_signatures"
    if needed not in rest:
        raise refuse(f"a {kind}-model operator must accept the keyword parameter {needed!r}")
    for p in rest.values():
        if p.name != needed and p.default is inspect.Parameter.empty:
            raise refuse(f"parameter {p.name!r} has no default (only {needed!r} may be "
                         "required)")
    return {
        "params": {p.name: p.default for p in rest.values() if p.name not in _RESERVED},
        "accepts_random_state": "random_state" in rest,
        "accepts_n_features": "n_features" in rest,
    }


#: The built-in operators, in order: ``_builtin.py`` adds them when the package is
#: imported (the registry never imports the operators it serves, so no import cycle).
_BUILTINS: list[Callable[..., Any]] = []


def add_builtins(funcs: Any) -> None:
    """Declare built-in operators (functions marked with :func:`declare_operator`) that
    every registry instance loads first; called once, by ``operators/_builtin.py``."""
    _BUILTINS.extend(funcs)


def _register_builtins(registry: Registry[Operator]) -> None:
    assert isinstance(registry, OperatorRegistry)
    for func in _BUILTINS:
        registry._add_marked(func, origin=BUILT_IN, entry_point=None, ep_name=None)


class OperatorRegistry(Registry[Operator]):
    """A registry of operators: built-ins, decorated user functions, entry-point plugins.

    Parameters
    ----------
    group : str or None, default="modelmine.operators"
        Entry-point group to discover plugins in; None disables discovery.
    builtins : bool, default=True
        Load the built-in operators (KDD 2012 and Salman 2022).

    Built-ins and entry points are loaded lazily, on first use, and cached;
    :meth:`refresh` forgets the plugins and rescans the entry points.
    """

    def __init__(self, *, group: str | None = ENTRY_POINT_GROUP, builtins: bool = True):
        super().__init__("operator", group=group,
                         builtins=_register_builtins if builtins else None)

    def _from_entry_point(self, obj: Any, *, origin: str, entry_point: str,
                          ep_name: str) -> Operator:
        return self._add_marked(obj, origin=origin, entry_point=entry_point, ep_name=ep_name,
                                add=False)

    def _add_marked(self, func: Any, *, origin: str, entry_point: str | None,
                    ep_name: str | None, add: bool = True) -> Operator:
        spec = getattr(func, _SPEC_ATTR, None)
        if isinstance(func, Operator):
            return self._add(func) if add else func
        if spec is None:
            raise TypeError(f"{func!r} is not marked with "
                            "modelmine.operators.declare_operator (its kind is unknown)")
        name = spec["name"] or ep_name
        if ep_name is not None and spec["name"] and spec["name"] != ep_name:
            raise ValueError(f"the entry point is named {ep_name!r} but the operator "
                             f"declares the name {spec['name']!r}")
        op = self._build(name, func, origin=origin, entry_point=entry_point,
                         **{k: v for k, v in spec.items() if k != "name"})
        return self._add(op) if add else op

    def _build(self, name: Any, func: Callable[..., Any], *, kind: str, origin: str,
               description: str | None = None, order_invariant: bool = True,
               max_features: Callable[[BaseModels], int] | None = None,
               max_signatures: Callable[[BaseModels], int] | None = None,
               entry_point: str | None = None, variable_size: bool = False,
               requires: tuple[str, ...] = (),
               nbytes: Callable[..., int] | None = None) -> Operator:
        if not isinstance(name, str) or not name.strip():
            raise param_error("name", "register_operator", "a non-empty string", name,
                              exc=TypeError if not isinstance(name, str) else ValueError)
        if kind not in KINDS:
            raise param_error("kind", "register_operator", "one of 'single', 'multi'", kind)
        module = getattr(func, "__module__", None) or type(func).__module__
        qualname = getattr(func, "__qualname__", type(func).__name__)
        owner = f"{origin!r} ({module}.{qualname})"
        accepted = _check_protocol(name, kind, func, owner)
        doc = inspect.getdoc(func) or ""
        return Operator(
            name=name, kind=kind, func=func,
            description=description or first_line(doc) or f"{kind}-model operator",
            origin=origin, module=module, qualname=qualname, doc=doc,
            entry_point=entry_point, order_invariant=bool(order_invariant),
            max_features=max_features or _all_features,
            max_signatures=max_signatures or distinct_models,
            variable_size=bool(variable_size) and kind == "single",
            requires=tuple(requires),
            nbytes=nbytes if nbytes is not None or origin != BUILT_IN else linear_nbytes,
            **accepted)

    # -------------------------------------------------------------- public
    def register(
        self, name: str, func: Callable[..., Any] | None = None, *, kind: str = "single",
        description: str | None = None, order_invariant: bool = True,
        max_features: Callable[[BaseModels], int] | None = None,
        max_signatures: Callable[[BaseModels], int] | None = None,
        variable_size: bool = False, requires: tuple[str, ...] = (),
        nbytes: Callable[..., int] | None = None,
    ) -> Any:
        """Register ``func`` as operator ``name`` (or, without ``func``, return a decorator).

        Takes exactly what :func:`declare_operator` takes, and goes the same way: the
        function is marked, then the mark is registered (so a declared function and a
        registered one cannot differ). The call signature is checked at once against the
        protocol (module docstring); a taken name raises :class:`ValueError` naming both
        owners.
        """
        if not isinstance(name, str) or not name.strip():
            raise param_error("name", "register_operator", "a non-empty string", name,
                              exc=TypeError if not isinstance(name, str) else ValueError)
        marker = declare_operator(name, kind=kind, description=description,
                                  order_invariant=order_invariant, max_features=max_features,
                                  max_signatures=max_signatures, variable_size=variable_size,
                                  requires=requires, nbytes=nbytes, func="register_operator")

        def deco(f: Callable[..., Any]) -> Callable[..., Any]:
            self._ensure()
            module = getattr(f, "__module__", None) or ""
            origin = origin_of(module) if module != "__main__" else "__main__"
            previous = getattr(f, _SPEC_ATTR, _MISSING)
            marker(f)
            try:
                self._add_marked(f, origin=origin, entry_point=None, ep_name=None)
            finally:  # registering leaves the user's function as it was
                if previous is _MISSING:
                    delattr(f, _SPEC_ATTR)
                else:
                    setattr(f, _SPEC_ATTR, previous)
            return f

        return deco if func is None else deco(func)

    def _unknown(self, name: Any, func: str) -> Exception:
        return self.unknown(name, func, "operator")

    def get(self, name: Any) -> Operator:
        """The :class:`Operator` registered under ``name`` (unknown: error with the closest)."""
        self._ensure()
        if isinstance(name, Operator):
            return name
        if not isinstance(name, str) or name not in self._entries:
            raise self._unknown(name, "get_operator")
        return self._entries[name]

    def aggregate(self, base: BaseModels, operator: str | Operator, *,
                  n_features: int | None = None, n_signatures: int | None = None,
                  random_state: Any = None, within: Any = None, between: Any = None,
                  **params: Any) -> Signature | SignatureSet:
        """See :func:`aggregate`."""
        if not isinstance(operator, (str, Operator)):
            self._ensure()
            raise self._unknown(operator, "aggregate")
        self._ensure()
        if isinstance(operator, str) and operator not in self._entries:
            raise self._unknown(operator, "aggregate")
        op = operator if isinstance(operator, Operator) else self._entries[operator]
        if within is not None:
            if n_signatures is not None:
                raise param_error("n_signatures", "aggregate", "None for a two-level "
                                  "aggregation (within='selector')", n_signatures)
            if isinstance(between, str) and between not in self._entries:
                raise self.unknown(between, "aggregate", "between")
            return aggregate_two_level(self, base, op, within=within, between=between,
                                       n_features=n_features, random_state=random_state,
                                       params=params)
        if between is not None:
            raise param_error("between", "aggregate", "None unless within='selector'",
                              between)
        return run_operator(op, base, n_features=n_features, n_signatures=n_signatures,
                            random_state=random_state, **params)


# ------------------------------------------------------- the default registry
_DEFAULT = set_default(OperatorRegistry())


def default_registry() -> OperatorRegistry:
    """The registry behind the module-level functions."""
    return _DEFAULT


def register_operator(
    name: str, func: Callable[..., Any] | None = None, *, kind: str = "single",
    description: str | None = None, order_invariant: bool = True,
    max_features: Callable[[BaseModels], int] | None = None,
    max_signatures: Callable[[BaseModels], int] | None = None,
    variable_size: bool = False, requires: tuple[str, ...] = (),
    nbytes: Callable[..., int] | None = None,
) -> Any:
    """Register an operator in the default registry; usable by name at once.

    Used as a decorator::

        @register_operator("topTwo", kind="single")
        def top_two(base, *, n_features):
            ...  # return a Signature or a 1-D array of n_features feature indices

    Parameters
    ----------
    name : str
        The name :func:`aggregate` will know it by. A taken name raises ValueError
        naming both owners.
    func : callable, optional
        The operator; omitted when used as a decorator.
    kind : {"single", "multi"}, default="single"
        One signature, or k alternative signatures (KDD 2012, section 2.2).
    description : str, optional
        One line for :func:`available` (default: the docstring's first line).
    order_invariant : bool, default=True
        Whether the definition makes the result independent of the order of the base
        models (checked by :func:`modelmine.testing.check_operator`).
    max_features, max_signatures : callable, optional
        ``base -> int``, the largest n_features / n_signatures the operator can serve
        (default: p features; the number of distinct base models).
    variable_size : bool, default=False
        A single-model operator whose ``n_features`` is a cap: its error control decides
        the size of the signature.
    requires : tuple of str, default=()
        What the base models must hold, for example ``("artificial",)``.
    nbytes : callable, optional
        ``(n_models, n_distinct, n_features_in, n_signatures, params) -> int``, the bytes
        the operator holds at its peak, estimated before a run's first fit
        (:attr:`Operator.nbytes`); an operator whose memory grows faster than b x p should
        give one.

    Returns
    -------
    callable
        ``func`` unchanged (or the decorator).

    Raises
    ------
    TypeError
        The call signature does not fit the operator protocol (the reason is given).
    ValueError
        The name is taken.
    """
    return _DEFAULT.register(name, func, kind=kind, description=description,
                             order_invariant=order_invariant, max_features=max_features,
                             max_signatures=max_signatures, variable_size=variable_size,
                             requires=requires, nbytes=nbytes)


def get_operator(name: str) -> Operator:
    """The registered :class:`Operator` named ``name`` (default registry)."""
    return _DEFAULT.get(name)


def available_operators() -> pd.DataFrame:
    """Operators of the default registry: name, kind, origin, description, module."""
    return _DEFAULT.available()


#: The earlier name of :func:`available_operators`.
available = available_operators


def refresh() -> None:
    """Rescan the ``modelmine.operators`` entry points of the default registry."""
    _DEFAULT.refresh()


def aggregate(base: BaseModels, operator: str | Operator, *, n_features: int | None = None,
              n_signatures: int | None = None, random_state: Any = None,
              within: Any = None, between: Any = None,
              **params: Any) -> Signature | SignatureSet:
    """Build signature(s) from base models with a registered operator.

    The model aggregation step of Woznica, Nguyen and Kalousis (KDD 2012, section 2).

    Parameters
    ----------
    base : BaseModels
        The base models (:func:`modelmine.bootstrap`).
    operator : str
        An operator name (:func:`available` lists them), e.g. ``"closedApr"``, ``"allMed"``.
    n_features : int, optional
        m, the signature size, for single-model operators. Default: the size of the base
        models' subsets (``base.n_features``), capped by what the operator can serve.
        Operators that return whole base models (mostRep, largeMed, med*) take the top
        ``n_features`` of the chosen model.
    n_signatures : int, optional
        k, the number of alternative signatures, for multi-model operators; default 10
        (the paper's k), capped by the number of distinct base models.
    random_state : None or int, optional
        Seed for operators that draw (passed when the operator accepts it).
    within : {None, "selector"}, optional
        ``"selector"``: a two-level aggregation of a heterogeneous ensemble
        (``bootstrap(selector=[...])``; Salman 2022, Section 3.2, WAM then BAM): the
        operator aggregates the models of each selector, then ``between`` aggregates the
        selectors' min-max normalised aggregates (see
        :mod:`modelmine.operators._two_level`). Single-model operators only.
    between : str, optional
        The between-selector operator (default: ``operator`` itself).
    **params
        Operator-specific parameters (e.g. ``min_support``, ``k_range``); unknown names
        are refused with the list of accepted ones.

    Returns
    -------
    Signature or SignatureSet
        With ``provenance["operator"]``, ``["params"]``, ``["base_models"]`` and the
        operator's own record (two-level: ``"within"`` and ``"between"`` records too).

    Examples
    --------
    >>> import modelmine as mm
    >>> X, y = mm.datasets.load_colon()
    >>> base = mm.bootstrap(X[:, :200], y, ["ig", "su", "chi2"], n_bootstraps=5,
    ...                     n_features=10, random_state=0)
    >>> sig = mm.aggregate(base, "meanScore", within="selector", between="meanScore")
    >>> len(sig)
    10
    """
    return _DEFAULT.aggregate(base, operator, n_features=n_features,
                              n_signatures=n_signatures, random_state=random_state,
                              within=within, between=between, **params)

