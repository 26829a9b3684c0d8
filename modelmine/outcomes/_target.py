"""The outcome of a run: class labels, a continuous value, or a censored survival time.

Nothing after the selector needs classes (KDD 2012, section 2: the base models are
subsets and rankings of features, whatever the selector fitted): the bootstraps, the
itemsets, the k-medoids, every operator, the stability measures and the error control work
on them unchanged. What depends on the outcome is checked here, once, at the door:

- the target's values (:class:`Outcome`): finite floats for regression; for survival, a
  structured array of an event indicator and a non-negative time, as scikit-survival's
  ``Surv.from_arrays`` makes it (Polsterl 2020, JMLR 21(212));
- the strata the resampling uses (``stratify=True``, and the check that a resample is not
  degenerate): the quantile bins of y for regression, the event indicator for survival
  (or the halves of the times when every sample had the event or too few did).
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..validation import param_error

__all__ = ["SURVIVAL_DTYPE", "check_classes", "check_survival", "check_values",
           "group_strata_of_survival", "group_strata_of_values", "regression_strata",
           "require_survival", "standardized_target", "survival_arrays"]

#: The smallest spread of a regression target, relative to its largest magnitude, that is
#: more than rounding (float64 resolves about 2.2e-16 of a value): below it, y is refused.
MIN_RELATIVE_SPREAD = 1e-12

#: The dtype of a survival target inside modelmine (scikit-survival's layout).
SURVIVAL_DTYPE = np.dtype([("event", "?"), ("time", "<f8")])

#: Quantile bins of a continuous target for stratified resampling (fewer for small n).
REGRESSION_STRATA = 5


def require_survival(func: str) -> None:
    """Refuse survival without scikit-survival, naming the extra that installs it."""
    if importlib.util.find_spec("sksurv") is None:
        from ..exceptions import MissingExtraError

        raise param_error("outcome", func, "'classification' or 'regression' unless "
                          "scikit-survival is installed (pip install 'modelmine[survival]')",
                          "survival", exc=MissingExtraError)


def survival_arrays(y: Any, func: str = "check_outcome", name: str = "y"
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The event indicator (bool) and the times (float64) of a survival target.

    Accepts a structured array of two fields, the event indicator first (booleans, or 0/1)
    and the time second (scikit-survival's ``Surv.from_arrays(event, time)``), or a
    pandas DataFrame of such two columns.
    """
    arr = y.to_records(index=False) if hasattr(y, "to_records") else np.asarray(y)
    names = arr.dtype.names
    if names is None or len(names) != 2 or arr.ndim != 1:
        raise param_error(name, func, "a survival target: a structured array of the event "
                          "indicator and the time (sksurv.util.Surv.from_arrays(event, "
                          "time))", f"an array of shape {arr.shape} and dtype {arr.dtype}",
                          show=False)
    event_raw, time_raw = arr[names[0]], arr[names[1]]
    kind = event_raw.dtype.kind
    if kind == "b" or (kind in "iuf" and np.isin(event_raw, (0, 1)).all()):
        event = event_raw.astype(bool)
    else:
        shown = ", ".join(map(str, np.unique(event_raw.astype(str))[:4]))
        raise param_error(name, func, f"an event indicator ({names[0]!r}) of booleans or "
                          "0/1 (1 = the event happened, 0 = censored)",
                          f"values {shown}", show=False)
    if time_raw.dtype.kind not in "iuf":
        raise param_error(name, func, f"numeric times ({names[1]!r})",
                          f"dtype {time_raw.dtype}", exc=TypeError, show=False)
    time = time_raw.astype(np.float64)
    bad = ~np.isfinite(time) | (time < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise param_error(name, func, f"non-negative, finite times ({names[1]!r})",
                          f"{int(bad.sum())} time(s) that are negative or missing, the "
                          f"first {time[i]!r} (sample {i})", show=False)
    if np.unique(time).size < 2:
        # Every Cox partial likelihood is then flat in the times: only the event indicator
        # is left, and the survival selectors rank features by it alone.
        warnings.warn(f"{func}: all {time.size} survival times ({names[1]!r}) are equal "
                      f"({time[0]:g}): the times carry no information, so the survival "
                      "selectors see only the event indicator (check the time column).",
                      UserWarning, stacklevel=3)
    if event.sum() < 2:
        raise param_error(name, func, "a survival target with at least two events (a "
                          "resample must hold one)", f"{event.size} samples with "
                          f"{int(event.sum())} event(s)", show=False)
    return event, time


def check_classes(y: Any, *, func: str, name: str = "y"
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The target of a classification: the labels as given, one stratum (the resampling
    stratifies by the classes themselves; ``check_dataset`` checks the labels)."""
    arr = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    return arr, np.zeros(arr.shape[0], np.intp), np.array(["all"])


def check_values(y: Any, *, func: str, name: str = "y"
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A continuous target: finite numbers that vary beyond rounding, as float64, and its
    quantile bins (:func:`regression_strata`)."""
    arr = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    if arr.ndim != 1:
        raise param_error(name, func, "a 1-D array of numbers (a continuous target)",
                          f"an array of shape {arr.shape}", show=False)
    if arr.dtype.kind not in "iufb":
        raise param_error(name, func, "numbers for outcome='regression'",
                          f"an array of dtype {arr.dtype}", exc=TypeError, show=False)
    values = arr.astype(np.float64)
    bad = ~np.isfinite(values)
    if bad.any():
        raise param_error(name, func, "finite numbers for outcome='regression' (no NaN or "
                          "infinite values)", f"{int(bad.sum())} NaN or infinite value(s), "
                          f"the first at sample {int(np.flatnonzero(bad)[0])}", show=False)
    if np.unique(values).size < 2:
        raise param_error(name, func, "a target that varies", "a constant target",
                          show=False)
    scaled = values / np.abs(values).max()
    spread = float(np.std(scaled))
    if spread < MIN_RELATIVE_SPREAD:
        raise param_error(name, func, "a target that varies beyond rounding (standard "
                          f"deviation at least {MIN_RELATIVE_SPREAD:g} of its largest "
                          "magnitude)", f"a standard deviation of {spread:.3g} of its "
                          "largest magnitude", show=False)
    return (values, *regression_strata(values))


def check_survival(y: Any, *, func: str, name: str = "y"
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A survival target (:func:`survival_arrays`) as a :data:`SURVIVAL_DTYPE` array, and
    its strata: the event indicator, or the halves of the times when all (or all but one)
    of the samples had the event."""
    event, time = survival_arrays(y, func, name)
    values = np.empty(event.size, dtype=SURVIVAL_DTYPE)
    values["event"], values["time"] = event, time
    n_event = int(event.sum())
    if min(n_event, event.size - n_event) >= 2:
        strata, labels = event.astype(np.intp), np.array(["censored", "event"])
    else:  # all (or all but one) had the event: stratify by the halves of the times,
        # each of which then holds events
        strata = (time > np.median(time)).astype(np.intp)
        labels = np.array(["early", "late"])
        if np.unique(strata).size < 2:
            strata, labels = np.zeros(event.size, np.intp), np.array(["all"])
    return values, strata, labels


def group_strata_of_values(values: np.ndarray, members: Sequence[np.ndarray]
                           ) -> tuple[np.ndarray, np.ndarray] | None:
    """Strata of whole groups of a continuous target: the quantile bins of the groups'
    mean y (None when every group has the same mean)."""
    means = np.array([float(np.mean(values[rows])) for rows in members])
    if np.unique(means).size < 2:
        return None
    return regression_strata(means)


def group_strata_of_survival(values: np.ndarray, members: Sequence[np.ndarray]
                             ) -> tuple[np.ndarray, np.ndarray] | None:
    """Strata of whole groups of a survival target: whether a group had an event, or the
    halves of the groups' median times when nearly every group had one (None when those
    do not differ)."""
    any_event = np.array([bool(values["event"][rows].any()) for rows in members])
    if min(int(any_event.sum()), int((~any_event).sum())) >= 2:
        return any_event.astype(np.intp), np.array(["censored", "event"])
    med = np.array([float(np.median(values["time"][rows])) for rows in members])
    codes = (med > np.median(med)).astype(np.intp)
    if np.unique(codes).size < 2:
        return None
    return codes, np.array(["early", "late"])


def standardized_target(values: np.ndarray) -> np.ndarray:
    """A regression target as the selectors fit it: centred and scaled to unit standard
    deviation, so that y times any constant (1e-300 to 1e300) gives the same fits.

    The selectors' own constants are on the scale of a standardised y (the lasso's
    penalty, the SVR's epsilon tube, the solvers' tolerances); on y of standard deviation
    1e-7 the lasso kept no feature, and a y of 1e308 overflowed its sum of squares.
    Divided by its largest magnitude first, so that no step overflows. Survival targets
    (structured arrays) are returned as they are: Cox models do not depend on the scale
    of time.
    """
    arr = np.asarray(values)
    if arr.dtype.names is not None:
        return arr
    scaled = arr.astype(np.float64) / np.abs(arr).max()
    centred = scaled - scaled.mean()
    return centred / centred.std()


def regression_strata(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Quantile bins of a continuous target (at most 5, each of 2 or more samples)."""
    n = values.size
    k = int(max(2, min(REGRESSION_STRATA, n // 4)))
    edges = np.quantile(values, np.linspace(0, 1, k + 1)[1:-1])
    codes = np.searchsorted(np.unique(edges), values, side="left")
    _, codes = np.unique(codes, return_inverse=True)  # drop empty bins
    counts = np.bincount(codes)
    while counts.size > 2 and counts.min() < 2:  # merge a bin of one into its neighbour
        j = int(np.argmin(counts))
        codes[codes == j] = j - 1 if j > 0 else 1
        _, codes = np.unique(codes, return_inverse=True)
        counts = np.bincount(codes)
    codes = codes.astype(np.intp).reshape(-1)
    return codes, np.array([f"Q{i + 1}" for i in range(int(codes.max()) + 1)])
