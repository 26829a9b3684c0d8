"""The sampling design of a run: which samples belong together (groups) and how much each
one counts (sample weights).

Real cohorts are rarely one sample per independent unit: several biopsies or time points
per patient, many cells per donor, samples processed in batches. Resampling such data row by
row puts the same patient in and out of a resample at once, so stability looks higher, and
cross-validation puts it on both sides of a split, so error looks lower, than they are
(Varma and Simon, BMC Bioinformatics 7:91, 2006; Saeb et al., GigaScience 6, 2017). With
``groups``, every resampling scheme of :func:`modelmine.bootstrap` draws whole groups
(:func:`._resampling.resample_indices`), the bootstrap of clustered data of Davison and
Hinkley (*Bootstrap Methods and their Application*, 1997, section 3.8: resample the
clusters, keep each cluster's rows together) and Stabl's ``group_bootstrap``.

Sample weights either go to the selector on each resample (the default: selectors that
take ``sample_weight``, :attr:`modelmine.selectors.Selector.supports_weights`), or draw the
resample (``weighted_resampling=True``: rows, or groups by the sum of their rows' weights,
drawn with probability proportional to the weight; the selector then sees unweighted rows,
so no weight counts twice).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..validation import param_error

__all__ = ["SampleDesign", "check_design", "refuse_unweighted", "relative_weights",
           "weight_range_limit"]


@dataclass(frozen=True, eq=False)
class SampleDesign:
    """Groups and sample weights of a run's n samples, checked (:func:`check_design`).

    Attributes
    ----------
    groups : ndarray of int64, shape (n,), or None
        The group code of each sample, 0..G-1 in the sorted order of ``group_labels``.
    group_labels : ndarray, shape (G,), or None
        The groups as given (strings, integers, ...).
    sample_weight : ndarray of float64, shape (n,), or None
        Non-negative weights, not all zero, relative: divided at the door by their mean
        over the positive weights (:func:`relative_weights`), so they average 1 and a
        constant factor on all of them changes nothing.
    weighted_resampling : bool
        Whether the weights draw the resamples (True) or go to the selector (False).
    """

    groups: np.ndarray | None = None
    group_labels: np.ndarray | None = None
    sample_weight: np.ndarray | None = None
    weighted_resampling: bool = False
    _members: list[np.ndarray] = field(default_factory=list, repr=False)

    @property
    def grouped(self) -> bool:
        return self.groups is not None

    @property
    def n_groups(self) -> int:
        return 0 if self.group_labels is None else int(self.group_labels.size)

    @property
    def empty(self) -> bool:
        return self.groups is None and self.sample_weight is None

    def members(self) -> list[np.ndarray]:
        """The row indices of each group, ascending, in group-code order."""
        if not self._members and self.groups is not None:
            order = np.argsort(self.groups, kind="stable")
            bounds = np.searchsorted(self.groups[order], np.arange(self.n_groups + 1))
            self._members.extend(order[bounds[g]:bounds[g + 1]]
                                 for g in range(self.n_groups))
        return self._members

    def group_classes(self, y: np.ndarray) -> np.ndarray | None:
        """The class code of each group when every group holds a single class (the label
        is a property of the group, as a patient's diagnosis), else None."""
        if self.groups is None:
            return None
        first = np.full(self.n_groups, -1, dtype=np.int64)
        first[self.groups[::-1]] = y[::-1]
        return first if bool((first[self.groups] == y).all()) else None

    def group_weights(self) -> np.ndarray | None:
        """The sum of each group's sample weights (None without weights)."""
        if self.groups is None or self.sample_weight is None:
            return None
        return np.bincount(self.groups, weights=self.sample_weight,
                           minlength=self.n_groups)

    def fingerprint_into(self, h: Any) -> None:
        """Add the design to a running sha256 (nothing when there is none, so runs without
        groups or weights keep the fingerprint they always had)."""
        if self.groups is not None:
            h.update(b"groups")
            h.update(np.ascontiguousarray(self.groups, dtype=np.int64).tobytes())
        if self.sample_weight is not None:
            h.update(b"sample_weight")
            h.update(np.ascontiguousarray(self.sample_weight, dtype=np.float64).tobytes())

    def describe(self) -> dict[str, Any]:
        """What ``run.json`` records of the design (sizes and a checksum, not the values)."""
        out: dict[str, Any] = {}
        if self.groups is not None:
            h = hashlib.sha256()
            h.update(np.ascontiguousarray(self.groups, dtype=np.int64).tobytes())
            sizes = np.bincount(self.groups)
            out["groups"] = {"n_groups": self.n_groups, "smallest": int(sizes.min()),
                             "largest": int(sizes.max()), "sha256": h.hexdigest()}
        if self.sample_weight is not None:
            w = self.sample_weight
            out["sample_weight"] = {
                "use": "resampling" if self.weighted_resampling else "selector",
                "min": float(w.min()), "max": float(w.max()), "sum": float(w.sum())}
        return out


NO_DESIGN = SampleDesign()


def check_design(groups: Any, sample_weight: Any, n: int, *, func: str,
                 weighted_resampling: bool = False) -> SampleDesign:
    """Check ``groups`` and ``sample_weight`` against the n samples of a run.

    Parameters
    ----------
    groups : array-like of shape (n,) or None
        Any labels (strings, integers); NaN / None refused.
    sample_weight : array-like of shape (n,) or None
        Finite, non-negative, not all zero; returned divided by their mean over the
        positive weights (:func:`relative_weights`).
    n : int
    func : str
        The public function, named in the messages.
    weighted_resampling : bool, default=False

    Raises
    ------
    ValueError, TypeError
        The standard one-line message naming ``groups`` or ``sample_weight``.
    """
    codes = labels = weights = None
    if groups is not None:
        codes, labels = _check_groups(groups, n, func)
    if sample_weight is not None:
        weights = _check_weights(sample_weight, n, func)
    if weighted_resampling and weights is None:
        raise param_error("weighted_resampling", func, "False unless sample_weight is given "
                          "(the weights draw the resamples)", True)
    return SampleDesign(codes, labels, weights, bool(weighted_resampling))


def refuse_unweighted(selectors: dict[str, Any], func: str) -> None:
    """Refuse sample weights for a selector that takes none (``supports_weights``), naming
    it and the selectors that do, before any fit. ``selectors``: label -> Selector."""
    refused = [label for label, sel in selectors.items()
               if not getattr(sel, "supports_weights", False)]
    if refused:
        from ..selectors import weighted_selectors

        raise param_error("sample_weight", func, "given only to selectors that take sample "
                          f"weights ({', '.join(weighted_selectors())}), or with "
                          "weighted_resampling=True (the weights then draw the resamples)",
                          f"selector {refused[0]!r}, which takes none", show=False)


def _as_1d(values: Any, name: str, n: int, func: str) -> Any:
    if isinstance(values, str | bytes):
        raise param_error(name, func, f"an array-like of {n} values (one per sample)",
                          values, exc=TypeError)
    if isinstance(values, pd.DataFrame):
        if values.shape[1] != 1:
            raise param_error(name, func, "a 1-D array-like (one value per sample)",
                              f"a DataFrame with {values.shape[1]} columns", show=False)
        values = values.iloc[:, 0]
    arr = values.to_numpy() if hasattr(values, "to_numpy") else np.asarray(values,
                                                                            dtype=object)
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise param_error(name, func, "a 1-D array-like (one value per sample)",
                          f"an array of shape {arr.shape}", show=False)
    if arr.size != n:
        raise param_error(name, func, f"{n} values, one per sample of X",
                          f"{arr.size} values", show=False)
    return arr


def _check_groups(groups: Any, n: int, func: str) -> tuple[np.ndarray, np.ndarray]:
    arr = _as_1d(groups, "groups", n, func)
    missing = pd.isna(pd.Series(arr, dtype=object))
    if bool(missing.any()):
        raise param_error("groups", func, "a group label for every sample",
                          f"{int(missing.sum())} missing (NaN/None) label(s), the first at "
                          f"sample {int(np.flatnonzero(missing.to_numpy())[0])}", show=False)
    try:
        codes, uniques = pd.factorize(pd.Series(arr), sort=True)
    except TypeError:  # labels of mixed types that do not sort: compare their text
        codes, uniques = pd.factorize(pd.Series([str(v) for v in arr]), sort=True)
    labels = np.asarray(uniques)
    if labels.size < 2:
        raise param_error("groups", func, "at least 2 distinct groups (resampling draws whole "
                          "groups)", f"a single group {labels[0]!r}" if labels.size else
                          "no group", show=False)
    return np.asarray(codes, dtype=np.int64), labels


def _check_weights(sample_weight: Any, n: int, func: str) -> np.ndarray:
    arr = _as_1d(sample_weight, "sample_weight", n, func)
    try:
        w = np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        raise param_error("sample_weight", func, "numbers", "non-numeric values",
                          exc=TypeError, show=False) from None
    if not np.isfinite(w).all():
        raise param_error("sample_weight", func, "finite weights",
                          f"{int((~np.isfinite(w)).sum())} NaN or infinite value(s)",
                          show=False)
    if (w < 0).any():
        raise param_error("sample_weight", func, "non-negative weights",
                          f"{int((w < 0).sum())} negative value(s), the smallest "
                          f"{float(w.min()):g}", show=False)
    if not (w > 0).any():
        raise param_error("sample_weight", func, "at least one positive weight",
                          "all weights zero", show=False)
    _check_weight_range(w, func)
    return relative_weights(w)


def weight_range_limit(n_positive: int) -> float:
    """The largest ratio of the largest to the smallest positive weight that the float64
    sums of ``n_positive`` weights carry: beyond ``1 / (n_positive * eps)`` the smallest
    weight is below the rounding unit of their sum (at most ``n_positive`` times the
    largest) and vanishes from it, and so from every weighted mean, sum of squares and
    resampling probability computed with it (issue 50: one weight of 1e20 among ones made
    every weighted ANOVA F of the resamples holding it 0 or noise)."""
    return 1.0 / (max(1, n_positive) * float(np.finfo(np.float64).eps))


def _check_weight_range(w: np.ndarray, func: str) -> None:
    """Refuse weights whose range the float64 arithmetic cannot carry, with the figures."""
    positive = w[w > 0]
    largest, smallest = float(positive.max()), float(positive.min())
    limit = weight_range_limit(positive.size)
    with np.errstate(over="ignore"):
        ratio = largest / smallest
    if ratio <= limit:
        return
    raise param_error(
        "sample_weight", func, f"weights whose range float64 sums can carry: the largest "
        f"positive weight at most {limit:.3g} times the smallest ({positive.size} positive "
        "weights; a smaller one vanishes from their sums, and from every weighted statistic)",
        f"a largest weight of {largest:.3g} and a smallest positive one of {smallest:.3g}, "
        f"{ratio:.3g} times smaller", show=False,
        hint="Give the samples that should not count a weight of 0, or bound the weights "
        f"(the largest at most {limit:.3g} times the smallest).")


def relative_weights(w: np.ndarray) -> np.ndarray:
    """Weights divided by their mean over the positive weights (so that they average 1).

    Sample weights say how much a sample counts relative to the others (reliability or
    inverse-probability weights); their scale carries no information. Dividing by the
    largest weight first keeps weights up to 1.8e308 finite (their sum would overflow);
    the positive weights are then at least 1e-308 / 1.8e308 of the largest, and the
    smallest positive weights may round to zero only when they are below about 1e-308
    times the largest. With this scale the weighted ANOVA's residual degrees of freedom
    are those of weighted least squares (:func:`modelmine.selectors.weighted_f_classif`),
    SVM boxes are C times weights averaging 1, and resampling probabilities sum to 1.
    """
    w = np.asarray(w, dtype=np.float64)
    scaled = w / w.max()
    positive = scaled > 0
    out = scaled / scaled[positive].mean()
    out.flags.writeable = False
    return out
