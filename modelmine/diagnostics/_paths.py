"""Stability paths: selection frequencies and stability as the selection size varies.

Meinshausen and Buehlmann (2010, section 2.3) plot each feature's selection probability
against the regularisation of the selector (the "stability path"); with a ranking
selector the natural axis is q, the number of features each base model keeps. The
stability of the base models along the same axis (Nogueira, Sechidis and Brown, JMLR 2018,
with its confidence interval) shows at which sizes the selections agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._deprecation import renamed_accessor
from .._utils import readonly
from ..base_models import BaseModels, bootstrap
from ..validation import check_int, param_error
from ._nogueira import nogueira_stability

__all__ = ["StabilityPathResult", "stability_path"]

_FUNC = "stability_path"


@dataclass(frozen=True, eq=False, repr=False)
class StabilityPathResult:
    """Selection frequencies and Nogueira stability along a grid. Immutable.

    Attributes
    ----------
    parameter : str
        What varies: ``"n_features"`` (q, features kept per base model) or a selector
        parameter such as ``"C"``.
    grid : ndarray, shape (K,)
        Its values.
    frequencies : ndarray, shape (K, p)
        Selection frequency of each feature at each grid value.
    q : ndarray, shape (K,)
        Mean number of features a base model selects at each grid value.
    stability, ci_low, ci_high : ndarray, shape (K,)
        Nogueira's estimate and its confidence interval (NaN where undefined).
    confidence_level : float
    feature_names : ndarray of str, shape (p,)
    """

    parameter: str
    grid: np.ndarray
    frequencies: np.ndarray
    q: np.ndarray
    stability: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    confidence_level: float
    feature_names: np.ndarray

    def __post_init__(self) -> None:
        for name in ("grid", "frequencies", "q", "stability", "ci_low", "ci_high", "feature_names"):
            object.__setattr__(self, name, readonly(np.asarray(getattr(self, name)), copy=True))

    def __repr__(self) -> str:
        # a summary, not the (K, p) frequencies
        def span(a: np.ndarray) -> str:
            finite = a[np.isfinite(a)]
            return "nan" if not finite.size else f"{finite.min():.3g}..{finite.max():.3g}"

        return (f"StabilityPathResult(parameter={self.parameter!r}, "
                f"grid={span(np.asarray(self.grid, dtype=float))} ({self.grid.size} values), "
                f"n_features_in={self.feature_names.size}, stability={span(self.stability)})")

    def top_features(self, n: int = 10) -> np.ndarray:
        """The ``n`` features reaching the highest frequency anywhere on the path."""
        peak = self.frequencies.max(axis=0)
        return np.lexsort((np.arange(peak.size), -peak))[:n]

    def table(self) -> pd.DataFrame:
        """Deprecated: :meth:`to_frame`."""
        renamed_accessor("StabilityPathResult", "table()", "to_frame()")
        return self.to_frame()

    def to_frame(self) -> pd.DataFrame:
        """One row per grid value: q, stability and its interval."""
        return pd.DataFrame(
            {
                self.parameter: self.grid,
                "q": self.q,
                "stability": self.stability,
                "ci_low": self.ci_low,
                "ci_high": self.ci_high,
            }
        )

    def frequency_table(self, n: int = 10) -> pd.DataFrame:
        """Frequencies of the :meth:`top_features` (columns) along the grid (rows)."""
        top = self.top_features(n)
        return pd.DataFrame(
            self.frequencies[:, top],
            columns=self.feature_names[top],
            index=pd.Index(self.grid, name=self.parameter),
        )


def _stability(subsets: np.ndarray, level: float) -> tuple[float, float, float]:
    sizes = subsets.sum(axis=1)
    if sizes.max() == 0 or sizes.min() == subsets.shape[1]:
        return float("nan"), float("nan"), float("nan")
    res = nogueira_stability(subsets, confidence_level=level)
    return res.value, res.confidence_interval[0], res.confidence_interval[1]


def _grid(values: Any, name: str, hi: int) -> np.ndarray:
    if values is None:
        raw = np.unique(np.round(np.geomspace(1, hi, num=min(hi, 12))).astype(int))
        return raw
    vals = [check_int(v, name, _FUNC, min_value=1, max_value=hi) for v in values]
    if not vals:
        raise param_error(name, _FUNC, "a non-empty sequence of integers", values)
    return np.unique(np.asarray(vals, dtype=int))


def stability_path(
    base: BaseModels | Any,
    y: Any = None,
    *,
    n_features_grid: Sequence[int] | None = None,
    selector: Any = "l1-logistic",
    param: str | None = None,
    values: Sequence[Any] | None = None,
    confidence_level: float = 0.95,
    **bootstrap_kwargs: Any,
) -> StabilityPathResult:
    """Stability path of a selector (Meinshausen and Buehlmann 2010, section 2.3).

    Two forms:

    - ``stability_path(base, n_features_grid=[...])``: from existing base models of a
      ranking selector, the subsets of the top q of each ranking for each q of the grid
      (no refit; default: about 12 values from 1 to p on a log scale).
    - ``stability_path(X, y, selector="l1-logistic", param="C", values=[...], ...)``:
      one :func:`modelmine.bootstrap` run per value of a selector parameter (for example
      the inverse regularisation C of l1-logistic), on the same resamples (same
      ``random_state``); ``bootstrap_kwargs`` go to :func:`modelmine.bootstrap`
      (``n_bootstraps``, ``n_features`` (a cap, None keeps the l1 subset), ``resampling``,
      ``random_state``, ``n_jobs``, ...).

    At each grid value: each feature's selection frequency, the mean subset size q, and
    Nogueira's stability with its confidence interval (JMLR 2018, Corollary 9).

    Returns
    -------
    StabilityPathResult
    """
    level = float(confidence_level)
    if isinstance(base, BaseModels):
        if y is not None or param is not None or values is not None:
            raise param_error(
                "param", _FUNC, "None with BaseModels (the path runs over n_features_grid)", param
            )
        grid = _grid(n_features_grid, "n_features_grid", base.n_features_in)
        freqs, qs, stab, lo, hi = [], [], [], [], []
        for q in grid:
            subsets = base.ranks <= q
            freqs.append(subsets.mean(axis=0))
            qs.append(float(subsets.sum(axis=1).mean()))
            s, a, b = _stability(subsets, level)
            stab.append(s)
            lo.append(a)
            hi.append(b)
        return StabilityPathResult(
            parameter="n_features",
            grid=grid,
            frequencies=np.vstack(freqs),
            q=np.array(qs),
            stability=np.array(stab),
            ci_low=np.array(lo),
            ci_high=np.array(hi),
            confidence_level=level,
            feature_names=base.feature_names,
        )
    if param is None or values is None or len(values) == 0:
        raise param_error(
            "values",
            _FUNC,
            "a non-empty sequence of values of 'param' (with "
            "the data X, y: one bootstrap run per value)",
            values,
        )
    if y is None:
        raise param_error("y", _FUNC, "the labels when the first argument is the data X", None)
    kwargs = {"n_features": None, **bootstrap_kwargs}
    kwargs.setdefault("fit_full", False)
    params = dict(kwargs.pop("selector_params", None) or {})
    runs = [
        bootstrap(base, y, selector, selector_params={**params, param: v}, **kwargs) for v in values
    ]
    path_freqs = np.vstack([r.subsets.mean(axis=0) for r in runs])
    triples = [_stability(np.asarray(r.subsets), level) for r in runs]
    return StabilityPathResult(
        parameter=param,
        grid=np.asarray(values, dtype=float),
        frequencies=path_freqs,
        q=np.array([float(r.subset_sizes().mean()) for r in runs]),
        stability=np.array([t[0] for t in triples]),
        ci_low=np.array([t[1] for t in triples]),
        ci_high=np.array([t[2] for t in triples]),
        confidence_level=level,
        feature_names=runs[0].feature_names,
    )
