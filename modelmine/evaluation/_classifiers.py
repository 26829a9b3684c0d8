"""The classifiers of the KDD'12 protocol, by name, and the resolution of user-given ones.

Woznica, Nguyen and Kalousis (KDD 2012, section 3) train three WEKA learners on each
signature: a linear SVM (SMO, C = 0.5), 1-nearest neighbour (IBk, k = 1) and the J48
decision tree. Their scikit-learn counterparts here follow WEKA's defaults where they
matter:

- SMO rescales every attribute to [0, 1] using the training data (its default
  ``filterType`` "normalize"), so ``"svm"`` is a pipeline that starts with
  :class:`RangeScaler` (scikit-learn's ``MinMaxScaler``; on sparse data, which it refuses,
  ``MaxAbsScaler``, the same map for the non-negative counts of text data, without
  densifying).
- IBk is :class:`IBkClassifier`, which computes its distances as WEKA 3.6 does, so that
  exact distance ties (frequent in count data) are seen and broken as WEKA breaks them;
  scikit-learn's ``KNeighborsClassifier`` keeps whichever tied neighbour its search meets
  first, and its distances are not WEKA's to the last bit.
- J48 splits on the gain ratio and needs at least 2 instances per leaf; ``"tree"`` is a
  :class:`~sklearn.tree.DecisionTreeClassifier` with the entropy criterion,
  ``min_samples_leaf=2`` and a fixed ``random_state`` (CART, no C4.5 pruning: a documented
  difference, see ``docs/reproduction.md``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, clone
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._registry import BUILT_IN, Entry, Registry
from ..validation import param_error

__all__ = ["CLASSIFIER_ENTRY_POINT_GROUP", "ClassifierRegistry", "IBkClassifier", "RangeScaler",
           "available",
           "make_classifier", "register_classifier", "resolve_classifiers"]


class RangeScaler(TransformerMixin, BaseEstimator):
    """Scale each feature to [0, 1] by its training range (WEKA's "normalize").

    Dense input: :class:`~sklearn.preprocessing.MinMaxScaler`. Sparse input:
    :class:`~sklearn.preprocessing.MaxAbsScaler`, which keeps the sparsity and equals the
    min-max map when every feature's minimum is 0 (counts).
    """

    def fit(self, X: Any, y: Any = None) -> RangeScaler:
        self.scaler_ = (MaxAbsScaler() if sp.issparse(X) else MinMaxScaler()).fit(X)
        return self

    def transform(self, X: Any) -> Any:
        return self.scaler_.transform(X)


class IBkClassifier(ClassifierMixin, BaseEstimator):
    """k-nearest-neighbour classification exactly as WEKA 3.6's ``IBk`` (the default options).

    Woznica, Nguyen and Kalousis (KDD 2012, Section 3) classify with WEKA's ``IBk -K 1``.
    On count data many test samples have several training samples at exactly the same
    smallest distance, often of both classes (``benchmarks/bench_ibk.py`` measures how many
    on the text sets), and 1-NN's answer is then decided by the tie rule. This estimator
    reproduces WEKA's arithmetic and rules, so its predictions equal WEKA's (tested
    against ``weka.jar`` on the microarrays, text and madelon):

    - **Distance** (``EuclideanDistance``, ``NormalizableDistance``): every attribute is
      normalised to ``(x - min) / (max - min)`` by its range (0 for a constant attribute),
      and the squared differences are summed attribute by attribute, in column order; the
      neighbours are compared on that sum, so equal sums are exact ties.
    - **Ties** (``LinearNNSearch``): every training sample at a distance no larger than the
      k-th smallest is a neighbour, so all the samples tied at the k-th distance vote.
    - **Vote** (``IBk.makeDistribution``, no distance weighting): each class gets
      ``1 / n_train`` plus its number of neighbours, normalised to sum to 1
      (:meth:`predict_proba`); the prediction is the class of largest probability, the first
      in ``classes_`` (sorted labels, the order of the ARFF header that
      :func:`modelmine.datasets.write_arff` writes) when several share it.
    - **Ranges** (``IBk.distributionForInstance`` calls ``addInstanceInfo``): before a test
      sample is classified, the attribute ranges are widened to include it, and stay widened
      for the test samples after it. A prediction can therefore depend on the test samples
      before it in ``X``, as in WEKA's evaluation of a test file. Each call of
      :meth:`predict` starts again from the training ranges (WEKA's classifier keeps them
      between calls). ``widen_ranges=False`` uses the training ranges only, so that every
      prediction depends on its own sample alone.

    Parameters
    ----------
    n_neighbors : int, default 1
        WEKA's ``-K``.
    widen_ranges : bool, default True
        Widen the attribute ranges by each test sample, as WEKA does (see above).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    data_min_, data_max_ : ndarray of shape (n_features,)
        The attribute ranges of the training data.

    Notes
    -----
    The candidates for the nearest neighbours come from one matrix product, as in
    scikit-learn's brute-force search; only the training rows within a rounding bound of the
    k-th smallest distance get WEKA's exact sum (the result is the same as summing every
    pair). Sparse input is densified (the protocol passes one signature's columns). Distance
    weighting (WEKA's ``-I`` and ``-F``), windowing (``-W``) and choosing k by
    cross-validation (``-X``) are not implemented.
    """

    def __init__(self, n_neighbors: int = 1, widen_ranges: bool = True) -> None:
        self.n_neighbors = n_neighbors
        self.widen_ranges = widen_ranges

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def fit(self, X: Any, y: Any) -> IBkClassifier:
        if (isinstance(self.n_neighbors, bool) or not isinstance(self.n_neighbors,
                                                                 (int, np.integer))
                or self.n_neighbors < 1):
            raise param_error("n_neighbors", "IBkClassifier", "an integer >= 1",
                              self.n_neighbors)
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        self._X = X.toarray() if sp.issparse(X) else np.array(X, dtype=np.float64)
        self._codes = codes.astype(np.intp)
        self.data_min_ = self._X.min(axis=0)
        self.data_max_ = self._X.max(axis=0)
        return self

    def _counts(self, X: Any) -> np.ndarray:
        """The number of neighbours of each class, per test sample (WEKA's rules)."""
        check_is_fitted(self, "classes_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        lo = np.broadcast_to(self.data_min_, X.shape)
        hi = np.broadcast_to(self.data_max_, X.shape)
        if self.widen_ranges:  # the ranges in force when each test sample is classified
            lo = np.minimum.accumulate(np.vstack([self.data_min_, X]), axis=0)[1:]
            hi = np.maximum.accumulate(np.vstack([self.data_max_, X]), axis=0)[1:]
        new = np.ones(X.shape[0], dtype=bool)  # where the ranges change
        new[1:] = (lo[1:] != lo[:-1]).any(axis=1) | (hi[1:] != hi[:-1]).any(axis=1)
        starts = [*np.flatnonzero(new).tolist(), X.shape[0]]
        k = min(int(self.n_neighbors), self._X.shape[0])
        counts = np.zeros((X.shape[0], self.classes_.size), dtype=np.int64)
        block = max(1, (1 << 22) // max(1, self._X.shape[0]))
        for a, b in itertools.pairwise(starts):
            mn, width = lo[a], hi[a] - lo[a]
            flat = width == 0  # WEKA's norm: 0 for a constant attribute
            div = np.where(flat, 1.0, width)
            train = np.where(flat, 0.0, (self._X - mn) / div)
            train_sq = np.einsum("ij,ij->i", train, train)
            for c in range(a, b, block):
                test = np.where(flat, 0.0, (X[c:min(b, c + block)] - mn) / div)
                counts[c:c + test.shape[0]] = self._block_counts(test, train, train_sq, k)
        return counts

    def _block_counts(self, test: np.ndarray, train: np.ndarray, train_sq: np.ndarray,
                      k: int) -> np.ndarray:
        """Neighbours per class of each test row: WEKA's exact sums, on the candidates.

        The squared distances by ``|a|^2 + |b|^2 - 2 a.b`` (one matrix product) are within
        ``tol`` of the exact ones, so every training row whose exact distance is at most the
        exact k-th smallest is within ``2 tol`` of the approximate k-th smallest. Those
        candidates (the ties and near ties) get WEKA's sum, attribute by attribute in
        column order, and the neighbours are chosen on it: the same as summing every pair.
        """
        test_sq = np.einsum("ij,ij->i", test, test)
        approx = test @ train.T
        approx *= -2.0
        approx += test_sq[:, None]
        approx += train_sq[None, :]
        m = train.shape[1]
        # rounding of a dot product of length m: at most m * eps * (|a|^2 + |b|^2) / 2
        tol = 1e3 * (m + 1) * np.finfo(np.float64).eps * (test_sq + train_sq.max() + 1.0)
        kth = np.partition(approx, k - 1, axis=1)[:, k - 1]
        rows, cols = np.nonzero(approx <= (kth + 2.0 * tol)[:, None])
        exact = np.zeros(rows.size)
        for j in range(m):  # summed attribute by attribute, as WEKA
            diff = test[rows, j] - train[cols, j]
            exact += diff * diff
        # the exact k-th smallest distance of each row, among its candidates
        order = np.lexsort((exact, rows))
        start = np.searchsorted(rows[order], np.arange(test.shape[0]))
        kth_exact = exact[order][start + k - 1]
        near = exact <= kth_exact[rows]
        n_classes = self.classes_.size
        return np.bincount(rows[near] * n_classes + self._codes[cols[near]],
                           minlength=test.shape[0] * n_classes).reshape(-1, n_classes)

    def predict_proba(self, X: Any) -> np.ndarray:
        """WEKA's class distribution: ``(1 / n_train + neighbours of the class)``,
        normalised (``IBk.makeDistribution``)."""
        counts = self._counts(X)
        prior = 1.0 / max(1, self._X.shape[0])
        dist = counts + prior
        return dist / dist.sum(axis=1, keepdims=True)

    def predict(self, X: Any) -> np.ndarray:
        """The class with the most neighbours; the first in ``classes_`` on a tie."""
        counts = self._counts(X)
        return self.classes_[np.argmax(counts, axis=1)]


def _svm() -> Any:
    return make_pipeline(RangeScaler(), SVC(kernel="linear", C=0.5))


def _one_nn() -> Any:
    return IBkClassifier(n_neighbors=1)


def _naive_bayes() -> Any:
    from sklearn.naive_bayes import GaussianNB

    return GaussianNB()


def _random_forest() -> Any:
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(n_estimators=100, max_features="log2", random_state=0,
                                  n_jobs=1)


def _tree() -> Any:
    return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=0)


#: The entry-point group through which installed packages add classifiers.
CLASSIFIER_ENTRY_POINT_GROUP = "modelmine.classifiers"


class ClassifierRegistry(Registry[Entry]):
    """Classifiers of the evaluation protocol by name: factories of unfitted estimators.

    The operator registry's pattern (:mod:`modelmine._registry`): ``register_classifier``
    as a decorator on a factory ``() -> estimator``, the ``modelmine.classifiers``
    entry-point group, lazy discovery, loud conflicts, closest-name errors and one
    ``available()`` shape. The built-ins are KDD 2012's (section 3): a linear SVM (C = 0.5),
    1-nearest-neighbour (WEKA's SVM scaling and IBk distances) and a decision tree.
    """

    def __init__(self, *, group: str | None = CLASSIFIER_ENTRY_POINT_GROUP,
                 builtins: bool = True) -> None:
        super().__init__("classifier", group=group,
                         builtins=_register_builtin_classifiers if builtins else None)

    def _entry(self, factory: Any, *, name: str, origin: str, entry_point: str | None,
               description: str | None = None) -> Entry:
        if not callable(factory):
            raise TypeError(f"the classifier {name!r} must be a factory () -> estimator; "
                            f"got {type(factory).__name__}")
        if not isinstance(name, str) or not name.strip():
            raise param_error("name", "register_classifier", "a non-empty string", name)
        return Entry(name=name, kind="classifier", obj=factory, origin=origin,
                     entry_point=entry_point, **self.describe(factory, description))

    def _from_entry_point(self, obj: Any, *, origin: str, entry_point: str,
                          ep_name: str) -> Entry:
        return self._entry(obj, name=ep_name, origin=origin, entry_point=entry_point)

    def register(self, name: str, factory: Callable[[], Any] | None = None, *,
                 description: str | None = None) -> Any:
        """Register ``factory`` (``() -> unfitted classifier``) as ``name``; without
        ``factory``, return a decorator."""
        def deco(f: Callable[[], Any]) -> Callable[[], Any]:
            self._ensure()
            self._add(self._entry(f, name=name, origin=self.caller_origin(f),
                                  entry_point=None, description=description))
            return f

        return deco if factory is None else deco(factory)

    def make(self, name: Any, func: str = "make_classifier") -> Any:
        """A fresh, unfitted estimator of the classifier ``name``."""
        return self.entry(name, func=func, param="classifiers").obj()


def _register_builtin_classifiers(registry: Registry[Entry]) -> None:
    assert isinstance(registry, ClassifierRegistry)
    for name, factory, text in (
            ("svm", _svm, "linear SVM, C = 0.5, features scaled to [0, 1] (KDD 2012)"),
            ("1nn", _one_nn, "1-nearest neighbour, WEKA's IBk -K 1: range-normalised "
             "distances, tied neighbours vote (KDD 2012)"),
            ("tree", _tree, "decision tree, entropy, 2 samples per leaf (KDD 2012, C4.5)"),
            ("naive-bayes", _naive_bayes, "Gaussian naive Bayes (Salman 2022, Section 4)"),
            ("random-forest", _random_forest, "random forest, 100 trees, log2 features "
             "per split (Pes 2019, Section 4.3)")):
        registry._add(registry._entry(factory, name=name, origin=BUILT_IN, entry_point=None,
                                      description=text))


_DEFAULT = ClassifierRegistry()


def register_classifier(name: str, factory: Callable[[], Any] | None = None, *,
                        description: str | None = None) -> Any:
    """Register a classifier factory in the default registry (usable by name at once)."""
    return _DEFAULT.register(name, factory, description=description)


def available_classifiers() -> pd.DataFrame:
    """The classifiers: name, kind, origin, description, module, entry_point."""
    return _DEFAULT.available()


#: The earlier name of :func:`available_classifiers`.
available = available_classifiers


def get_classifier(name: str, func: str = "get_classifier") -> Any:
    """A fresh estimator for a registered classifier name ("svm", "1nn", "tree", ...)."""
    return _DEFAULT.make(name, func)


def make_classifier(name: str, func: str = "make_classifier") -> Any:
    """The earlier name of :func:`get_classifier`."""
    return _DEFAULT.make(name, func)


def _label_of(estimator: Any) -> str:
    last = estimator.steps[-1][1] if isinstance(estimator, Pipeline) else estimator
    return type(last).__name__


def resolve_classifiers(spec: Any, func: str) -> dict[str, Any]:
    """Label -> unfitted estimator, from names, estimators, or a mapping label -> either.

    Estimators are cloned, so the caller's objects are never fitted or modified.
    """
    if isinstance(spec, (str, bytes)) or hasattr(spec, "fit"):
        spec = [spec]
    items: list[tuple[str | None, Any]]
    if isinstance(spec, Mapping):
        items = [(str(k), v) for k, v in spec.items()]
    else:
        try:
            items = [(None, v) for v in spec]
        except TypeError:
            raise param_error("classifiers", func, "a list of classifier names ("
                              + ", ".join(repr(c) for c in _DEFAULT.names())
                              + ") or scikit-learn classifiers", spec, exc=TypeError) from None
    if not items:
        raise param_error("classifiers", func, "a non-empty list of classifiers", spec)
    out: dict[str, Any] = {}
    for label, value in items:
        if isinstance(value, str):
            estimator = make_classifier(value, func)
            label = label or value
        elif hasattr(value, "fit") and hasattr(value, "predict"):
            estimator = clone(value)
            label = label or _label_of(value)
        else:
            listed = ", ".join(repr(c) for c in _DEFAULT.names())
            raise param_error("classifiers", func, f"names among {listed} or scikit-learn "
                              "classifiers (with fit and predict)", value, exc=TypeError)
        base, n = label, 2
        while label in out:  # two LogisticRegression(...) get distinct labels
            label, n = f"{base}_{n}", n + 1
        out[label] = estimator
    return out
