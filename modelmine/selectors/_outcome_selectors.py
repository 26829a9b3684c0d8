"""Selectors for continuous and survival outcomes.

Model mining needs nothing of the outcome after the selector (KDD 2012, section 2): these
selectors give the base models of a regression or a survival study, and every operator,
measure and error control then works on them as on a classifier's.

Regression:

- ``pearson``: the F statistic of the univariate linear regression
  (:func:`sklearn.feature_selection.f_regression`), a monotone function of |r|;
- ``lasso``: the order in which the features enter the lasso path (LARS, Efron et al.
  2004), so that the subset of m features is "the first q variables to enter", the base
  learner of stability selection (Meinshausen and Buhlmann 2010, section 2.2; stabs'
  ``lars.lasso``); or, with ``alpha``, the lasso's own support at that penalty;
- ``elastic-net``: the same along the elastic-net path (Zou and Hastie 2005);
- ``rrelieff``: RReliefF (Robnik-Sikonja and Kononenko 1997; 2003, section 2.3), as WEKA's
  ``ReliefFAttributeEval`` computes it for a numeric class;
- ``random-forest``: the regressor's impurity importances (the classification selector,
  :meth:`~modelmine.selectors.Selector.for_outcome`);
- ``svr-rfe``: recursive feature elimination with a linear support vector regression
  (the regression analogue of SVM-RFE, Guyon et al. 2002).

Survival (scikit-survival, ``pip install 'modelmine[survival]'``):

- ``cox-score``: the univariate Cox score test of each feature
  (:func:`modelmine.outcomes.cox_score_statistics`);
- ``coxnet``: the order of entry along the elastic-net Cox path (Simon et al. 2011;
  scikit-survival's ``CoxnetSurvivalAnalysis``), stabs' ``glmnet.lasso`` for survival;
- ``boosted-cox``: the order in which componentwise likelihood boosting picks the features
  (Buhlmann and Hothorn 2007; scikit-survival's
  ``ComponentwiseGradientBoostingSurvivalAnalysis``), stabs' ``glmboost`` learner.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..validation import check_int, check_real, param_error
from ._base import Selector, SelectorKind, SelectorOutput

__all__ = [
    "BoostedCoxSelector",
    "CoxScoreSelector",
    "CoxnetSelector",
    "ElasticNetSelector",
    "LassoSelector",
    "PearsonSelector",
    "RReliefFSelector",
    "SVRRFESelector",
    "entry_ranking",
]


def _dense(X: Any) -> np.ndarray:
    return X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)


def _standardised(X: Any) -> np.ndarray:
    """Centred columns of unit variance (constant columns stay 0), as glmnet and mboost."""
    Xd = _dense(X)
    sd = Xd.std(axis=0)
    return np.where(sd > 0, (Xd - Xd.mean(axis=0)) / np.where(sd > 0, sd, 1.0), 0.0)


def entry_ranking(coefs: np.ndarray, alphas: np.ndarray,
                  tail: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Scores and ranking from a regularisation path: the order of entry.

    Parameters
    ----------
    coefs : ndarray of shape (p, n_alphas)
        The coefficients along the path, penalties decreasing.
    alphas : ndarray of shape (n_alphas,)
    tail : ndarray of shape (p,), optional
        Orders the features that never enter (higher first) before their index.

    Returns
    -------
    scores, ranking : ndarray of shape (p,)
        The penalty at which each feature first has a non-zero coefficient (0 if never);
        the ranking orders by it (earlier entry first), then, among features entering at
        the same step, by |coefficient| at that step, then by index.
    """
    nonzero = coefs != 0
    entered = nonzero.any(axis=1)
    step = np.where(entered, nonzero.argmax(axis=1), coefs.shape[1])
    scores = np.where(entered, np.asarray(alphas)[np.minimum(step, coefs.shape[1] - 1)], 0.0)
    at_entry = np.where(entered, np.abs(coefs[np.arange(coefs.shape[0]),
                                              np.minimum(step, coefs.shape[1] - 1)]), 0.0)
    keys: tuple[np.ndarray, ...] = (np.arange(step.size), -at_entry, step)
    if tail is not None:
        keys = (np.arange(step.size), -np.where(entered, 0.0, tail), -at_entry, step)
    order = np.lexsort(keys)
    ranking = np.empty(step.size, dtype=np.int64)
    ranking[order] = np.arange(1, step.size + 1)
    return scores, ranking


