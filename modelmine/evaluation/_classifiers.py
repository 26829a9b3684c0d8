"""The classifiers of the KDD'12 protocol, by name, and the resolution of user-given ones.

Woznica, Nguyen and Kalousis (KDD 2012, section 3) train three WEKA learners on each
signature: a linear SVM (SMO, C = 0.5), 1-nearest neighbour (IBk, k = 1) and the J48
decision tree. Their scikit-learn counterparts here follow WEKA's defaults where they
matter:

- SMO and IBk rescale every attribute to [0, 1] using the training data (SMO's default
  ``filterType`` "normalize"; IBk's Euclidean distance normalises by the attribute range),
  so ``"svm"`` and ``"1nn"`` are pipelines that start with :class:`RangeScaler`
  (scikit-learn's ``MinMaxScaler``; on sparse data, which it refuses, ``MaxAbsScaler``,
  the same map for the non-negative counts of text data, without densifying).
- J48 splits on the gain ratio and needs at least 2 instances per leaf; ``"tree"`` is a
  :class:`~sklearn.tree.DecisionTreeClassifier` with the entropy criterion,
  ``min_samples_leaf=2`` and a fixed ``random_state`` (CART, no C4.5 pruning: a documented
  difference, see ``docs/reproduction.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from ..validation import check_choice, param_error

__all__ = ["CLASSIFIERS", "RangeScaler", "make_classifier", "resolve_classifiers"]


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


def _svm() -> Any:
    return make_pipeline(RangeScaler(), SVC(kernel="linear", C=0.5))


def _one_nn() -> Any:
    return make_pipeline(RangeScaler(), KNeighborsClassifier(n_neighbors=1))


def _tree() -> Any:
    return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=0)


#: The paper's classifiers by name: a factory of a fresh, unfitted estimator for each.
CLASSIFIERS: dict[str, Callable[[], Any]] = {"svm": _svm, "1nn": _one_nn, "tree": _tree}


def make_classifier(name: str, func: str = "make_classifier") -> Any:
    """A fresh estimator for a built-in classifier name ("svm", "1nn" or "tree")."""
    return CLASSIFIERS[check_choice(name, "classifiers", func, tuple(CLASSIFIERS))]()


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
                              + ", ".join(repr(c) for c in CLASSIFIERS)
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
            listed = ", ".join(repr(c) for c in CLASSIFIERS)
            raise param_error("classifiers", func, f"names among {listed} or scikit-learn "
                              "classifiers (with fit and predict)", value, exc=TypeError)
        base, n = label, 2
        while label in out:  # two LogisticRegression(...) get distinct labels
            label, n = f"{base}_{n}", n + 1
        out[label] = estimator
    return out
