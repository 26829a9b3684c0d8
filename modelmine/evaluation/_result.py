"""EvaluationResult: the tidy outcome of :func:`modelmine.evaluation.evaluate` and its tables,
for every outcome (classes, regression, survival: issue 38, item 3).

The tables follow the layouts of Woznica, Nguyen and Kalousis (KDD 2012, section 3, Tables 2
and 4) and of Saeys, Abeel and Van de Peer (PKDD 2008, Tables 2-3). How the points of Table 2
are computed (which test, on what) is documented in :meth:`EvaluationResult.points` and in
``docs/reproduction.md``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._deprecation import renamed_accessor
from .._utils import FrozenDict, frozen, readonly
from ..constants import TOP_FRACTIONS
from ..diagnostics import (
    jaccard_stability,
    nogueira_stability,
    pairwise_similarity,
    points_ranking,
    rpt,
    spearman_stability,
)
from ..diagnostics._subsets import PAIRWISE_MEASURES
from ..operators import Signature, SignatureSet
from ..outcomes import DEFAULT_OUTCOME, OutcomeKind, outcome_kind
from ..validation import check_choice, check_real, param_error

__all__ = ["EvaluationResult"]

_ERROR_TESTS = ("mcnemar", "mcnemar_chi2", "ttest", "wilcoxon")
_STABILITY_TESTS = ("ttest", "wilcoxon", "nogueira")


class EvaluationResult:
    """What :func:`~modelmine.evaluation.evaluate` returns for every outcome (KDD'12, sec. 3).

    One type answers "how good and how stable are these signatures under cross-validation"
    for classes, a continuous and a survival outcome (issue 38, item 3); what differs is the
    :attr:`outcome` and the measure columns of :attr:`folds` (its kind's
    :attr:`~modelmine.outcomes.OutcomeKind.measures`):
    ``error`` for classes, ``rmse`` and ``r2`` for regression, ``harrell_c``, ``uno_c`` and
    ``integrated_brier`` for survival.

    The learner fitted on each signature is in the column ``classifier`` for every outcome
    (a ridge regression or a Cox model included). The name is kept, rather than a new
    ``model``, because it is already the one name of that setting at the door
    (``evaluate(classifiers=...)``, ``--classifier``, ``settings["classifiers"]``) and of
    every committed class table (Tables 2 and 4, folds.csv, the published results), which
    must not change. The outcome tables of the previous release called it ``model``: they
    keep a copy of ``classifier`` in a column ``model`` for one release (deprecated), and
    ``paired_differences(model=...)`` still works with a FutureWarning.

    The KDD'12 class layouts (``to_frame("table2")``, ``to_frame("table4")``),
    :meth:`points` and :meth:`robustness_table` are defined for classes only and refuse
    an outcome, naming what they need.

    Attributes
    ----------
    outcome : {"classification", "regression", "survival"}
    folds : pandas.DataFrame
        Classes: one row per selector x operator x classifier x fold: ``kind`` ("single" or
        "multi"), ``n_signatures``, ``n_features`` (mean signature size), ``error`` (mean
        over the k signatures for a multi-model operator), ``error_std`` (over the k
        signatures), ``balanced_accuracy``, ``auc``, ``agreement`` (KDD'12 equation 2) and
        ``diversity`` (average pairwise Jaccard of the k signatures, equation 1; NaN for
        single-model operators), and ``features`` (the signature's feature names; the k
        signatures are separated by ``" | "``). Regression and survival: one row per
        selector x operator x classifier x fold with ``n_features`` and the outcome's
        measures (and the deprecated copy ``model`` of ``classifier``).
    predictions : pandas.DataFrame
        Classes: one row per selector x operator x classifier x signature x test sample:
        ``fold``, ``sample`` (row of the data), ``y_true``, ``y_pred``, ``correct``.
        Outcomes: ``fold``, ``sample``, ``prediction`` (y or the risk score) and, for
        regression, ``y_true`` and ``squared_error``. Every sample is tested exactly once
        per (selector, operator, classifier, signature).
    robustness_folds : pandas.DataFrame
        Classes only (empty for an outcome). Per selector x method ("single" = the
        selector on the training part, "ensemble" = mean-rank aggregation of the b base
        models) x classifier x fold: the test error of the classifier on the top 1 % of
        the ranking (Saeys et al. 2008).
    tasks : pandas.DataFrame
        Per selector x fold: training and test sizes, the bootstrap seed, whether the base
        models came from the cache, and the task's wall time.
    skipped : pandas.DataFrame
        Operators that could not run on a (selector, fold), with the reason (for example
        geomMean on a selector with negative scores).
    signatures : dict
        ``(selector, operator, fold) -> Signature`` (single-model) or ``SignatureSet``.
    rankings : dict
        ``(selector, "single" | "ensemble") -> ndarray (n_folds, p)``: the full rankings
        of each fold (rank 1 = best).
    fold_indices : tuple of (train, test) index arrays
    operator_kinds : dict
        Operator name -> "single" or "multi".
    feature_names : ndarray of str
    settings : dict
        The protocol's parameters, the data fingerprint and the wall time (``seconds``).
    spec : RunSpec or None
        The settings of the folds' base models (each fold's with the fold's selector and
        seed), as scanpy keeps a call's parameters beside its result.
    """

    _TABLES = ("folds", "predictions", "robustness_folds", "tasks", "skipped")

    def __init__(self, *, folds: pd.DataFrame, predictions: pd.DataFrame,
                 robustness_folds: pd.DataFrame | None = None,
                 tasks: pd.DataFrame | None = None, skipped: pd.DataFrame | None = None,
                 signatures: Mapping[tuple[str, str, int], Signature | SignatureSet],
                 rankings: Mapping[tuple[str, str], np.ndarray] | None = None,
                 fold_indices: Sequence[tuple[np.ndarray, np.ndarray]],
                 operator_kinds: Mapping[str, str], feature_names: np.ndarray,
                 settings: Mapping[str, Any] | None = None,
                 outcome: str = DEFAULT_OUTCOME, spec: Any = None) -> None:
        # Immutable all the way down: tables are kept private and handed out as copies,
        # mappings are read-only, arrays cannot be written through.
        outcome = outcome_kind(outcome, func="EvaluationResult").name
        given = dict(zip(self._TABLES, (folds, predictions, robustness_folds, tasks,
                                        skipped), strict=True))
        tables = {k: pd.DataFrame() if v is None else v for k, v in given.items()}
        rankings = rankings or {}
        set_ = object.__setattr__
        set_(self, "outcome", outcome)
        set_(self, "_tables", {k: v.copy() for k, v in tables.items()})
        set_(self, "signatures", FrozenDict(signatures))
        set_(self, "rankings", FrozenDict({k: readonly(v, copy=True)
                                           for k, v in rankings.items()}))
        set_(self, "fold_indices", tuple((readonly(tr, copy=True), readonly(te, copy=True))
                                         for tr, te in fold_indices))
        set_(self, "operator_kinds", FrozenDict(operator_kinds))
        set_(self, "feature_names", readonly(feature_names, copy=True))
        set_(self, "settings", frozen(dict(settings or {})))
        set_(self, "spec", spec)

    _tables: dict[str, pd.DataFrame]
    outcome: str
    signatures: Mapping[tuple[str, str, int], Signature | SignatureSet]
    rankings: Mapping[tuple[str, str], np.ndarray]
    fold_indices: tuple[tuple[np.ndarray, np.ndarray], ...]
    operator_kinds: Mapping[str, str]
    feature_names: np.ndarray
    settings: Mapping[str, Any]
    spec: Any

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"EvaluationResult is immutable: cannot set {name!r}.")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"EvaluationResult is immutable: cannot delete {name!r}.")

    @property
    def folds(self) -> pd.DataFrame:
        """A copy of the per-fold table (see the class docstring)."""
        return self._tables["folds"].copy()

    @property
    def predictions(self) -> pd.DataFrame:
        """A copy of the per-sample predictions."""
        return self._tables["predictions"].copy()

    @property
    def robustness_folds(self) -> pd.DataFrame:
        """A copy of the robustness (Saeys et al. 2008) table."""
        return self._tables["robustness_folds"].copy()

    @property
    def tasks(self) -> pd.DataFrame:
        """A copy of the per-task table."""
        return self._tables["tasks"].copy()

    @property
    def skipped(self) -> pd.DataFrame:
        """A copy of the table of operators that were not applicable."""
        return self._tables["skipped"].copy()

    # ------------------------------------------------------------------ helpers
    @property
    def selectors(self) -> list[str]:
        """Selector labels, in the order given."""
        return list(self.settings["selectors"])

    @property
    def classifiers(self) -> list[str]:
        """Classifier labels (the learners fitted on the signatures), in the order given."""
        return list(self.settings["classifiers"])

    @property
    def outcome_kind(self) -> OutcomeKind:
        """What :attr:`outcome` names (:class:`~modelmine.outcomes.OutcomeKind`)."""
        return outcome_kind(self.outcome)

    def _classes_only(self, what: str, func: str) -> None:
        """Refuse a class-only method or layout for a regression or survival result."""
        if not self.outcome_kind.classes:
            raise param_error("outcome", func, f"'classification' for {what} (a KDD'12 "
                              "layout of class errors; for this outcome use "
                              "to_frame('folds'), summary(), stability() and "
                              "paired_differences())", self.outcome)

    def summary(self) -> pd.DataFrame:
        """The folds' measures averaged per (selector, operator, classifier), with their
        standard errors over the folds (``<measure>_se``).

        The measures are the outcome's (its kind's ``measures``): ``error`` for classes,
        ``rmse`` and ``r2`` for regression, ``harrell_c``, ``uno_c`` and
        ``integrated_brier`` for survival. For an outcome the deprecated copy ``model`` of
        ``classifier`` closes the table (one release).
        """
        measures = list(self.outcome_kind.measures)
        grouped = self._tables["folds"].groupby(["selector", "operator", "classifier"],
                                                sort=False)
        out = grouped[measures].mean()
        sem = grouped[measures].sem().add_suffix("_se")
        table = pd.concat([out, sem], axis=1).reset_index()
        if not self.outcome_kind.classes:
            table["model"] = table["classifier"]
        return table

    def _operators(self, kind: str, operators: Sequence[str] | None, func: str) -> list[str]:
        names = [n for n, k in self.operator_kinds.items() if k == kind]
        if operators is None:
            return names
        if isinstance(operators, str):
            operators = [operators]
        for op in operators:
            check_choice(op, "operators", func, names)
        return [op for op in names if op in operators]

    def _complete(self, selector: str, operators: list[str]) -> list[str]:
        """Operators that produced a signature in every fold for this selector."""
        n = self.settings["n_folds"]
        return [op for op in operators
                if all((selector, op, f) in self.signatures for f in range(n))]

    def fold_signatures(self, selector: str, operator: str) -> np.ndarray:
        """Boolean matrix (n_folds, p): the single-model signature of each fold."""
        n, p = self.settings["n_folds"], self.feature_names.size
        Z = np.zeros((n, p), dtype=bool)
        for f in range(n):
            sig = self.signatures[(selector, operator, f)]
            if not isinstance(sig, Signature):
                raise param_error("operator", "EvaluationResult.fold_signatures",
                                  "a single-model operator", operator)
            Z[f, sig.features] = True
        return Z

    # ---------------------------------------------------------------- stability
    def stability(self, confidence_level: float = 0.95) -> pd.DataFrame:
        """Stability of each (selector, single-model operator) across the folds' signatures.

        The signatures of the n folds (trained on overlapping training parts, KDD 2012
        section 3) are compared: average pairwise Jaccard (Kalousis et al. 2007), Kuncheva
        (equal sizes only, else NaN) and the estimator of Nogueira, Sechidis and Brown (JMLR
        2018) with its variance and confidence interval.

        Returns
        -------
        pandas.DataFrame
            Columns ``selector``, ``operator``, ``jaccard``, ``kuncheva``, ``nogueira``,
            ``nogueira_var``, ``nogueira_low``, ``nogueira_high``, ``mean_size``.
        """
        level = check_real(confidence_level, "confidence_level", "EvaluationResult.stability",
                           low=0.0, high=1.0, closed="neither")
        rows = []
        for sel in self.selectors:
            for op in self._complete(sel, self._operators("single", None, "stability")):
                Z = self.fold_signatures(sel, op)
                sizes = Z.sum(axis=1)
                nog = nogueira_stability(Z, confidence_level=level)
                kun = (pairwise_similarity(Z, measure="kuncheva").value
                       if sizes.min() == sizes.max() and 0 < sizes[0] < Z.shape[1] else np.nan)
                rows.append({
                    "selector": sel, "operator": op,
                    "jaccard": jaccard_stability(Z).value, "kuncheva": kun,
                    "nogueira": nog.value, "nogueira_var": nog.variance,
                    "nogueira_low": nog.confidence_interval[0],
                    "nogueira_high": nog.confidence_interval[1],
                    "mean_size": float(sizes.mean()),
                })
        return pd.DataFrame(rows)

    # ------------------------------------------------------- paired differences
    def paired_differences(self, pairs: Sequence[tuple[str, str]] | None = None, *,
                           classifier: str | None = None,
                           confidence_level: float = 0.95, baseline: str | None = None,
                           model: str | None = None) -> pd.DataFrame:
        """Per-sample error differences of operators against a baseline, with intervals.

        Every sample is tested once per (selector, operator, classifier), by the model of
        its fold (:attr:`predictions`). For a pair (operator, baseline) the difference of
        sample i is, for classes, ``[operator wrong on i] - [baseline wrong on i]`` (-1, 0
        or 1) and, for regression, the difference of the two squared errors of sample i
        (negative: the operator predicts better). Survival has no per-sample error (the
        concordance is a property of pairs of samples) and is refused. The mean of the
        differences is the difference of the cross-validated errors (of the mean squared
        errors for regression), and its interval the normal one,
        ``mean -+ z sd / sqrt(n)`` (the paired comparison behind McNemar's test, which the
        points of KDD 2012 section 3 count, with the size of the effect instead of a
        verdict). ``identical_fraction`` is the fraction of folds in which the two
        signatures hold the same features: where it is 1 the difference is 0 by
        construction (closedApr as the paper defines it equals mostFreq up to ties,
        ``docs/operators.md``).

        Parameters
        ----------
        pairs : sequence of (operator, baseline), optional
            Default: every single-model operator against ``"nobagg"``, and ``"closedApr"``
            / ``"maxApr"`` (and any ``"closedApr:..."`` / ``"maxApr:..."`` label) against
            ``"mostFreq"`` when present.
            A single operator name given here (the first argument of the previous
            outcome signature, ``paired_differences("nobagg")``) is read as ``baseline``,
            with a FutureWarning.
        classifier : str, optional
            Default: the first classifier.
        confidence_level : float, default=0.95
        baseline : str, optional
            Deprecated (one release; the keyword of the previous outcome result): every
            other single-model operator against ``baseline``, i.e.
            ``pairs=[(op, baseline) for op in ...]``.
        model : str, optional
            Deprecated alias of ``classifier`` (one release).

        Returns
        -------
        pandas.DataFrame
            One row per (selector, operator, baseline): ``n_samples``,
            ``identical_fraction``, ``error_difference``, ``ci_low``, ``ci_high``; for an
            outcome also ``classifier`` and its deprecated copy ``model``.
        """
        from scipy.stats import norm

        func = "EvaluationResult.paired_differences"
        kind = self.outcome_kind
        if not kind.classes and kind.sample_loss is None:
            raise param_error("outcome", func, "'classification' or 'regression' (survival "
                              "errors are not per sample: compare the folds' concordance, "
                              "summary())", self.outcome)
        level = check_real(confidence_level, "confidence_level", func, low=0.0, high=1.0,
                           closed="neither")
        if model is not None:
            _deprecated_keyword(func, "model=", "classifier=")
            if classifier is not None:
                raise param_error("model", func, "None when classifier is given (model is "
                                  "its deprecated alias)", model)
            classifier = model
        clf = self.classifiers[0] if classifier is None else check_choice(
            classifier, "classifier", func, self.classifiers)
        singles = [n for n, k in self.operator_kinds.items() if k == "single"]
        if isinstance(pairs, str):
            _deprecated_keyword(func, "a baseline as first argument",
                                "pairs=[(operator, baseline), ...]")
            if baseline is not None:
                raise param_error("pairs", func, "pairs of (operator, baseline) when "
                                  "baseline is given", pairs)
            baseline, pairs = pairs, None
        elif baseline is not None:
            _deprecated_keyword(func, "baseline=", "pairs=[(operator, baseline), ...]")
            if pairs is not None:
                raise param_error("baseline", func, "None when pairs are given", baseline)
        if baseline is not None:
            check_choice(baseline, "baseline", func, singles)
            pairs = [(op, baseline) for op in singles if op != baseline]
        if pairs is None:
            pairs = [(op, "nobagg") for op in singles if op != "nobagg"]
            if "mostFreq" in singles:
                pairs += [(op, "mostFreq") for op in singles
                          if op.split(":")[0] in ("closedApr", "maxApr")]
        for op, base in pairs:
            for name in (op, base):
                check_choice(name, "pairs", func, singles)
        preds = self._tables["predictions"]
        preds = preds[preds.classifier == clf]
        z = float(norm.ppf(0.5 + level / 2))
        rows = []
        for sel in self.selectors:
            part = preds[preds.selector == sel]
            # each sample's loss: 0/1 (wrong) for classes, the squared error for regression
            loss = {op: (g.sort_values("sample").set_index("sample").correct.eq(False)
                         .astype(float) if kind.classes
                         else g.set_index("sample")[kind.sample_loss].sort_index())
                    for op, g in part.groupby("operator")}
            for op, base in pairs:
                if op not in loss or base not in loss:
                    continue  # skipped on some fold (NotApplicableError)
                d = (loss[op] - loss[base]).to_numpy()
                folds = [f for f in range(self.settings["n_folds"])
                         if (sel, op, f) in self.signatures
                         and (sel, base, f) in self.signatures]
                same = [_feature_set(self.signatures[(sel, op, f)])
                        == _feature_set(self.signatures[(sel, base, f)]) for f in folds]
                half = z * d.std(ddof=1) / np.sqrt(d.size) if d.size > 1 else np.nan
                rows.append({"selector": sel, "operator": op, "baseline": base,
                             "n_samples": int(d.size),
                             "identical_fraction": float(np.mean(same)) if same else np.nan,
                             "error_difference": float(d.mean()),
                             "ci_low": float(d.mean() - half), "ci_high": float(d.mean() + half)})
        table = pd.DataFrame(rows, columns=["selector", "operator", "baseline", "n_samples",
                                            "identical_fraction", "error_difference",
                                            "ci_low", "ci_high"])
        if not kind.classes:
            table.insert(3, "classifier", clf)
            table["model"] = clf  # deprecated copy of classifier (one release)
        return table

    # ------------------------------------------------------------------- points
    def points(self, *, classifier: str | None = None, error_test: str = "mcnemar",
               stability_test: str = "ttest", stability_measure: str = "jaccard",
               alpha: float = 0.05, operators: Sequence[str] | None = None) -> pd.DataFrame:
        """KDD'12 points of every single-model operator, per selector (section 3).

        For each selector, every pair of operators is compared; a significant difference
        (p < ``alpha``) gives the better one 1 point and the other 0, otherwise both get 0.5
        (:func:`modelmine.diagnostics.points_ranking`). Per selector the points sum to
        ``n (n - 1) / 2`` for ``n`` operators.

        - Error: by default McNemar's exact test on the pooled test predictions of the
          cross-validation (every sample is tested once, by the model of its fold; the
          paper's "McNemar's test"); ``"mcnemar_chi2"`` uses the continuity-corrected
          chi-square; ``"ttest"`` / ``"wilcoxon"`` compare the per-fold errors instead.
        - Stability: by default the paired t-test on the per-pair similarities of the
          folds' signatures (the n (n - 1) / 2 pairs of folds are the same for every
          operator, so the similarities are paired; the paper's "paired t-test" on the
          stability). Note that the pairs share folds and are not independent: the test is
          the paper's heuristic, not an exact one. ``"nogueira"`` uses the test of Nogueira
          et al. (JMLR 2018, Theorem 10) on the selection matrices instead.

        Operators that could not run in every fold of every selector (see ``skipped``) are
        left out of the comparison, with a warning.

        Parameters
        ----------
        classifier : str, optional
            Default: "svm" when evaluated, else the first classifier.
        error_test : {"mcnemar", "mcnemar_chi2", "ttest", "wilcoxon"}
        stability_test : {"ttest", "wilcoxon", "nogueira"}
        stability_measure : {"jaccard", "dice", "kuncheva", "pearson"}
            Similarity of two signatures for the per-pair tests.
        alpha : float, default=0.05
        operators : sequence of str, optional
            Restrict the comparison to these single-model operators (the number of
            operators compared sets the scale of the points).

        Returns
        -------
        pandas.DataFrame
            One row per selector x operator: ``error_points``, ``stability_points``, the
            mean ``error`` over the folds and the ``stability`` (average pairwise
            similarity).
        """
        func = "EvaluationResult.points"
        self._classes_only("points()", func)
        clf = self._classifier(classifier, func)
        error_test = check_choice(error_test, "error_test", func, _ERROR_TESTS)
        stability_test = check_choice(stability_test, "stability_test", func, _STABILITY_TESTS)
        measure = check_choice(stability_measure, "stability_measure", func, PAIRWISE_MEASURES)
        a = check_real(alpha, "alpha", func, low=0.0, high=1.0, closed="neither")
        ops = self._operators("single", operators, func)
        # Points only compare like with like: an operator that could not run in every fold
        # of every selector (e.g. geomMean on negative scores) is left out everywhere, so
        # that every selector's points are on the same n (n - 1) / 2 scale.
        present = [op for op in ops if all(op in self._complete(s, [op])
                                           for s in self.selectors)]
        left_out = [op for op in ops if op not in present]
        if left_out:
            warnings.warn(f"Operators left out of the points (they did not run in every "
                          f"fold of every selector; see EvaluationResult.skipped): "
                          f"{', '.join(left_out)}.", UserWarning, stacklevel=2)
        rows = []
        # One pass over the (large: one row per test sample) tables instead of a scan of
        # every row per (selector, operator).
        folds = dict(list(self.folds[self.folds.classifier == clf].groupby(
            ["selector", "operator"], sort=False)))
        preds = (dict(list(self.predictions[self.predictions.classifier == clf].groupby(
            ["selector", "operator"], sort=False))) if error_test.startswith("mcnemar")
            else {})
        for sel in self.selectors if len(present) >= 2 else []:
            errs, stab_vals, stab_in, err_in = {}, {}, {}, {}
            pairs = np.triu_indices(self.settings["n_folds"], 1)
            for op in present:
                fold_rows = folds[(sel, op)]
                errs[op] = float(fold_rows.error.mean())
                if error_test.startswith("mcnemar"):
                    pr = preds[(sel, op)]
                    err_in[op] = pr.sort_values("sample").correct.to_numpy()
                else:
                    err_in[op] = fold_rows.sort_values("fold").error.to_numpy()
                Z = self.fold_signatures(sel, op)
                sim = pairwise_similarity(Z, measure=measure)
                assert sim.pairwise is not None
                stab_vals[op] = float(sim.value)
                stab_in[op] = Z if stability_test == "nogueira" else sim.pairwise[pairs]
            err_pts = points_ranking(err_in, test=error_test, alpha=a,
                                     higher_is_better=False).table.points
            stab_pts = points_ranking(stab_in, test=stability_test, alpha=a,
                                      higher_is_better=True).table.points
            for op in present:
                rows.append({"selector": sel, "operator": op, "classifier": clf,
                             "error_points": float(err_pts[op]),
                             "stability_points": float(stab_pts[op]),
                             "error": errs[op], "stability": stab_vals[op]})
        return pd.DataFrame(rows, columns=["selector", "operator", "classifier",
                                           "error_points", "stability_points", "error",
                                           "stability"])

    def to_frame(self, layout: str = "folds", **kwargs: Any) -> pd.DataFrame:
        """The result as a table: ``layout="folds"`` (one row per fold, selector, operator
        and classifier: :attr:`folds`), ``"table2"`` or ``"table4"`` (the layouts of the
        KDD'12 Tables 2 and 4; ``kwargs`` go to :meth:`points` / take ``operators``)."""
        layouts = {"folds": lambda: self.folds, "table2": lambda: self._table2(**kwargs),
                   "table4": lambda: self._table4(**kwargs)}
        check_choice(layout, "layout", "EvaluationResult.to_frame", tuple(layouts))
        if layout != "folds" and not self.outcome_kind.classes:
            raise param_error("layout", "EvaluationResult.to_frame",
                              f"'folds' for outcome={self.outcome!r} (layout={layout!r} is "
                              "the KDD'12 layout of class errors and classifier agreement; "
                              "use summary() for this outcome's measures)", layout)
        if layout == "folds" and kwargs:
            raise param_error("kwargs", "EvaluationResult.to_frame",
                              "none for layout='folds'", sorted(kwargs))
        return layouts[layout]()

    def table2(self, **kwargs: Any) -> pd.DataFrame:
        """Deprecated: ``to_frame("table2", ...)``."""
        renamed_accessor("EvaluationResult", "table2()", 'to_frame("table2")')
        return self.to_frame("table2", **kwargs)

    def table4(self, *, operators: Sequence[str] | None = None) -> pd.DataFrame:
        """Deprecated: ``to_frame("table4", ...)``."""
        renamed_accessor("EvaluationResult", "table4()", 'to_frame("table4")')
        return self.to_frame("table4", operators=operators)

    def _table2(self, **kwargs: Any) -> pd.DataFrame:
        """The KDD'12 Table 2 layout: points for error and stability, averaged over selectors.

        Takes the parameters of :meth:`points`. Woznica et al. average the points over
        datasets and selectors; a result holds one dataset, so this averages over its
        selectors (average several results' :meth:`points` for several datasets).

        Returns
        -------
        pandas.DataFrame
            Indexed by operator (in evaluation order): ``error_points``,
            ``stability_points``, mean ``error`` and ``stability``, and ``n_selectors``.
        """
        pts = self.points(**kwargs)
        return average_points(pts)

    # ------------------------------------------------------------------- table 4
    def _table4(self, *, operators: Sequence[str] | None = None) -> pd.DataFrame:
        """The KDD'12 Table 4 layout for the multi-model operators (section 4.3).

        Per operator x selector and per classifier: the agreement of the k classifiers
        trained on the k alternative signatures (equation 2) and their mean error, each as
        mean and standard deviation over the folds; and the similarity (average pairwise
        Jaccard, equation 1) of the k signatures, mean and standard deviation over folds.

        Returns
        -------
        pandas.DataFrame
            Indexed by (operator, selector); columns ``<classifier>_agreement_mean``,
            ``<classifier>_agreement_std``, ``<classifier>_error_mean``,
            ``<classifier>_error_std`` for each classifier, then ``similarity_mean``,
            ``similarity_std`` and ``n_signatures`` (mean k actually returned).
        """
        ops = self._operators("multi", operators, "EvaluationResult.table4")
        df = self.folds[self.folds.operator.isin(ops)]
        rows = []
        for op in ops:
            for sel in self.selectors:
                part = df[(df.operator == op) & (df.selector == sel)]
                if part.empty:
                    continue
                row: dict[str, Any] = {"operator": op, "selector": sel}
                for clf in self.classifiers:
                    c = part[part.classifier == clf]
                    for col in ("agreement", "error"):
                        row[f"{clf}_{col}_mean"] = float(c[col].mean())
                        row[f"{clf}_{col}_std"] = float(c[col].std(ddof=1))
                first = part[part.classifier == self.classifiers[0]]
                row["similarity_mean"] = float(first.diversity.mean())
                row["similarity_std"] = float(first.diversity.std(ddof=1))
                row["n_signatures"] = float(first.n_signatures.mean())
                rows.append(row)
        if not rows:
            return pd.DataFrame()
        return pd.DataFrame(rows).set_index(["operator", "selector"])

    # -------------------------------------------------------------- robustness
    def robustness_table(self, *, classifier: str | None = None,
                         beta: float = 1.0) -> pd.DataFrame:
        """Single versus ensemble feature selection (Saeys, Abeel, Van de Peer, PKDD 2008).

        "single" is the selector fitted on each training part (the nobagg baseline);
        "ensemble" is the mean-rank (linear) aggregation of its b bootstrap base models.
        Robustness compares the full rankings of the n folds: average pairwise Spearman
        correlation (``spearman``) and Jaccard of the top 5 % and top 1 % features
        (``jc5``, ``jc1``). ``accuracy`` is the cross-validated accuracy of the classifier
        trained on the top 1 % features; ``rpt`` is the robustness-performance trade-off
        ``RPT_beta`` of JC1 and accuracy.

        Saeys et al. measure robustness on 10 subsamples of 90 % of the data and use 40
        bags; here the subsamples are the training parts of the cross-validation folds and
        the bags are the protocol's b bootstraps.

        Returns
        -------
        pandas.DataFrame
            Indexed by (selector, method).
        """
        func = "EvaluationResult.robustness_table"
        self._classes_only("robustness_table()", func)
        clf = self._classifier(classifier, func)
        b = check_real(beta, "beta", func, low=0.0)
        p = self.feature_names.size
        rf = self.robustness_folds
        rows = []
        for sel in self.selectors:
            for method in ("single", "ensemble"):
                R = self.rankings[(sel, method)]
                row: dict[str, Any] = {"selector": sel, "method": method,
                                       "spearman": spearman_stability(R).value}
                for col, frac in TOP_FRACTIONS.items():
                    top = max(1, round(frac * p))
                    row[col] = jaccard_stability(np.less_equal(R, top)).value
                errs = rf[(rf.selector == sel) & (rf.method == method)
                          & (rf.classifier == clf)].error
                row["accuracy"] = float(1.0 - errs.mean())
                row["rpt"] = float(rpt(min(max(row["jc1"], 0.0), 1.0), row["accuracy"],
                                       beta=b).value)
                rows.append(row)
        return pd.DataFrame(rows).set_index(["selector", "method"])

    def _classifier(self, classifier: str | None, func: str) -> str:
        if classifier is None:
            return "svm" if "svm" in self.classifiers else self.classifiers[0]
        return check_choice(classifier, "classifier", func, self.classifiers)

    def __repr__(self) -> str:
        s = self.settings
        shown = "" if self.outcome == DEFAULT_OUTCOME else f"outcome={self.outcome!r}, "
        seconds = f", seconds={s['seconds']:.1f}" if "seconds" in s else ""
        return (f"EvaluationResult({shown}selectors={self.selectors}, "
                f"operators={len(self.operator_kinds)}, classifiers={self.classifiers}, "
                f"n_folds={s['n_folds']}, n_bootstraps={s['n_bootstraps']}{seconds})")


def average_points(points: pd.DataFrame) -> pd.DataFrame:
    """Average :meth:`EvaluationResult.points` rows over selectors (and datasets).

    ``points`` may concatenate the points of several results (datasets), as Woznica et al.
    average over datasets and selectors in their Table 2.
    """
    order = list(dict.fromkeys(points.operator))
    grouped = points.groupby("operator", sort=False)
    out = grouped[["error_points", "stability_points", "error", "stability"]].mean()
    out["n_selectors"] = grouped.size()
    return out.loc[order]


def _deprecated_keyword(func: str, old: str, new: str) -> None:
    """Warn that ``old`` (a keyword of the previous release's outcome result) is ``new``."""
    warnings.warn(f"{func}: {old} is deprecated and goes in the next release; use {new} "
                  "(one result type for every outcome, issue 38).", FutureWarning,
                  stacklevel=3)


def _feature_set(signature: Any) -> set[int]:
    """The features of a single-model signature, as a set of column indices."""
    return set(np.asarray(signature.features).tolist())
