"""The stability measures by name: a registry with the operators' pattern, and
:func:`stability` dispatching over it.

Built in: the subset measures of Kalousis et al. (2007), Dunne et al. (2002), Kuncheva
(2007), Nogueira and Brown (2016) and Nogueira et al. (2018); the ranking measures of
Kalousis et al. (2007) and Jurman et al. (2008); the score measures of Kalousis et al.
(2007) and Salman et al. (2022). More come from :func:`register_measure` or the
``modelmine.measures`` entry-point group of an installed package.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._registry import BUILT_IN, Described, Registry
from ..validation import check_choice, check_int, param_error
from ._coerce import as_rankings, as_scores
from ._nogueira import nogueira_stability
from ._rankings import (
    canberra_stability,
    score_pearson_stability,
    score_std_stability,
    spearman_stability,
)
from ._results import NogueiraResult, StabilityResult
from ._subsets import dice_stability, jaccard_stability, kuncheva_stability, pearson_stability

__all__ = [
    "INPUT_KINDS",
    "MEASURE_ENTRY_POINT_GROUP",
    "MeasureRegistry",
    "StabilityMeasure",
    "available_measures",
    "get_measure",
    "register_measure",
    "stability",
]

#: The entry-point group through which installed packages add stability measures.
MEASURE_ENTRY_POINT_GROUP = "modelmine.measures"
#: What a measure takes: selection subsets, full rankings, or scores.
INPUT_KINDS = ("subsets", "rankings", "scores")


@dataclass(frozen=True, eq=False)
class StabilityMeasure(Described):
    """A registered stability measure and where it came from.

    Attributes
    ----------
    name : str
    kind : {'subsets', 'rankings', 'scores'}
        What it takes: selection matrices / index sets, full rankings, or scores.
    func : callable
        The function computing it (its first argument is the data).
    higher_is_more_stable : bool
    reference : str
    description, origin, module, qualname : str
    entry_point : str or None
    """

    name: str
    kind: str
    func: Callable[..., Any]
    higher_is_more_stable: bool
    reference: str
    description: str = ""
    origin: str = BUILT_IN
    module: str = ""
    qualname: str = ""
    entry_point: str | None = None

    @property
    def input_kind(self) -> str:
        """Alias of :attr:`kind`."""
        return self.kind



class MeasureRegistry(Registry[StabilityMeasure]):
    """Stability measures by name (decorator, ``modelmine.measures`` entry points, lazy
    discovery, loud conflicts, closest-name errors, one ``available()`` shape)."""

    def __init__(self, *, group: str | None = MEASURE_ENTRY_POINT_GROUP,
                 builtins: bool = True) -> None:
        super().__init__("measure", group=group,
                         builtins=_register_builtin_measures if builtins else None)

    def _measure(self, func: Any, *, name: str, kind: str, higher_is_more_stable: bool,
                 reference: str, origin: str, entry_point: str | None,
                 description: str | None = None) -> StabilityMeasure:
        if not callable(func):
            raise TypeError(f"the measure {name!r} must be a function; got "
                            f"{type(func).__name__}")
        if not isinstance(name, str) or not name.strip():
            raise param_error("name", "register_measure", "a non-empty string", name)
        check_choice(kind, "kind", "register_measure", INPUT_KINDS)
        return StabilityMeasure(name=name, kind=kind, func=func,
                                higher_is_more_stable=bool(higher_is_more_stable),
                                reference=reference, origin=origin, entry_point=entry_point,
                                **self.describe(func, description))

    def _from_entry_point(self, obj: Any, *, origin: str, entry_point: str,
                          ep_name: str) -> StabilityMeasure:
        # An entry point names a function marked by @measure_spec (kind, direction, ...).
        spec = getattr(obj, "__modelmine_measure__", None)
        if spec is None:
            raise TypeError(f"{obj!r} is not marked with modelmine.diagnostics.measure_spec")
        return self._measure(obj, name=ep_name, origin=origin, entry_point=entry_point,
                             **spec)

    def register(self, name: str, func: Callable[..., Any] | None = None, *,
                 kind: str = "subsets", higher_is_more_stable: bool = True,
                 reference: str = "", description: str | None = None) -> Any:
        """Register ``func`` as the measure ``name``; without ``func``, return a decorator."""
        def deco(f: Callable[..., Any]) -> Callable[..., Any]:
            self._ensure()
            self._add(self._measure(f, name=name, kind=kind,
                                    higher_is_more_stable=higher_is_more_stable,
                                    reference=reference, origin=self.caller_origin(f),
                                    entry_point=None, description=description))
            return f

        return deco if func is None else deco(func)


def measure_spec(*, kind: str = "subsets", higher_is_more_stable: bool = True,
                 reference: str = "") -> Callable[[Any], Any]:
    """Mark a function as a stability measure for the ``modelmine.measures`` entry points."""
    check_choice(kind, "kind", "measure_spec", INPUT_KINDS)

    def mark(func: Any) -> Any:
        func.__modelmine_measure__ = {"kind": kind,
                                      "higher_is_more_stable": higher_is_more_stable,
                                      "reference": reference}
        return func

    return mark


def _register_builtin_measures(registry: Registry[StabilityMeasure]) -> None:
    assert isinstance(registry, MeasureRegistry)
    for name, func, kind, higher, ref in (
            ("jaccard", jaccard_stability, "subsets", True, "Kalousis et al. 2007"),
            ("dice", dice_stability, "subsets", True, "Dunne et al. 2002"),
            ("kuncheva", kuncheva_stability, "subsets", True, "Kuncheva 2007"),
            ("pearson", pearson_stability, "subsets", True, "Nogueira and Brown 2016"),
            ("nogueira", nogueira_stability, "subsets", True,
             "Nogueira, Sechidis and Brown 2018"),
            ("spearman", spearman_stability, "rankings", True, "Kalousis et al. 2007"),
            ("canberra", canberra_stability, "rankings", False, "Jurman et al. 2008"),
            ("score_pearson", score_pearson_stability, "scores", True,
             "Kalousis et al. 2007"),
            ("score_std", score_std_stability, "scores", False, "Salman et al. 2022")):
        registry._add(registry._measure(func, name=name, kind=kind,
                                        higher_is_more_stable=higher, reference=ref,
                                        origin=BUILT_IN, entry_point=None))


_DEFAULT = MeasureRegistry()


def register_measure(name: str, func: Callable[..., Any] | None = None, *,
                     kind: str = "subsets", higher_is_more_stable: bool = True,
                     reference: str = "", description: str | None = None) -> Any:
    """Register a stability measure in the default registry (usable by name at once).

    ``func(data, **kwargs)`` receives a boolean selection matrix (kind "subsets"), a rank
    matrix ("rankings") or a score matrix ("scores"), coerced by :func:`stability`.
    """
    return _DEFAULT.register(name, func, kind=kind,
                             higher_is_more_stable=higher_is_more_stable,
                             reference=reference, description=description)


def get_measure(name: str) -> StabilityMeasure:
    """The registered measure ``name`` (unknown: the list and the closest name)."""
    return _DEFAULT.entry(name, func="get_measure", param="measure")


def available_measures() -> Any:
    """The stability measures: name, kind, origin, description, module, entry_point."""
    return _DEFAULT.available()


def stability(
    data: Any, measure: str = "nogueira", *, n_features_in: int | None = None, **kwargs: Any
) -> StabilityResult | NogueiraResult:
    """Stability of a collection of subsets, rankings or scores, by measure name.

    Parameters
    ----------
    data : BaseModels, SignatureSet, sequence of Signatures, or array-like
        What the measure's kind needs: subsets (a boolean matrix ``(M, d)``, index arrays,
        signatures, base models) for ``'jaccard'``, ``'dice'``, ``'kuncheva'``,
        ``'pearson'``, ``'nogueira'``; full rankings ``(M, d)`` (or base models, whose tied
        ranks are used) for ``'spearman'`` and ``'canberra'``; scores ``(M, d)`` (or base
        models) for ``'score_pearson'`` and ``'score_std'``.
    measure : str, default='nogueira'
        A registered measure (:func:`available_measures`).
    n_features_in : int, optional
        ``d`` when subsets are given as index arrays.
    **kwargs
        Passed to the measure's function (``pairwise``, ``confidence_level``,
        ``normalize``).

    Returns
    -------
    StabilityResult or NogueiraResult
    """
    info = _DEFAULT.entry(measure, func="stability", param="measure")
    if info.kind == "subsets":
        return info.func(data, n_features_in, **kwargs)
    values = as_rankings(data, "stability") if info.kind == "rankings" else as_scores(
        data, "stability")
    if n_features_in is not None:
        n = check_int(n_features_in, "n_features_in", "stability", min_value=1)
        width = np.shape(values)[-1] if np.ndim(values) == 2 else None
        if width != n:
            raise param_error("n_features_in", "stability",
                              f"None or the number of columns of the {info.kind}",
                              n_features_in)
    return info.func(values, **kwargs)
