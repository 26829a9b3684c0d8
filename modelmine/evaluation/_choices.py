"""What an evaluation compares: its selectors, operators and their parameters, checked.

The protocols of :mod:`modelmine.evaluation` (KDD'12's :func:`~modelmine.evaluate`, the
outcomes', Pes's, Salman's) name the same things the same way (``selectors``,
``operators``, ``operator_params``); each compared selector becomes the call's
:class:`~modelmine.RunSpec` with that selector (:func:`fold_selectors`), so that every
other setting of the call reaches its folds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..operators import Operator, available_operators, get_operator, operator_kinds
from ..selectors import Selector, get_selector
from ..spec import RunSpec
from ..validation import param_error

__all__ = ["RECORDED", "check_operator_params", "described", "fold_selectors",
           "record_label", "resolve_operators", "resolve_selectors"]

_FUNC = "evaluate"


def resolve_selectors(spec: Any, func: str) -> dict[str, Selector]:
    """The selectors compared, by label: names, objects, estimators or callables (a
    mapping gives the labels; a name labels itself), built and distinct."""
    if isinstance(spec, (str, bytes, Selector)) or hasattr(spec, "fit"):
        spec = [spec]
    items: list[tuple[str | None, Any]]
    if isinstance(spec, Mapping):
        items = [(str(k), v) for k, v in spec.items()]
    elif isinstance(spec, Sequence):
        items = [(None, v) for v in spec]
    else:
        raise param_error("selectors", func, "a list of selector names or selectors", spec,
                          exc=TypeError)
    if not items:
        raise param_error("selectors", func, "a non-empty list of selectors", spec)
    out: dict[str, Selector] = {}
    for label, value in items:
        sel = get_selector(value, None, func=func)
        label = label or (value if isinstance(value, str) else sel.name)
        if label in out:
            raise param_error("selectors", func, "selectors with distinct names",
                              f"{label!r} twice", show=False)
        out[label] = sel
    return out


def resolve_operators(spec: Any, func: str) -> list[Operator]:
    """The operators compared (None: every available one), with ``nobagg`` first: the
    baseline of every comparison."""
    if spec is None:
        spec = available_operators()["name"].tolist()
    elif isinstance(spec, (str, Operator)):
        spec = [spec]
    if not isinstance(spec, Sequence) or not spec:
        raise param_error("operators", func, "None (all available) or a non-empty list of "
                          "operator names", spec, exc=TypeError if not isinstance(
                              spec, Sequence) else ValueError)
    # Names are checked where every door checks them (operator_kinds); Operator objects
    # (not necessarily registered) are taken as they are.
    names = [v for v in spec if not isinstance(v, Operator)]
    if names:
        operator_kinds(names, param="operators", func=func)
    ops: list[Operator] = []
    for value in spec:
        op = value if isinstance(value, Operator) else get_operator(value)
        if any(o.name == op.name for o in ops):
            raise param_error("operators", func, "distinct operators", f"{op.name!r} twice",
                              show=False)
        ops.append(op)
    # The baseline every comparison of KDD'12 Table 2 includes.
    if not any(o.name == "nobagg" for o in ops):
        ops.insert(0, get_operator("nobagg"))
    return ops


def check_operator_params(params: Any, ops: list[Operator], func: str
                          ) -> dict[str, dict[str, Any]]:
    """Parameters per operator, keyed by the operators compared."""
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise param_error("operator_params", func, "a mapping operator name -> parameters",
                          params, exc=TypeError)
    known = [o.name for o in ops]
    out = {}
    for name, value in params.items():
        if name not in known:
            raise param_error("operator_params", func, "keyed by evaluated operators ("
                              + ", ".join(repr(n) for n in known) + ")", name)
        if not isinstance(value, Mapping):
            raise param_error("operator_params", func, "a mapping of parameters for "
                              f"{name!r}", value, exc=TypeError)
        out[name] = dict(value)
    return out


#: The selectors of ``evaluate(run=...)`` / ``spec=`` when none are named: the record's.
RECORDED = object()


def record_label(record: RunSpec) -> str:
    """The label of a record's selector in the evaluation's tables: its name (the names
    joined by "+" for a heterogeneous ensemble)."""
    return "+".join(s.name for s in record.selectors)


def fold_selectors(selectors: Any, spec: RunSpec, func: str = _FUNC) -> dict[str, RunSpec]:
    """Each compared selector's settings: the call's spec with that selector (a name or
    object of ``selectors``, without the spec's selector parameters), or, for the record's
    own (:data:`RECORDED`), the spec as it is."""
    if isinstance(selectors, Mapping) and any(v is RECORDED for v in selectors.values()):
        return {label: spec for label in selectors}
    resolved = resolve_selectors(selectors, func)
    kind = spec.outcome_kind
    for label, sel in resolved.items():  # before the first fit, in the study's words
        if not kind.fits(sel):
            from ..selectors import selectors_for

            raise param_error(
                "selectors", func, f"selectors for outcome={kind.name!r} (default: "
                f"{kind.default_selector!r}; selectors for it: "
                f"{', '.join(selectors_for(kind))})",
                f"{label!r}, which fits {' or '.join(map(repr, sel.outcomes))} only",
                show=False)
    # a name stays a name (the record of the fold's base models then names it)
    given = list(selectors.values()) if isinstance(selectors, Mapping) else \
        [selectors] if isinstance(selectors, str | bytes | Selector) or hasattr(
            selectors, "fit") else list(selectors)
    return {label: spec.replace(func, selector=value if isinstance(value, str) else sel,
                                selector_params=None)
            for (label, sel), value in zip(resolved.items(), given)}


def described(spec: RunSpec) -> Any:
    """What a fold's selector records (the cache's key, the result's settings)."""
    if spec.heterogeneous:
        return [dict(s.describe()) for s in spec.selectors]
    return spec.selectors[0].describe()
