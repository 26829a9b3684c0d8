"""Error-controlled operators: stability selection with a PFER bound, and Stabl's FDP+.

- ``stabilitySelection``: Meinshausen and Buehlmann (2010, JRSS-B 72, section 3) with the
  error bounds of Meinshausen and Buehlmann (Theorem 1) and Shah and Samworth (2013,
  JRSS-B 75, section 3), as the R package stabs computes them (:mod:`._bounds`).
- ``stabl``: Hedou et al. (2024, Nature Biotechnology 42, "Discovery of sparse, reliable
  omic biomarkers with Stabl", Methods): the frequency threshold minimising the estimated
  false discovery proportion FDP+ computed from artificial features, as the Stabl package
  computes it (``stabl/stabl.py``, ``_compute_FDPplus``).

Both may return fewer features than asked, or none: the error control decides the size.
A cap (``n_features``) keeps the most frequent of the features that pass, which keeps the
guarantee (a subset of a controlled selection is controlled).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base_models import BaseModels
from ..exceptions import NotApplicableError
from ..spec import error_bounds_for
from ..validation import check_choice, check_real, param_error
from ._bounds import BOUND_METHODS, pfer_bound, threshold_for_pfer
from ._common import feature_order, signature
from ._registry import declare_operator
from ._signature import Signature

__all__ = ["STABL_GRID", "bound_for", "fdp_plus", "stability_selection", "stabl"]

_FUNC = "aggregate"

#: The thresholds Stabl tries (its default ``fdr_threshold_range = np.arange(0, 1, .01)``).
STABL_GRID = np.arange(0.0, 1.0, 0.01)


def _resampling(base: BaseModels) -> tuple[str, float, int | None]:
    """The models' resampling scheme, fraction and pairs (their spec)."""
    spec = base.spec
    method = str(spec.resampling)
    n_pairs = spec.n_bootstraps // 2 if method == "complementary-pairs" else None
    return method, float(spec.sample_fraction or math.nan), n_pairs


def bound_for(base: BaseModels, bound: str = "auto", *, func: str = _FUNC) -> str:
    """The PFER bound that applies to these base models, or a clear error.

    ``"auto"``: ``"ss-unimodal"`` for complementary pairs (stabs' default assumption),
    ``"mb"`` for subsamples of half the samples. The MB bound needs subsamples of n/2 or
    complementary pairs; the Shah-Samworth bounds need complementary pairs (their proof
    uses the pairs' disjoint halves). Bootstrap resamples (with replacement) are covered
    by none of them.

    Raises
    ------
    NotApplicableError
        The chosen bound does not cover the base models' resampling (a ``ValueError``
        naming ``bound`` or ``resampling`` and the accepted values).
    """
    choice = check_choice(bound, "bound", func, ("auto", *BOUND_METHODS))
    method, fraction, _ = _resampling(base)
    covered = error_bounds_for(method, fraction)
    if choice == "auto":
        if covered:  # stabs' default assumption for pairs, MB for half subsamples
            return "ss-unimodal" if "ss-unimodal" in covered else "mb"
        raise param_error(
            "resampling",
            func,
            "'complementary-pairs' or 'subsample' with "
            "sample_fraction=0.5 in bootstrap() for an error bound (Meinshausen and "
            "Buehlmann 2010; Shah and Samworth 2013)",
            f"{method!r} with sample_fraction={fraction:g}",
            show=False,
            exc=NotApplicableError,
        )
    if choice == "mb" and choice not in covered:
        raise param_error(
            "bound",
            func,
            "'mb' only for base models from subsamples of half the samples "
            "(resampling='subsample', sample_fraction=0.5) or complementary pairs",
            f"'mb' on {method!r} resamples with sample_fraction={fraction:g}",
            show=False,
            exc=NotApplicableError,
        )
    if choice not in covered:
        raise param_error(
            "bound",
            func,
            f"{choice!r} only for base models from "
            "resampling='complementary-pairs' (Shah and Samworth 2013); accepted for "
            f"these {method!r} base models: " + ("'mb' or 'auto'" if covered else "none"),
            f"{choice!r} on {method!r} resamples",
            show=False,
            exc=NotApplicableError,
        )
    return choice


def _cap(
    base: BaseModels, passing: np.ndarray, freq: np.ndarray, n_features: int | None
) -> np.ndarray:
    order = feature_order(freq, base, descending=True, candidates=passing)
    return order if n_features is None else order[:n_features]