class PearsonSelector(Selector):
    """The F statistic of each feature's univariate linear regression on y.

    ``F = r^2 / (1 - r^2) (n - 2)`` (:func:`sklearn.feature_selection.f_regression`), which
    orders the features as |Pearson r|; a constant feature scores 0. Sparse X stays sparse.
    """

    name = "pearson"
    outcomes = ("regression",)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from sklearn.feature_selection import f_regression

        with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            f, _ = f_regression(X, y)
        return SelectorOutput(scores=np.maximum(np.nan_to_num(f, nan=0.0, posinf=0.0), 0.0))


class LassoSelector(Selector):
    """The lasso: the order of entry along its path, or its support at a fixed penalty.

    Without ``alpha`` (default): the features in the order they enter the lasso path of
    the standardised data (LARS with the lasso modification, scikit-learn's
    :func:`~sklearn.linear_model.lars_path`); the subset of m features is then the first m
    to enter, the base learner of stability selection (Meinshausen and Buhlmann 2010;
    stabs' ``lars.lasso``). Scores: the penalty at entry. With ``alpha``: the support of
    :class:`~sklearn.linear_model.Lasso` at that penalty (a subset selector; scores
    |coefficients|).
    """

    name = "lasso"
    outcomes = ("regression",)
    kind: SelectorKind = "subset"

    def __init__(self, alpha: float | None = None, max_iter: int = 10000):
        owner = "LassoSelector"
        self.alpha = None if alpha is None else check_real(alpha, "alpha", owner, low=0,
                                                           closed="neither")
        self.max_iter = check_int(max_iter, "max_iter", owner, min_value=1)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._svr_rfe import _canonical_order

        Xd = _dense(X)
        Z = _standardised(Xd)
        yc = y - y.mean()
        # the columns in an order that depends on their contents only, so that permuting
        # the columns permutes the result exactly (issue 39)
        canon = _canonical_order(Z, Xd)
        Z = np.ascontiguousarray(Z[:, canon])
        if self.alpha is not None:
            from sklearn.linear_model import Lasso

            coef = np.empty(Z.shape[1])
            coef[canon] = Lasso(alpha=self.alpha, max_iter=self.max_iter).fit(Z, yc).coef_
            return SelectorOutput(scores=np.abs(coef), support=coef != 0)
        from sklearn.linear_model import lars_path

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            alphas, _, coefs = lars_path(Z, yc, method="lasso",
                                         max_iter=min(Z.shape) + Z.shape[1])
        # LARS joins a feature at the kink alphas[k], where its coefficient is still 0:
        # it is first non-zero in column k + 1, so its entry penalty is the previous
        # column's. (Taking alphas[k + 1] would give each feature the next feature's
        # penalty, and, when lars_path stops early, the last column's alpha is not on the
        # path at all: it exceeds the one before.)
        entry_alphas = np.r_[alphas[:1], alphas[:-1]]
        # the features that never enter follow in the order of |correlation with y|
        scores_c, ranking_c = entry_ranking(coefs, entry_alphas,
                                            tail=np.abs(Z.T @ yc))
        scores, ranking = np.empty_like(scores_c), np.empty_like(ranking_c)
        scores[canon], ranking[canon] = scores_c, ranking_c
        return SelectorOutput(scores=scores, ranking=ranking, support=scores > 0)

    def get_params(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "max_iter": self.max_iter}


