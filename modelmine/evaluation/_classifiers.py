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

import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from .._registry import BUILT_IN, Entry, Registry
from ..validation import param_error

__all__ = ["CLASSIFIER_ENTRY_POINT_GROUP", "ClassifierRegistry", "RangeScaler", "available",
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


def _svm() -> Any:
    return make_pipeline(RangeScaler(), SVC(kernel="linear", C=0.5))


def _one_nn() -> Any:
    return make_pipeline(RangeScaler(), KNeighborsClassifier(n_neighbors=1))


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
    1-nearest-neighbour (both on [0, 1]-scaled features, as WEKA) and a decision tree.
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
            ("1nn", _one_nn, "1-nearest neighbour, features scaled to [0, 1] (KDD 2012)"),
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