@declare_operator(
    "stabilitySelection", kind="single", variable_size=True, requires=("error-control",)
)
def stability_selection(
    base: BaseModels,
    *,
    n_features: int | None = None,
    pfer: float | None = None,
    threshold: float | None = None,
    bound: str = "auto",
) -> Signature:
    """stabilitySelection: features selected by at least a fraction pi of the base models,
    with a bound on the expected number of false selections (PFER).

    Meinshausen and Buehlmann (2010, section 3) select the features whose selection
    frequency over subsamples of n/2 reaches pi; Theorem 1 bounds the expected number of
    selected noise features by ``q^2 / ((2 pi - 1) p)``, q = the mean number of features a
    base model selects, p = the number of (real) features. Shah and Samworth (2013)
    tighten it for complementary pairs under unimodality or r-concavity. pi is given
    (``threshold``) or derived from a target PFER (``pfer``) by
    :func:`modelmine.operators.threshold_for_pfer`.

    The signature holds every feature that passes (most frequent first), capped at
    ``n_features`` when given; it may hold fewer, or none, which the provenance states.

    Parameters
    ----------
    pfer : float > 0, optional
        Target expected number of false selections (default 1 when ``threshold`` is not
        given).
    threshold : float in (0.5, 1], optional
        pi, given directly; the provenance then holds the PFER bound it guarantees.
    bound : {"auto", "mb", "ss-unimodal", "ss-r-concave"}, default="auto"
        The error bound (see :func:`bound_for`).

    Scores: the selection frequency. Provenance: ``threshold``, ``q``, ``p``, ``bound``,
    ``pfer_bound`` (what the selection guarantees), ``pfer_target``, ``assumptions``,
    ``n_passing`` (features at or above pi) and ``statement`` (in words).
    """
    if pfer is not None and threshold is not None:
        raise param_error(
            "threshold",
            "stabilitySelection",
            "None when 'pfer' is given (give one of pfer and threshold)",
            threshold,
        )
    target = (
        None
        if pfer is None
        else check_real(pfer, "pfer", "stabilitySelection", low=0.0, closed="neither")
    )
    which = bound_for(base, bound)
    method, _, n_pairs = _resampling(base)
    p = base.n_features_in
    q = float(base.subset_sizes().mean())
    pairs = {} if n_pairs is None or which == "mb" else {"n_pairs": n_pairs}
    if threshold is not None:
        closed = "both" if which == "ss-r-concave" else "right"
        pi = check_real(
            threshold, "threshold", "stabilitySelection", low=0.5, high=1.0, closed=closed
        )
    else:
        target = 1.0 if target is None else target
        pi = (
            threshold_for_pfer(pfer=target, q=q, p=p, method=which, **pairs)
            if q > 0
            else 0.5 + 1e-12
        )
    freq = base.subsets.mean(axis=0)
    value: float | None
    if q <= 0:
        value, reason = 0.0, "no base model selects any feature"
    elif math.isinf(pi):
        value, reason = (
            None,
            (
                f"no threshold up to 1 keeps the {which} bound within "
                f"PFER {target:g} with q = {q:.3g} of p = {p} features"
            ),
        )
    else:
        try:
            value = pfer_bound(threshold=pi, q=q, p=p, method=which, **pairs)
        except ValueError as exc:
            raise NotApplicableError(
                f"stabilitySelection: the {which} bound does not apply to these base models ({exc})"
            ) from None
        reason = ""
    passing = (
        np.flatnonzero(freq >= pi - 1e-9) if math.isfinite(pi) else np.array([], dtype=np.int64)
    )
    feats = _cap(base, passing, freq, n_features)
    info = BOUND_METHODS[which]
    if reason:
        statement = f"No feature selected: {reason}."
    elif passing.size == 0:
        statement = (f"No feature selected: none reaches a selection frequency of {pi:.3g}, "
                     f"the threshold at which the {which} bound guarantees at most "
                     f"{value:.3g} false selection(s) in expectation.")
    else:
        statement = (
            f"{passing.size} feature(s) reach a selection frequency of "
            f"{pi:.3g}; the {which} bound guarantees at most {value:.3g} false "
            f"selection(s) in expectation ({info['reference']}), assuming "
            f"{info['assumptions']}."
        )
        if n_features is not None and passing.size > n_features:
            statement += f" Capped at the {n_features} most frequent."
    prov: dict[str, Any] = {
        "threshold": None if math.isinf(pi) else float(pi),
        "q": q,
        "p": p,
        "bound": which,
        "bound_reference": info["reference"],
        "assumptions": info["assumptions"],
        "pfer_target": target,
        "pfer_bound": value,
        "resampling": method,
        "n_pairs": pairs.get("n_pairs"),
        "n_passing": int(passing.size),
        "statement": statement,
    }
    return signature(
        base,
        feats,
        scores=freq[feats],
        score_name="frequency",
        operator="stabilitySelection",
        provenance=prov,
    )


