"""Which gene marks a continuous or a survival outcome, in which direction, how strongly.

The counterpart of :func:`modelmine.diagnostics.marker_table` for runs whose outcome is
not a class (``mm.run(..., outcome="regression" | "survival")``):

- regression: Spearman's rho of each gene with y (the direction and the strength, robust
  to the scale of raw intensities), its p-value, Pearson's r and the least-squares slope;
- survival: the hazard ratio per standard deviation of each gene from the univariate Cox
  model (Breslow ties; Cox 1972), its Wald 95 % interval and p-value, and Harrell's
  concordance of the gene alone.

Both carry the selection frequency with its Wilson interval and the q-value of a
permutation null when given, as the class markers do.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import chi2, norm, pearsonr, spearmanr

from ..validation import check_real, param_error
from ._markers import _wilson

__all__ = ["cox_univariate", "outcome_marker_table"]


def cox_univariate(x: np.ndarray, event: np.ndarray, time: np.ndarray, *,
                   max_iter: int = 50, tol: float = 1e-10) -> tuple[float, float]:
    """The Cox model of one covariate (Breslow ties) by Newton-Raphson: (beta, se).

    The log partial likelihood ``l(b) = sum over events of b x_i - log sum over the risk
    set of exp(b x_j)`` (tied events share the risk set of their time) is concave; its
    maximiser is found from b = 0 with step halving, and ``se = 1 / sqrt(-l''(b))``. A
    covariate whose risk sets never vary gives ``(0, inf)``; a monotone likelihood
    (separation) stops at the last finite step with its se.
    """
    x = np.asarray(x, dtype=np.float64)
    order = np.argsort(-np.asarray(time, dtype=np.float64), kind="stable")
    xs, es, ts = x[order], np.asarray(event, bool)[order], np.asarray(time, float)[order]
    last = np.r_[np.flatnonzero(ts[1:] != ts[:-1]), ts.size - 1]
    group = np.searchsorted(last, np.arange(ts.size))
    d = np.bincount(group, weights=es.astype(float), minlength=last.size)
    sum_ev = np.bincount(group, weights=np.where(es, xs, 0.0), minlength=last.size)
    keep = d > 0
    shift = xs.max() if xs.size else 0.0

    def parts(b: float) -> tuple[float, float, float]:
        w = np.exp(b * (xs - shift))
        s0 = np.cumsum(w)[last][keep]
        s1 = np.cumsum(w * xs)[last][keep]
        s2 = np.cumsum(w * xs * xs)[last][keep]
        loglik = float((b * sum_ev[keep] - d[keep] * (np.log(s0) + b * shift)).sum())
        mean = s1 / s0
        grad = float((sum_ev[keep] - d[keep] * mean).sum())
        info = float((d[keep] * (s2 / s0 - mean * mean)).sum())
        return loglik, grad, info

    b = 0.0
    loglik, grad, info = parts(b)
    if info <= 0:
        return 0.0, np.inf
    for _ in range(max_iter):
        step = grad / info
        new = b + step
        new_ll, new_grad, new_info = parts(new)
        halvings = 0
        while new_ll < loglik - 1e-12 and halvings < 30:
            step /= 2
            new = b + step
            new_ll, new_grad, new_info = parts(new)
            halvings += 1
        converged = abs(new - b) < tol * max(1.0, abs(b))
        b, loglik, grad, info = new, new_ll, new_grad, new_info
        if converged or info <= 0 or not np.isfinite(b):
            break
    return b, (1.0 / np.sqrt(info) if info > 0 else np.inf)


def _harrell(risk: np.ndarray, event: np.ndarray, time: np.ndarray) -> float:
    """Harrell's concordance of a risk score (scikit-survival's)."""
    from sksurv.metrics import concordance_index_censored

    return float(concordance_index_censored(event, time, risk)[0])


def outcome_marker_table(
    X: Any, y: Any, outcome: str, *, frequency: Any = None, n_models: int | None = None,
    q_values: Any = None, confidence_level: float = 0.95,
) -> pd.DataFrame:
    """One row per gene: direction and strength of its link with a continuous or
    survival outcome, with its selection frequency.

    Parameters
    ----------
    X : DataFrame of shape (n_samples, genes)
        The genes' values (``MiningRun.expression`` without its outcome columns).
    y : array-like
        The outcome: numbers (``outcome="regression"``), or the structured array of
        ``event`` and ``time`` (``outcome="survival"``).
    outcome : {"regression", "survival"}
    frequency : array-like of shape (genes,), optional
        Each gene's selection frequency over the b base models, with ``n_models`` (b)
        for its Wilson interval.
    n_models : int, optional
    q_values : array-like of shape (genes,), optional
        Per-gene q-values of a permutation null.
    confidence_level : float, default=0.95

    Returns
    -------
    pandas.DataFrame
        Regression: ``feature``, ``direction`` ("up": higher with the outcome),
        ``effect_size`` (Spearman's rho), ``effect_measure``, ``p_value``, ``pearson_r``,
        ``slope``, ``rank``. Survival: ``feature``, ``direction`` ("risk": higher values,
        higher hazard; "protective"), ``effect_size`` (log hazard ratio per SD),
        ``effect_measure``, ``hazard_ratio``, ``hr_low``, ``hr_high``, ``p_value`` (Wald),
        ``concordance``, ``rank``. Then ``frequency``, ``frequency_low``,
        ``frequency_high`` and ``q_value`` when given. Sorted by ``rank`` (|effect|).
    """
    func = "outcome_marker_table"
    level = check_real(confidence_level, "confidence_level", func, low=0.0, high=1.0,
                       closed="neither")
    if outcome not in ("regression", "survival"):
        raise param_error("outcome", func, "'regression' or 'survival' (class markers: "
                          "marker_table)", outcome)
    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X, dtype=float))
    names = [str(c) for c in frame.columns]
    values = frame.to_numpy(dtype=np.float64)
    z = norm.ppf(0.5 + level / 2)
    rows = []
    if outcome == "regression":
        target = np.asarray(y, dtype=np.float64)
        for j, name in enumerate(names):
            x = values[:, j]
            if np.ptp(x) == 0:
                rho, p, r, slope = 0.0, 1.0, 0.0, 0.0
            else:
                rho, p = spearmanr(x, target)
                r = pearsonr(x, target)[0]
                slope = float(np.polyfit(x, target, 1)[0])
            rows.append({"feature": name, "direction": "up" if rho >= 0 else "down",
                         "effect_size": float(rho), "effect_measure": "spearman_rho",
                         "p_value": float(p), "pearson_r": float(r), "slope": slope})
    else:
        event = np.asarray(y["event"], dtype=bool)
        time = np.asarray(y["time"], dtype=np.float64)
        for j, name in enumerate(names):
            x = values[:, j]
            sd = x.std()
            if sd == 0:
                beta, se = 0.0, np.inf
            else:
                beta, se = cox_univariate((x - x.mean()) / sd, event, time)
            wald_p = float(chi2.sf((beta / se) ** 2, 1)) if np.isfinite(se) else 1.0
            rows.append({"feature": name, "direction": "risk" if beta >= 0 else "protective",
                         "effect_size": float(beta), "effect_measure": "log_hazard_ratio_per_sd",
                         "hazard_ratio": float(np.exp(beta)),
                         "hr_low": float(np.exp(beta - z * se)),
                         "hr_high": float(np.exp(beta + z * se)), "p_value": wald_p,
                         "concordance": _harrell(x, event, time)})
    out = pd.DataFrame(rows)
    if frequency is not None:
        f = np.asarray(frequency, dtype=np.float64)
        out["frequency"] = f
        if n_models is not None:
            lo, hi = _wilson(f, int(n_models), z)
            out["frequency_low"], out["frequency_high"] = lo, hi
    if q_values is not None:
        out["q_value"] = np.asarray(q_values, dtype=np.float64)
    order = np.lexsort((np.arange(len(out)), -np.abs(out["effect_size"].to_numpy())))
    out["rank"] = 0
    out.loc[out.index[order], "rank"] = np.arange(1, len(out) + 1)
    return out.iloc[order].reset_index(drop=True)
