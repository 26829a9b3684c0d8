"""The report's figures for continuous and survival outcomes (``mm.run(outcome=...)``).

Regression: each top gene of the signature against y with its least-squares line, and the
signature's cross-validated prediction against the observed y. Survival: Kaplan-Meier
curves of the samples split at the median of the signature's cross-validated Cox risk
score, with the log-rank p-value (Mantel 1966; scikit-survival's ``compare_survival``),
and the hazard ratio per standard deviation of each gene with its 95 % interval.

The out-of-fold predictions (:func:`signature_predictions`) use models fitted without the
sample they predict, but the genes themselves were chosen on all the samples: the figures
show how the signature's genes relate to the outcome, not an unbiased estimate of its
performance (``mm.evaluate`` gives that, with the selection inside each fold).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ._plots import _plain_log, _plain_text

__all__ = ["plot_hazard_ratios", "plot_kaplan_meier", "plot_outcome_scatter",
           "plot_predicted_observed", "signature_predictions"]


def signature_predictions(expression: pd.DataFrame, genes: Sequence[str], outcome: Any,
                          *, n_splits: int = 5, random_state: int = 0) -> np.ndarray:
    """Out-of-fold predictions of the outcome from the signature's genes, by the first
    model of its kind (:attr:`modelmine.outcomes.OutcomeKind.models`).

    Regression: ridge regression (``RidgeCV``) on the standardised genes, predicted y.
    Survival: a Cox model with a small ridge penalty (scikit-survival's
    ``CoxPHSurvivalAnalysis(alpha=1)``), the risk score. ``n_splits``-fold, shuffled.
    """
    from sklearn.model_selection import KFold

    from ..outcomes import outcome_kind

    kind = outcome_kind(outcome, func="signature_predictions")
    X = expression[list(genes)].to_numpy(dtype=np.float64)
    out = np.empty(X.shape[0])
    folds = KFold(n_splits=min(n_splits, X.shape[0]), shuffle=True,
                  random_state=random_state)
    y = kind.values_from(expression)
    if not kind.censored:
        y = np.asarray(y, dtype=np.float64)
    model = next(iter(kind.models.values()))()
    for train, test in folds.split(X):
        out[test] = model.fit(X[train], y[train]).predict(X[test])
    return out


@_plain_text
def plot_outcome_scatter(expression: pd.DataFrame, genes: Sequence[str],
                         y: np.ndarray) -> Figure:
    """Each gene (in the data's units) against the continuous outcome ``y``, with its
    least-squares line and Spearman's rho in the title."""
    from scipy.stats import spearmanr

    y = np.asarray(y, dtype=np.float64)
    genes = list(genes)
    cols = min(4, max(1, len(genes)))
    rows = int(np.ceil(len(genes) / cols)) if genes else 1
    fig = Figure(figsize=(3.2 * cols, 2.8 * rows))
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    for ax, gene in zip(axes, genes):
        x = expression[gene].to_numpy(dtype=np.float64)
        ax.scatter(x, y, s=10, alpha=0.75, color="#4c72b0")
        if np.ptp(x) > 0:
            slope, intercept = np.polyfit(x, y, 1)
            grid = np.linspace(x.min(), x.max(), 50)
            ax.plot(grid, intercept + slope * grid, color="#c2185b")
            rho = spearmanr(x, y)[0]
            ax.set_title(f"{gene} (rho = {rho:.2f})", fontsize=9)
        else:
            ax.set_title(f"{gene} (constant)", fontsize=9)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    for ax in axes[len(genes):]:
        ax.set_axis_off()
    fig.supxlabel("gene value (as in the data)", fontsize=9)
    fig.supylabel("outcome", fontsize=9)
    fig.tight_layout()
    return fig


@_plain_text
def plot_predicted_observed(observed: np.ndarray, predicted: np.ndarray,
                            title: str) -> Figure:
    """The signature's out-of-fold prediction against the observed outcome, with the
    identity line, R^2 and RMSE."""
    obs, pred = np.asarray(observed, float), np.asarray(predicted, float)
    rmse = float(np.sqrt(np.mean((obs - pred) ** 2)))
    r2 = float(1 - np.sum((obs - pred) ** 2) / np.sum((obs - obs.mean()) ** 2))
    fig = Figure(figsize=(4.4, 4.2))
    ax = fig.subplots()
    ax.scatter(obs, pred, s=12, alpha=0.8, color="#4c72b0")
    lo, hi = float(min(obs.min(), pred.min())), float(max(obs.max(), pred.max()))
    ax.plot([lo, hi], [lo, hi], color="#9e9e9e", linestyle="--")
    ax.set_xlabel("observed")
    ax.set_ylabel("predicted (out of fold)")
    ax.set_title(f"{title}\nR2 = {r2:.2f}, RMSE = {rmse:.3g}", fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


@_plain_text
def plot_kaplan_meier(time: np.ndarray, event: np.ndarray, risk: np.ndarray,
                      title: str) -> tuple[Figure, float]:
    """Kaplan-Meier curves of the samples above and at-or-below the median risk score,
    with the log-rank p-value; returns the figure and the p-value."""
    from sksurv.compare import compare_survival
    from sksurv.nonparametric import kaplan_meier_estimator

    from ..outcomes import SURVIVAL_DTYPE

    high = np.asarray(risk) > np.median(risk)
    y = np.empty(time.size, dtype=SURVIVAL_DTYPE)
    y["event"], y["time"] = np.asarray(event, bool), np.asarray(time, float)
    p_value = float(compare_survival(y, high.astype(int))[1]) if 0 < high.sum() < high.size \
        else np.nan
    fig = Figure(figsize=(5.4, 3.8))
    ax = fig.subplots()
    for flag, label, color in ((False, "low risk", "#4c72b0"), (True, "high risk",
                                                                  "#c2185b")):
        sel = high == flag
        if not sel.any():
            continue
        t, s = kaplan_meier_estimator(y["event"][sel], y["time"][sel])
        ax.step(np.r_[0.0, t], np.r_[1.0, s], where="post", color=color,
                label=f"{label} (n = {int(sel.sum())}, {int(y['event'][sel].sum())} events)")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("time")
    ax.set_ylabel("survival probability")
    ax.set_title(f"{title}\nlog-rank p = {p_value:.2g}", fontsize=9)
    ax.legend(fontsize=8, loc="lower left")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig, p_value


@_plain_text
def plot_hazard_ratios(markers: pd.DataFrame) -> Figure:
    """A forest plot: each gene's hazard ratio per standard deviation with its interval
    (log axis), strongest first."""
    part = markers.sort_values("rank").head(30)
    fig = Figure(figsize=(5.6, 0.28 * len(part) + 1.2))
    ax = fig.subplots()
    pos = np.arange(len(part))[::-1]
    colors = np.where(part["direction"] == "risk", "#c2185b", "#4c72b0")
    ax.hlines(pos, part["hr_low"], part["hr_high"], color=colors)
    ax.scatter(part["hazard_ratio"], pos, color=colors, zorder=3, s=18)
    ax.axvline(1.0, color="#9e9e9e", linestyle="--")
    ax.set_xscale("log")
    _plain_log(ax.xaxis)
    ax.set_yticks(pos, [str(f) for f in part["feature"]], fontsize=7)
    ax.set_xlabel("hazard ratio per standard deviation (95 % interval)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
