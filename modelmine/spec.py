"""The run specification: every setting that shapes a model-mining run, validated once.

A model-mining run (Woznica, Nguyen and Kalousis, KDD 2012, sections 2-3) is decided by a
handful of settings: the selector and its parameters, b resamples of a resampling scheme,
m features per base model, the operators with k alternatives and the signatures' size, the
minimum support of the itemsets, the scaling, the artificial features, and the seed.
:class:`RunSpec` holds them in one frozen, validated record. Every door builds one and
passes it down: :func:`modelmine.run`, :func:`modelmine.resume`,
:func:`modelmine.bootstrap`, :class:`modelmine.ModelMiningSelector`,
:func:`modelmine.evaluate` (one per fold) and ``modelmine run``; ``run.json`` stores it
(:meth:`RunSpec.to_settings`), and :meth:`RunSpec.from_settings` reads it back. A new
setting is added here, in one place.

What can be checked without the data is checked when the record is made, with messages that
name the public function the user called (``func``); what needs the data (m against p,
classes per resample, memory) is checked by :func:`modelmine.base_models.check_run_data`
before the first fit. Two policies live here, each owned by one function:

- the seed (:func:`resolve_seed`): None, an int, a ``SeedSequence``, a
  ``numpy.random.RandomState`` or a ``Generator`` become one non-negative integer, the
  run's recorded seed; the default is the fixed seed 0, so the same call gives the same
  result;
- sizes above what the data allow (:func:`capped`): m above p, a signature size above p,
  k above the distinct base models, an operator's m above what it can return: capped with a
  warning, everywhere.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import InitVar, dataclass, field, fields, replace
from typing import Any

import numpy as np

from .constants import (
    DEFAULT_MIN_SUPPORT,
    DEFAULT_N_BOOTSTRAPS,
    DEFAULT_N_FEATURES,
    DEFAULT_N_SIGNATURES,
)
from .exceptions import SizeCappedWarning
from .validation import check_choice, check_fraction_or_count, check_int, check_real, param_error

__all__ = [
    "ARTIFICIAL_FEATURES",
    "DEFAULT_OPERATORS",
    "DEFAULT_RANDOM_STATE",
    "DEFAULT_SELECTORS",
    "RESAMPLING_METHODS",
    "RunSpec",
    "capped",
    "resolve_seed",
    "spec_alone",
]

#: The operators of ``mm.run`` and ``modelmine run`` unless told otherwise: one consensus
#: signature from frequent model fragments (closedApr) and k alternatives (allMed).
DEFAULT_OPERATORS = ("closedApr", "allMed")

#: The selector of each outcome unless told otherwise: SVM-RFE for classes (KDD 2012's
#: default), its regression analogue for a continuous target, the elastic-net Cox path
#: (stabs' survival learner) for survival.
DEFAULT_SELECTORS = {"classification": "svm-rfe", "regression": "svr-rfe",
                     "survival": "coxnet"}

#: The seed of every door unless told otherwise (as scanpy's ``random_state=0``): the
#: same command gives the same result. ``random_state=None`` draws fresh entropy.
DEFAULT_RANDOM_STATE = 0

#: The resampling schemes of :func:`modelmine.bootstrap`.
RESAMPLING_METHODS = ("bootstrap", "subsample", "complementary-pairs")

#: The kinds of artificial features :func:`modelmine.bootstrap` can append.
ARTIFICIAL_FEATURES = ("permutation", "knockoff")

#: The default size of a resample, as a fraction of n, per scheme.
DEFAULT_FRACTIONS = {"bootstrap": 1.0, "subsample": 0.9, "complementary-pairs": 0.5}

_SEED_TYPES = ("None, a non-negative integer, a numpy.random.SeedSequence, a "
               "numpy.random.RandomState or a numpy.random.Generator")


def resolve_seed(random_state: Any, func: str = "RunSpec") -> int:
    """The run's seed as one non-negative integer, from anything scikit-learn users pass.

    - None: fresh entropy (a 128-bit integer), recorded so the run can be reproduced;
    - a non-negative integer: itself;
    - a ``numpy.random.SeedSequence``: its entropy when it is a root sequence, else a
      128-bit integer drawn from its state (either way the recorded integer reproduces
      the run);
    - a ``numpy.random.RandomState`` or ``numpy.random.Generator``: a 63-bit integer drawn
      from it (the generator advances, as scikit-learn's ``check_random_state`` users
      expect).

    Every random draw of the run then comes from ``numpy.random.SeedSequence(seed)``
    (children spawned per bootstrap), so results never depend on the number of workers.
    """
    if random_state is None:
        entropy = np.random.SeedSequence().entropy
        assert isinstance(entropy, int)
        return entropy
    if isinstance(random_state, bool | np.bool_):
        raise param_error("random_state", func, _SEED_TYPES, random_state, exc=TypeError)
    if isinstance(random_state, numbers.Integral):
        if int(random_state) < 0:
            raise param_error("random_state", func, _SEED_TYPES, random_state)
        return int(random_state)
    if isinstance(random_state, np.random.SeedSequence):
        entropy = random_state.entropy
        if isinstance(entropy, int) and not random_state.spawn_key:
            return entropy
        state = random_state.generate_state(2, np.uint64)
        return (int(state[0]) << 64) | int(state[1])
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, np.iinfo(np.int64).max, dtype=np.int64))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, np.iinfo(np.int64).max))
    raise param_error("random_state", func, _SEED_TYPES, random_state, exc=TypeError)


def capped(value: int, limit: int, *, name: str, func: str, why: str) -> int:
    """The one policy for a size above what the data allow: cap it, with a warning.

    Used for m above p (:func:`modelmine.run`, :func:`modelmine.bootstrap`,
    :func:`modelmine.evaluate`, :class:`modelmine.ModelMiningSelector`), a signature size
    above p, and, in :func:`modelmine.aggregate`, k above the alternatives an operator can
    return (KDD 2012, section 2.4: at most the distinct base models) and m above the
    features an operator can return; ``aggregate`` also records the request and the cap in
    the signature's provenance.

    Parameters
    ----------
    value, limit : int
        The size asked for and the most the data allow.
    name : str
        The parameter's name (``"n_features"``, ``"n_signatures"``, ...).
    func : str
        The public function that was called.
    why : str
        What the limit is, completing "is above ...", for example ``"the 30 features of
        X"``.

    Warns
    -----
    SizeCappedWarning
        A ``UserWarning``: ``"n_features=50 is above the 30 features of X: run uses
        n_features=30."``
    """
    if value <= limit:
        return value
    warnings.warn(f"{name}={value} is above {why}: {func} uses {name}={limit}.",
                  SizeCappedWarning, stacklevel=3)
    return limit


def spec_alone(spec: Any, given: Mapping[str, Any], defaults: Mapping[str, Any],
               func: str) -> None:
    """Refuse a ``spec=`` given together with settings keywords (which one would win?).

    ``given`` holds the door's settings keywords as called, ``defaults`` their defaults.
    """
    if not isinstance(spec, RunSpec):
        raise param_error("spec", func, "a modelmine.RunSpec", type(spec).__name__,
                          exc=TypeError, show=False)
    both = [k for k, v in given.items() if k in defaults and not _unchanged(v, defaults[k])]
    if both:
        raise param_error("spec", func, "given alone, without the settings it holds",
                          f"spec and {', '.join(both)}", exc=TypeError, show=False)


def _unchanged(value: Any, default: Any) -> bool:
    return value is default or (type(value) is type(default) and value == default)


def _frozen_params(value: Any, name: str, func: str, *, nested: bool) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise param_error(name, func, "a mapping" + (" of operator names to mappings of "
                          "parameters" if nested else " of parameter names to values"),
                          value, exc=TypeError)
    out: dict[str, Any] = {}
    for key, inner in value.items():
        if not isinstance(key, str):
            raise param_error(name, func, "a mapping with string keys", value, exc=TypeError)
        if nested:
            if not isinstance(inner, Mapping):
                raise param_error(name, func, "a mapping of operator names to mappings of "
                                  "parameters", f"{type(inner).__name__} for {key!r}",
                                  exc=TypeError, show=False)
            inner = dict(inner)
        out[key] = inner
    return out


@dataclass(frozen=True)
class RunSpec:
    """Every setting of a model-mining run, validated once (KDD 2012, sections 2-3).

    Made by each door (:func:`modelmine.run`, :func:`modelmine.bootstrap`,
    :func:`modelmine.evaluate` per fold, :class:`modelmine.ModelMiningSelector`, the CLI)
    and passed down; stored in ``run.json`` (:meth:`to_settings`). Frozen: derive another
    with :meth:`replace`.

    Parameters
    ----------
    selector : str, Selector, estimator, callable, or a list of them, optional
        Default: the outcome's (:data:`DEFAULT_SELECTORS`): "svm-rfe" for classes,
        "svr-rfe" for regression, "coxnet" for survival.
        As in :func:`modelmine.bootstrap` (a list is a heterogeneous ensemble, Salman 2022).
    selector_params : mapping, optional
        Parameters of the selector (for a list: selector name -> parameters).
    n_bootstraps : int, default=150
        b, the number of resamples (KDD 2012, section 3); at least 2.
    n_features : int or None, default=20
        m, features per base model; None only for selectors that choose their own subset.
    n_signatures : int, default=10
        k, alternatives of the multi-model operators.
    signature_size : int, optional
        Features per signature of the single-model operators when it differs from m.
    resampling : {"bootstrap", "subsample", "complementary-pairs"}, default="bootstrap"
    sample_fraction : float in (0, 1], optional
        Default per scheme: 1.0, 0.9, 0.5 (resolved here, so the record holds the value).
    stratify : bool, default=False
    scale : {"none", "standard", "minmax"}, default="none"
        Scale the features inside each resample before the selector sees them. The SVM
        selectors ("svm-rfe", "svm", "svm-rfe50") scale to [0, 1] themselves by default
        (their ``scale`` parameter, as WEKA's SMO); a run-level scale replaces theirs
        unless ``selector_params`` sets it.
    artificial_features : {"permutation", "knockoff"} or None
    weighted_resampling : bool, default=False
        With sample weights: draw each resample with probabilities proportional to the
        weights (of the rows, or of the groups as the sum of their rows'), and fit the
        selector on unweighted rows; False gives the weights to the selector instead.
    per_class : bool, default=False
        Also run the selection one class against the rest for every class, on the same
        resamples (common random numbers): per-class panels (``MiningRun.class_signatures``,
        ``MiningRun.markers(per_class=True)``). Three or more classes.
    max_per_class : int, optional
        At most this many samples of each class in each resample (drawn among the class's
        own, as ``stratify``; a cap for clusters of very different sizes: the single-cell
        panels of :func:`modelmine.singlecell.marker_panels`). Not for complementary pairs.
    outcome : {"classification", "regression", "survival"}, default="classification"
        What y is: class labels, a continuous value, or a survival target (a structured
        array of event and time, scikit-survival's ``Surv.from_arrays``). Every selector
        must fit it (``modelmine.selectors.selectors_for(outcome)``); the resampling stratifies by
        the quantile bins of y (regression) or the event indicator (survival).
    covariates : sequence of str, default=()
        The names of the clinical covariates (age, sex, stage, batch) the run adjusts for
        (their values are data: ``mm.run(covariates=...)``; ``docs/outcomes.md``).
    operators : sequence of str, default=("closedApr", "allMed")
        Registered operator names; checked here, once.
    operator_params : mapping of str to mapping, optional
    min_support : float in (0, 1] or int, default=0.2
        Minimum support of the closed itemsets a run keeps.
    random_state : None, int, SeedSequence, RandomState or Generator, default=0
        Resolved here to the run's seed, an integer (:func:`resolve_seed`).
    fit_full : bool, default=True
        Also fit the selector once on all the data (the "nobagg" baseline of KDD 2012).
    func : str, default="RunSpec"
        The public function the user called, named in error messages (not stored).

    Examples
    --------
    >>> import modelmine as mm
    >>> spec = mm.RunSpec(selector="anova", n_bootstraps=20, n_features=10)
    >>> spec.random_state, spec.sample_fraction
    (0, 1.0)
    """

    selector: Any = None
    selector_params: Mapping[str, Any] = field(default_factory=dict)
    n_bootstraps: int = DEFAULT_N_BOOTSTRAPS
    n_features: int | None = DEFAULT_N_FEATURES
    n_signatures: int = DEFAULT_N_SIGNATURES
    signature_size: int | None = None
    resampling: str = "bootstrap"
    sample_fraction: float | None = None
    stratify: bool = False
    scale: str = "none"
    artificial_features: str | None = None
    weighted_resampling: bool = False
    per_class: bool = False
    outcome: str = "classification"
    max_per_class: int | None = None
    covariates: Sequence[str] = ()
    operators: Sequence[str] = DEFAULT_OPERATORS
    operator_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    min_support: float = DEFAULT_MIN_SUPPORT
    random_state: Any = DEFAULT_RANDOM_STATE
    fit_full: bool = True
    func: InitVar[str] = "RunSpec"

    def __post_init__(self, func: str) -> None:
        from .selectors._scaling import SCALE_METHODS

        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        b = check_int(self.n_bootstraps, "n_bootstraps", func, min_value=2)
        put("n_bootstraps", b)
        method = check_choice(self.resampling, "resampling", func, RESAMPLING_METHODS)
        put("resampling", method)
        if method == "complementary-pairs":
            if b % 2:
                raise param_error("n_bootstraps", func, "an even number for complementary "
                                  "pairs (b/2 splits, both halves used)", b)
            if self.sample_fraction is not None and self.sample_fraction != 0.5:
                raise param_error("sample_fraction", func, "None or 0.5 for complementary "
                                  "pairs (two halves of floor(n/2))", self.sample_fraction)
        fraction = (DEFAULT_FRACTIONS[method] if self.sample_fraction is None else
                    check_real(self.sample_fraction, "sample_fraction", func, low=0.0,
                               high=1.0, closed="right"))
        put("sample_fraction", float(fraction))
        if not isinstance(self.stratify, bool | np.bool_):
            raise param_error("stratify", func, "a bool", self.stratify, exc=TypeError)
        put("stratify", bool(self.stratify))
        if not isinstance(self.weighted_resampling, bool | np.bool_):
            raise param_error("weighted_resampling", func, "a bool", self.weighted_resampling,
                              exc=TypeError)
        put("weighted_resampling", bool(self.weighted_resampling))
        if self.weighted_resampling and method == "complementary-pairs":
            raise param_error("weighted_resampling", func, "False for complementary pairs "
                              "(two halves of the samples draw nothing to weight)", True)
        if not isinstance(self.per_class, bool | np.bool_):
            raise param_error("per_class", func, "a bool", self.per_class, exc=TypeError)
        put("per_class", bool(self.per_class))
        from .outcomes import OUTCOMES

        outcome = check_choice(self.outcome, "outcome", func, OUTCOMES)
        put("outcome", outcome)
        if self.selector is None:
            put("selector", DEFAULT_SELECTORS[outcome])
        if self.per_class and outcome != "classification":
            raise param_error("per_class", func, "False unless outcome='classification' "
                              "(per-class panels need classes)", True)
        cap = check_int(self.max_per_class, "max_per_class", func, min_value=1,
                        allow_none=True)
        if cap is not None and method == "complementary-pairs":
            raise param_error("max_per_class", func, "None for complementary pairs (two "
                              "halves of every class)", cap)
        put("max_per_class", cap)
        if not isinstance(self.fit_full, bool | np.bool_):
            raise param_error("fit_full", func, "a bool", self.fit_full, exc=TypeError)
        put("fit_full", bool(self.fit_full))
        names = self.covariates
        if isinstance(names, str) or not all(isinstance(c, str) and c for c in names) or len(
                set(names)) != len(names):
            raise param_error("covariates", func, "a sequence of distinct column names",
                              names, exc=TypeError)
        put("covariates", tuple(names))
        put("scale", check_choice(self.scale, "scale", func, list(SCALE_METHODS)))
        put("artificial_features", check_choice(
            self.artificial_features, "artificial_features", func, ARTIFICIAL_FEATURES,
            allow_none=True))
        put("n_signatures", check_int(self.n_signatures, "n_signatures", func, min_value=1))
        put("signature_size", check_int(self.signature_size, "signature_size", func,
                                        min_value=1, allow_none=True))
        check_fraction_or_count(self.min_support, "min_support", func, total=b)
        put("random_state", resolve_seed(self.random_state, func))
        self._check_selectors(func)
        self._check_operators(func)

    # ------------------------------------------------------------------ checks
    def _check_selectors(self, func: str) -> None:
        from .selectors import default_registry, get_selector

        heterogeneous = isinstance(self.selector, list | tuple)
        object.__setattr__(self, "selector_params", _frozen_params(
            self.selector_params, "selector_params", func, nested=False))
        if heterogeneous:
            specs = list(self.selector)
            if not specs:
                raise param_error("selector", func, "a non-empty list of selectors",
                                  self.selector)
            object.__setattr__(self, "selector", tuple(specs))
            built = []
            own: list[dict[str, Any] | None] = []  # the parameters given by name
            for one in specs:
                if isinstance(one, str):
                    if one not in default_registry():
                        listed = ", ".join(repr(s) for s in default_registry().names())
                        raise default_registry().unknown(one, func, "selector",
                                                         f"one of {listed}")
                    params = self.selector_params.get(one, {})
                    if not isinstance(params, Mapping):
                        raise param_error("selector_params", func, "a mapping from selector "
                                          "names of the list to parameters",
                                          self.selector_params, exc=TypeError)
                    built.append(get_selector(one, dict(params), func=func))
                    own.append(dict(params))
                else:
                    built.append(get_selector(one, None, func=func))
                    own.append(None)
            names = [s.name for s in built]
            dupes = sorted({n for n in names if names.count(n) > 1})
            if dupes:
                raise param_error("selector", func, "a list of distinct selectors",
                                  f"{names} (repeated: {', '.join(repr(d) for d in dupes)})",
                                  show=False)
            unknown = sorted(set(self.selector_params) - set(names))
            if unknown:
                raise param_error("selector_params", func, "a mapping from selector names of "
                                  f"the list ({', '.join(map(repr, names))}) to parameters",
                                  dict(self.selector_params), hint=f"Unknown: {unknown}.")
        else:
            built = [get_selector(self.selector, dict(self.selector_params) or None,
                                  func=func)]
            own = [dict(self.selector_params) if isinstance(self.selector, str) else None]
        for sel in built:
            if self.outcome not in sel.outcomes:
                from .selectors import selectors_for

                fits = " or ".join(repr(o) for o in sel.outcomes)
                raise param_error(
                    "selector", func, f"a selector for outcome={self.outcome!r} (selectors "
                    f"for it: {', '.join(selectors_for(self.outcome))})",
                    f"{sel.name!r}, which fits {fits} only", show=False,
                    hint=None if self.outcome != "classification" else
                    f"For {sel.name!r}, pass outcome={sel.outcomes[0]!r} (modelmine run "
                    f"--outcome {sel.outcomes[0]}).")
        built = [sel.for_outcome(self.outcome, func) for sel in built]
        if self.scale != "none":
            from .selectors._scaling import _SVMScaled, scaled

            # The run's scale replaces the SVM selectors' own [0, 1] scaling, unless the
            # user set that explicitly (then both apply, in that order).
            for sel, params in zip(built, own):
                if isinstance(sel, _SVMScaled) and params is not None and "scale" not in params:
                    sel.scale = "none"
            built = [scaled(sel, self.scale) for sel in built]
        if self.n_features is None:
            ranking = [s.name for s in built if s.kind != "subset"]
            if ranking:
                raise param_error("n_features", func, "an integer >= 1 for the ranking "
                                  f"selector {ranking[0]!r} (None is only for subset "
                                  "selectors)", None)
        else:
            object.__setattr__(self, "n_features",
                               check_int(self.n_features, "n_features", func, min_value=1))
        object.__setattr__(self, "_built", tuple(built))

    def _check_operators(self, func: str) -> None:
        from .operators import operator_kinds

        if not self.operators and isinstance(self.operators, tuple | list):
            # bootstrap() and the estimator's fits mine no operators of their own.
            object.__setattr__(self, "operators", ())
            object.__setattr__(self, "_kinds", {})
            object.__setattr__(self, "operator_params", _frozen_params(
                self.operator_params, "operator_params", func, nested=True))
            return
        if isinstance(self.operators, str):
            raise param_error("operators", func, "a sequence of operator names",
                              self.operators, exc=TypeError,
                              hint=f"Use [{self.operators!r}] for one operator.")
        kinds = operator_kinds(list(self.operators), func=func)
        object.__setattr__(self, "operators", tuple(kinds))
        object.__setattr__(self, "_kinds", dict(kinds))
        params = _frozen_params(self.operator_params, "operator_params", func, nested=True)
        unknown = sorted(set(params) - set(kinds))
        if unknown:
            raise param_error("operator_params", func, "a mapping from the run's operators "
                              f"({', '.join(map(repr, kinds))}) to their parameters",
                              params, hint=f"Not among the operators: {unknown}.")
        from .operators import get_operator

        for name, given in params.items():
            accepted = get_operator(name).params
            wrong = sorted(set(given) - set(accepted))
            if wrong:  # found now, not after the bootstraps, when the operator runs
                raise param_error("operator_params", func, f"parameters that {name!r} takes "
                                  f"({', '.join(sorted(accepted)) or 'none'})",
                                  f"{wrong} for {name!r}", show=False)
        object.__setattr__(self, "operator_params", params)

    # ------------------------------------------------------------------ views
    @property
    def heterogeneous(self) -> bool:
        """Whether the selector is a list (a heterogeneous ensemble, Salman 2022)."""
        return isinstance(self.selector, tuple)

    @property
    def selectors(self) -> tuple[Any, ...]:
        """The selectors, built (:class:`modelmine.selectors.Selector`), scaled as asked."""
        return self._built  # type: ignore[attr-defined]

    @property
    def operator_kinds(self) -> dict[str, str]:
        """Each operator's kind ("single" or "multi"), in the order of ``operators``."""
        return dict(self._kinds)  # type: ignore[attr-defined]

    @property
    def selector_name(self) -> str | None:
        """The selector's registered name, or None for a custom object (which a resumed
        run must be given again)."""
        return self.selector if isinstance(self.selector, str) else None

    def replace(self, func: str = "RunSpec", **changes: Any) -> RunSpec:
        """A copy with some settings changed, validated (``func`` names the caller)."""
        unknown = sorted(set(changes) - {f.name for f in fields(self)})
        if unknown:
            raise param_error(unknown[0], "RunSpec.replace", "a setting of RunSpec",
                              "an unknown setting", exc=TypeError, show=False)
        return replace(self, func=func, **changes)

    # ------------------------------------------------------------------ records
    def to_settings(self) -> dict[str, Any]:
        """The record ``run.json`` and ``checkpoint.json`` store (format version 2).

        Names of custom selectors are not stored (None): a resumed run is given the
        object again.
        """
        settings: dict[str, Any] = {
            "selector": (self.selector_name if not self.heterogeneous else
                         "+".join(str(s) for s in self.selector)),
            "selector_params": dict(self.selector_params),
            "n_bootstraps": self.n_bootstraps, "n_features": self.n_features,
            "n_signatures": self.n_signatures, "operators": list(self.operators),
            "operator_params": {k: dict(v) for k, v in self.operator_params.items()},
            "min_support": self.min_support,
            "resampling": {"method": self.resampling, "fraction": self.sample_fraction,
                           "stratify": self.stratify},
            "random_state": str(self.random_state), "scale": self.scale,
            "signature_size": self.signature_size,
        }
        if self.artificial_features is not None:
            settings["artificial_features"] = self.artificial_features
        if self.weighted_resampling:
            settings["weighted_resampling"] = True
        if self.per_class:
            settings["per_class"] = True
        if self.outcome != "classification":
            settings["outcome"] = self.outcome
        if self.max_per_class is not None:
            settings["resampling"]["max_per_class"] = self.max_per_class
        if self.covariates:
            settings["covariates"] = list(self.covariates)
        return settings

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], *, selector: Any = None,
                      func: str = "resume") -> RunSpec:
        """The specification of a stored run (``run.json`` or ``checkpoint.json``).

        Parameters
        ----------
        settings : mapping
            What :meth:`to_settings` wrote.
        selector : optional
            The custom selector of a run whose selector is not registered (recorded as
            None).
        func : str, default="resume"
        """
        res = settings["resampling"]
        chosen = settings["selector"] if selector is None else selector
        if chosen is None:
            raise param_error("selector", func, "the custom selector the run used", None)
        seed = settings["random_state"]
        return cls(selector=chosen, selector_params=settings.get("selector_params") or {},
                   n_bootstraps=settings["n_bootstraps"], n_features=settings["n_features"],
                   n_signatures=settings["n_signatures"],
                   signature_size=settings.get("signature_size"),
                   resampling=res["method"], sample_fraction=res.get("fraction"),
                   stratify=res.get("stratify", False),
                   scale=settings.get("scale") or "none",
                   artificial_features=settings.get("artificial_features"),
                   weighted_resampling=bool(settings.get("weighted_resampling", False)),
                   per_class=bool(settings.get("per_class", False)),
                   outcome=settings.get("outcome", "classification"),
                   max_per_class=res.get("max_per_class"),
                   covariates=tuple(settings.get("covariates") or ()),
                   operators=list(settings["operators"]),
                   operator_params=settings.get("operator_params") or {},
                   min_support=settings["min_support"],
                   random_state=None if seed is None else int(seed), func=func)
