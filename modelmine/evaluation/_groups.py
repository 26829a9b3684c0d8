"""What the grouping of the samples changes: row-level against group-level resampling, and
how much a signature owes to any one batch or site.

Samples that are not independent (several biopsies of a patient, cells of a donor, a batch)
make row-level resampling and cross-validation optimistic: a patient's near-copies sit in
and out of a resample at once, and on both sides of a split (Varma and Simon, BMC
Bioinformatics 7:91, 2006; Saeb et al., GigaScience 6, 2017). :func:`grouping_effect` puts
the two side by side on the same data; :func:`leave_one_group_out` answers the reviewer of a
multi-centre study: does the signature survive without any one site?
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._doors import door
from ..base_models._design import check_design
from ..diagnostics._nogueira import nogueira_stability
from ..spec import PRESETS, RunSpec
from ..validation import param_error
from ._adjustment import refuse_covariates

__all__ = ["LeaveOneGroupOutResult", "grouping_effect", "leave_one_group_out"]


@door("grouping_effect", study=True, stage="models", preset=PRESETS["study"],
      defaults={"selector": "anova", "fit_full": False},
      # no per-class panels; covariates are refused until the folds adjust for them
      without=("per_class", "covariates"))
def grouping_effect(
    X: Any, y: Any, groups: Any, *, operator: str = "mostFreq", classifier: Any = "svm",
    n_folds: int = 5, n_jobs: int | None = None, spec: RunSpec, run: Any = None,
) -> pd.DataFrame:
    """Stability and error of the same run with row-level and group-level resampling.

    Runs :func:`modelmine.bootstrap` and :func:`modelmine.evaluate` twice on the same data
    and settings: once resampling rows (``StratifiedKFold`` folds), once resampling whole
    groups (``StratifiedGroupKFold`` folds, :mod:`modelmine.base_models._design`). Where a
    group's samples resemble each other (a patient's biopsies), the row-level column
    overstates stability and understates error; ``benchmarks/bench_groups.py`` measures
    by how much on microarrays with planted within-patient correlation (``docs/groups.md``).

    Parameters
    ----------
    X, y : the data and class labels.
    groups : array-like of shape (n_samples,)
        The unit of each sample (patient, donor, batch).
    **settings
    operator, classifier : optional
        The operator whose signature is evaluated, and the classifier that measures its
        error (as in :func:`modelmine.evaluate`).
    n_folds, n_jobs : optional
        As in :func:`modelmine.evaluate` (folds, workers).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``resampling`` (``"rows"``, ``"groups"``), with the Nogueira stability
        of the b base models on all the data and its 95 % interval (``stability``,
        ``stability_low``, ``stability_high``; Nogueira et al. 2018), the cross-validated
        error of the operator's signature pooled over the test samples (``cv_error``) with
        its binomial standard error (``cv_error_se``), and the Nogueira stability of the
        folds' signatures (``fold_stability``).
    """
    from ..base_models import bootstrap
    from ._protocol import evaluate

    func = "grouping_effect"
    refuse_covariates(spec, func, param="spec" if run is None else "run",
                      what="settings" if run is None else "a run")
    n = len(y)
    design = check_design(groups, None, n, func=func)
    if not isinstance(operator, str):
        raise param_error("operator", func, "an operator name", operator, exc=TypeError)
    rows = []
    for level, g in (("rows", None), ("groups", design.groups)):
        base = bootstrap(X, y, spec=spec, n_jobs=n_jobs, progress=False, groups=g)
        stab = nogueira_stability(base)
        result = evaluate(X, y, selectors=[spec.selector], operators=[operator],
                          classifiers=[classifier], n_folds=n_folds, n_jobs=n_jobs,
                          progress=False, groups=g, spec=spec)
        folds = result.folds[result.folds.operator == operator]
        sizes = np.array([te.size for _, te in result.fold_indices])
        err = float((folds.sort_values("fold").error.to_numpy() * sizes).sum() / sizes.sum())
        fold_stab = result.stability()
        rows.append({
            "resampling": level, "stability": stab.value,
            "stability_low": stab.confidence_interval[0],
            "stability_high": stab.confidence_interval[1],
            "cv_error": err, "cv_error_se": float(np.sqrt(err * (1 - err) / sizes.sum())),
            "fold_stability": float(fold_stab.loc[fold_stab.operator == operator,
                                                  "nogueira"].iloc[0]),
        })
    return pd.DataFrame(rows).set_index("resampling")


@dataclass(frozen=True)
class LeaveOneGroupOutResult:
    """The signature of all the data against the signatures without each group.

    Attributes
    ----------
    signature : tuple of str
        The signature of the run on all the samples.
    table : pandas.DataFrame
        One row per group left out: ``group``, ``n_left_out`` (samples), ``jaccard`` (with
        the full signature), ``n_lost``, ``n_gained``, ``lost``, ``gained`` (feature names,
        space-separated).
    stability : float
        Nogueira stability of the leave-one-group-out signatures (Nogueira et al. 2018):
        1 when no group moves the signature.
    kept : pandas.Series
        For each feature of the full signature, the fraction of the leave-outs that keep
        it (1.0: no single group carries it).
    spec : RunSpec or None
        The settings of every run (all the samples, and without each batch).
    """

    signature: tuple[str, ...]
    table: pd.DataFrame
    stability: float
    kept: pd.Series
    spec: RunSpec | None = None

    def __repr__(self) -> str:
        worst = self.table.sort_values("jaccard").iloc[0]
        return (f"LeaveOneGroupOutResult({len(self.table)} groups; Jaccard with the full "
                f"signature {self.table.jaccard.min():.2f} to {self.table.jaccard.max():.2f}, "
                f"lowest without {worst.group!r}; stability {self.stability:.2f})")


@door("leave_one_group_out", study=True, preset=PRESETS["study"],
      # one operator (``operator``, its own, with its ``operator_params``)
      without=("operators",))
def leave_one_group_out(
    X: Any, y: Any, batches: Any, *, groups: Any = None, operator: str = "closedApr",
    operator_params: Mapping[str, Any] | None = None, sample_weight: Any = None,
    n_jobs: int | None = None, spec: RunSpec, run: Any = None,
) -> LeaveOneGroupOutResult:
    """How much the signature changes when one batch or site is left out.

    Runs :func:`modelmine.run` on all the samples and once without each batch (the
    same settings and seed), and compares each signature with the full one: the question
    a reviewer asks of a multi-centre study (does any one centre carry the signature?).

    Parameters
    ----------
    X, y : the data and class labels.
    batches : array-like of shape (n_samples,)
        The site, batch or study of each sample: the units left out one at a time (at
        least 3; leaving one out must leave two classes).
    **settings
    groups : array-like of shape (n_samples,), optional
        The resampling groups (patients) inside each run, as in :func:`modelmine.run`.
    operator : str, default="closedApr"
        A single-signature operator.
    operator_params : mapping, optional
        Its parameters.
    sample_weight : array-like of shape (n_samples,), optional
        As in :func:`modelmine.run`.
    n_jobs : optional
        As in :func:`modelmine.run`.

    Returns
    -------
    LeaveOneGroupOutResult
    """
    from ..pipeline import run as mine

    func = "leave_one_group_out"
    spec = spec.replace(func, operators=[operator], operator_params=None if not
                        operator_params else {operator: dict(operator_params)})
    yy = np.asarray(y)
    n = yy.shape[0]
    units = check_design(batches, None, n, func=func)
    if units.n_groups < 3:
        raise param_error("batches", func, "at least 3 batches (one is left out at a time)",
                          f"{units.n_groups} batches", show=False)
    assert units.groups is not None and units.group_labels is not None
    weights = sample_weight
    g_arr = None if groups is None else check_design(groups, None, n, func=func).groups
    w_arr = None if weights is None else np.asarray(weights, dtype=np.float64)

    def signature(rows: np.ndarray) -> tuple[str, ...]:
        Xr = X.iloc[rows] if isinstance(X, pd.DataFrame) else X[rows]
        r = mine(Xr, yy[rows], spec=spec, n_jobs=n_jobs, progress=False,
                 groups=None if g_arr is None else g_arr[rows],
                 sample_weight=None if w_arr is None else w_arr[rows])
        sig = r.signatures[operator]
        if not hasattr(sig, "names"):
            raise param_error("operator", func, "a single-signature operator", operator)
        return tuple(str(v) for v in sig.names)

    everything = np.arange(n)
    full = signature(everything)
    rows_out, sets = [], []
    for code, label in enumerate(units.group_labels):
        keep = everything[units.groups != code]
        if np.unique(yy[keep]).size < 2:
            raise param_error("batches", func, "batches whose removal leaves two classes",
                              f"batch {label!r}, without which one class remains",
                              show=False)
        sig = signature(keep)
        sets.append(sig)
        a, b = set(full), set(sig)
        rows_out.append({"group": label, "n_left_out": int(n - keep.size),
                         "jaccard": len(a & b) / len(a | b) if a | b else 1.0,
                         "n_lost": len(a - b), "n_gained": len(b - a),
                         "lost": " ".join(sorted(a - b)), "gained": " ".join(sorted(b - a))})
    names = sorted(set(full).union(*map(set, sets)))
    index = {f: j for j, f in enumerate(names)}
    # every feature of X is a column (those no signature holds stay all False)
    matrix = np.zeros((len(sets), int(X.shape[1])), dtype=bool)
    for i, sig in enumerate(sets):
        matrix[i, [index[f] for f in sig]] = True
    stab = nogueira_stability(matrix).value
    kept = pd.Series([float(np.mean([f in s for s in sets])) for f in full],
                     index=pd.Index(full, name="feature"), name="kept")
    return LeaveOneGroupOutResult(signature=full, table=pd.DataFrame(rows_out),
                                  stability=float(stab), kept=kept, spec=spec)
