"""The selectors that score MDL-discretised features (ig, su, chi2, gainratio): their shared
parameters and their shared route, each column of the fold sorted once
(:func:`._information.sorted_columns`) and each resample's discretisation counted from it
(:func:`._information.resample_scores`; KDD 2012, Section 5; Pes 2019, Section 3.1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..validation import check_choice, check_flag, check_int
from ._base import Selector, SelectorOutput

__all__: list[str] = []


class _SortedColumnsShared(Selector):
    """A selector whose resamples share the data's columns sorted once
    (:func:`._information.sorted_columns`, issue 37): MDL's information measures, OneR
    and CFS. :meth:`select_rows` then counts instead of sorting."""

    prepare_uses_labels = False  # SortedColumns(X): the labels come with each resample

    def _sorts(self) -> bool:
        """Whether this configuration uses the sorted columns (MDL only, for the
        discretising selectors)."""
        return True

    def prepare(self, X: Any, y: np.ndarray) -> Any:
        """Each column sorted once: see :func:`._information.sorted_columns`."""
        if not self._sorts():
            return None
        from ._information import sorted_columns

        return sorted_columns(X)

    def prepare_nbytes(self, X: Any, y: np.ndarray) -> int:
        """:func:`._information.sorted_columns_nbytes` (0 when nothing is sorted)."""
        if not self._sorts():
            return 0
        from ._information import sorted_columns_nbytes

        return sorted_columns_nbytes(X)


class _Discretising(_SortedColumnsShared):
    """Shared parameters of the selectors that score discretised features."""

    _score: str  # the score resample_scores computes: "ig", "su", "chi2" or "gainratio"

    def __init__(self, discretization: str = "mdl", n_bins: int = 10,
                 better_encoding: bool = True):
        self.discretization = check_choice(
            discretization, "discretization", type(self).__name__, ["mdl", "quantile", "uniform"]
        )
        self.n_bins = check_int(n_bins, "n_bins", type(self).__name__, min_value=2)
        # WEKA's attribute evaluators discretise with Discretize.setUseBetterEncoding(true)
        self.better_encoding = check_flag(better_encoding, "better_encoding",
                                          type(self).__name__)

    def get_params(self) -> dict[str, Any]:
        return {"discretization": self.discretization, "n_bins": self.n_bins,
                "better_encoding": self.better_encoding}

    def _sorts(self) -> bool:
        return self.discretization == "mdl"

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        if prepared is None:
            return self.select(X[rows], y[rows], random_state=random_state)
        from ._information import resample_scores

        return SelectorOutput(scores=resample_scores(prepared, y, rows, self._score,
                                                     self.better_encoding))
