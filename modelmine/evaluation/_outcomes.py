"""The KDD'12 protocol for continuous and survival outcomes (issue 27, item 3).

The folds, the selection inside each training part and the stability across folds are
those of :func:`modelmine.evaluate` (Woznica, Nguyen and Kalousis, KDD 2012, section 3);
what changes with the outcome is the model fitted on each signature and what measures it,
both held by the outcome's kind (:attr:`modelmine.outcomes.OutcomeKind.models`,
``measure``, ``sample_errors``):

- regression: ridge regression (``"ridge"``, the penalty chosen by efficient leave-one-out
  on the training part) or a random forest (``"rf"``); RMSE and R^2 per fold, and each test
  sample's squared error, so that two operators are compared sample by sample
  (:meth:`EvaluationResult.paired_differences`: the mean difference of the squared errors
  with its normal interval);
- survival: a Cox model with a small ridge penalty (``"coxph"``, scikit-survival's
  ``CoxPHSurvivalAnalysis``) or a random survival forest (``"rsf"``); Harrell's
  concordance, Uno's concordance (censoring weights from the training part) and the
  integrated Brier score (scikit-survival's ``concordance_index_censored``,
  ``concordance_index_ipcw`` and ``integrated_brier_score``; Uno et al. 2011, Graf et al.
  1999) per fold.

The folds are stratified by the outcome's strata (quantile bins of y, or the event
indicator: :func:`modelmine.outcomes.check_outcome`), grouped with ``groups``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._doors import door
from ..operators import operator_kinds
from ..outcomes import DEFAULT_OUTCOME, outcome_kind
from ..spec import PRESETS, RunSpec
from ..validation import check_choice, check_int, param_error
from ._adjustment import study_covariates
from ._result import EvaluationResult

__all__ = ["evaluate_outcome"]

_FUNC = "evaluate"


def _outcome_task(X: Any, values: np.ndarray, payload: dict[str, Any], *, outcome: Any,
                  operators: list[str], models: list[str], n_signatures: int,
                  operator_params: Mapping[str, Mapping[str, Any]] | None,
                  feature_names: np.ndarray) -> dict[str, Any]:
    """One (selector, fold): base models on the training part, each operator's signature,
    each model fitted on the signature's genes and measured on the test part."""
    import dataclasses

    from threadpoolctl import threadpool_limits

    from ..base_models import check_run_data, fit_base_models
    from ..operators import apply_operators
    from ._folds import BaseModelCache

    train, test, f = payload["train"], payload["test"], payload["fold"]
    kind = outcome_kind(outcome, func=_FUNC)
    assert kind.measure is not None
    with threadpool_limits(limits=1):
        path, key = payload["cache_path"], payload["key"]
        base = BaseModelCache.load(path, key, feature_names)
        if base is None:
            fold = payload["spec"].replace(_FUNC, random_state=key["seed"], operators=())
            # the data's names, as evaluate's classes give them (not x0, x1, ...)
            checked = check_run_data(X[train], values[train], fold, n_jobs=1, func=_FUNC,
                                     feature_names=feature_names,
                                     groups=payload.get("groups"),
                                     sample_weight=payload.get("sample_weight"))
            if payload.get("covariates") is not None:  # the training part's covariates
                checked = dataclasses.replace(checked, covariates=payload["covariates"])
            base = fit_base_models(checked, progress=False)
            BaseModelCache.store(path, base)
        # the signatures' size as asked (m, unresolved: aggregate caps what it cannot serve)
        n_features = payload["size"]
        fitted = apply_operators(base, operators, n_features=n_features,
                                 n_signatures=n_signatures, params=operator_params)
        label = str(payload["label"])
        rows, parts, signatures = [], [], {}
        for op in operators:
            sig = fitted.get(op)
            if sig is None or not hasattr(sig, "features"):
                continue
            signatures[op] = sig
            cols = np.asarray(sig.features, dtype=np.intp)
            genes = _dense(X[:, cols])  # the signature's columns, once per operator
            Xtr, Xte = genes[train], genes[test]
            for mname in models:
                model = kind.models[mname]()
                model.fit(Xtr, values[train])
                pred = np.asarray(model.predict(Xte), dtype=np.float64)
                row = {"selector": label, "operator": op, "model": mname, "fold": f,
                       "n_features": int(cols.size)}
                row.update(kind.measure(model, Xte, pred, values[train], values[test]))
                rows.append(row)
                part = pd.DataFrame({"selector": label, "operator": op, "model": mname,
                                     "fold": f, "sample": test, "prediction": pred})
                if kind.sample_errors is not None:  # each sample's error, for pairs
                    for column, per_sample in kind.sample_errors(pred, values[test]).items():
                        part[column] = per_sample
                parts.append(part)
    return {"label": label, "rows": rows, "parts": parts, "signatures": signatures}


