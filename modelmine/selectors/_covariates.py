"""The selectors of a run with clinical covariates: every fit adjusted for them where the
model allows (:mod:`modelmine.outcomes._covariates` holds the statistics: residuals, the
adjusted Cox score test)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..outcomes._covariates import (
    ADJUSTED_SELECTORS,
    Covariates,
    cox_adjusted_scores,
    residualise,
)
from ..validation import param_error
from ._base import Selector, SelectorOutput
from ._outcome_selectors import _standardised

__all__ = ["CovariateAdjustedSelector", "adjusted"]


class CovariateAdjustedSelector(Selector):
    """A regression or survival selector whose every fit is adjusted for covariates.

    Parameters
    ----------
    selector : Selector
        The run's selector (``cox-score``, ``coxnet``, or any regression selector).
    covariates : Covariates
        Of all n samples; each resample takes its own rows.
    """

    def __init__(self, selector: Any, covariates: Covariates) -> None:
        self.selector = selector
        self.covariates = covariates
        self.name = selector.name
        self.kind = selector.kind
        self.supports_sparse = selector.supports_sparse
        self.supports_multiclass = selector.supports_multiclass
        self.outcomes = (selector.outcome,)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        """The adjusted fit on all the samples (X of the run's n rows)."""
        if X.shape[0] != self.covariates.values.shape[0]:
            raise param_error("X", "CovariateAdjustedSelector.select", "the run's "
                              f"{self.covariates.values.shape[0]} samples (a resample "
                              "goes through select_rows)", f"{X.shape[0]} rows",
                              show=False)
        return self._fit(X, y, self.covariates.values, random_state)

    def prepare(self, X: Any, y: np.ndarray) -> Any:
        return None

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        """The adjusted fit on the resample: X, y and the covariates of ``rows``."""
        return self._fit(X[rows], y[rows], self.covariates.take(rows), random_state)

    def _fit(self, X: Any, y: np.ndarray, Z: np.ndarray,
             random_state: int) -> SelectorOutput:
        keep = Z.std(axis=0) > 0  # a level absent from this resample
        Z = Z[:, keep]
        if self.outcome == "regression":
            return self.selector.select(residualise(X, Z), residualise(y, Z).ravel(),
                                        random_state=random_state)
        event = np.asarray(y["event"], dtype=bool)
        time = np.asarray(y["time"], dtype=np.float64)
        if self.name == "cox-score":
            stat, _ = cox_adjusted_scores(X, event, time, Z)
            return SelectorOutput(scores=stat)
        inner = getattr(self.selector, "selector", self.selector)  # past a scaling
        design = np.column_stack([_standardised(Z), _standardised(X)])
        return inner.path(design, y, n_unpenalised=Z.shape[1])

    def get_params(self) -> dict[str, Any]:
        return self.selector.get_params()

    def describe(self) -> dict[str, Any]:
        return {**self.selector.describe(), "covariates": list(self.covariates.sources)}


def adjusted(selector: Any, covariates: Covariates | None, *, func: str) -> Any:
    """The selector as the run fits it: adjusted for the covariates where its model
    allows, itself otherwise (a classification selector; the markers are adjusted), or
    refused (a survival selector that cannot take them)."""
    if covariates is None or selector.outcome == "classification":
        return selector
    allowed = ADJUSTED_SELECTORS[selector.outcome]
    if allowed is not None and selector.name not in allowed:
        raise param_error("covariates", func, f"a selector that adjusts for them for "
                          f"outcome={selector.outcome!r} ({', '.join(allowed)})",
                          f"covariates with selector {selector.name!r}", show=False)
    return CovariateAdjustedSelector(selector, covariates)
