"""The rankers of Pes (2019) and Salman (2022) that KDD 2012 did not use, as selectors.

- "gainratio": WEKA's GainRatioAttributeEval (Pes 2019, "GainR");
- "oner": WEKA's OneRAttributeEval, Holte's OneR with minimum bucket size 6 (Pes, "OneR");
- "mrmr": Peng et al. (2005) mRMR, MID or MIQ (Salman 2022, Section 3.4.4);
- "svm-rfe50": SVM-RFE removing 50 % of the remaining features per step (Pes, "SVM-RFE
  0.5"); "svm-rfe" removes 10 % (Pes's "SVM-RFE 0.1" and KDD 2012's SVMRFE).

Pes's other rankers are built in already: "chi2", "ig" (InfoG), "svm" (SVM-AW: the weight
magnitudes of one linear SVM) and ReliefF in its distance-weighted WEKA form,
``selector="relieff", selector_params={"weight_by_distance": True}``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..validation import check_choice, check_int, check_real
from ._base import Selector, SelectorKind, SelectorOutput
from ._discretising import _Discretising, _SortedColumnsShared
from ._svm_selectors import SVMRFESelector

__all__ = ["GainRatioSelector", "MRMRSelector", "OneRSelector", "SVMRFE50Selector"]


class GainRatioSelector(_Discretising):
    """Gain ratio IG(C; F) / H(F) of MDL-discretised features (WEKA GainRatioAttributeEval).

    Pes (2019, Section 3.1, "GainR"); see :func:`modelmine.selectors.gain_ratio`. Through
    :func:`modelmine.bootstrap` the resamples share the fold's sorted columns, as the
    MDL selectors of KDD 2012 (issue 37).
    """

    name = "gainratio"
    _score = "gainratio"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._rankers import gain_ratio

        return SelectorOutput(
            scores=gain_ratio(X, y, discretization=self.discretization, n_bins=self.n_bins,
                              better_encoding=self.better_encoding)
        )


class OneRSelector(_SortedColumnsShared):
    """Accuracy of Holte's OneR rule on each feature (WEKA OneRAttributeEval, bucket size 6).

    Pes (2019, Section 3.1, "OneR"); see :func:`modelmine.selectors.oner_scores`: scores
    in percent, as WEKA reports them. The cross-validation folds are WEKA's, drawn from the
    bootstrap's own seed (``oner_scores(..., random_state=1)`` is WEKA's default ``-S 1``).
    """

    name = "oner"

    def __init__(self, min_bucket_size: int = 6, folds: int | None = 10):
        self.min_bucket_size = check_int(
            min_bucket_size, "min_bucket_size", "OneRSelector", min_value=1
        )
        self.folds = check_int(folds, "folds", "OneRSelector", min_value=2, allow_none=True)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._rankers import oner_scores

        return SelectorOutput(
            scores=oner_scores(
                X,
                y,
                min_bucket_size=self.min_bucket_size,
                folds=self.folds,
                random_state=random_state,
            )
        )

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        """:meth:`select` on ``X[rows], y[rows]``, bit for bit, from the sorted columns
        (:func:`._oner_rows.resample_oner_scores`)."""
        from ._oner_rows import resample_oner_scores

        return SelectorOutput(scores=resample_oner_scores(
            prepared, y, rows, min_bucket_size=self.min_bucket_size, folds=self.folds,
            random_state=random_state))

    def get_params(self) -> dict[str, Any]:
        return {"min_bucket_size": self.min_bucket_size, "folds": self.folds}


class MRMRSelector(Selector):
    """mRMR forward selection (Peng, Long and Ding 2005): a ranking (Salman 2022, 3.4.4).

    The first ``n_selected`` ranks follow the mRMR order, the rest decreasing relevance
    (see :func:`modelmine.selectors.mrmr`). mRMR's criterion values of different steps are
    not comparable, so the scores given to score aggregations are the linear rank scores
    ``1 - (rank - 1) / p`` (1 for the first feature chosen).
    """

    name = "mrmr"
    kind: SelectorKind = "ranking"

    def __init__(
        self,
        criterion: str = "MID",
        n_selected: int | None = 100,
        n_candidates: int | None = 500,
        discretization: str = "sigma",
        sigma_factor: float = 1.0,
    ):
        f = "MRMRSelector"
        self.criterion = check_choice(criterion, "criterion", f, ["MID", "MIQ"])
        self.n_selected = check_int(n_selected, "n_selected", f, min_value=1, allow_none=True)
        self.n_candidates = check_int(n_candidates, "n_candidates", f, min_value=1, allow_none=True)
        self.discretization = check_choice(
            discretization, "discretization", f, ["sigma", "mdl", "quantile", "uniform"]
        )
        self.sigma_factor = check_real(sigma_factor, "sigma_factor", f, low=0, closed="neither")

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._mrmr import mrmr

        res = mrmr(
            X,
            y,
            criterion=self.criterion,
            n_selected=self.n_selected,
            n_candidates=self.n_candidates,
            discretization=self.discretization,
            sigma_factor=self.sigma_factor,
        )
        ranking = res.ranking
        p = ranking.size
        return SelectorOutput(ranking=ranking, scores=1.0 - (ranking - 1) / float(p))

    def get_params(self) -> dict[str, Any]:
        return {
            "criterion": self.criterion,
            "n_selected": self.n_selected,
            "n_candidates": self.n_candidates,
            "discretization": self.discretization,
            "sigma_factor": self.sigma_factor,
        }


class SVMRFE50Selector(SVMRFESelector):
    """SVM-RFE removing 50 % of the remaining features per step (Pes 2019, "SVM-RFE 0.5").

    The same elimination as "svm-rfe" (Guyon et al. 2002; linear SVM, C = 0.5, attributes
    scaled to [0, 1] inside each resample as WEKA's SMO by default) with ``step=0.5``;
    ``selector="svm-rfe", selector_params={"step": 0.5}`` is equivalent.
    """

    name = "svm-rfe50"
    kind: SelectorKind = "ranking"

    def __init__(self, C: float = 0.5, step: float = 0.5, tol: float = 1e-3,
                 scale: str = "minmax", class_weight: str | None = None,
                 solver: str = "libsvm"):
        check_real(C, "C", "SVMRFE50Selector", low=0, closed="neither")
        check_real(step, "step", "SVMRFE50Selector", low=0, high=1, closed="neither")
        check_real(tol, "tol", "SVMRFE50Selector", low=0, closed="neither")
        super().__init__(C=C, step=step, step_rule="remaining", tol=tol, scale=scale,
                         class_weight=class_weight, solver=solver)

    def get_params(self) -> dict[str, Any]:
        params = {"C": self.C, "step": self.step, "tol": self.tol, "scale": self.scale}
        if self.class_weight is not None:
            params["class_weight"] = self.class_weight
        if self.solver != "libsvm":  # only then: earlier records stay the same
            params["solver"] = self.solver
        return params
