"""Minimum redundancy maximum relevance (mRMR; Peng, Long and Ding 2005), vectorised.

mRMR is one of the four filters of Salman's between-selector aggregation (BAM; Salman 2022,
Section 3.4.4). Features are discretised, relevance is the mutual information I(f; c)
with the class, redundancy the mean mutual information with the features already chosen,
and features are added one at a time by the MID (difference) or MIQ (quotient) criterion
(Peng et al. 2005, Section 2.3, Eqs. 6-7). As in Peng's own program (``mrmr`` / pymrmr),
the candidates are the ``n_candidates`` most relevant features (500 there). The mutual
information of the newly chosen feature with every candidate is one ``bincount``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from ..validation import check_choice, check_int, check_real
from ._information import discretize

__all__ = ["MRMRResult", "mrmr", "sigma_discretize"]

# Peng's program adds this to the mean redundancy in the MIQ quotient (no division by 0).
_MIQ_OFFSET = 1e-4
_DISCRETIZATIONS = ("sigma", "mdl", "quantile", "uniform")


def sigma_discretize(X: Any, *, factor: float = 1.0) -> NDArray[np.int32]:
    """Three states per feature: below ``mean - factor*std``, between, above ``mean + factor*std``.

    The discretisation of continuous expression data in Peng et al. (2005, Section 4.1):
    codes 0 / 1 / 2 (standard deviation with ddof=0).
    """
    Xd = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    mu = Xd.mean(axis=0)
    sd = Xd.std(axis=0)
    return (Xd >= mu - factor * sd).astype(np.int32) + (Xd > mu + factor * sd).astype(np.int32)


def _mutual_information(
    codes: NDArray[np.int64], other: NDArray[np.int64], width: int
) -> NDArray[np.float64]:
    """I(codes[:, j]; other) in nats for every column j (codes < width, other < width)."""
    n, p = codes.shape
    flat = (np.arange(p, dtype=np.int64)[None, :] * width + codes) * width + other[:, None]
    table = np.bincount(flat.ravel(), minlength=p * width * width).reshape(p, width, width)
    table = table.astype(np.float64)
    pa = table.sum(axis=2, keepdims=True)
    pb = table.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(table > 0, table / n * np.log(table * n / (pa * pb)), 0.0)
    return terms.sum(axis=(1, 2))


class MRMRResult:
    """Ranking (1 = best) and selection order of :func:`mrmr`.

    Attributes
    ----------
    order : ndarray of int, shape (p,)
        Feature indices, best first: the mRMR forward selection, then the remaining
        features by decreasing relevance (ties by index).
    relevance : ndarray of shape (p,)
        I(f; c) in nats.
    criterion : ndarray of shape (n_selected,)
        The MID / MIQ value of each selected feature when it was chosen (the first one's
        is its relevance).
    """

    def __init__(self, order: np.ndarray, relevance: np.ndarray, criterion: np.ndarray):
        self.order = order
        self.relevance = relevance
        self.criterion = criterion

    @property
    def ranking(self) -> NDArray[np.int64]:
        """Rank of each feature, 1 = best."""
        ranks = np.empty(self.order.size, dtype=np.int64)
        ranks[self.order] = np.arange(1, self.order.size + 1)
        return ranks


def mrmr(
    X: NDArray[np.float64] | sp.spmatrix,
    y: NDArray[np.int64],
    *,
    criterion: str = "MID",
    n_selected: int | None = 100,
    n_candidates: int | None = 500,
    discretization: str = "sigma",
    sigma_factor: float = 1.0,
    n_bins: int = 10,
) -> MRMRResult:
    """mRMR forward selection (Peng, Long and Ding 2005), as in Peng's ``mrmr`` program.

    Relevance ``I(f; c)``; at each step the candidate maximising ``MID = I(f; c) - R(f)``
    or ``MIQ = I(f; c) / (R(f) + 1e-4)`` is added, where ``R(f)`` is the mean of
    ``I(f; s)`` over the features s already selected (Peng et al. 2005, Eqs. 6-7; Salman
    2022, Section 3.4.4 uses MID). The first feature is the most relevant one. Ties go to
    the more relevant, then the lower-index feature. Candidates are the ``n_candidates``
    most relevant features (Peng's program uses 500).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features_in) or scipy.sparse matrix
    y : ndarray of shape (n_samples,)
        Int64 class codes 0..K-1.
    criterion : {"MID", "MIQ"}, default="MID"
    n_selected : int or None, default=100
        Features placed by the forward selection (capped at the number of candidates);
        the others follow by decreasing relevance. None selects every candidate.
    n_candidates : int or None, default=500
        Size of the candidate pool (the most relevant features); None = all features.
    discretization : {"sigma", "mdl", "quantile", "uniform"}, default="sigma"
        "sigma": three states at mean +- ``sigma_factor`` std (Peng et al. 2005, Section
        4.1); the others: :func:`modelmine.selectors.discretize`.
    sigma_factor : float, default=1.0
    n_bins : int, default=10
        Bins of "quantile" and "uniform".

    Returns
    -------
    MRMRResult
    """
    func = "mrmr"
    criterion = check_choice(criterion, "criterion", func, ["MID", "MIQ"])
    check_int(n_selected, "n_selected", func, min_value=1, allow_none=True)
    check_int(n_candidates, "n_candidates", func, min_value=1, allow_none=True)
    check_choice(discretization, "discretization", func, _DISCRETIZATIONS)
    check_real(sigma_factor, "sigma_factor", func, low=0, closed="neither")
    p = X.shape[1]
    if discretization == "sigma":
        codes = sigma_discretize(X, factor=float(sigma_factor)).astype(np.int64)
    else:
        codes = discretize(X, y, method=discretization, n_bins=n_bins)[0].astype(np.int64)
    width = int(max(codes.max(initial=0), y.max())) + 1
    relevance = _mutual_information(codes, y.astype(np.int64), width)
    by_relevance = np.lexsort((np.arange(p), -relevance))
    pool = by_relevance[: p if n_candidates is None else min(int(n_candidates), p)]
    n_sel = pool.size if n_selected is None else min(int(n_selected), pool.size)

    chosen = [int(pool[0])]
    values = [float(relevance[pool[0]])]
    remaining = np.ones(pool.size, dtype=bool)
    remaining[0] = False
    pool_codes = codes[:, pool]
    redundancy = np.zeros(pool.size)
    for step in range(1, n_sel):
        redundancy += _mutual_information(pool_codes, codes[:, chosen[-1]], width)
        mean_red = redundancy / step
        rel = relevance[pool]
        score = rel - mean_red if criterion == "MID" else rel / (mean_red + _MIQ_OFFSET)
        score = np.where(remaining, score, -np.inf)
        # Pool order is by decreasing relevance then index: argmax keeps the first best.
        best = int(np.argmax(score))
        remaining[best] = False
        chosen.append(int(pool[best]))
        values.append(float(score[best]))
    taken = np.zeros(p, dtype=bool)
    taken[chosen] = True
    rest = by_relevance[~taken[by_relevance]]
    order = np.concatenate([np.asarray(chosen, dtype=np.int64), rest])
    return MRMRResult(order=order, relevance=relevance, criterion=np.asarray(values))