class ElasticNetSelector(Selector):
    """The order of entry along the elastic-net path of the standardised data.

    :func:`sklearn.linear_model.enet_path` over ``n_alphas`` penalties from the smallest
    that keeps every coefficient at 0 down to ``eps`` times it; features entering at the
    same penalty are ordered by |coefficient| there. Scores: the penalty at entry.
    """

    name = "elastic-net"
    outcomes = ("regression",)
    kind: SelectorKind = "subset"

    def __init__(self, l1_ratio: float = 0.5, n_alphas: int = 100, eps: float = 1e-3):
        owner = "ElasticNetSelector"
        self.l1_ratio = check_real(l1_ratio, "l1_ratio", owner, low=0, high=1,
                                   closed="right")
        self.n_alphas = check_int(n_alphas, "n_alphas", owner, min_value=2)
        self.eps = check_real(eps, "eps", owner, low=0, high=1, closed="neither")

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from sklearn.linear_model import enet_path

        Z = _standardised(X)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            alphas, coefs, _ = enet_path(Z, y - y.mean(), l1_ratio=self.l1_ratio,
                                         n_alphas=self.n_alphas, eps=self.eps)
        scores, ranking = entry_ranking(coefs, alphas)
        return SelectorOutput(scores=scores, ranking=ranking, support=scores > 0)

    def get_params(self) -> dict[str, Any]:
        return {"l1_ratio": self.l1_ratio, "n_alphas": self.n_alphas, "eps": self.eps}


class RReliefFSelector(Selector):
    """RReliefF, as WEKA 3.6's ``ReliefFAttributeEval`` on a numeric class.

    For every record and each of its k nearest neighbours (Manhattan distance of the
    range-scaled features, ties resolved as WEKA's scan; the neighbour's weight 1/k, or by
    rank with ``weight_by_distance``), with ``dC`` and ``dA`` the range-scaled differences
    of the target and of feature A: ``N_dC += w dC``, ``N_dA += w dA``,
    ``N_dCdA += w dC dA``; then ``W_A = N_dCdA / N_dC - (N_dA - N_dCdA) / (n - N_dC)``
    (Robnik-Sikonja and Kononenko 2003, figure 3).
    """

    name = "rrelieff"
    outcomes = ("regression",)
    supports_sparse = True

    def __init__(self, n_neighbors: int = 10, weight_by_distance: bool = False,
                 sigma: float = 2.0):
        owner = "RReliefFSelector"
        self.n_neighbors = check_int(n_neighbors, "n_neighbors", owner, min_value=1)
        self.weight_by_distance = bool(weight_by_distance)
        self.sigma = check_real(sigma, "sigma", owner, low=0, closed="neither")

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        return SelectorOutput(scores=rrelieff_scores(
            X, y, n_neighbors=self.n_neighbors, weight_by_distance=self.weight_by_distance,
            sigma=self.sigma))

    def get_params(self) -> dict[str, Any]:
        return {"n_neighbors": self.n_neighbors,
                "weight_by_distance": self.weight_by_distance, "sigma": self.sigma}