def fdp_plus(
    real_frequencies: Any, artificial_frequencies: Any, thresholds: Any = None
) -> np.ndarray:
    """Stabl's FDP+ estimate at each threshold t (Hedou et al. 2024, Methods).

    ``FDP+(t) = (#{artificial j: f_j > t} / r + 1) / max(1, #{real j: f_j > t})`` with
    r = (number of artificial features) / (number of real features), Stabl's
    ``artificial_proportion``; strict inequalities as in Stabl's ``_compute_FDPplus``.

    Parameters
    ----------
    real_frequencies, artificial_frequencies : array-like of float
        Selection frequencies of the real and of the artificial features.
    thresholds : array-like of float, optional
        Default :data:`STABL_GRID` (0, 0.01, ..., 0.99).

    Returns
    -------
    ndarray
        FDP+ at each threshold.
    """
    real = np.asarray(real_frequencies, dtype=np.float64)
    art = np.asarray(artificial_frequencies, dtype=np.float64)
    grid = STABL_GRID if thresholds is None else np.asarray(thresholds, dtype=np.float64)
    ratio = art.size / real.size
    n_art = (art[None, :] > grid[:, None]).sum(axis=1)
    n_real = (real[None, :] > grid[:, None]).sum(axis=1)
    return (n_art / ratio + 1.0) / np.maximum(1, n_real)


def _stabl_threshold(freq: np.ndarray, art: np.ndarray, target: float | None
                     ) -> tuple[float, float, np.ndarray, int]:
    """Stabl's rule on one block of features: (threshold, FDP+ at it, the passing real
    features' positions, the grid index of the minimum)."""
    fdp = fdp_plus(freq, art)
    best = int(np.argmin(fdp))
    estimate = float(fdp[best])
    if estimate > (1.0 if target is None else target):
        return 1.0, estimate, np.array([], dtype=np.int64), best
    threshold = float(STABL_GRID[best])
    return threshold, estimate, np.flatnonzero(freq > threshold), best


