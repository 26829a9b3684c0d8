"""Which gene marks a continuous or a survival outcome, in which direction, how strongly.

The counterpart of :func:`modelmine.diagnostics.marker_table` for runs whose outcome is
not a class (``mm.run(..., outcome="regression" | "survival")``):

- regression: Spearman's rho of each gene with y (the direction and the strength, robust
  to the scale of raw intensities), its p-value, Pearson's r and the least-squares slope
  per standard deviation of the gene (the change of y for one SD of the gene);
- survival: the hazard ratio per standard deviation of each gene from the univariate Cox
  model (Breslow ties; Cox 1972), its Wald 95 % interval and p-value, and Harrell's
  concordance of the gene alone, oriented by the direction (of x for a risk gene, of -x
  for a protective one, so 0.5 is none and 1 perfect either way).

With covariates (age, sex, stage: ``mm.run(covariates=...)``) the effects are adjusted:
the gene and the covariates in one model (Cox and least squares: the gene's coefficient
per SD with its Wald interval and p-value; Firth's penalised logistic regression of a class
against the rest, :func:`adjusted_class_effects`: the odds ratio per SD with its profile
penalised-likelihood interval and penalised likelihood ratio p-value).

Both carry the selection frequency with its Wilson interval and the q-value of a
permutation null when given, as the class markers do.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import chi2, norm

from ..outcomes import outcome_kind
from ..validation import check_real, param_error
from ._markers import _wilson

__all__ = ["adjusted_class_effects", "cox_univariate", "outcome_marker_table"]


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


def _adjusted_regression(values: np.ndarray, target: np.ndarray, Z: np.ndarray,
                         names: list[str]) -> list[dict[str, Any]]:
    """Each gene in the least-squares model of y on the gene and the covariates."""
    from scipy.stats import t as student

    from ..outcomes._covariates import residualise

    Zv = Z[:, Z.std(axis=0) > 0]
    ry = residualise(target, Zv).ravel()
    RX = residualise(values, Zv)
    dof = target.size - Zv.shape[1] - 2
    rows = []
    for j, name in enumerate(names):
        rx = RX[:, j]
        sxx = float(rx @ rx)
        if sxx <= 1e-12 * max(1.0, float(values[:, j] @ values[:, j])) or dof < 1:
            slope, p, r = 0.0, 1.0, 0.0
        else:
            # Frisch-Waugh-Lovell: the gene's coefficient and standard error in y ~ 1 + x + Z
            raw = float(rx @ ry) / sxx
            rss = float(((ry - raw * rx) ** 2).sum())
            se = np.sqrt(rss / dof / sxx)
            p = float(2 * student.sf(abs(raw / se), dof)) if se > 0 else 0.0
            r = float(rx @ ry / np.sqrt(sxx * float(ry @ ry))) if ry @ ry > 0 else 0.0
            slope = raw * float(values[:, j].std())  # per SD of the gene, as documented
        x = values[:, j]
        raw_r = float(np.corrcoef(x, target)[0, 1]) if np.ptp(x) > 0 else 0.0
        rows.append({"feature": name, "direction": "up" if slope >= 0 else "down",
                     "effect_size": r, "effect_measure": "partial_correlation_adjusted",
                     "p_value": p, "pearson_r": raw_r, "slope": slope})
    return rows


def harrell_columns(risks: np.ndarray, event: np.ndarray, time: np.ndarray,
                    tied_tol: float = 1e-8) -> np.ndarray:
    """Harrell's concordance of every column of ``risks`` (n x q), as scikit-survival's
    ``concordance_index_censored`` computes it for one, from one list of comparable pairs.

    A pair (i, j) is comparable when i had an event and j's time is later, or the same
    with j censored; it is concordant when i's risk is the larger, half when the risks are
    within ``tied_tol``. The pairs are taken in slices, so that memory stays bounded.
    """
    risks = np.asarray(risks, dtype=np.float64)
    event = np.asarray(event, dtype=bool)
    time = np.asarray(time, dtype=np.float64)
    later = (time[None, :] > time[:, None]) | (
        (time[None, :] == time[:, None]) & ~event[None, :])
    first, second = np.nonzero(later & event[:, None])
    if first.size == 0:
        return np.full(risks.shape[1], np.nan)
    score = np.zeros(risks.shape[1])
    step = max(1, (1 << 22) // max(1, risks.shape[1]))
    for a in range(0, first.size, step):
        diff = risks[first[a:a + step]] - risks[second[a:a + step]]
        tie = np.abs(diff) <= tied_tol
        score += ((diff > 0) & ~tie).sum(axis=0) + 0.5 * tie.sum(axis=0)
    return score / first.size


def _regression_columns(values: np.ndarray, target: np.ndarray,
                        names: list[str]) -> list[dict[str, Any]]:
    """Spearman's rho (with scipy's t-test p-value), Pearson's r and the least-squares
    slope per SD of every column against y (the coefficient of the standardised column,
    SD with ddof 0), all columns at once (``scipy.stats.spearmanr``, ``pearsonr`` and
    ``numpy.polyfit`` times the SD per column give the same numbers)."""
    from scipy.stats import rankdata
    from scipy.stats import t as student

    n = target.size
    flat = np.ptp(values, axis=0) == 0
    xc = values - values.mean(axis=0)
    yc = target - target.mean()
    sxx = (xc * xc).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.clip((xc * yc[:, None]).sum(axis=0) / np.sqrt(sxx * (yc @ yc)), -1, 1)
        # per SD of the gene, as documented: the raw slope times the gene's SD
        slope = (xc * yc[:, None]).sum(axis=0) / sxx * np.sqrt(sxx / n)
        rx = rankdata(values, axis=0)
        rxc = rx - rx.mean(axis=0)
        ry = rankdata(target)
        ryc = ry - ry.mean()
        rho = np.clip((rxc * ryc[:, None]).sum(axis=0)
                      / np.sqrt((rxc * rxc).sum(axis=0) * (ryc @ ryc)), -1, 1)
        dof = n - 2
        tstat = rho * np.sqrt((dof / ((rho + 1.0) * (1.0 - rho))).clip(0))
        p = 2 * student.sf(np.abs(tstat), dof)
    rho, p, r, slope = (np.where(flat, d, v) for v, d in
                        ((rho, 0.0), (p, 1.0), (r, 0.0), (slope, 0.0)))
    return [{"feature": name, "direction": "up" if rho[j] >= 0 else "down",
             "effect_size": float(rho[j]), "effect_measure": "spearman_rho",
             "p_value": float(p[j]), "pearson_r": float(r[j]), "slope": float(slope[j])}
            for j, name in enumerate(names)]


def _adjusted_fit(x: np.ndarray, Z: np.ndarray, fit: Any, *args: Any) -> tuple[float, float]:
    """The coefficient of the standardised x (first column) and its standard error in the
    Cox model of x and the covariates Z (``fit``: :func:`~modelmine.outcomes.cox_fit`)."""
    sd = x.std()
    if sd == 0:
        return 0.0, np.inf
    Zv = Z[:, Z.std(axis=0) > 0]
    beta, cov = fit(np.column_stack([(x - x.mean()) / sd, Zv]), *args)
    se = float(np.sqrt(cov[0, 0])) if np.isfinite(cov[0, 0]) and cov[0, 0] > 0 else np.inf
    return float(beta[0]), se


def adjusted_class_effects(X: Any, y: Any, covariates: Any, *,
                           confidence_level: float = 0.95,
                           classes: Any = None, intervals: bool = True) -> pd.DataFrame:
    """Each gene's effect on each class against the rest, adjusted for covariates.

    Firth's penalised logistic regression of "in the class" on the gene (standardised)
    and the covariates (:func:`modelmine.outcomes.firth_logistic`; Heinze and Schemper
    2002, as R's ``logistf``): the gene's odds ratio per SD, its profile penalised-
    likelihood interval and penalised likelihood ratio p-value. Unlike the maximum
    likelihood fit, the estimate is finite when the gene separates the class from the rest
    (the maximum likelihood odds ratio is then 0 or infinite, its interval [0, inf]).

    Parameters
    ----------
    X : DataFrame of shape (n_samples, genes)
    y : array-like of shape (n_samples,)
        The class labels.
    covariates : ndarray of shape (n_samples, q)
        Encoded covariates (:class:`modelmine.outcomes.Covariates`' values).
    confidence_level : float, default=0.95
    classes : sequence, optional
        The classes to report (default: every class of y); a per-class panel gives its
        own class against the rest.
    intervals : bool, default=True
        False: the odds ratios and p-values without their intervals (NaN), for every gene
        of a data set (each interval costs about twenty constrained fits, the test one).

    Returns
    -------
    pandas.DataFrame
        ``feature``, ``class``, ``adjusted_odds_ratio``, ``adjusted_or_low``,
        ``adjusted_or_high``, ``adjusted_p_value``.
    """
    from ..outcomes import firth_logistic

    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X, dtype=float))
    labels = np.asarray(y)
    Z = np.asarray(covariates, dtype=np.float64)
    if Z.ndim == 1:
        Z = Z[:, None]
    Zv = Z[:, Z.std(axis=0) > 0]
    rows = []
    levels = np.unique(labels)
    wanted = levels if classes is None else classes
    mirrored = {}
    if levels.size == 2 and len(wanted) == 2:
        # two classes: the second against the first is the first against the second with
        # the signs flipped (Firth's penalty is invariant to y -> 1 - y), so fit once
        mirrored = {levels[0]: levels[1]}
    for cls in wanted:
        if cls in mirrored:
            continue
        inside = (labels == cls).astype(np.float64)
        for name in frame.columns:
            x = frame[name].to_numpy(np.float64)
            sd = x.std()
            if sd == 0:
                beta, low, high, p = 0.0, -np.inf, np.inf, 1.0
            else:
                fit = firth_logistic(np.column_stack([np.ones(x.size), (x - x.mean()) / sd,
                                                      Zv]), inside,
                                     tested=[1], intervals=intervals,
                                     confidence_level=confidence_level)
                beta, low, high = fit.coef[1], fit.ci_low[1], fit.ci_high[1]
                p = fit.p_value[1]
            rows.append({"feature": str(name), "class": cls,
                         "adjusted_odds_ratio": float(np.exp(beta)),
                         "adjusted_or_low": float(np.exp(low)),
                         "adjusted_or_high": float(np.exp(high)),
                         "adjusted_p_value": float(p)})
    out = pd.DataFrame(rows)
    for cls, other in mirrored.items():
        flip = out[out["class"] == other].copy()
        flip["class"] = cls
        flip["adjusted_odds_ratio"] = 1.0 / flip["adjusted_odds_ratio"]
        flip["adjusted_or_low"], flip["adjusted_or_high"] = (
            1.0 / flip["adjusted_or_high"], 1.0 / flip["adjusted_or_low"])
        out = pd.concat([flip, out], ignore_index=True)
    order = {c: i for i, c in enumerate(wanted)}
    out = out.sort_values("class", key=lambda c: c.map(order), kind="stable")
    return out.reset_index(drop=True)


def outcome_marker_table(
    X: Any, y: Any, outcome: Any, *, frequency: Any = None, n_models: int | None = None,
    q_values: Any = None, confidence_level: float = 0.95, covariates: Any = None,
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
    outcome : str or OutcomeKind
        "regression", "survival" or another registered kind without classes
        (:func:`modelmine.outcomes.outcome_kind`): its values are numbers or censored times.
    frequency : array-like of shape (genes,), optional
        Each gene's selection frequency over the b base models, with ``n_models`` (b)
        for its Wilson interval.
    n_models : int, optional
    q_values : array-like of shape (genes,), optional
        Per-gene q-values of a permutation null.
    confidence_level : float, default=0.95
    covariates : ndarray of shape (n_samples, q), optional
        Encoded covariates to adjust for. Regression: ``effect_size`` is then the partial
        correlation (of the residuals of the gene and of y on the covariates),
        ``slope`` (per SD of the gene) and ``p_value`` those of the gene in the
        least-squares model of y on the gene and the covariates (t test). Survival: the
        hazard ratio, its interval and p-value are those of the Cox model of the gene (per
        SD) and the covariates.

    Returns
    -------
    pandas.DataFrame
        Regression: ``feature``, ``direction`` ("up": higher with the outcome),
        ``effect_size`` (Spearman's rho; with covariates the partial correlation),
        ``effect_measure``, ``p_value``, ``pearson_r``, ``slope`` (the least-squares
        coefficient of the standardised gene: y's change per SD of the gene, the SD with
        ddof 0 as for the hazard ratios), ``rank``. Survival:
        ``feature``, ``direction`` ("risk": higher values, higher hazard; "protective"),
        ``effect_size`` (log hazard ratio per SD), ``effect_measure``, ``hazard_ratio``,
        ``hr_low``, ``hr_high``, ``p_value`` (Wald), ``concordance`` (Harrell's C of the
        gene oriented by its direction: of x for "risk", of -x for "protective"),
        ``rank``. Then ``frequency``, ``frequency_low``, ``frequency_high`` and
        ``q_value`` when given. Sorted by ``rank`` (``|effect|``). With covariates the
        ``effect_measure`` names the adjustment (``..._adjusted``).
    """
    func = "outcome_marker_table"
    level = check_real(confidence_level, "confidence_level", func, low=0.0, high=1.0,
                       closed="neither")
    kind = outcome_kind(outcome, func=func)
    if kind.classes:
        raise param_error("outcome", func, "an outcome without classes, as 'regression' "
                          "or 'survival' (class markers: marker_table)", kind.name)
    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X, dtype=float))
    names = [str(c) for c in frame.columns]
    values = frame.to_numpy(dtype=np.float64)
    z = norm.ppf(0.5 + level / 2)
    rows = []
    Z = None if covariates is None else np.asarray(covariates, dtype=np.float64)
    if Z is not None and Z.ndim == 1:
        Z = Z[:, None]
    if not kind.censored and Z is not None:  # numbers
        rows = _adjusted_regression(values, np.asarray(y, dtype=np.float64), Z, names)
    elif not kind.censored:
        rows = _regression_columns(values, np.asarray(y, dtype=np.float64), names)
    else:
        event = np.asarray(y["event"], dtype=bool)
        time = np.asarray(y["time"], dtype=np.float64)
        from ..outcomes import cox_fit

        betas = []
        for j, name in enumerate(names):
            x = values[:, j]
            sd = x.std()
            if sd == 0:
                beta, se = 0.0, np.inf
            elif Z is not None:
                beta, se = _adjusted_fit(x, Z, cox_fit, event, time)
            else:
                beta, se = cox_univariate((x - x.mean()) / sd, event, time)
            wald_p = float(chi2.sf((beta / se) ** 2, 1)) if np.isfinite(se) else 1.0
            rows.append({"feature": name, "direction": "risk" if beta >= 0 else "protective",
                         "effect_size": float(beta),
                         "effect_measure": "log_hazard_ratio_per_sd" + (
                             "_adjusted" if Z is not None else ""),
                         "hazard_ratio": float(np.exp(beta)),
                         "hr_low": float(np.exp(beta - z * se)),
                         "hr_high": float(np.exp(beta + z * se)), "p_value": wald_p})
            betas.append(beta)
        # oriented: each gene as a risk score in its own direction
        sign = np.where(np.asarray(betas) >= 0, 1.0, -1.0)
        concordance = harrell_columns(values * sign, event, time)
        for row, c in zip(rows, concordance, strict=True):
            row["concordance"] = float(c)
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