@door("evaluate_outcome", study=True, stage="mining", preset=PRESETS["study"],
      # as evaluate: the settings of the base models and of their mining, not the gene
      # map (the data's columns are the study's X); the selectors and operators compared
      # are the protocol's own (given, or the record's); ``outcome`` is its own
      # positional parameter (checked against a record's);
      # the covariates' values are the body's (the spec names them: study_covariates)
      without=("selector", "selector_params", "min_support", "per_class"))
def evaluate_outcome(X: Any, y: Any, outcome: str, selectors: Any = None,
                     operators: Any = None, models: Sequence[str] | None = None, *,
                     n_folds: int = 5,
                     operator_params: Mapping[str, Mapping[str, Any]] | None = None,
                     groups: Any = None, n_jobs: int | None = None,
                     feature_names: Any = None, progress: bool | None = None,
                     sample_weight: Any = None, executor: Any = None,
                     cache_dir: Any = None, covariates: Any = None, spec: RunSpec,
                     record: RunSpec | None = None, run: Any = None) -> EvaluationResult:
    """Cross-validate signatures of a continuous or survival outcome (KDD 2012, sec. 3).

    In each of ``n_folds`` folds (stratified by the outcome's strata; grouped with
    ``groups``), each selector's ``n_bootstraps`` base models are built on the training
    part only (:func:`modelmine.bootstrap` with the call's settings and ``outcome``),
    every single-model operator and ``nobagg`` give a signature, and each model of
    ``models`` is fitted on the signature's genes (training part) and tested on the test
    part. The base models of fold f are ``mm.bootstrap(X[train], y[train],
    spec=spec.replace(random_state=seed))`` with the fold's seed (the ``"outcome"`` seed
    derivation of :data:`modelmine.evaluation.SEED_DERIVATIONS`).

    Parameters
    ----------
    X : array-like of shape (n_samples, p)
    y : array-like
        Numbers (regression) or the event / time structured array (survival).
    outcome : str
        What y is: "regression", "survival" or another registered kind without classes
        (:func:`modelmine.outcomes.outcome_kind`; that of ``spec=`` / ``run=`` when
        given).
    selectors : sequence of str or Selector, or mapping label -> selector, optional
        Default: the selector of ``run=``, else the outcome's (its kind's
        ``default_selector``).
    operators : sequence of str, optional
        Single-model operators (default: those of ``run=``, else mostFreq, closedApr,
        avgRank); ``"nobagg"`` is added.
    models : sequence of str, optional
        Names of the outcome kind's models (:attr:`~modelmine.outcomes.OutcomeKind.models`:
        "ridge", "rf" for regression, "coxph", "rsf" for survival; default: its first).
    **settings
    n_folds : int, default=5
        As in :func:`modelmine.evaluate`.
    operator_params : mapping, optional
        Parameters per operator, as in :func:`modelmine.evaluate`.
    groups, n_jobs : optional
        As in :func:`modelmine.evaluate`.
    feature_names : sequence of str, optional
    progress : bool, optional
        A progress bar over the (selector, fold) tasks.
    sample_weight, executor, cache_dir : optional
        As in :func:`modelmine.evaluate`: the weights reach each fold's selectors (or
        draw its resamples), never the models that measure the signatures.
    covariates : DataFrame, mapping, 2-D array-like or sequence of str, optional
        As in :func:`modelmine.evaluate` (default: those the settings name, or the run's):
        each fold's selectors adjusted for those of its training part; the models fitted
        on the signature's genes alone.

    Returns
    -------
    EvaluationResult
        With ``outcome`` set, the outcome's measures in :attr:`~EvaluationResult.folds`
        and the model in its ``classifier`` column (a deprecated copy named ``model``
        kept for one release).
    """
    from .._data import check_dataset
    from ..base_models import data_fingerprint
    from ..base_models._design import check_design, refuse_unweighted
    from ._choices import (
        RECORDED,
        check_operator_params,
        described,
        fold_selectors,
        record_label,
        resolve_operators,
    )
    from ._folds import BaseModelCache, make_folds, run_tasks, seed_plan

    kind = outcome_kind(outcome, func=_FUNC)
    if kind.classes or not kind.models:
        raise param_error("outcome", _FUNC, "an outcome without classes whose kind has "
                          "models to fit on a signature, as 'regression' or 'survival' "
                          "(classes: evaluate)", kind.name)
    outcome = kind.name
    # the covariates given, or those the settings name (columns of X, the run's values)
    X, feature_names, covariates, spec = study_covariates(
        X, covariates, spec, run, feature_names=feature_names, func=_FUNC)
    if spec.outcome != outcome:
        if run is not None or spec.outcome != DEFAULT_OUTCOME:  # a spec of its own
            raise param_error("outcome", _FUNC, f"the outcome of the spec "
                              f"({spec.outcome!r})", outcome)
        spec = spec.replace(_FUNC, outcome=outcome, selector=None, selector_params=None)
    if record is not None:
        if selectors is None:
            selectors = {record_label(record): RECORDED}
        if operators is None:
            operators = [op for op, kind in record.operator_kinds.items()
                         if kind == "single" and op != "nobagg"] or None
        if operator_params is None and operators is not None:
            operator_params = {k: dict(v) for k, v in record.operator_params.items()
                               if k in operators} or None
    kind.require(_FUNC)
    specs = fold_selectors([kind.default_selector] if selectors is None
                            else selectors, spec, _FUNC)
    chosen_ops = (["mostFreq", "closedApr", "avgRank"] if operators is None
                  else [operators] if isinstance(operators, str) else list(operators))
    kinds = operator_kinds(chosen_ops, func=_FUNC)
    multi = [name for name, kind in kinds.items() if kind != "single"]
    if multi:
        raise param_error("operators", _FUNC, f"single-model operators for "
                          f"outcome={outcome!r} (one signature per fold)",
                          f"{multi}", show=False)
    params = check_operator_params(operator_params, resolve_operators([*kinds, "nobagg"], _FUNC),
                           _FUNC)
    jobs = check_int(n_jobs, "n_jobs", _FUNC, allow_none=True)
    if jobs == 0:
        raise param_error("n_jobs", _FUNC, "a non-zero integer or None", n_jobs)
    target = kind.check(y, func=_FUNC)
    data = check_dataset(X, target.strata, func=_FUNC, feature_names=feature_names)
    names = kind.models
    chosen = ([models] if isinstance(models, str) else list(models)) if models \
        else [next(iter(names))]
    for name in chosen:
        check_choice(name, "classifiers", _FUNC, list(names))
    k = check_int(n_folds, "n_folds", _FUNC, min_value=2)
    smallest = int(np.bincount(target.strata).min())
    if k > smallest:
        raise param_error("n_folds", _FUNC, f"an integer in [2, {smallest}] (each fold holds "
                          f"every stratum of the outcome: {', '.join(target.strata_labels)})",
                          n_folds)
    design = check_design(groups, sample_weight, data.n_samples, func=_FUNC,
                          weighted_resampling=spec.weighted_resampling)
    if design.sample_weight is not None and not design.weighted_resampling:
        refuse_unweighted({label: s.selectors[0] for label, s in specs.items()}, _FUNC)
    from ._folds import fold_covariates

    covs = fold_covariates(covariates, data.n_samples, target.values, outcome, design,
                           [one.selectors[0] for one in specs.values()], func=_FUNC)
    cache = BaseModelCache(cache_dir, _FUNC)
    seeds = seed_plan(spec.random_state, n_folds=k, n_units=len(specs),
                      derivation="outcome", func=_FUNC)
    ops = [o for o in dict.fromkeys([*kinds, "nobagg"])]
    folds = make_folds(target.strata, n_folds=k, seeds=seeds, groups=design.groups,
                       func=_FUNC)
    values = target.values
    fingerprint = (data_fingerprint(data.X, target.strata, design, target=values)
                   if cache.directory is not None else "")
    tasks: dict[int, dict[str, Any]] = {}
    for s, (label, one) in enumerate(specs.items()):
        for f, fold in enumerate(folds):
            what = described(one)
            if covs is not None:  # adjusted fits: another cache entry
                what = {"selector": what, "covariates": covs.checksums()}
            key = cache.key(fingerprint=fingerprint, fold=f, train=fold.train,
                            selector=what, n_bootstraps=one.n_bootstraps,
                            n_features=one.n_features, seed=seeds.units[f][s],
                            outcome=outcome, spec=one)
            task: dict[str, Any] = {"spec": one, "label": label, "train": fold.train,
                                    "test": fold.test, "fold": f, "key": key,
                                    "cache_path": cache.path(label, key),
                                    "size": one.signature_size or one.n_features}
            if covs is not None:
                task["covariates"] = covs.subset(fold.train)
            if not design.empty:
                task["groups"] = None if design.groups is None else design.groups[fold.train]
                task["sample_weight"] = (None if design.sample_weight is None
                                         else design.sample_weight[fold.train])
            tasks[s * k + f] = task
    results = run_tasks(
        _outcome_task, data.X, values, tasks,
        {"outcome": kind, "operators": ops, "models": chosen,
         "n_signatures": spec.n_signatures, "operator_params": params,
         "feature_names": np.asarray(data.feature_names)},
        executor=executor, n_jobs=jobs, func=_FUNC,
        label=f"evaluate {outcome} (selector x fold)", progress=progress)
    fold_rows, pred_rows = [], []
    signatures: dict[tuple[str, str, int], Any] = {}
    for tid in sorted(results):
        out = results[tid]
        fold_rows.extend(out["rows"])
        pred_rows.extend(out["parts"])
        for op, sig in out["signatures"].items():
            signatures[(out["label"], op, tasks[tid]["fold"])] = sig
    labels = list(dict.fromkeys(results[tid]["label"] for tid in sorted(results)))
    return EvaluationResult(
        outcome=outcome, folds=_learner_column(pd.DataFrame(fold_rows)),
        predictions=_learner_column(pd.concat(pred_rows, ignore_index=True)),
        signatures=signatures, fold_indices=[(fold.train, fold.test) for fold in folds],
        operator_kinds=dict.fromkeys(ops, "single"),
        feature_names=np.asarray(data.feature_names),
        settings={"n_folds": k, "n_bootstraps": spec.n_bootstraps,
                  "n_features": spec.n_features,
                  "random_state": seeds.entropy, "seed_derivation": seeds.derivation,
                  "operators": ops, "models": chosen,
                  "n_samples": data.n_samples, "n_features_in": data.n_features_in,
                  "outcome": outcome, "selectors": labels, "classifiers": chosen,
                  **({"design": design.describe()} if not design.empty else {})},
        spec=spec)


def _learner_column(table: pd.DataFrame) -> pd.DataFrame:
    """The learner's column is ``classifier`` for every outcome (EvaluationResult); the
    previous outcome tables named it ``model``: a copy under that name closes the table
    for one release (deprecated)."""
    table = table.rename(columns={"model": "classifier"})
    table["model"] = table["classifier"]
    return table


def _dense(X: Any) -> np.ndarray:
    return X.toarray() if hasattr(X, "toarray") else np.asarray(X, dtype=np.float64)
