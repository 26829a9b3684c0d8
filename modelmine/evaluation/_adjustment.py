"""The covariates of a study: where their values come from, and the one refusal.

A run adjusted for clinical covariates (``mm.run(covariates=...)``) records their names in
its settings (:attr:`modelmine.RunSpec.covariates`); the values are data. A study that
refits the run's selector takes them as :func:`modelmine.run` does
(:func:`study_covariates`): given (``covariates=``, values or names of columns of X), else
the columns of X its settings name, else, for ``run=``, the run's own values
(``MiningRun.covariates``). So the setting reaches the studies that adjust through
``spec=`` / ``run=`` alone: :func:`modelmine.evaluate` and
:func:`~modelmine.evaluation.evaluate_outcome` (each fold's selectors adjusted for its
training part's covariates), :func:`~modelmine.evaluation.selection_null` (the null
outcomes keep the covariates' effect) and :func:`~modelmine.evaluation.check_error_control`
(a run again); :func:`~modelmine.evaluation.leave_one_group_out` runs
:func:`modelmine.run`, which takes the columns of X its settings name.

The studies that cannot adjust (Pes's thresholds, Salman's aggregations,
:func:`~modelmine.evaluation.grouping_effect`, the single-cell panels: their refits do not
carry the covariates) refuse such settings here, before any fit (:func:`refuse_covariates`).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..spec import RunSpec
from ..validation import param_error

__all__ = ["holds_columns", "refuse_covariates", "study_covariates"]

#: Why, in words.
_WHY = ("refit the selector without the covariates, so their answer would not be adjusted "
        "for them (docs/outcomes.md, 'Clinical covariates')")


def holds_columns(X: Any, names: tuple[str, ...], feature_names: Any) -> bool:
    """Whether the data still hold the named columns (a DataFrame's, or the features')."""
    if isinstance(X, pd.DataFrame):
        columns = {str(c) for c in X.columns}
    elif feature_names is not None:
        columns = {str(f) for f in feature_names}
    else:
        return False
    return set(names) <= columns


def _named(covs: Any, name: str) -> bool:
    """Whether the checked covariates hold ``name`` (a column, or a categorical one's
    indicators ``name=level``)."""
    return name in covs.sources or any(c == name or c.startswith(f"{name}=")
                                       for c in covs.columns)


def study_covariates(X: Any, covariates: Any, spec: RunSpec, run: Any = None, *,
                     feature_names: Any = None, func: str) -> tuple[Any, Any, Any, RunSpec]:
    """The covariates a study adjusts for, as :func:`modelmine.run` takes them, and the
    data without them.

    Parameters
    ----------
    X : array-like or DataFrame
    covariates : DataFrame, mapping, 2-D array-like, sequence of str, or None
        Given by the caller: values (one row per sample) or names of columns of X.
        None: those ``spec`` names, as columns of X; or, when X does not hold them and
        ``run`` is given, the run's own values (``run.covariates``).
    spec : RunSpec
        The study's settings; given values without names make it name them.
    run : MiningRun, optional
    feature_names : sequence of str, optional
    func : str

    Returns
    -------
    X, feature_names, Covariates or None, RunSpec
    """
    from ..outcomes._covariates import take_covariates

    names = tuple(spec.covariates)
    if covariates is None and not names:
        return X, feature_names, None, spec
    if (covariates is None and run is not None and getattr(run, "covariates", None) is not None
            and not holds_columns(X, names, feature_names)):
        covariates = run.covariates  # the run's own values, for its own samples
    X, feature_names, covs = take_covariates(X, covariates, names, feature_names, func=func)
    if not names:  # the settings name what the study adjusts for
        return X, feature_names, covs, spec.replace(func, covariates=covs.sources)
    missing = [n for n in names if not _named(covs, n)]
    if missing:
        raise param_error("covariates", func, f"the covariates the settings name "
                          f"({', '.join(names)})", list(covs.sources), show=False)
    return X, feature_names, covs, spec


def refuse_covariates(spec: Any, func: str, *, param: str = "spec",
                      what: str = "settings") -> None:
    """Refuse covariates in a study that would refit without them, before any fit.

    Parameters
    ----------
    spec : RunSpec
        The study's settings (their ``covariates``).
    func : str
        The study, named in the message.
    param, what : str
        The parameter that brought them (``"spec"``, ``"run"``) and what it is ("a
        run"), for the message.

    Raises
    ------
    InvalidParameterError
        Naming ``param``.
    """
    names = tuple(getattr(spec, "covariates", None) or ())
    if not names:
        return
    raise param_error(param, func, f"{what} without covariates (this study would {_WHY})",
                      f"{what} adjusted for {', '.join(names)}", show=False,
                      hint="Run it on a run without covariates.")
