"""Diversity and agreement of alternative signatures, their performance, and RPT.

- Diversity (Woznica, Nguyen and Kalousis, KDD 2012, Section 3, equation 1): the average
  pairwise similarity of the k alternative signatures a multi-model operator returns;
  low similarity means diverse alternatives.
- Agreement (KDD 2012, equation 2): the average pairwise fraction of identical predictions
  of the k classifiers trained on the alternative signatures, on the same test data; high
  agreement means the alternatives are equivalent as predictors.
- Error, balanced accuracy and AUC of a classifier trained on one signature, on held-out
  data (KDD 2012, Section 3).
- The robustness-performance trade-off RPT_beta of Saeys, Abeel and Van de Peer (PKDD 2008,
  Section 3.3), a weighted harmonic mean of robustness and performance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.metrics import balanced_accuracy_score, roc_auc_score

from .._utils import readonly as _readonly
from ..validation import check_real, param_error
from ._coerce import as_selection_matrix
from ._subsets import pairwise_similarity

__all__ = [
    "AgreementResult",
    "DiversityResult",
    "PerformanceResult",
    "RPTResult",
    "agreement",
    "diversity",
    "rpt",
    "signature_performance",
]


@dataclass(frozen=True, repr=False)
class DiversityResult:
    """Average pairwise similarity of k alternative signatures (KDD 2012, equation 1).

    Attributes
    ----------
    value : float
        ``2 / (k (k - 1)) sum_{i<j} sim(s_i, s_j)``; lower means more diverse.
    pairwise : ndarray of shape (k, k)
        The similarity of every pair (1 on the diagonal). Read-only.
    measure : str
        The similarity used.
    n_signatures, n_features_in : int
    """

    value: float
    pairwise: np.ndarray
    measure: str
    n_signatures: int
    n_features_in: int

    def __post_init__(self) -> None:
        _readonly(self.pairwise)

    def __float__(self) -> float:
        return float(self.value)

    def __repr__(self) -> str:
        return (
            f"DiversityResult(value={self.value:.6g}, measure={self.measure!r}, "
            f"n_signatures={self.n_signatures}, n_features_in={self.n_features_in})"
        )


def diversity(
    signatures: Any, n_features_in: int | None = None, *, measure: str = "jaccard"
) -> DiversityResult:
    """Average pairwise similarity among k alternative signatures (KDD 2012, equation 1).

    Woznica, Nguyen and Kalousis (KDD 2012, Section 3) measure how different the k models
    of a multi-model operator are by the average pairwise Jaccard similarity of their
    feature sets (their Table 4, column "similarity").

    Parameters
    ----------
    signatures : SignatureSet, sequence of Signatures, bool matrix (k, d) or index arrays
        The alternative signatures; at least 2.
    n_features_in : int, optional
        ``d``, required when signatures are index arrays.
    measure : {'jaccard', 'dice', 'kuncheva', 'pearson'}, default='jaccard'
        Pairwise similarity (see :func:`modelmine.diagnostics.pairwise_similarity`).

    Returns
    -------
    DiversityResult
    """
    Z = as_selection_matrix(signatures, n_features_in, func="diversity", name="signatures")
    res = pairwise_similarity(Z, measure=measure)
    assert res.pairwise is not None
    return DiversityResult(res.value, np.array(res.pairwise), res.measure, Z.shape[0],
                           Z.shape[1])


@dataclass(frozen=True, repr=False)
class AgreementResult:
    """Average pairwise agreement of k classifiers' predictions (KDD 2012, equation 2).

    Attributes
    ----------
    value : float
        ``2 / (k (k - 1)) sum_{i<j} (1/n) sum_x [h_i(x) = h_j(x)]``, in [0, 1].
    pairwise : ndarray of shape (k, k)
        Fraction of identical predictions of every pair (1 on the diagonal). Read-only.
    n_models, n_samples : int
    """

    value: float
    pairwise: np.ndarray
    n_models: int
    n_samples: int

    def __post_init__(self) -> None:
        _readonly(self.pairwise)

    def __float__(self) -> float:
        return float(self.value)

    def __repr__(self) -> str:
        return (
            f"AgreementResult(value={self.value:.6g}, n_models={self.n_models}, "
            f"n_samples={self.n_samples})"
        )


def agreement(predictions: Any) -> AgreementResult:
    """Average pairwise fraction of identical predictions (KDD 2012, equation 2).

    Woznica, Nguyen and Kalousis (KDD 2012, Section 3) train one classifier on each of the
    k alternative signatures and compare their predictions on the same test samples: high
    agreement with low similarity (:func:`diversity`) means different yet equivalent
    signatures. Vectorised: one indicator matrix per class label, and the counts of
    agreeing pairs are the sum of their Gram matrices.

    Parameters
    ----------
    predictions : array-like of shape (k, n_test), or sequence of k arrays of length n_test
        Predicted labels (any comparable type) of the k classifiers; at least 2 of them,
        all of the same length.

    Returns
    -------
    AgreementResult
    """
    func = "agreement"
    rows = list(predictions) if not isinstance(predictions, np.ndarray) else predictions
    if isinstance(rows, list):
        lengths = [np.shape(r) for r in rows]
        if any(len(s) != 1 for s in lengths):
            raise param_error("predictions", func, "a sequence of 1-D arrays of predictions",
                              f"arrays of shapes {sorted(set(lengths))[:5]}", show=False)
        if len({s[0] for s in lengths}) > 1:
            raise param_error(
                "predictions", func, "predictions of equal length (the same test samples)",
                f"lengths {[s[0] for s in lengths]}", show=False,
            )
        P = np.asarray(rows) if rows else np.empty((0, 0))
    else:
        P = rows
    if P.ndim != 2:
        raise param_error("predictions", func, "a 2-D array of shape (k, n_test)", P)
    k, n = P.shape
    if k < 2:
        raise param_error("predictions", func, "the predictions of at least 2 classifiers",
                          f"{k} classifier(s)", show=False)
    if n < 1:
        raise param_error("predictions", func, "predictions on at least 1 test sample", P)
    _, codes = np.unique(P.ravel(), return_inverse=True)
    codes = codes.reshape(k, n)
    counts = np.zeros((k, k))
    for c in range(int(codes.max()) + 1):
        ind = (codes == c).astype(np.float64)
        counts += ind @ ind.T
    pairwise = counts / n
    value = float((pairwise.sum() - k) / (k * (k - 1)))
    return AgreementResult(value, pairwise, k, n)


@dataclass(frozen=True, repr=False)
class PerformanceResult:
    """Held-out performance of a classifier trained on one signature.

    Attributes
    ----------
    error : float
        Fraction of misclassified test samples.
    balanced_accuracy : float
        Mean of the per-class recalls (scikit-learn's ``balanced_accuracy_score``).
    auc : float
        Area under the ROC curve: binary, or the macro average of one-vs-rest AUCs over the
        classes present in the test set; NaN when the estimator has neither
        ``decision_function`` nor ``predict_proba`` or the test set holds a single class.
    auc_source : str or None
        ``'decision_function'``, ``'predict_proba'`` or None.
    y_pred : ndarray of shape (n_test,)
        Predictions. Read-only.
    correct : ndarray of bool, shape (n_test,)
        ``y_pred == y_test``, the input of McNemar's test. Read-only.
    n_features : int
        Size of the signature.
    """

    error: float
    balanced_accuracy: float
    auc: float
    auc_source: str | None
    y_pred: np.ndarray
    correct: np.ndarray
    n_features: int

    def __post_init__(self) -> None:
        _readonly(self.y_pred)
        _readonly(self.correct)

    @property
    def accuracy(self) -> float:
        """``1 - error``."""
        return 1.0 - self.error

    def __repr__(self) -> str:
        return (
            f"PerformanceResult(error={self.error:.6g}, "
            f"balanced_accuracy={self.balanced_accuracy:.6g}, auc={self.auc:.6g}, "
            f"n_test={self.y_pred.size}, n_features={self.n_features})"
        )


def _columns(X: Any, features: np.ndarray) -> Any:
    if hasattr(X, "iloc"):
        return X.iloc[:, features]
    if sp.issparse(X):
        return X[:, features]
    return np.asarray(X)[:, features]


def _check_features(features: Any, d: int, func: str) -> np.ndarray:
    f = np.asarray(features)
    if f.dtype == bool:
        if f.shape != (d,):
            raise param_error("features", func, f"a boolean mask of length {d}", f)
        f = np.flatnonzero(f)
    elif f.ndim != 1 or (f.size and not np.issubdtype(f.dtype, np.integer)):
        raise param_error("features", func, "a 1-D array of feature indices or a boolean mask",
                          features, exc=TypeError)
    if f.size == 0:
        raise param_error("features", func, "a non-empty signature", features)
    if f.min() < 0 or f.max() >= d:
        raise param_error("features", func, f"feature indices in [0, {d - 1}]", features)
    if np.unique(f).size != f.size:
        raise param_error("features", func, "distinct feature indices", features)
    return f.astype(np.intp)


def _auc(estimator: Any, X_test: Any, y_test: np.ndarray) -> tuple[float, str | None]:
    present = np.unique(y_test)
    if present.size < 2:
        return math.nan, None
    source = None
    for method in ("decision_function", "predict_proba"):
        if hasattr(estimator, method):
            try:
                scores = np.asarray(getattr(estimator, method)(X_test), dtype=float)
            except (AttributeError, NotImplementedError):
                continue
            source = method
            break
    if source is None:
        return math.nan, None
    classes = np.asarray(estimator.classes_)
    if classes.size == 2:
        pos = scores[:, 1] if scores.ndim == 2 else scores
        return float(roc_auc_score(y_test == classes[1], pos)), source
    if scores.ndim != 2 or scores.shape[1] != classes.size:
        return math.nan, None
    # One-vs-rest macro average over the classes present in the test set. Written out
    # rather than roc_auc_score(multi_class='ovr') so that decision_function scores (which
    # do not sum to 1) are accepted too; with predict_proba both agree.
    aucs = [
        roc_auc_score(y_test == c, scores[:, j])
        for j, c in enumerate(classes) if c in present
    ]
    return float(np.mean(aucs)), source


def signature_performance(
    estimator: Any, X_train: Any, y_train: Any, X_test: Any, y_test: Any, features: Any
) -> PerformanceResult:
    """Error, balanced accuracy and AUC of a classifier trained on one signature.

    A clone of ``estimator`` is fitted on the signature's columns of the training data and
    evaluated on the same columns of the test data (KDD 2012, Section 3: the selection has
    already been done on the training part only). The estimator passed is not modified.

    Parameters
    ----------
    estimator : scikit-learn classifier
    X_train : array-like or sparse matrix of shape (n_train, d)
    y_train : array-like of shape (n_train,)
    X_test : array-like or sparse matrix of shape (n_test, d)
    y_test : array-like of shape (n_test,)
    features : array-like of int or bool mask of length d
        The signature.

    Returns
    -------
    PerformanceResult
    """
    func = "signature_performance"
    if not (hasattr(estimator, "fit") and hasattr(estimator, "predict")):
        raise param_error("estimator", func, "a scikit-learn classifier with fit and predict",
                          estimator, exc=TypeError)
    d_train, d_test = np.shape(X_train)[1], np.shape(X_test)[1]
    if d_train != d_test:
        raise param_error("X_test", func, f"a matrix with {d_train} columns like X_train",
                          f"{d_test} columns", show=False)
    y_tr, y_te = np.asarray(y_train), np.asarray(y_test)
    if y_tr.shape != (np.shape(X_train)[0],):
        raise param_error("y_train", func, f"a 1-D array of {np.shape(X_train)[0]} labels",
                          y_tr)
    if y_te.shape != (np.shape(X_test)[0],) or y_te.size == 0:
        raise param_error("y_test", func,
                          f"a non-empty 1-D array of {np.shape(X_test)[0]} labels", y_te)
    f = _check_features(features, d_train, func)
    model = clone(estimator).fit(_columns(X_train, f), y_tr)
    Xt = _columns(X_test, f)
    y_pred = np.asarray(model.predict(Xt))
    correct = y_pred == y_te
    auc, source = _auc(model, Xt, y_te)
    return PerformanceResult(
        error=float(1.0 - correct.mean()),
        balanced_accuracy=_balanced_accuracy(y_te, y_pred),
        auc=auc, auc_source=source, y_pred=y_pred, correct=np.asarray(correct, dtype=bool),
        n_features=int(f.size),
    )


def _balanced_accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    if np.unique(np.concatenate([y_true, y_pred])).size < 2:
        # One label only: the recall of that class, i.e. the accuracy (scikit-learn warns).
        return float(np.mean(y_true == y_pred))
    return float(balanced_accuracy_score(y_true, y_pred))


@dataclass(frozen=True)
class RPTResult:
    """Robustness-performance trade-off (Saeys et al. 2008, Section 3.3).

    Attributes
    ----------
    value : float
        ``(beta^2 + 1) R P / (beta^2 R + P)``.
    robustness, performance, beta : float
    """

    value: float
    robustness: float
    performance: float
    beta: float

    def __float__(self) -> float:
        return float(self.value)


def rpt(robustness: float, performance: float, beta: float = 1.0) -> RPTResult:
    """Robustness-performance trade-off RPT_beta of Saeys, Abeel and Van de Peer (2008).

    ``RPT_beta = (beta^2 + 1) R P / (beta^2 R + P)``, the F-measure-like weighted harmonic
    mean of a robustness ``R`` (a stability in [0, 1], e.g. Jaccard or Spearman) and a
    performance ``P`` (e.g. accuracy, in [0, 1]). ``beta = 0`` gives ``R`` and large
    ``beta`` tends to ``P``: ``beta > 1`` weighs performance more, ``beta < 1`` robustness.
    Both 0 gives 0.

    Parameters
    ----------
    robustness : float in [0, 1]
    performance : float in [0, 1]
    beta : float >= 0, default=1

    Returns
    -------
    RPTResult
    """
    func = "rpt"
    r = check_real(robustness, "robustness", func, low=0.0, high=1.0)
    p = check_real(performance, "performance", func, low=0.0, high=1.0)
    b = check_real(beta, "beta", func, low=0.0)
    assert r is not None and p is not None and b is not None
    den = b * b * r + p
    value = 0.0 if den == 0.0 else (b * b + 1.0) * r * p / den
    return RPTResult(float(value), r, p, b)
