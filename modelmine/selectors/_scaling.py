"""Feature scaling inside each resample, in front of any selector.

SVM-RFE (Guyon et al. 2002) and the other weight-based selectors rank features by the size
of their coefficients, which depends on the features' units: unscaled expression values in
the tens of thousands make the ranking follow the variance. Scaling is fitted on each
resample only (never on samples outside it), as selection must be (Ambroise and McLachlan,
PNAS 2002), and recorded in the base models' selector description.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from ..validation import check_choice, param_error
from ._base import Selector, SelectorOutput

__all__ = ["SCALE_METHODS", "SVM_SCALES", "ScaledSelector", "scaled"]

#: The ``scale`` values of :func:`modelmine.run` and ``modelmine run --scale``.
SCALE_METHODS = ("none", "standard", "minmax")


def _scale(X: Any, method: str) -> Any:
    from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, StandardScaler

    if method == "standard":
        # Centring would densify a sparse matrix: sparse data are divided by the sd only.
        return StandardScaler(with_mean=not sp.issparse(X)).fit_transform(X)
    # MinMaxScaler refuses sparse input; MaxAbsScaler keeps the sparsity and equals it on
    # the non-negative data that sparse matrices hold (counts, tf-idf).
    scaler = MaxAbsScaler() if sp.issparse(X) else MinMaxScaler()
    return scaler.fit_transform(X)


class ScaledSelector(Selector):
    """A selector that scales the features of every resample before selecting.

    Parameters
    ----------
    selector : Selector
        The selector to run on the scaled data.
    method : {"standard", "minmax"}
        ``"standard"``: zero mean and unit variance (sparse data: unit variance only);
        ``"minmax"``: each feature to [0, 1] (sparse data: divided by its maximum
        absolute value).
    """

    def __init__(self, selector: Selector, method: str) -> None:
        self.selector = selector
        self.method = method
        self.name = selector.name
        self.kind = selector.kind
        self.supports_sparse = selector.supports_sparse
        self.supports_multiclass = selector.supports_multiclass
        self.supports_weights = selector.supports_weights
        self.outcomes = (selector.outcome,)

    def select(self, X: Any, y: np.ndarray, *, random_state: int,
               sample_weight: np.ndarray | None = None) -> SelectorOutput:
        """The wrapped selector on ``X`` scaled (unweighted scaling: the resample's rows
        as they are), with the weights when given."""
        extra = {} if sample_weight is None else {"sample_weight": sample_weight}
        return self.selector.select(_scale(X, self.method), y, random_state=random_state,
                                    **extra)

    def prepare(self, X: Any, y: np.ndarray) -> Any:
        """Nothing shared: the scaling is fitted on each resample, so the wrapped selector's
        per-chunk work (:meth:`Selector.prepare`, for example MDL's sorted columns) would be
        computed on values that no resample's selector sees."""
        return None

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        """The resample ``X[rows]`` scaled on its own rows, then the wrapped selector's
        :meth:`select` on it (what :func:`modelmine.bootstrap` calls per resample)."""
        return self.select(X[rows], y[rows], random_state=random_state)

    def get_params(self) -> dict[str, Any]:
        return self.selector.get_params()

    def describe(self) -> dict[str, Any]:
        return {**self.selector.describe(), "scale": self.method}


def scaled(selector: Selector, method: str) -> Selector:
    """``selector`` behind :class:`ScaledSelector`, or itself for ``method="none"``."""
    return selector if method == "none" else ScaledSelector(selector, method)


def _two_classes(y: np.ndarray, name: str) -> None:
    if np.unique(y).size < 2:
        raise param_error("y", f"the {name} selector", "two or more classes",
                          "a single class", show=False)


#: The ``scale`` values of the SVM selectors: "minmax" is WEKA's SMO default (Normalize).
SVM_SCALES = ("minmax", "standard", "none")


class _SVMScaled(Selector):
    """The ``scale`` parameter of the SVM selectors ("svm-rfe", "svm", "svm-rfe50").

    WEKA's SMO, which the KDD'12 and Pes (2019) studies ran (SVMAttributeEval for SVM-RFE),
    normalises every attribute to [0, 1] before fitting (``-N 0``, its default): the linear
    weights, hence the ranking, then do not depend on the attributes' units. The default
    ``scale="minmax"`` does the same inside each resample, on the resample's own rows
    (a constant column becomes 0, as WEKA's Normalize makes it; sparse data are divided by
    each column's largest absolute value, which keeps them sparse and equals min-max
    scaling for the non-negative counts sparse matrices hold). ``"standard"``: zero mean and
    unit variance (sparse: unit variance); ``"none"``: the values as given (before issue 24
    the only behaviour).
    """

    scale: str
    class_weight: str | None = None
    supports_weights = True
    prepare_uses_labels = False  # the linear kernel of X

    def _set_scale(self, scale: Any) -> None:
        self.scale = check_choice(scale, "scale", type(self).__name__, list(SVM_SCALES))

    def _set_class_weight(self, class_weight: Any) -> None:
        self.class_weight = check_choice(class_weight, "class_weight", type(self).__name__,
                                         ["balanced"], allow_none=True)

    def _row_weights(self, y: np.ndarray, sample_weight: np.ndarray | None) -> np.ndarray | None:
        """Each row's factor of C: the sample weight times, with
        ``class_weight="balanced"``, ``n / (K n_c)`` of its class on these rows (as
        scikit-learn's ``compute_class_weight``, so ``SVC(class_weight="balanced")``)."""
        if self.class_weight is None:
            return sample_weight
        _, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
        balanced = (y.size / (counts.size * counts))[codes]
        return balanced if sample_weight is None else balanced * sample_weight

    def _scaled(self, X: Any, y: np.ndarray) -> Any:
        """``X`` scaled as ``scale`` asks, after checking that ``y`` has two classes (an SVM
        needs them; WEKA's SMO refuses a single class too)."""
        _two_classes(y, self.name)
        if self.scale == "none":
            return X
        return _scale(X, self.scale)

    def prepare(self, X: Any, y: np.ndarray) -> Any:
        """The linear kernel of sparse X, once (see :func:`._svm_rows.linear_kernel`), when
        the values are used as given (``scale="none"``); a scaled resample has a kernel of
        its own (each resample's column ranges differ), and class weights are per resample."""
        if self.scale != "none" or self.class_weight is not None:
            return None
        from ._svm_rows import linear_kernel

        return linear_kernel(X)

    def prepare_nbytes(self, X: Any, y: np.ndarray) -> int:
        """What :meth:`prepare` builds for sparse ``X`` at ``scale="none"`` (0 otherwise):
        the feature-major copy, the kernel's sparse product (at most ``n^2`` entries) and
        its dense ``n x n`` float64 copy: at most ``16 nnz + 8 p + 28 n^2`` bytes."""
        if self.scale != "none" or self.class_weight is not None or not sp.issparse(X):
            return 0
        n, p = X.shape
        return 16 * int(X.nnz) + 8 * (p + 1) + 28 * n * n
