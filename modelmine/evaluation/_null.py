"""A permutation null for base models: how often would a selector pick each feature, and
each itemset, if the labels carried no information?

The selector is rerun on the same resamples (the rows of each base model) with the labels
permuted, ``n_permutations`` times. Under the null hypothesis that a feature (an itemset)
is unrelated to the labels, its selection frequency (support) is exchangeable with the
frequencies it gets under permuted labels, which gives permutation p-values (Phipson and
Smyth 2010: ``(1 + #{null >= observed}) / (1 + n_permutations)``, never 0) and
Benjamini-Hochberg (1995) q-values over the features (the itemsets). The same idea as
Boruta's shadow features (Kursa and Rudnicki 2010) and Stabl's decoys (Hedou et al. 2024),
applied to the labels instead of the features.

With clinical covariates (base models of a run adjusted for them) the outcome is not
exchangeable: it depends on the covariates, and permuting it would break that dependence
too. The null then keeps the covariates' part of the outcome and randomises only what they
do not explain (:class:`CovariateNull`): for a continuous outcome, Freedman and Lane's
(1983) permutation of the residuals of y on the covariates, added back to the fitted values
(asymptotically exact, and the best of the permutation schemes for partial regression tests
in Anderson and Robinson's comparison, 2001); for classes, new labels drawn from the
logistic (multinomial) model of the classes on the covariates alone, the labels' own
analogue: under the null a gene adds nothing to the covariates, so the labels given the
covariates follow that model, whatever the genes (a parametric bootstrap of the null
model, Efron and Tibshirani 1993, chapter 16; the conditional randomisation of Candes et
al. 2018 applied to the outcome). ``benchmarks/bench_covariate_null.py`` measures the
calibration of both against the alternatives (docs/outcomes.md).
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from .._data import check_dataset
from .._deprecation import renamed_accessor
from .._doors import door
from .._progress import progress_bar
from .._utils import readonly
from ..base_models import (
    BaseModels,
    add_artificial_features,
    bootstrap,
    check_run_data,
    data_fingerprint,
    fit_base_models,
)
from ..base_models._bootstrap import fit_rows, shared_route
from ..base_models._design import NO_DESIGN, SampleDesign, check_design
from ..base_models._executors import Runner
from ..diagnostics._significance import bh_qvalues
from ..exceptions import DataError
from ..outcomes import OutcomeKind, outcome_kind, standardized_target
from ..selectors import get_selector, model_from_output
from ..spec import PRESETS, RunSpec
from ..validation import check_choice, check_int, param_error
from ._adjustment import holds_columns, study_covariates

__all__ = ["MIN_PERMUTATIONS", "SelectionNullResult", "selection_null"]

_FUNC = "selection_null"

#: Fewer permutations give p-values no smaller than 1/10: not a test worth running.
MIN_PERMUTATIONS = 10


@dataclass(frozen=True, eq=False)
class SelectionNullResult:
    """The permutation null of a selector's base models. Immutable.

    Attributes
    ----------
    feature_names : ndarray of str, shape (p,)
    frequency : ndarray, shape (p,)
        Observed selection frequency of each feature.
    null_frequencies : ndarray, shape (n_permutations, p)
        Its selection frequency under each label permutation (same resamples).
    p_values, q_values : ndarray, shape (p,)
        Permutation p-values and their Benjamini-Hochberg q-values. ``pooled=True``
        compares each feature with the null frequencies of all features (more
        resolution, assuming the null frequencies of the features are exchangeable);
        ``pooled=False`` with its own n_permutations null values only.
    pooled : bool
    itemsets : tuple of tuple of int
        The itemsets tested (feature indices), possibly empty.
    itemset_support, itemset_p_values, itemset_q_values : ndarray, shape (n_itemsets,)
    null_itemset_support : ndarray, shape (n_permutations, n_itemsets)
    n_permutations : int
    selector : mapping
        The selector's record.
    random_state : int
    spec : RunSpec or None
        The settings of the base models whose resamples were refitted.
    """

    feature_names: np.ndarray
    frequency: np.ndarray
    null_frequencies: np.ndarray
    p_values: np.ndarray
    q_values: np.ndarray
    pooled: bool
    itemsets: tuple[tuple[int, ...], ...]
    itemset_support: np.ndarray
    null_itemset_support: np.ndarray
    itemset_p_values: np.ndarray
    itemset_q_values: np.ndarray
    n_permutations: int
    selector: Mapping[str, Any]
    random_state: int
    spec: RunSpec | None = None

    def __post_init__(self) -> None:
        for name in (
            "feature_names",
            "frequency",
            "null_frequencies",
            "p_values",
            "q_values",
            "itemset_support",
            "null_itemset_support",
            "itemset_p_values",
            "itemset_q_values",
        ):
            object.__setattr__(self, name, readonly(np.asarray(getattr(self, name)), copy=True))

    def band(self, level: float = 0.95) -> np.ndarray:
        """Per-feature upper quantile of the null frequency (the band a plot draws)."""
        return np.quantile(self.null_frequencies, level, axis=0)

    def pooled_band(self, level: float = 0.95) -> float:
        """The ``level`` quantile of all null frequencies (every feature, permutation)."""
        return float(np.quantile(self.null_frequencies, level))

    def table(self) -> pd.DataFrame:
        """Deprecated: :meth:`to_frame`."""
        renamed_accessor("SelectionNullResult", "table()", "to_frame()")
        return self.to_frame()

    def to_frame(self) -> pd.DataFrame:
        """One row per feature: frequency, null mean, null 95 % quantile, p, q; by p."""
        df = pd.DataFrame(
            {
                "frequency": self.frequency,
                "null_mean": self.null_frequencies.mean(axis=0),
                "null_q95": self.band(0.95),
                "p_value": self.p_values,
                "q_value": self.q_values,
            },
            index=pd.Index(self.feature_names, name="feature"),
        )
        order = np.lexsort((np.arange(len(df)), -self.frequency, self.p_values))
        return df.iloc[order]

    def itemset_table(self) -> pd.DataFrame:
        """One row per itemset: its features, support, null mean, p, q."""
        return pd.DataFrame(
            {
                "itemset": [", ".join(self.feature_names[list(s)]) for s in self.itemsets],
                "size": [len(s) for s in self.itemsets],
                "support": self.itemset_support,
                "null_mean": (
                    self.null_itemset_support.mean(axis=0) if len(self.itemsets) else np.zeros(0)
                ),
                "p_value": self.itemset_p_values,
                "q_value": self.itemset_q_values,
            }
        )

    def significant(self, alpha: float = 0.05) -> np.ndarray:
        """Indices of the features with q-value <= alpha, most frequent first."""
        idx = np.flatnonzero(self.q_values <= alpha)
        return idx[np.argsort(-self.frequency[idx], kind="stable")]

    def __repr__(self) -> str:
        return (
            f"SelectionNullResult(n_permutations={self.n_permutations}, "
            f"n_features_in={self.frequency.size}, "
            f"significant_at_0.05={self.significant().size}, "
            f"n_itemsets={len(self.itemsets)})"
        )


def _itemsets(itemsets: Any, names: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """Itemsets as sorted index tuples, from Itemsets, a Signature of an itemset
    operator (its provenance's itemsets), or a sequence of index / name sequences."""
    if itemsets is None:
        return ()
    from ..operators import Signature
    from ..patterns import Itemsets

    if isinstance(itemsets, Itemsets):
        return tuple(tuple(int(i) for i in s) for s in itemsets.itemsets)
    if isinstance(itemsets, Signature):
        used = itemsets.provenance.get("itemsets")
        if not used:
            raise param_error(
                "itemsets",
                _FUNC,
                "Itemsets, a Signature of an itemset "
                "operator (closedApr, maxApr, ...) or a sequence of feature "
                "sets",
                f"a {itemsets.operator!r} signature without itemsets",
                show=False,
            )
        return tuple(tuple(sorted(int(i) for i in u["items"])) for u in used)
    lookup = {str(n): i for i, n in enumerate(names)}
    out = []
    for s in itemsets:
        items = []
        for v in s:
            if (
                isinstance(v, numbers.Integral)
                and not isinstance(v, bool)
                and 0 <= int(v) < names.size
            ):
                items.append(int(v))
            elif isinstance(v, str) and v in lookup:
                items.append(lookup[v])
            else:
                raise param_error(
                    "itemsets",
                    _FUNC,
                    f"sets of feature indices in [0, {names.size}) or feature names",
                    v,
                )
        if not items:
            raise param_error(
                "itemsets", _FUNC, "non-empty feature sets", "an empty set", show=False
            )
        out.append(tuple(sorted(set(items))))
    return tuple(out)


@dataclass(frozen=True, eq=False)
class CovariateNull:
    """How a null outcome is drawn when the base models were adjusted for covariates.

    Attributes
    ----------
    scheme : str
        ``"freedman-lane"`` (regression): ``fitted + residuals[permutation]``, the fitted
        values and residuals of y on ``[1, Z]`` (Freedman and Lane 1983);
        ``"parametric"`` (classification): each sample's class drawn from its fitted
        probabilities under the multinomial logistic model of the classes on ``[1, Z]``;
        ``"strata"``: y permuted within the strata of the covariates (the levels of the
        categorical ones crossed with the quintiles of the continuous ones' first
        principal axis; exact for categorical covariates only); ``"raw"``: y permuted as
        if there were no covariates (Manly's scheme).
    fitted, residuals : ndarray or None
        Freedman-Lane's parts (regression).
    probabilities : ndarray of shape (n, K) or None
        The null model's fitted class probabilities (classification).
    strata : ndarray of int or None
    """

    scheme: str
    fitted: np.ndarray | None = None
    residuals: np.ndarray | None = None
    probabilities: np.ndarray | None = None
    strata: np.ndarray | None = None

    def draw(self, y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One null outcome (of the same kind as ``y``: values or class codes)."""
        n = y.shape[0]
        if self.scheme == "freedman-lane":
            assert self.fitted is not None and self.residuals is not None
            return self.fitted + self.residuals[rng.permutation(n)]
        if self.scheme == "parametric":
            assert self.probabilities is not None
            cum = np.cumsum(self.probabilities, axis=1)
            u = np.asarray(rng.random(n))
            return np.minimum((u[:, None] > cum).sum(axis=1),
                              self.probabilities.shape[1] - 1).astype(y.dtype)
        if self.scheme == "strata":
            assert self.strata is not None
            out = y.copy()
            for s in np.unique(self.strata):
                rows = np.flatnonzero(self.strata == s)
                out[rows] = y[rows[rng.permutation(rows.size)]]
            return out
        return y[rng.permutation(n)]


def make_covariate_null(Z: np.ndarray, y: np.ndarray, outcome: Any,
                   scheme: str | None = None) -> CovariateNull:
    """The :class:`CovariateNull` of outcome ``y`` (values, or class codes) given the
    encoded covariates Z (the default scheme of the outcome unless ``scheme``: the first
    of its kind's :attr:`~modelmine.outcomes.OutcomeKind.covariate_nulls`; the others are
    there for the calibration benchmark, ``benchmarks/bench_covariate_null.py``)."""
    from ..outcomes._covariates import residualise

    scheme = outcome_kind(outcome, func=_FUNC).covariate_nulls[0] if scheme is None \
        else scheme
    Z = np.asarray(Z, dtype=np.float64)
    sd = Z.std(axis=0)
    Zs = (Z[:, sd > 0] - Z[:, sd > 0].mean(axis=0)) / sd[sd > 0]
    if scheme == "freedman-lane":
        v = np.asarray(y, dtype=np.float64)
        residuals = residualise(v, Zs).ravel()
        return CovariateNull(scheme, fitted=v - residuals, residuals=residuals)
    if scheme == "parametric":
        from sklearn.linear_model import LogisticRegression

        # the unpenalised multinomial model of the classes on the covariates (a huge C:
        # scikit-learn's lbfgs; for two classes, the binary logistic regression)
        model = LogisticRegression(C=1e10, max_iter=10000, tol=1e-10).fit(Zs, y)
        probabilities = np.zeros((y.size, int(y.max()) + 1))
        probabilities[:, model.classes_] = model.predict_proba(Zs)
        return CovariateNull(scheme, probabilities=probabilities)
    if scheme == "strata":
        lowest, highest = Z.min(axis=0), Z.max(axis=0)
        binary = np.all((lowest == Z) | (highest == Z), axis=0)
        keys = [Z[:, j] for j in np.flatnonzero(binary)]
        continuous = Zs[:, ~binary[sd > 0]] if Zs.shape[1] else Zs
        if continuous.shape[1]:
            axis = np.linalg.svd(continuous, full_matrices=False)[2][0]
            score = continuous @ axis
            keys.append(np.searchsorted(np.quantile(score, [0.2, 0.4, 0.6, 0.8]), score))
        strata = (np.unique(np.column_stack(keys), axis=0, return_inverse=True)[1].ravel()
                  if keys else np.zeros(y.size, dtype=np.int64))
        return CovariateNull(scheme, strata=strata)
    return CovariateNull("raw")


def permuted_labels(y: np.ndarray, rng: np.random.Generator,
                    design: SampleDesign = NO_DESIGN) -> np.ndarray:
    """The labels permuted as the sampling design allows.

    Without groups, the rows' labels are permuted. With groups whose samples share one
    class (the label is a property of the group: a patient's diagnosis), the groups'
    labels are permuted among the groups, and every sample takes its group's new label.
    With groups whose samples differ in class (cell types within a donor, time points
    with their own outcome), the labels are permuted within each group: the restricted
    permutation of exchangeable units (Winkler et al., NeuroImage 92, 2014), which keeps
    what the group shares and breaks what the label adds.
    """
    if not design.grouped:
        return y[rng.permutation(y.size)]
    assert design.groups is not None
    classes = design.group_classes(y)
    if classes is not None:
        return classes[rng.permutation(classes.size)][design.groups]
    out = y.copy()
    for rows in design.members():
        out[rows] = y[rows[rng.permutation(rows.size)]]
    return out


def _null_chunk(
    X: Any,
    y: np.ndarray,
    payload: list[tuple[int, np.random.SeedSequence]],
    *,
    selector: Any,
    sample_indices: np.ndarray,
    n_features: int | None,
    n_real: int,
    itemsets: tuple[tuple[int, ...], ...],
    design: SampleDesign = NO_DESIGN,
    shared: bool = True,
    null_draw: CovariateNull | None = None,
) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Selection counts of the real features and itemsets for a chunk of permutations
    (``shared`` False: no :meth:`Selector.prepare`, see
    :func:`modelmine.base_models._bootstrap.shared_route`)."""
    out = []
    rows_of = [idx[idx >= 0] for idx in sample_indices]  # -1 pads resamples of groups
    weights = (design.sample_weight if design.sample_weight is not None
               and not design.weighted_resampling else None)
    with threadpool_limits(limits=1):
        for k, seed in payload:
            rng = np.random.default_rng(seed)
            for _ in range(1000):  # a permutation leaving one class in a resample is
                # drawn again (at most 1000 times)
                yp = (permuted_labels(y, rng, design) if null_draw is None
                      else null_draw.draw(y, rng))
                if all(np.unique(yp[idx]).size >= 2 for idx in rows_of):
                    break
            else:
                raise DataError("selection_null: 1000 permutations of the labels in a row "
                                "left a single class in a resample (a resample holds too "
                                "few samples of a class).")
            subsets = np.zeros((sample_indices.shape[0], n_real), dtype=bool)
            try:
                # As bootstrap's chunks: the work the resamples share, once per permutation
                # of the labels (on the augmented X when the base models had artificial
                # features); select_rows equals select on (X[idx], yp[idx]) exactly.
                prepared = (None if weights is not None or not shared
                            else selector.prepare(X, yp))
            except Exception as exc:
                raise DataError(
                    f"selection_null: the selector {selector.name!r} failed "
                    f"on permuted labels ({type(exc).__name__}: {exc})."
                ) from exc
            for i, idx in enumerate(rows_of):
                try:
                    output = fit_rows(selector, prepared, X, yp, idx,
                                      random_state=int(rng.integers(0, 2**31 - 1)),
                                      weights=weights, shared=shared)
                except Exception as exc:
                    raise DataError(
                        f"selection_null: the selector {selector.name!r} failed "
                        f"on permuted labels ({type(exc).__name__}: {exc})."
                    ) from exc
                model = model_from_output(
                    output, n_features_in=X.shape[1], n_features=n_features, selector=selector.name
                )
                subsets[i] = model.subset[:n_real]
            counts = subsets.sum(axis=0)
            sets = np.array(
                [subsets[:, list(s)].all(axis=1).sum() for s in itemsets], dtype=np.int64
            )
            out.append((k, counts, sets))
    return out


@door("selection_null", study=True, stage="models", preset=PRESETS["stability-selection"],
      # the base models of a run are mined by a run; the covariates' values are the
      # body's (the spec names them: study_covariates)
      without=("per_class",))
def selection_null(
    X: Any,
    y: Any,
    selector: Any = None,
    *,
    base: BaseModels | None = None,
    n_permutations: int = 100,
    itemsets: Any = None,
    pooled: bool = True,
    feature_names: Any = None,
    random_state: Any = None,
    n_jobs: int | None = None,
    executor: Any = None,
    progress: bool | None = None,
    groups: Any = None,
    sample_weight: Any = None,
    log: Any = None,
    covariates: Any = None,
    covariate_null: str | None = None,
    spec: RunSpec,
    run: Any = None,
) -> SelectionNullResult:
    """Permutation null of the selection frequencies (and itemset supports).

    Reruns the selector on the resamples of ``base`` (the base models of ``run=``, or new
    base models built with :func:`modelmine.bootstrap` and the call's settings: by
    default stability selection's, Meinshausen and Buehlmann 2010) with the labels
    permuted, ``n_permutations`` times, and compares the observed selection frequency of
    each feature with its null frequencies: p-value ``(1 + #{null >= observed}) / (1 +
    N)`` (Phipson and Smyth 2010), pooled over the features when ``pooled`` (N =
    n_permutations x p), and Benjamini-Hochberg (1995) q-values. ``itemsets`` get the same
    test of their support (is this co-selection more frequent than chance?), each against
    its own null. Base models built with artificial features are rerun on the same
    augmented data (rebuilt from their seed).

    Parameters
    ----------
    X, y : the data the base models were (or will be) built on.
    selector : selector spec, optional
        The selector refitted, as in :func:`modelmine.bootstrap`; default: the one of the
        base models as their spec builds it (``base.spec``: with their ``scale`` and
        outcome; built-in selectors only), else the settings' (``"svm-rfe"``).
    **settings
    base : BaseModels, optional
        Base models of (X, y) (default: those of ``run=``); their resamples, m, selector
        and outcome are reused, and the settings keywords then build nothing.
    n_permutations : int, default=100
        At least 10.
    itemsets : Itemsets, Signature or sequence of feature sets, optional
        Itemsets whose support to test: mined :class:`~modelmine.patterns.Itemsets`, a signature of
        an itemset operator (the itemsets it used), or sets of feature indices / names.
    pooled : bool, default=True
        Pool the null frequencies of all features for the feature p-values.
    feature_names : sequence of str, optional
    random_state : int or None
        Seed of the permutations (and of the base models built here). None: the base
        models' seed (for base models built here, the settings' seed: 0 unless told).
    n_jobs, executor, progress : as in :func:`modelmine.bootstrap`
        Results do not depend on ``n_jobs`` or the executor.
    groups, sample_weight : array-like of shape (n_samples,), optional
        The base models' sampling design (:func:`modelmine.bootstrap`), required again when
        they had one. With groups, the labels are permuted at the group level where the
        label is a property of the group, else within each group
        (:func:`permuted_labels`); the weights go to the selector as in the base models.
    log : path-like, optional
        Append the progress (permutations done, time spent and left) to this file, one
        line per finished chunk: what ``modelmine run --null`` writes to ``null.log``.
    covariates : DataFrame, mapping, 2-D array-like or sequence of str, optional
        The clinical covariates of the samples, as :func:`modelmine.run` takes them (their
        values, or names of columns of X; or the run's encoded ``MiningRun.covariates``).
        Default: the columns of X the settings name (``spec.covariates``, or those of the
        base models' spec), else, with ``run=``, the run's own values. Required when
        ``base`` was adjusted for covariates, and then its covariates. The selector is
        refitted adjusted for them, and the null outcomes keep their effect
        (:class:`CovariateNull`: Freedman-Lane for regression, draws from the classes'
        logistic model on the covariates for classes). Survival has no such scheme and is
        refused.
    covariate_null : {"freedman-lane", "parametric", "strata", "raw"}, optional
        The scheme with covariates (default: the outcome's first, see above); the others
        are what ``benchmarks/bench_covariate_null.py`` compares them with.

    Returns
    -------
    SelectionNullResult
    """
    n_perm = check_int(n_permutations, "n_permutations", _FUNC, min_value=MIN_PERMUTATIONS)
    if not isinstance(pooled, bool | np.bool_):
        raise param_error("pooled", _FUNC, "a bool", pooled, exc=TypeError)
    if base is None and run is not None:
        base = run.base_models
    if base is not None and not isinstance(base, BaseModels):
        raise param_error("base", _FUNC, "a modelmine.BaseModels or None",
                          type(base).__name__, exc=TypeError, show=False)
    if isinstance(base, BaseModels):
        outcome = base.outcome
        record = base.selector if isinstance(base.selector, Mapping) else {}
        adjusted_for = [str(c) for c in record.get("covariates") or ()]
        names = tuple(base.spec.covariates)
        if covariates is None and names and (
                run is not None or holds_columns(X, names, feature_names)):
            # the columns of X the base models' settings name (taken out, as mm.run took
            # them), or the run's own values
            X, feature_names, covariates, _ = study_covariates(
                X, None, base.spec, run, feature_names=feature_names, func=_FUNC)
            if not adjusted_for:  # a selector fitted as it is: so are its refits
                covariates = None
        if adjusted_for and covariates is None:  # before any fit
            raise param_error(
                "covariates", _FUNC, "the covariates the base models were adjusted for "
                f"({', '.join(adjusted_for)}: their values, for example the run's "
                "MiningRun.covariates), so that the null refits the selector adjusted",
                None, show=False)
    else:
        if selector is not None:
            spec = spec.replace(_FUNC, selector=selector)
        # the covariates given, or the columns of X the settings name
        X, feature_names, covariates, spec = study_covariates(
            X, covariates, spec, feature_names=feature_names, func=_FUNC)
        outcome = spec.outcome
    target = None
    kind = outcome_kind(outcome, func=_FUNC)
    if not kind.classes:  # permute the values (or event / time pairs)
        checked_y = kind.check(y, func=_FUNC)
        target = checked_y.values
        data = check_dataset(X, checked_y.strata, func=_FUNC, feature_names=feature_names)
    else:
        data = check_dataset(X, y, func=_FUNC, feature_names=feature_names)
    from ..base_models import seed_sequence

    drawn_by_weight = isinstance(base, BaseModels) and base.weighted_resampling
    design = check_design(groups, sample_weight, data.n_samples, func=_FUNC,
                          weighted_resampling=drawn_by_weight and sample_weight is not None)
    covs = None
    if covariates is not None:
        covs = _null_covariates(covariates, base, kind, data, design, target)
    built_here = base is None
    if base is None:
        # the settings' base models (None: the settings' seed, and the permutations then
        # follow the base models' seed), so that the same call gives the same null
        fit_spec = spec if random_state is None else spec.replace(
            _FUNC, random_state=random_state)
        if covs is None:
            base = bootstrap(X, y, spec=fit_spec, feature_names=feature_names,
                             n_jobs=n_jobs, executor=executor, progress=progress,
                             groups=groups, sample_weight=sample_weight)
        else:  # the selector adjusted for them, as mm.run(covariates=...) fits it
            checked = check_run_data(X, y, fit_spec, feature_names=feature_names,
                                     n_jobs=n_jobs, func=_FUNC, groups=groups,
                                     sample_weight=sample_weight)
            base = fit_base_models(dataclasses.replace(checked, covariates=covs),
                                   executor=executor, progress=progress)
    labels = data.y if target is None else np.zeros(data.n_samples, np.int64)
    if base.data_sha256 and base.data_sha256 != data_fingerprint(data.X, labels, design,
                                                                  target):
        raise param_error(
            "X",
            _FUNC,
            "the data the base models were built on (same fingerprint; with the same "
            "groups and sample_weight when they had them)",
            "different data",
            show=False,
        )
    if selector is None:
        from ..selectors import RecordedSelector

        if isinstance(base.spec.selectors[0], RecordedSelector):  # a custom one, from a file
            raise param_error(
                "selector", _FUNC, "the custom selector the base models used "
                f"({base.selector_name!r})", None)
        # The selector as the run's spec builds it: with the run's feature scaling
        # (``scale``) and outcome, exactly as its base models were fitted.
        sel = base.spec.replace(_FUNC).selectors[0]
    elif built_here:  # the settings' selector, as they built the base models
        sel = spec.selectors[0]
    else:  # another selector refitted on the base models' resamples
        sel = get_selector(selector, dict(spec.selector_params) or None,
                           func=_FUNC).for_outcome(outcome, _FUNC)
    null_draw = None
    if covs is not None:
        from ..selectors._covariates import CovariateAdjustedSelector, adjusted

        if not isinstance(sel, CovariateAdjustedSelector):
            sel = adjusted(sel, covs, func=_FUNC)
        null_draw = make_covariate_null(
            covs.values, data.y if target is None else standardized_target(target),
            kind, check_choice(covariate_null or kind.covariate_nulls[0],
                               "covariate_null", _FUNC, kind.covariate_nulls))
    sets = _itemsets(itemsets, base.feature_names)
    if random_state is not None:
        ss = seed_sequence(random_state, func=_FUNC)
    else:  # the base models' seed, on a branch of its own (bootstrap uses keys 0..b+2)
        root = np.random.SeedSequence(base.random_state)
        ss = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, base.n_models + 3))
    p = base.n_features_in
    X_fit = data.X
    if base.has_artificial:
        # the same augmented data as the base models (bootstrap's seed layout)
        b = base.n_models
        root = np.random.SeedSequence(base.random_state)
        art_seed = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, b + 2))
        X_fit = add_artificial_features(
            data.X, str(base.spec.artificial_features), np.random.default_rng(art_seed),
            design.members() if design.grouped else None,
        )
    children = ss.spawn(n_perm)
    runner = Runner(executor, check_int(n_jobs, "n_jobs", _FUNC, allow_none=True), _FUNC)
    per = max(1, -(-n_perm // (4 * runner.workers)))
    tasks = {
        c: [(k, children[k]) for k in range(s, min(n_perm, s + per))]
        for c, s in enumerate(range(0, n_perm, per))
    }
    # a regression target as the base models fit it (bootstrap standardises it; the
    # permutation of the standardised values is the standardised permutation)
    fitted = data.y if target is None else standardized_target(target)
    kwargs = dict(
        selector=sel,
        sample_indices=np.asarray(base.sample_indices),
        n_features=base.n_features,
        n_real=p,
        itemsets=sets,
        design=design,
        shared=shared_route(sel, X_fit, fitted, workers=runner.workers, design=design,
                            func=_FUNC),
        null_draw=null_draw,
    )
    null_counts = np.zeros((n_perm, p), dtype=np.int64)
    null_sets = np.zeros((n_perm, len(sets)), dtype=np.int64)
    bar = progress_bar(n_perm, f"null {sel.name}", "permutation", progress, log=log)
    try:
        for _cid, result in runner.run(_null_chunk, X_fit, fitted, tasks, kwargs):
            for k, counts, set_counts in result:
                null_counts[k] = counts
                null_sets[k] = set_counts
            bar.update(len(result))
    finally:
        bar.close()
        runner.close()
    b = base.n_models
    observed = base.subsets.sum(axis=0)
    if pooled:
        flat = np.sort(null_counts.ravel())
        greater = flat.size - np.searchsorted(flat, observed, side="left")
        p_values = (1.0 + greater) / (1.0 + flat.size)
    else:
        p_values = (1.0 + (null_counts >= observed[None, :]).sum(axis=0)) / (1.0 + n_perm)
    sup = np.array([base.subsets[:, list(s)].all(axis=1).sum() for s in sets], dtype=np.int64)
    set_p = (1.0 + (null_sets >= sup[None, :]).sum(axis=0)) / (1.0 + n_perm)
    return SelectionNullResult(
        feature_names=base.feature_names,
        frequency=observed / b,
        null_frequencies=null_counts / b,
        p_values=p_values,
        q_values=bh_qvalues(p_values),
        pooled=bool(pooled),
        itemsets=sets,
        itemset_support=sup / b,
        null_itemset_support=null_sets / b,
        itemset_p_values=set_p,
        itemset_q_values=bh_qvalues(set_p),
        n_permutations=n_perm,
        selector=sel.describe(),
        random_state=int(ss.entropy),  # type: ignore[arg-type]
        spec=base.spec,
    )


def _null_covariates(covariates: Any, base: Any, kind: OutcomeKind, data: Any, design: Any,
                     target: Any) -> Any:
    """The covariates of a null, checked: those of ``base`` when it was adjusted (by name:
    as given to :func:`modelmine.run`, or the run's encoded columns), for an outcome that
    has a covariate null, and an outcome they do not explain exactly."""
    from ..outcomes import check_covariates
    from ..outcomes._covariates import check_not_explained

    if not kind.covariate_nulls:
        raise param_error("covariates", _FUNC, "covariates for a classification or "
                          "regression outcome (censored survival times have no "
                          "Freedman-Lane scheme: their residuals are not exchangeable)",
                          f"covariates with outcome={kind.name!r}", show=False)
    if design.grouped:
        raise param_error("covariates", _FUNC, "no covariates with groups (the null of "
                          "a grouped design permutes whole groups; with covariates it "
                          "draws each sample's outcome)", "both", show=False)
    covs = check_covariates(covariates, data.n_samples, func=_FUNC)
    if isinstance(base, BaseModels):
        record = base.selector if isinstance(base.selector, Mapping) else {}
        wanted = [str(c) for c in record.get("covariates") or ()]
        given = list(covs.columns)

        def has(name: str) -> bool:
            return any(c == name or c.startswith(f"{name}=") for c in given)

        if not wanted:
            raise param_error("covariates", _FUNC, "None for base models whose selector "
                              "was not adjusted for covariates", list(covs.sources),
                              show=False)
        extra = [c for c in covs.sources
                 if not any(c == w or c.startswith(f"{w}=") for w in wanted)]
        if not all(has(w) for w in wanted) or extra:
            raise param_error("covariates", _FUNC, "the covariates the base models were "
                              f"adjusted for ({', '.join(wanted)})", list(covs.sources),
                              show=False)
    check_not_explained(covs.values, data.y if target is None else target, kind,
                        func=_FUNC)
    return covs