@declare_operator("stabl", kind="single", variable_size=True, requires=("artificial-features",))
def stabl(
    base: BaseModels, *, n_features: int | None = None, fdr: float | None = None,
    per_modality: bool | None = None,
) -> Signature:
    """stabl: the features whose frequency exceeds the threshold minimising Stabl's FDP+.

    Hedou et al. (2024, Methods): artificial features (permuted copies or knockoffs of
    the real ones) go through the same resampling and selection; FDP+(t) (:func:`fdp_plus`)
    estimates the false discovery proportion of the features selected more often than t,
    and the reliability threshold is the t of the grid 0, 0.01, ..., 0.99 minimising it.
    As in Stabl, when the minimum exceeds 1 nothing is selected.

    Multi-omic base models (:attr:`BaseModels.modalities`) get one threshold per modality
    (Hedou et al. 2024, "Multi-omic" Methods, as the Stabl package's
    ``multi_omic_stabl``: each omic has its own reliability threshold and the features
    passing them are merged): FDP+ is computed on each modality's real features and their
    own artificial copies (the copy of feature j belongs to j's modality), so that a small
    block is not held to the threshold a large block's decoys set. On a simulated two-block
    design (``benchmarks/bench_multiomic.py``; ``docs/biology.md``, "Multi-omic data") it
    found the planted features of a small block with a weaker signal about twice as often
    as one threshold did, at a higher false discovery rate, which each block's own FDP+
    states.

    Parameters
    ----------
    fdr : float in (0, 1), optional
        A target: when FDP+ at the chosen threshold exceeds it, nothing is selected (the
        target cannot be met with these base models); per modality, for that modality.
        None keeps Stabl's own rule.
    per_modality : bool, optional
        One threshold per modality (default, None: when the base models have two or more
        modalities) or one over all the features (False).

    Needs base models built with ``bootstrap(..., artificial_features=...)``. Scores: the
    selection frequency. Provenance: ``threshold``, ``fdp_plus`` (the estimate at the
    threshold), ``fdr_target``, ``n_passing``, ``statement``; per modality,
    ``modalities``: each modality's ``threshold``, ``fdp_plus``, ``n_passing``,
    ``n_features`` (``threshold`` and ``fdp_plus`` are then the largest of them).
    """
    target = (
        None
        if fdr is None
        else check_real(fdr, "fdr", "stabl", low=0.0, high=1.0, closed="neither")
    )
    if per_modality is not None and not isinstance(per_modality, bool | np.bool_):
        raise param_error("per_modality", "stabl", "a bool or None", per_modality,
                          exc=TypeError)
    if base.artificial_subsets is None:
        raise NotApplicableError(
            "The operator 'stabl' needs artificial features: build the base models with "
            "bootstrap(..., artificial_features='permutation') (or 'knockoff')."
        )
    freq = base.subsets.mean(axis=0)
    art = base.artificial_frequencies()
    blocks = base.modalities
    split = len(blocks) >= 2 if per_modality is None else bool(per_modality)
    if split and len(blocks) < 2:
        raise param_error("per_modality", "stabl", "False or None for base models of one "
                          "block (multi-omic data: a MuData or a mapping of tables)", True,
                          exc=NotApplicableError)
    if split and art.size != freq.size:
        raise NotApplicableError(
            f"stabl per modality needs one artificial copy per feature; these base models "
            f"have {art.size} artificial features for {freq.size} real ones.")
    limit = "1 (Stabl's rule)." if target is None else f"the target {target:g}."
    per_block: dict[str, Any] = {}
    if split:
        modality = base.feature_modalities()
        passing_parts, sentences = [], []
        for name, _ in blocks:
            cols = np.flatnonzero(modality == name)
            t, estimate, passing, best = _stabl_threshold(freq[cols], art[cols], target)
            passing_parts.append(cols[passing])
            per_block[name] = {"threshold": t, "fdp_plus": estimate,
                               "n_passing": int(passing.size), "n_features": int(cols.size),
                               "artificial_max_frequency": float(art[cols].max())}
            sentences.append(
                f"{name}: {passing.size} of {cols.size} above {t:.2f} (FDP+ {estimate:.3g})"
                if passing.size or estimate <= (1.0 if target is None else target) else
                f"{name}: none (lowest FDP+ {estimate:.3g} at {STABL_GRID[best]:.2f}, above "
                + limit[:-1] + ")")
        passing = np.sort(np.concatenate(passing_parts))
        threshold = max(v["threshold"] for v in per_block.values())
        estimate = max(v["fdp_plus"] for v in per_block.values())
        statement = (f"{passing.size} feature(s) pass the threshold of their modality, "
                     f"each minimising FDP+ on its own features and artificial copies "
                     f"(Hedou et al. 2024, multi-omic): " + "; ".join(sentences) + ".")
    else:
        threshold, estimate, passing, best = _stabl_threshold(freq, art, target)
        if passing.size == 0 and estimate > (1.0 if target is None else target):
            statement = (
                f"No feature selected: the lowest FDP+ estimate is {estimate:.3g} "
                f"(at threshold {STABL_GRID[best]:.2f}), above " + limit
            )
        else:
            statement = (
                f"{passing.size} feature(s) are selected more often than "
                f"{threshold:.2f}, the threshold minimising FDP+; estimated false "
                f"discovery proportion {estimate:.3g} (Hedou et al. 2024), from "
                f"{art.size} {base.spec.artificial_features or 'artificial'} features."
            )
    if n_features is not None and passing.size > n_features:
        statement += f" Capped at the {n_features} most frequent."
    feats = _cap(base, passing, freq, n_features)
    prov: dict[str, Any] = {
        "threshold": threshold,
        "fdp_plus": estimate,
        "fdr_target": target,
        "n_passing": int(passing.size),
        "n_artificial": int(art.size),
        "artificial": base.spec.artificial_features or "unknown",
        "artificial_max_frequency": float(art.max()) if art.size else 0.0,
        "statement": statement,
    }
    if split:
        prov["modalities"] = per_block
    return signature(
        base, feats, scores=freq[feats], score_name="frequency", operator="stabl", provenance=prov
    )