def rrelieff_scores(X: Any, y: np.ndarray, *, n_neighbors: int = 10,
                    weight_by_distance: bool = False, sigma: float = 2.0) -> np.ndarray:
    """RReliefF weights of every feature (all records sampled), as WEKA computes them.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, p)
    y : ndarray of shape (n_samples,)
        The continuous target.
    n_neighbors, weight_by_distance, sigma :
        WEKA's ``-K``, ``-W`` and ``-A``.

    Returns
    -------
    ndarray of shape (p,)
    """
    from scipy.spatial.distance import pdist, squareform

    from ._relieff import _block_width, _column_blocks
    from ._relieff_weka import _nearest_per_class, _ranges, pair_blocks

    n, p = X.shape
    k = min(int(n_neighbors), n - 1)
    mn, rng = _ranges(X)
    safe = np.where(rng > 0, rng, 1.0)
    dist = np.zeros(n * (n - 1) // 2)
    for a, b, block in _column_blocks(X, _block_width(n)):
        dist += pdist(np.where(rng[a:b] > 0, (block - mn[a:b]) / safe[a:b], 0.0),
                      metric="cityblock")
    inst, neigh, j = _nearest_per_class(squareform(dist), np.zeros(n, dtype=np.int64), k, 1)
    if weight_by_distance:
        by_rank = np.exp(-((np.arange(k) / float(sigma)) ** 2))
        w = by_rank[j] / by_rank.sum()
    else:
        w = np.full(inst.size, 1.0 / k)
    y_range = float(y.max() - y.min())
    dc = np.abs(y[inst] - y[neigh]) / (y_range if y_range > 0 else 1.0)
    ndc = float((w * dc).sum())
    nda = np.zeros(p)
    ndcda = np.zeros(p)
    const = rng <= 0
    for sl, xi, xj in pair_blocks(X, inst, neigh):
        diff = np.abs(xi - xj) / safe
        diff[:, const] = 0.0
        nda += w[sl] @ diff
        ndcda += (w[sl] * dc[sl]) @ diff
    if ndc <= 0 or ndc >= n:
        return np.zeros(p)
    return ndcda / ndc - (nda - ndcda) / (n - ndc)


class SVRRFESelector(Selector):
    """Recursive feature elimination with a linear SVR (the regression SVM-RFE).

    :func:`~modelmine.selectors._svr_rfe.svr_rfe_ranking`: scikit-learn's
    ``RFE(SVR(kernel="linear"), step=step)`` (libsvm's epsilon-SVR) on the standardised
    features and target, the features removed in one step ordered by their last weights,
    and the same result whatever the order of the columns (issue 39: the former liblinear
    route on [0, 1]-scaled raw intensities did not converge and ranked by column position).
    ``step``: as ``RFE`` (a fraction of p, or a number of features, per step).
    """

    name = "svr-rfe"
    outcomes = ("regression",)
    kind: SelectorKind = "ranking"

    def __init__(self, C: float = 1.0, epsilon: float = 0.1, step: float = 0.1,
                 tol: float = 1e-3):
        owner = "SVRRFESelector"
        self.C = check_real(C, "C", owner, low=0, closed="neither")
        self.epsilon = check_real(epsilon, "epsilon", owner, low=0, closed="left")
        self.step = check_real(step, "step", owner, low=0, closed="neither")
        self.tol = check_real(tol, "tol", owner, low=0, closed="neither")

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._svr_rfe import svr_rfe_ranking

        return SelectorOutput(ranking=svr_rfe_ranking(
            _dense(X), np.asarray(y, dtype=np.float64), C=self.C, epsilon=self.epsilon,
            step=self.step, tol=self.tol))

    def get_params(self) -> dict[str, Any]:
        return {"C": self.C, "epsilon": self.epsilon, "step": self.step, "tol": self.tol}


def _survival_parts(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(y["event"], dtype=bool), np.asarray(y["time"], dtype=np.float64)


def _sksurv(owner: str) -> None:
    from ..outcomes import require_survival

    require_survival(owner)


class CoxScoreSelector(Selector):
    """The univariate Cox score test statistic of each feature (Breslow ties), all at
    once in O(n p) (:func:`modelmine.outcomes.cox_score_statistics`)."""

    name = "cox-score"
    outcomes = ("survival",)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ..outcomes import cox_score_statistics

        event, time = _survival_parts(y)
        return SelectorOutput(scores=cox_score_statistics(X, event, time))


class CoxnetSelector(Selector):
    """The order of entry along the elastic-net Cox path (scikit-survival's
    ``CoxnetSurvivalAnalysis`` on the standardised data, ``l1_ratio`` of the penalty in
    L1). Scores: the penalty at entry."""

    name = "coxnet"
    outcomes = ("survival",)
    kind: SelectorKind = "subset"

    def __init__(self, l1_ratio: float = 0.9, n_alphas: int = 100,
                 alpha_min_ratio: float = 0.01):
        owner = "CoxnetSelector"
        self.l1_ratio = check_real(l1_ratio, "l1_ratio", owner, low=0, high=1,
                                   closed="right")
        self.n_alphas = check_int(n_alphas, "n_alphas", owner, min_value=2)
        self.alpha_min_ratio = check_real(alpha_min_ratio, "alpha_min_ratio", owner, low=0,
                                          high=1, closed="neither")

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        return self.path(_standardised(X), y)

    def path(self, design: np.ndarray, y: np.ndarray, n_unpenalised: int = 0
             ) -> SelectorOutput:
        """The elastic-net Cox path on standardised ``design``, features ranked by their
        order of entry; its first ``n_unpenalised`` columns (covariates) are in every
        model and left out of the output."""
        _sksurv("CoxnetSelector")
        from sksurv.linear_model import CoxnetSurvivalAnalysis

        penalty = np.r_[np.zeros(n_unpenalised), np.ones(design.shape[1] - n_unpenalised)]
        model = CoxnetSurvivalAnalysis(l1_ratio=self.l1_ratio, n_alphas=self.n_alphas,
                                       alpha_min_ratio=self.alpha_min_ratio,
                                       **({"penalty_factor": penalty} if n_unpenalised
                                          else {}))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                model.fit(design, y)
            except ArithmeticError as exc:
                raise param_error("selector_params", "coxnet", "a penalty path that "
                                  "converges on these data (raise alpha_min_ratio)",
                                  str(exc), show=False) from None
        scores, ranking = entry_ranking(np.asarray(model.coef_)[n_unpenalised:],
                                        np.asarray(model.alphas_))
        return SelectorOutput(scores=scores, ranking=ranking, support=scores > 0)

    def get_params(self) -> dict[str, Any]:
        return {"l1_ratio": self.l1_ratio, "n_alphas": self.n_alphas,
                "alpha_min_ratio": self.alpha_min_ratio}


class BoostedCoxSelector(Selector):
    """The order in which componentwise Cox likelihood boosting picks the features
    (scikit-survival's ``ComponentwiseGradientBoostingSurvivalAnalysis``, ``loss="coxph"``,
    on the standardised data, as mboost's ``glmboost`` centres them). Scores: the number of
    boosting steps left when the feature was first picked (0 if never)."""

    name = "boosted-cox"
    outcomes = ("survival",)
    kind: SelectorKind = "subset"

    def __init__(self, n_estimators: int = 250, learning_rate: float = 0.1):
        owner = "BoostedCoxSelector"
        self.n_estimators = check_int(n_estimators, "n_estimators", owner, min_value=1)
        self.learning_rate = check_real(learning_rate, "learning_rate", owner, low=0,
                                        closed="neither")

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        _sksurv("BoostedCoxSelector")
        from sksurv.ensemble import ComponentwiseGradientBoostingSurvivalAnalysis

        Z = _standardised(X)
        p = Z.shape[1]
        model = ComponentwiseGradientBoostingSurvivalAnalysis(
            loss="coxph", n_estimators=self.n_estimators,
            learning_rate=self.learning_rate, random_state=random_state).fit(Z, y)
        first = np.full(p, self.n_estimators)
        for step, est in enumerate(model.estimators_):
            # scikit-survival boosts on [1, X]: component 0 is the intercept, feature j is
            # component j + 1 (its coef_ holds the intercept first)
            j = int(getattr(est, "component", 0)) - 1
            if 0 <= j < p and first[j] == self.n_estimators:
                first[j] = step
        scores = (self.n_estimators - first).astype(np.float64)
        order = np.lexsort((np.arange(p), first))
        ranking = np.empty(p, dtype=np.int64)
        ranking[order] = np.arange(1, p + 1)
        return SelectorOutput(scores=scores, ranking=ranking, support=scores > 0)

    def get_params(self) -> dict[str, Any]:
        return {"n_estimators": self.n_estimators, "learning_rate": self.learning_rate}
