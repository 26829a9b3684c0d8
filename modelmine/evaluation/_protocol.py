"""evaluate(): the cross-validation protocol of Woznica, Nguyen and Kalousis (KDD 2012, s. 3).

For every selector and every fold of a stratified k-fold cross-validation:

1. b bootstrap base models of the selector are built on the *training part* of the fold
   (:func:`modelmine.bootstrap`), together with the selector fitted once on the whole
   training part (the "nobagg" baseline);
2. every operator turns these base models into one signature (single-model operators) or k
   alternative signatures (multi-model operators);
3. every classifier is trained on each signature (training part) and tested on the test
   part of the fold: error, balanced accuracy, AUC, the predictions (for McNemar's test),
   and for k signatures their agreement (KDD'12 equation 2) and diversity (equation 1).

Stability is measured across the folds' signatures of each (selector, operator), on the
same folds as the error. The work is split into one task per (selector, fold); the tasks run
with joblib (``n_jobs``) or on a Dask cluster (``executor``) and the results never depend on
how: every random choice is seeded from ``numpy.random.SeedSequence(random_state)``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from .._data import check_dataset
from .._doors import door
from ..base_models import (
    BaseModels,
    check_run_data,
    data_fingerprint,
    fit_base_models,
)
from ..base_models._design import check_design, refuse_unweighted
from ..constants import TOP_FRACTIONS
from ..diagnostics import agreement, diversity, signature_performance
from ..exceptions import NotApplicableError, SizeCappedWarning
from ..operators import (
    Operator,
    Signature,
    SignatureSet,
    aggregate,
    operator_seed,
)
from ..selectors import average_ranks
from ..spec import PRESETS, RunSpec, capped
from ..validation import check_int, param_error
from ._adjustment import study_covariates
from ._choices import (
    RECORDED,
    check_operator_params,
    described,
    fold_selectors,
    record_label,
    resolve_operators,
)
from ._classifiers import resolve_classifiers
from ._folds import BaseModelCache, fold_covariates, fold_parts, make_folds, run_tasks, seed_plan
from ._result import EvaluationResult

__all__ = ["KDD12_SELECTORS", "evaluate"]

_FUNC = "evaluate"
_CACHE_VERSION = 1

#: The four selectors of the KDD'12 leukemia experiment (Table 4): the selectors
#: :func:`evaluate` compares on classes by default (a continuous or survival outcome takes
#: its own, :data:`modelmine.spec.DEFAULT_SELECTORS`). Formerly ``DEFAULT_SELECTORS``.
KDD12_SELECTORS: tuple[str, ...] = ("ig", "relieff", "svm-rfe", "svm")

#: The classifiers of KDD'12 (section 3), :func:`evaluate`'s default on classes.
KDD12_CLASSIFIERS: tuple[str, ...] = ("svm", "1nn", "tree")

#: Top fractions of a full ranking compared in the robustness table (Saeys et al. 2008).


def _top_count(fraction: float, p: int) -> int:
    return max(1, round(fraction * p))


# ---------------------------------------------------------------------- the task
def _ensemble_ranks(base: BaseModels) -> np.ndarray:
    """Full ranking by mean rank over the base models (Saeys et al. 2008 linear aggregation).

    Mean of the tied ranks, ranked again with ties sharing their average rank, so that the
    features no model can tell apart (exact zeros of a random forest) are not ordered by
    index, which would inflate the Spearman robustness."""
    return average_ranks(-base.tied_ranks().mean(axis=0, dtype=np.float64))


def _single_ranks(base: BaseModels) -> np.ndarray:
    """The full-data ranking, ties sharing their average rank where the selector scores."""
    full = base.full_model
    assert full is not None
    if full.scores is not None:
        return average_ranks(full.scores)
    return np.asarray(full.ranks, dtype=np.float32)


def _evaluate_outcome(X: Any, y: Any, outcome: str, selectors: Any, operators: Any,
                      classifiers: Any, *, spec: RunSpec, **kwargs: Any) -> Any:
    """The continuous and survival outcomes: :func:`evaluate_outcome` (the same fold engine,
    the models of the outcome's kind) with evaluate's settings."""
    from ._outcomes import evaluate_outcome

    return evaluate_outcome(X, y, outcome, selectors, operators, classifiers, spec=spec,
                            **kwargs)


def _run_task(X: Any, y: np.ndarray, payload: dict[str, Any], *, operators: list[Operator],
              classifiers: dict[str, Any], n_signatures: int,
              operator_params: dict[str, dict[str, Any]],
              feature_names: np.ndarray) -> dict[str, Any]:
    """One (selector, fold): base models, every operator, every classifier."""
    start = time.perf_counter()
    train, test = payload["train"], payload["test"]
    key = payload["key"]
    X_tr, y_tr, X_te, y_te = X[train], y[train], X[test], y[test]
    with threadpool_limits(limits=1):
        path = payload["cache_path"]
        base = BaseModelCache.load(path, key, feature_names)
        cached = base is not None
        if base is None:
            # The fold's run specification: mm.run(X[train], y[train], spec=spec) gives
            # these base models and, through operator_seed, these signatures. Every fold
            # fits the full training part too (nobagg, the robustness table).
            spec = payload["spec"].replace(_FUNC, n_features=key["n_features"],
                                           random_state=key["seed"], operators=(),
                                           fit_full=True)
            checked = check_run_data(
                X_tr, y_tr, spec, feature_names=feature_names, n_jobs=1, func=_FUNC,
                groups=payload.get("groups"), sample_weight=payload.get("sample_weight"))
            if payload.get("covariates") is not None:  # the training part's covariates
                checked = dataclasses.replace(checked, covariates=payload["covariates"])
            with warnings.catch_warnings():  # evaluate has named such a selector already
                warnings.filterwarnings("ignore", message="The covariates .* did not enter")
                base = fit_base_models(checked, progress=False)
            BaseModelCache.store(path, base)
        rows: list[dict[str, Any]] = []
        preds: list[dict[str, Any]] = []
        signatures: dict[str, Signature | SignatureSet] = {}
        skipped: list[dict[str, Any]] = []
        for op in operators:
            params = dict(operator_params.get(op.name, {}))
            # The operator stage of mm.run (aggregate validates, caps k, records provenance).
            # A selector that chooses its own subset size (CFS, l1-logistic: n_features
            # is a cap) may leave fewer than m distinct features in a fold's base models;
            # the signature is then capped at what the operator can serve (its size is
            # recorded in the results' n_features column).
            size = ({"n_features": min(payload["size"], int(op.max_features(base)))}
                    if op.kind == "single" else {"n_signatures": n_signatures})
            try:
                with warnings.catch_warnings():  # the sizes used are in the results' table
                    warnings.simplefilter("ignore", SizeCappedWarning)
                    result: Signature | SignatureSet = aggregate(
                        base, op, random_state=operator_seed(base), **size, **params)
            except NotApplicableError as exc:  # e.g. geomMean on negative scores; any
                skipped.append({"operator": op.name, "reason": str(exc)})  # other error
                continue                                                    # propagates
            signatures[op.name] = result
            sigs = [result] if isinstance(result, Signature) else list(result)
            div = diversity(sigs).value if len(sigs) >= 2 else math.nan
            for clf_name, clf in classifiers.items():
                perfs = [signature_performance(clf, X_tr, y_tr, X_te, y_te, s.features)
                         for s in sigs]
                errors = np.array([r.error for r in perfs])
                agree = (agreement(np.vstack([r.y_pred for r in perfs])).value
                         if len(perfs) >= 2 else math.nan)
                rows.append({
                    "operator": op.name, "kind": op.kind, "classifier": clf_name,
                    "n_signatures": len(sigs),
                    "n_features": float(np.mean([len(s) for s in sigs])),
                    "error": float(errors.mean()),
                    "error_std": float(errors.std()) if len(sigs) > 1 else 0.0,
                    "balanced_accuracy": float(np.mean([r.balanced_accuracy for r in perfs])),
                    "auc": float(np.mean([r.auc for r in perfs])),
                    "agreement": agree, "diversity": div,
                    "features": " | ".join(" ".join(s.names.tolist()) for s in sigs),
                })
                for i, r in enumerate(perfs):
                    preds.append({"operator": op.name, "classifier": clf_name, "signature": i,
                                  "y_pred": r.y_pred})
        # Saeys et al. (2008): full rankings of the single selector and of the ensemble,
        # and the performance of the top 1 % features of each.
        assert base.full_model is not None
        rankings = {"single": _single_ranks(base), "ensemble": _ensemble_ranks(base)}
        top = _top_count(TOP_FRACTIONS["jc1"], base.n_features_in)
        robust = []
        for method, ranks in rankings.items():
            feats = np.argsort(ranks, kind="stable")[:top]
            for clf_name, clf in classifiers.items():
                r = signature_performance(clf, X_tr, y_tr, X_te, y_te, feats)
                robust.append({"method": method, "classifier": clf_name, "error": r.error,
                               "n_features": top})
    return {"rows": rows, "preds": preds, "signatures": signatures, "skipped": skipped,
            "rankings": rankings, "robust": robust, "cached": cached,
            "seconds": time.perf_counter() - start}


# ---------------------------------------------------------------------- evaluate
@door("evaluate", study=True, stage="mining", preset=PRESETS["kdd2012"],
      # the selectors and operators compared, and their parameters, are the protocol's own
      # (``selectors``, ``operators``, ``operator_params``: given, or the record's); no
      # itemsets or per-class panels; the covariates' values are the body's (the spec
      # names them: study_covariates)
      without=("selector", "selector_params", "min_support", "per_class"),
      notes={"fit_full": "Each fold fits the full training part too (the nobagg "
                         "baseline and the robustness table need it), whatever this says."})
def evaluate(
    X: Any,
    y: Any,
    selectors: Any = None,
    operators: Any = None,
    classifiers: Any = None,
    *,
    n_folds: int = 10,
    operator_params: Mapping[str, Mapping[str, Any]] | None = None,
    feature_names: Any = None,
    n_jobs: int | None = None,
    executor: Any = None,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    groups: Any = None,
    sample_weight: Any = None,
    covariates: Any = None,
    spec: RunSpec,
    record: RunSpec | None = None,
    run: Any = None,
) -> Any:
    """Run the evaluation protocol of Woznica, Nguyen and Kalousis (KDD 2012, section 3).

    Stratified ``n_folds``-fold cross-validation (scikit-learn's ``StratifiedKFold`` with
    shuffling), the same folds for error, stability and agreement. In each fold and for each
    selector, ``n_bootstraps`` base models are built on the training part only, every
    operator aggregates them into a signature (or ``n_signatures`` alternative signatures),
    and every classifier is trained on each signature (training part) and tested on the
    test part. No test sample ever reaches a selector, an operator or a classifier's fit.
    The settings of each fold's base models are the call's (the KDD'12 preset: the table's
    defaults; or those of ``spec=`` / ``run=``) with the fold's seed: ``evaluate(X, y,
    run=r)`` evaluates the run's own selector, scaling, resampling and operators.

    Parameters
    ----------
    X : array-like, DataFrame or scipy.sparse matrix of shape (n_samples, p)
    y : array-like of shape (n_samples,)
        Class labels, any encoding.
    selectors : sequence or mapping, optional
        Selector names (see :func:`modelmine.selectors.available_selectors`), Selector
        objects, scikit-learn estimators or callables; a mapping gives them labels.
        Default: the selector of ``run=`` (as its spec builds it); else, for
        classes, the four of KDD'12 (:data:`KDD12_SELECTORS`: "ig", "relieff", "svm-rfe",
        "svm"), and for an outcome its own (its kind's ``default_selector``,
        :func:`modelmine.outcomes.outcome_kind`).
    operators : sequence of str, optional
        Operator names (:func:`modelmine.operators.available_operators`); default: those of
        ``run=`` (for an outcome, its single-model ones), else every available operator.
        ``"nobagg"`` (the selector fitted once on the training part, no aggregation) is
        always added: it is the baseline of every comparison.
    classifiers : sequence or mapping, optional
        Default: ("svm", "1nn", "tree") for classes, the outcome's first model otherwise.
        Names of the paper's classifiers (linear SVM with C = 0.5, 1-nearest neighbour, a
        decision tree; see :mod:`modelmine.evaluation._classifiers`) or any scikit-learn
        classifiers (cloned); a mapping gives them labels.
    **settings
    n_folds : int, default=10
        Number of folds, between 2 and the size of the smallest class.
    operator_params : mapping, optional
        Extra parameters per operator name, e.g. ``{"closedApr": {"min_support": 0.1}}``;
        default: those of ``run=``.
    feature_names : sequence of str, optional
    n_jobs : int or None
        joblib workers over the (selector, fold) tasks; -1 = all cores.
    executor : dask.distributed.Client or str, optional
        Run the tasks on a Dask cluster (a Client or a scheduler address) instead; the data
        are scattered to the workers once. Results are bit-identical to a serial run.
    cache_dir : path-like, optional
        Directory of the finished base models of each (selector, fold), saved with
        :meth:`BaseModels.save`, keyed by the data fingerprint, the fold's training rows,
        the selector's description, b, m and the seed. A rerun (for example with more
        operators or classifiers) loads them instead of refitting the selector. With a Dask
        cluster, the directory must be on a file system the workers share.
    progress : bool or None
        A progress bar over the tasks (tqdm); None shows it when stderr is a terminal.
    groups : array-like of shape (n_samples,), optional
        The unit each sample belongs to (patient, donor, batch). The folds are then
        scikit-learn's ``StratifiedGroupKFold`` (shuffled): no group is ever on both sides
        of a split, and each fold's base models resample whole groups of its training part
        (:func:`modelmine.bootstrap`). Needs at least ``n_folds`` groups, and folds that
        each hold every class (refused otherwise, naming ``groups``).
    sample_weight : array-like of shape (n_samples,), optional
        Weights given to each fold's selectors on its training part (or drawing its
        resamples with ``weighted_resampling``), as in :func:`modelmine.bootstrap`. The
        classifiers that measure the error are fitted unweighted, as in the paper.
    covariates : DataFrame, mapping, 2-D array-like or sequence of str, optional
        Clinical covariates of the samples, as :func:`modelmine.run` takes them: their
        values (one row per sample) or names of columns of X. Default: the columns of X
        the settings name (``spec.covariates``), else, with ``run=``, the run's own
        values (``MiningRun.covariates``). Each fold's selectors are fitted adjusted for
        those of its training part, as a run with ``covariates=`` fits them
        (``docs/outcomes.md``, "Clinical covariates"). The classifiers and models that
        measure a signature are fitted on its genes alone: the error is the genes'.

    Returns
    -------
    EvaluationResult
        For every outcome (issue 38, item 3; the class layouts refuse an outcome). Tidy
        frames (``folds``, ``predictions``, ``robustness_folds``,
        ``tasks``, ``skipped``), the signatures, the stability across folds
        (:meth:`EvaluationResult.stability`), and the KDD'12 Table 2 and Table 4 and the
        Saeys et al. (2008) robustness layouts (:meth:`EvaluationResult.table2`,
        :meth:`~EvaluationResult.table4`, :meth:`~EvaluationResult.robustness_table`).
        The seed: ``SeedSequence(random_state).spawn`` gives one child for the folds and
        one per fold; a fold's child gives the fold's seed (the ``seed`` column of
        :attr:`EvaluationResult.tasks`), the seed of that fold's spec for every selector
        (the selectors are compared on the same resamples), from which the operators that
        draw are seeded as in :func:`modelmine.run`: so ``mm.run(X[train], y[train],
        spec=spec.replace(random_state=seed))`` reproduces a fold's base models and
        signatures. For a continuous or survival ``outcome`` (``docs/outcomes.md``), the
        folds are stratified by its strata, the operators are the single-model ones
        (default: mostFreq, closedApr, avgRank), ``classifiers`` names the models of
        the outcome's kind (:attr:`modelmine.outcomes.OutcomeKind.models`: "ridge",
        "rf"; "coxph", "rsf"), and
        the result holds that ``outcome`` and its measures (RMSE and R^2; Harrell's and
        Uno's concordance and the integrated Brier score).

    Raises
    ------
    ValueError
        ``n_folds`` larger than the smallest class; an unknown selector, operator or
        classifier name (the message lists the valid ones).
    """
    # the covariates given, or those the settings name (columns of X, the run's values)
    X, feature_names, covariates, spec = study_covariates(
        X, covariates, spec, run, feature_names=feature_names, func=_FUNC)
    outcome = spec.outcome
    classes = spec.outcome_kind.classes
    if record is not None:  # a run's selector (as its spec builds it) and operators
        if selectors is None:
            selectors = {record_label(record): RECORDED}
        if operators is None:  # for an outcome, its single-model operators
            operators = [op for op, kind in record.operator_kinds.items()
                         if classes or (kind == "single" and op != "nobagg")] or None
        if operator_params is None and operators is not None:
            operator_params = {k: dict(v) for k, v in record.operator_params.items()
                               if k in operators} or None
    if not classes:
        if record is None:  # the outcome's defaults (a record would give its own)
            selectors = [spec.selector] if selectors is None else selectors
            operators = ["mostFreq", "closedApr", "avgRank"] if operators is None \
                else operators
        return _evaluate_outcome(
            X, y, outcome, selectors, operators, classifiers, n_folds=n_folds,
            operator_params=operator_params, groups=groups, n_jobs=n_jobs,
            executor=executor, cache_dir=cache_dir, sample_weight=sample_weight,
            feature_names=feature_names, progress=progress, covariates=covariates,
            spec=spec)
    if selectors is None:
        selectors = KDD12_SELECTORS
    if classifiers is None:
        classifiers = KDD12_CLASSIFIERS
    data = check_dataset(X, y, func=_FUNC, feature_names=feature_names)
    sels = fold_selectors(selectors, spec)
    ops = resolve_operators(operators, _FUNC)
    clfs = resolve_classifiers(classifiers, _FUNC)
    params = check_operator_params(operator_params, ops, _FUNC)
    counts = np.bincount(data.y)
    smallest = int(counts.min())
    folds_k = check_int(n_folds, "n_folds", _FUNC, min_value=2)
    design = check_design(groups, sample_weight, data.n_samples, func=_FUNC,
                          weighted_resampling=spec.weighted_resampling)
    if design.sample_weight is not None and not design.weighted_resampling:
        refuse_unweighted({label: s.selectors[0] for label, s in sels.items()}, _FUNC)
    covs = fold_covariates(covariates, data.n_samples, data.y, outcome, design,
                           [s.selectors[0] for s in sels.values()], func=_FUNC)
    if design.grouped and design.n_groups < folds_k:
        raise param_error("groups", _FUNC, f"at least n_folds={folds_k} groups (grouped "
                          "folds hold whole groups)", f"{design.n_groups} groups",
                          show=False)
    if folds_k > smallest:
        raise param_error("n_folds", _FUNC, f"an integer in [2, {smallest}] (at most the "
                          f"size of the smallest class, {smallest} samples, so that every "
                          "fold holds every class)", n_folds)
    b = spec.n_bootstraps
    m = spec.for_data(data.n_features_in, _FUNC).n_features
    m = check_int(m, "n_features", _FUNC, min_value=1)
    m = capped(m, data.n_features_in, name="n_features", func=_FUNC,
               why=f"the {data.n_features_in} features of X")
    size = m if spec.signature_size is None else min(spec.signature_size, data.n_features_in)
    k = spec.n_signatures
    jobs = check_int(n_jobs, "n_jobs", _FUNC, allow_none=True)
    if jobs == 0:
        raise param_error("n_jobs", _FUNC, "a non-zero integer or None", n_jobs)
    cache = BaseModelCache(cache_dir, _FUNC)

    labels = data.classes[data.y]  # the user's labels, for predictions and classifiers
    seeds = seed_plan(spec.random_state, n_folds=folds_k, n_units=len(sels), func=_FUNC)
    folds = make_folds(data.y, n_folds=folds_k, seeds=seeds, groups=design.groups,
                       every_stratum=True, func=_FUNC)
    fingerprint = data_fingerprint(data.X, data.y, design)
    tasks: dict[int, dict[str, Any]] = {}
    sel_labels = list(sels)
    for s, label in enumerate(sel_labels):
        for f, fold in enumerate(folds):
            what = described(sels[label])
            if covs is not None:  # adjusted fits: another cache entry
                what = {**what, "covariates": covs.checksums()}
            key = cache.key(fingerprint=fingerprint, fold=f, train=fold.train,
                            selector=what, n_bootstraps=b, n_features=m,
                            seed=seeds.units[f][s], spec=sels[label])
            task = {"spec": sels[label], "train": fold.train, "test": fold.test,
                    "key": key, "cache_path": cache.path(label, key), "size": size}
            if covs is not None:
                task["covariates"] = covs.subset(fold.train)
            if not design.empty:  # the fold's part of the design (in the data's fingerprint)
                task["groups"] = None if design.groups is None else design.groups[fold.train]
                task["sample_weight"] = (None if design.sample_weight is None
                                         else design.sample_weight[fold.train])
            tasks[s * folds_k + f] = task
    kwargs = {"operators": ops, "classifiers": clfs, "n_signatures": k,
              "operator_params": params, "feature_names": data.feature_names}
    start = time.perf_counter()
    results = run_tasks(_run_task, data.X, labels, tasks, kwargs, executor=executor,
                        n_jobs=jobs, func=_FUNC, label="evaluate (selector x fold)",
                        progress=progress)
    seconds = time.perf_counter() - start
    return _assemble(results, tasks, sel_labels, ops, clfs, fold_parts(folds), labels,
                     data.feature_names, spec=spec,
                     settings={
                         "n_folds": folds_k, "n_bootstraps": b, "n_features": m,
                         "n_signatures": k, "random_state": seeds.entropy,
                         "seed_derivation": seeds.derivation,
                         "selectors": {lb: described(sels[lb]) for lb in sel_labels},
                         "operators": [o.name for o in ops], "classifiers": list(clfs),
                         "classifier_params": {c: repr(e) for c, e in clfs.items()},
                         "fold_seed": seeds.split[0], "n_samples": data.n_samples,
                         "n_features_in": data.n_features_in,
                         "data_sha256": fingerprint, "seconds": seconds,
                         **({"signature_size": size} if size != m else {}),
                         **({"design": design.describe()} if not design.empty else {}),
                     })


def _assemble(results: dict[int, dict[str, Any]], tasks: dict[int, dict[str, Any]],
              sel_labels: list[str], ops: list[Operator], clfs: dict[str, Any],
              folds: Sequence[tuple[np.ndarray, np.ndarray]], labels: np.ndarray,
              feature_names: np.ndarray, settings: dict[str, Any],
              spec: RunSpec | None = None) -> EvaluationResult:
    """Put the task results in place, in (selector, operator, classifier, fold) order."""
    n_folds = len(folds)
    rows, pred_rows, rob_rows, task_rows, skipped = [], [], [], [], []
    signatures: dict[tuple[str, str, int], Signature | SignatureSet] = {}
    rankings: dict[tuple[str, str], np.ndarray] = {}
    p = feature_names.size
    for s, label in enumerate(sel_labels):
        ranks = {"single": np.zeros((n_folds, p), np.float32),
                 "ensemble": np.zeros((n_folds, p), np.float32)}
        for f in range(n_folds):
            tid = s * n_folds + f
            out, task = results[tid], tasks[tid]
            test = task["test"]
            for r in out["rows"]:
                rows.append({"selector": label, "fold": f, **r})
            for r in out["preds"]:
                pred_rows.append(pd.DataFrame({
                    "selector": label, "operator": r["operator"],
                    "classifier": r["classifier"], "signature": r["signature"], "fold": f,
                    "sample": test, "y_true": labels[test], "y_pred": r["y_pred"]}))
            for r in out["robust"]:
                rob_rows.append({"selector": label, "fold": f, **r})
            for r in out["skipped"]:
                skipped.append({"selector": label, "fold": f, **r})
            for name, sig in out["signatures"].items():
                signatures[(label, name, f)] = sig
            for method in ranks:
                ranks[method][f] = out["rankings"][method]
            task_rows.append({"selector": label, "fold": f, "n_train": task["train"].size,
                              "n_test": test.size, "seed": task["key"]["seed"],
                              "cached": out["cached"], "seconds": out["seconds"]})
        for method, R in ranks.items():
            rankings[(label, method)] = R
    folds_df = pd.DataFrame(rows)
    order = {"selector": sel_labels, "operator": [o.name for o in ops],
             "classifier": list(clfs)}
    if not folds_df.empty:
        folds_df = _sorted(folds_df, order, ["selector", "operator", "classifier", "fold"])
        cols = ["selector", "operator", "kind", "classifier", "fold"]
        folds_df = folds_df[cols + [c for c in folds_df.columns if c not in cols]]
    preds = (pd.concat(pred_rows, ignore_index=True) if pred_rows else pd.DataFrame(
        columns=["selector", "operator", "classifier", "signature", "fold", "sample",
                 "y_true", "y_pred"]))
    if not preds.empty:
        preds["correct"] = preds["y_true"].to_numpy() == preds["y_pred"].to_numpy()
        preds = _sorted(preds, order, ["selector", "operator", "classifier", "signature",
                                       "sample"])
    return EvaluationResult(
        folds=folds_df, predictions=preds,
        robustness_folds=_sorted(pd.DataFrame(rob_rows), {
            "selector": sel_labels, "method": ["single", "ensemble"],
            "classifier": list(clfs)}, ["selector", "method", "classifier", "fold"]),
        tasks=pd.DataFrame(task_rows),
        skipped=pd.DataFrame(skipped, columns=["selector", "fold", "operator", "reason"]),
        signatures=signatures, rankings=rankings,
        fold_indices=tuple((tr.copy(), te.copy()) for tr, te in folds),
        operator_kinds={o.name: o.kind for o in ops}, feature_names=feature_names,
        settings=settings, spec=spec,
    )


def _sorted(df: pd.DataFrame, order: dict[str, list[str]], by: list[str]) -> pd.DataFrame:
    """Sort by ``by``, categorical columns in the order the user gave them."""
    keys = df.copy()
    for col, values in order.items():
        if col in keys:
            keys[col] = pd.Categorical(keys[col], categories=values, ordered=True)
    idx = keys.sort_values(by, kind="stable").index
    return df.loc[idx].reset_index(drop=True)



