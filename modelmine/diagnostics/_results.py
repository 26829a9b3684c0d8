"""Result objects of the stability measures (immutable, read-only arrays)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from scipy.stats import norm

from .._deprecation import renamed_accessor
from .._utils import readonly
from ..validation import check_int, check_real

# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------


def _readonly(a: np.ndarray | None) -> np.ndarray | None:
    return None if a is None else readonly(a)


@dataclass(frozen=True, repr=False)
class StabilityResult:
    """Stability of a collection of subsets, rankings or score vectors.

    Attributes
    ----------
    measure : str
        Name of the measure (one of
        :func:`modelmine.diagnostics.available_measures`).
    value : float
        The stability (or, for ``canberra`` and ``score_std``, the instability: see
        ``higher_is_more_stable``).
    n_subsets : int
        Number ``M`` of subsets / rankings / score vectors compared.
    n_features_in : int
        Total number ``d`` of features.
    higher_is_more_stable : bool
        Direction of the measure: True for similarities, False for distances.
    pairwise : ndarray of shape (M, M) or None
        The similarity (or distance) of every pair, when asked for with ``pairwise=True``;
        the diagonal holds the value of a subset against itself. Read-only.
    details : mapping
        Measure-specific extras (for example the raw Canberra distance and its expectation
        under random rankings).
    """

    measure: str
    value: float
    n_subsets: int
    n_features_in: int
    higher_is_more_stable: bool = True
    pairwise: np.ndarray | None = None
    details: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _readonly(self.pairwise)
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def __float__(self) -> float:
        return float(self.value)

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v:.6g}" for k, v in self.details.items())
        return (
            f"StabilityResult(measure={self.measure!r}, value={self.value:.6g}, "
            f"n_subsets={self.n_subsets}, n_features_in={self.n_features_in}{extra})"
        )


@dataclass(frozen=True, repr=False)
class NogueiraResult:
    """The Nogueira, Sechidis and Brown (JMLR 2018) stability estimate with its uncertainty.

    Attributes
    ----------
    value : float
        The estimate ``1 - mean_f s_f^2 / (kbar/d (1 - kbar/d))`` (Definition 4 of the paper).
    variance : float
        Its asymptotic variance, the one the paper's Corollary 9 interval uses (see
        ``docs/diagnostics.md`` for the derivation and the sign of the cardinality term).
    confidence_interval : tuple of float
        ``value -+ z_{1 - alpha/2} sqrt(variance)`` (Corollary 9 of the paper).
    confidence_level : float
        ``1 - alpha``.
    n_subsets, n_features_in : int
        ``M`` and ``d``.
    mean_size : float
        ``kbar``, the mean number of selected features.
    """

    value: float
    variance: float
    confidence_interval: tuple[float, float]
    confidence_level: float
    n_subsets: int
    n_features_in: int
    mean_size: float

    measure = "nogueira"
    higher_is_more_stable = True

    @property
    def standard_error(self) -> float:
        """Square root of the variance."""
        return math.sqrt(self.variance)

    def interval(self, confidence_level: float) -> tuple[float, float]:
        """The asymptotic normal confidence interval at another level."""
        level = check_real(
            confidence_level, "confidence_level", "NogueiraResult.interval", low=0.0,
            high=1.0, closed="neither",
        )
        assert level is not None
        z = float(norm.ppf(0.5 + level / 2.0))
        return (self.value - z * self.standard_error, self.value + z * self.standard_error)

    def __float__(self) -> float:
        return float(self.value)

    def __repr__(self) -> str:
        lo, hi = self.confidence_interval
        return (
            f"NogueiraResult(value={self.value:.6g}, variance={self.variance:.6g}, "
            f"ci{100 * self.confidence_level:g}=({lo:.6g}, {hi:.6g}), "
            f"n_subsets={self.n_subsets}, n_features_in={self.n_features_in}, "
            f"mean_size={self.mean_size:.6g})"
        )


@dataclass(frozen=True)
class NogueiraTestResult:
    """A hypothesis test of Nogueira, Sechidis and Brown (JMLR 2018).

    Attributes
    ----------
    test : str
        ``'value'`` (H0: the population stability equals ``null_value``) or ``'compare'``
        (H0: two procedures have the same population stability).
    statistic : float
        ``V = (Phi_hat - Phi_0) / sqrt(var)`` or ``T = (Phi_hat_2 - Phi_hat_1) /
        sqrt(var_1 + var_2)``; asymptotically standard normal under H0.
    pvalue : float
    alternative : str
        ``'greater'``, ``'less'`` or ``'two-sided'``.
    estimates : tuple of NogueiraResult
        The estimate(s) the statistic is built from.
    null_value : float or None
        ``Phi_0`` for the one-sample test.
    """

    test: str
    statistic: float
    pvalue: float
    alternative: str
    estimates: tuple[NogueiraResult, ...]
    null_value: float | None = None

    def reject(self, alpha: float = 0.05) -> bool:
        """Whether H0 is rejected at level ``alpha``."""
        a = check_real(alpha, "alpha", "NogueiraTestResult.reject", low=0.0, high=1.0,
                       closed="neither")
        assert a is not None
        return bool(self.pvalue < a)


@dataclass(frozen=True, repr=False)
class FrequencyResult:
    """Per-feature selection frequencies over ``M`` subsets.

    Attributes
    ----------
    frequencies : ndarray of shape (d,)
        Fraction of the subsets that contain each feature (``hat p_f`` of Nogueira et al.).
    counts : ndarray of shape (d,)
        Number of subsets that contain each feature.
    n_subsets : int
    feature_names : ndarray of shape (d,) or None
    """

    frequencies: np.ndarray
    counts: np.ndarray
    n_subsets: int
    feature_names: np.ndarray | None = None

    def __post_init__(self) -> None:
        _readonly(self.frequencies)
        _readonly(self.counts)
        _readonly(self.feature_names)

    def to_series(self) -> Any:
        """Deprecated: ``to_frame()["frequency"]``."""
        renamed_accessor("FrequencyResult", "to_series()", 'to_frame()["frequency"]')
        return self.to_frame()["frequency"].rename_axis(None)

    def to_frame(self) -> Any:
        """One row per feature, indexed by ``feature`` (its name, or its index):
        ``frequency`` and ``count``; most frequent first, ties in feature order (stable)."""
        import pandas as pd

        index = pd.Index(
            self.feature_names if self.feature_names is not None
            else np.arange(self.frequencies.size), name="feature")
        frame = pd.DataFrame({"frequency": self.frequencies, "count": self.counts},
                             index=index)
        order = np.argsort(-self.frequencies, kind="stable")
        return frame.iloc[order]

    def top(self, n: int) -> np.ndarray:
        """Indices of the ``n`` most frequently selected features (ties by feature index)."""
        n_ = check_int(n, "n", "FrequencyResult.top", min_value=0,
                       max_value=self.frequencies.size)
        return np.argsort(-self.frequencies, kind="stable")[:n_]

    def __repr__(self) -> str:
        top = self.top(min(5, self.frequencies.size))
        shown = ", ".join(f"{i}: {self.frequencies[i]:.3g}" for i in top)
        return (
            f"FrequencyResult(n_subsets={self.n_subsets}, "
            f"n_features_in={self.frequencies.size}, top={{{shown}}})"
        )
