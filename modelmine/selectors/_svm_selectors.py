"""The SVM selectors of KDD 2012: SVM-RFE ("svm-rfe", Guyon et al. 2002) and SVMONE ("svm").

Both fit a linear SVM (C = 0.5) on attributes scaled to [0, 1] inside each resample by
default, as WEKA's SMO (:class:`._scaling._SVMScaled`); ``docs/selectors_svm_rfe.md``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ..validation import check_choice, check_int, check_real
from ._base import SelectorKind, SelectorOutput
from ._scaling import _SVMScaled, _two_classes

__all__ = ["SVMOneSelector", "SVMRFESelector"]


class SVMRFESelector(_SVMScaled):
    """SVM recursive feature elimination (Guyon et al. 2002) with a linear SVM.

    KDD 2012 ("SVMRFE"): C = 0.5 and 10 % of the features eliminated at each iteration, on
    attributes scaled to [0, 1] inside each resample (``scale="minmax"``, as WEKA's SMO;
    see :class:`_SVMScaled`). ``step_rule="remaining"`` removes ``step`` of the features
    still in play (the papers' rule, the default); ``"original"`` removes ``step`` of the
    original number, as :class:`sklearn.feature_selection.RFE`. The full ranking is a total
    order: within an elimination step the smaller weight ranks worse. With more than two
    classes, ``multiclass="sum"`` ranks by ``w^2`` summed over the one-vs-one SVMs (as
    scikit-learn's ``RFE(SVC)``); ``"weka"`` runs one binary elimination per class (that
    class against the rest) and deals the features from the top of each class's ranking in
    turn, as WEKA 3.6's SVMAttributeEval. ``solver="warm"`` starts each step's SVM from
    the previous step's solution (modelmine's compiled SMO; :func:`svm_rfe`), the same SVM
    to the tolerance ``tol``. See ``docs/selectors_svm_rfe.md``.
    """

    name = "svm-rfe"
    kind: SelectorKind = "ranking"

    def __init__(self, C: float = 0.5, step: float = 0.1, step_rule: str = "remaining",
                 tol: float = 1e-3, scale: str = "minmax", multiclass: str = "sum",
                 class_weight: str | None = None, solver: str = "libsvm"):
        self.C = check_real(C, "C", "SVMRFESelector", low=0, closed="neither")
        if isinstance(step, numbers.Integral) and not isinstance(step, bool):
            self.step: float = check_int(step, "step", "SVMRFESelector", min_value=1)
        else:
            self.step = check_real(step, "step", "SVMRFESelector", low=0, high=1,
                                   closed="neither")
        self.step_rule = check_choice(step_rule, "step_rule", "SVMRFESelector",
                                      ["remaining", "original"])
        self.tol = check_real(tol, "tol", "SVMRFESelector", low=0, closed="neither")
        self._set_scale(scale)
        self.multiclass = check_choice(multiclass, "multiclass", "SVMRFESelector",
                                       ["sum", "weka"])
        self._set_class_weight(class_weight)
        from ._svm_rfe import _check_solver

        self.solver = _check_solver(solver, "SVMRFESelector")

    def select(self, X: Any, y: np.ndarray, *, random_state: int,
               sample_weight: np.ndarray | None = None) -> SelectorOutput:
        from ._svm_rfe import svm_rfe_ranking

        Xs = self._scaled(X, y)
        kwargs: dict[str, Any] = {"C": self.C, "step": self.step, "step_rule": self.step_rule,
                                  "tol": self.tol, "solver": self.solver}
        classes = np.unique(y)
        if self.multiclass == "sum" or classes.size <= 2:
            return SelectorOutput(ranking=svm_rfe_ranking(
                Xs, y, **kwargs, sample_weight=self._row_weights(y, sample_weight)))
        orders = []
        for c in classes:
            yc = (y == c).astype(np.int64)
            orders.append(np.argsort(svm_rfe_ranking(
                Xs, yc, **kwargs, sample_weight=self._row_weights(yc, sample_weight)),
                kind="stable"))
        return SelectorOutput(ranking=_dealt(orders))

    def prepare(self, X: Any, y: np.ndarray) -> Any:
        """As :class:`._scaling._SVMScaled`; WEKA's multiclass rule fits each resample on
        its own (one binary elimination per class)."""
        return None if self.multiclass == "weka" else super().prepare(X, y)

    def prepare_nbytes(self, X: Any, y: np.ndarray) -> int:
        return 0 if self.multiclass == "weka" else super().prepare_nbytes(X, y)

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        if prepared is None:
            return self.select(X[rows], y[rows], random_state=random_state)
        _two_classes(y[rows], self.name)
        from ._svm_rows import svm_rfe_rows

        return SelectorOutput(ranking=svm_rfe_rows(
            prepared, X, y, rows, C=self.C, step=self.step, step_rule=self.step_rule,
            tol=self.tol, solver=self.solver).ranking)

    def get_params(self) -> dict[str, Any]:
        params = {"C": self.C, "step": self.step, "step_rule": self.step_rule, "tol": self.tol,
                  "scale": self.scale, "multiclass": self.multiclass}
        if self.class_weight is not None:  # only then: earlier records stay the same
            params["class_weight"] = self.class_weight
        if self.solver != "libsvm":  # likewise
            params["solver"] = self.solver
        return params


def _dealt(orders: list[np.ndarray]) -> np.ndarray:
    """WEKA's SVMAttributeEval with more than two classes: one binary SVM-RFE per class
    (that class against the rest), then the features dealt position by position, class by
    class, each taken once; rank 1 = the first dealt."""
    p = orders[0].size
    taken = np.zeros(p, dtype=bool)
    ranking = np.empty(p, dtype=np.int64)
    nxt = 1
    for position in range(p):
        for order in orders:
            f = order[position]
            if not taken[f]:
                taken[f] = True
                ranking[f] = nxt
                nxt += 1
    return ranking


class SVMOneSelector(_SVMScaled):
    """SVMONE (KDD 2012): the weight magnitude of one linear SVM (C = 0.5) per feature, on
    attributes scaled to [0, 1] inside each resample by default (as WEKA's SMO)."""

    name = "svm"

    def __init__(self, C: float = 0.5, tol: float = 1e-3, scale: str = "minmax",
                 class_weight: str | None = None):
        self.C = check_real(C, "C", "SVMOneSelector", low=0, closed="neither")
        self.tol = check_real(tol, "tol", "SVMOneSelector", low=0, closed="neither")
        self._set_scale(scale)
        self._set_class_weight(class_weight)

    def select(self, X: Any, y: np.ndarray, *, random_state: int,
               sample_weight: np.ndarray | None = None) -> SelectorOutput:
        from ._svm_rfe import svm_weights

        return SelectorOutput(scores=svm_weights(
            self._scaled(X, y), y, C=self.C, tol=self.tol,
            sample_weight=self._row_weights(y, sample_weight)))

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        if prepared is None:
            return self.select(X[rows], y[rows], random_state=random_state)
        _two_classes(y[rows], self.name)
        from ._svm_rows import svm_weights_rows

        return SelectorOutput(scores=svm_weights_rows(prepared, X, y, rows, C=self.C,
                                                      tol=self.tol))

    def get_params(self) -> dict[str, Any]:
        params = {"C": self.C, "tol": self.tol, "scale": self.scale}
        if self.class_weight is not None:
            params["class_weight"] = self.class_weight
        return params
