"""When a run's results should not be trusted: plain-language warnings with the numbers.

Shown at the top of the HTML report and of ``modelmine run``'s summary:

- the base models' stability (Nogueira, Sechidis and Brown, JMLR 2018) is in the poor band
  (below :data:`POOR_STABILITY`, the band of the report's own reading notes);
- an error-controlled operator (``stabilitySelection``, ``stabl``) lets fewer features
  through than the other signatures hold, or none;
- a permutation null (:func:`modelmine.evaluation.selection_null`) finds features of a
  signature selected no more often than under permuted labels;
- base models whose scores are all equal: their rankings are the column order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..base_models import BaseModels, equal_scores_statement
from ..operators import Signature, SignatureSet

__all__ = ["ERROR_CONTROLLED", "POOR_STABILITY", "UNINFORMATIVE_SHARE", "model_share",
           "stability_note", "trust_warnings"]

#: Below this Nogueira stability the report's notes call the base models "poor".
POOR_STABILITY = 0.4

#: The operators whose signatures carry an error statement.
ERROR_CONTROLLED = ("stabilitySelection", "stabl")


def _nogueira(base: BaseModels, diagnostics: pd.DataFrame | None) -> tuple[float, float, float]:
    if diagnostics is not None:
        rows = diagnostics[
            (diagnostics["measure"] == "nogueira") & (diagnostics["scope"] == "base models")
        ]
        if len(rows):
            r = rows.iloc[0]
            return float(r["value"]), float(r["ci_low"]), float(r["ci_high"])
    from ..diagnostics import nogueira_stability

    res = nogueira_stability(np.asarray(base.subsets))
    return res.value, res.confidence_interval[0], res.confidence_interval[1]


#: Above this share of the p features per base model (mean model size / p) the models
#: agree by construction and Nogueira's stability says little: its reference, the
#: agreement of random subsets of that size, k/p (1 - k/p), tends to 0 as k -> p, and at
#: k = p it is 0/0 (Nogueira, Sechidis and Brown 2018, section 4). A low-dimensional table
#: (8-14 clinical variables at m = 20, capped) is the case.
UNINFORMATIVE_SHARE = 0.5


def model_share(base: BaseModels) -> float:
    """The mean number of features per base model over p (the mean m/p)."""
    subsets = np.asarray(base.subsets)
    return float(subsets.sum(axis=1).mean() / max(subsets.shape[1], 1))


def stability_note(base: BaseModels) -> str | None:
    """Why the Nogueira value of these base models is not informative (each model takes
    most of the p features), or None when it is."""
    share = model_share(base)
    if share < UNINFORMATIVE_SHARE:
        return None
    k = float(np.asarray(base.subsets).sum(axis=1).mean())
    return (f"Stability is not informative here: each base model takes on average "
            f"{k:.3g} of the {base.n_features_in} features (m/p = {share:.2f}), so the "
            "models agree by construction and Nogueira's measure, which compares their "
            "agreement with that of random subsets of the same size, is near 0/0. Choose m "
            "well below p (the default for p < 60 is about p/3) to learn which features "
            "the selector prefers.")


def trust_warnings(
    base: BaseModels,
    signatures: Mapping[str, Signature | SignatureSet] | None = None,
    *,
    diagnostics: pd.DataFrame | None = None,
    null: Any = None,
    alpha: float = 0.05,
) -> list[str]:
    """Warnings, in plain words with their numbers, on what not to trust in a run.

    Parameters
    ----------
    base : BaseModels
    signatures : mapping of operator name to Signature or SignatureSet, optional
    diagnostics : DataFrame, optional
        :func:`modelmine.report.run_diagnostics` (its Nogueira row is reused).
    null : SelectionNullResult, optional
        A permutation null of these base models.
    alpha : float, default=0.05
        The q-value level for the null.

    Returns
    -------
    list of str
        Empty when nothing calls for caution.
    """
    out: list[str] = []
    sigs = dict(signatures or {})
    tied = equal_scores_statement(base)
    if tied is not None:  # rankings by column order (issue 50)
        out.append(tied)
    value, lo, hi = _nogueira(base, diagnostics)
    note = stability_note(base)
    if note is not None:  # a "poor stability" caution would be an artefact of m close to p
        out.append(note)
    elif np.isfinite(value) and value < POOR_STABILITY:
        out.append(
            f"The base models are unstable: Nogueira stability {value:.2f} (95% CI "
            f"{lo:.2f} to {hi:.2f}) is in the poor band (below {POOR_STABILITY}). The "
            f"selector picks different features on different samples, so any signature "
            "below may hold features a random selector would also pick; check them against "
            "an error-controlled operator (stabilitySelection, stabl) or a permutation null."
        )
    sizes = [
        len(s) for n, s in sigs.items() if isinstance(s, Signature) and n not in ERROR_CONTROLLED
    ]
    largest = max(sizes, default=0)
    for name in ERROR_CONTROLLED:
        sig = sigs.get(name)
        if not isinstance(sig, Signature):
            continue
        prov = sig.provenance
        if name == "stabilitySelection":
            control = (
                f"selection frequency at least {prov.get('threshold'):.2f}, expected "
                f"false selections at most {prov.get('pfer_bound'):.2g}"
                if prov.get("threshold") is not None and prov.get("pfer_bound") is not None
                else f"PFER {prov.get('pfer_target')}"
            )
        else:
            control = (
                f"frequency above {prov.get('threshold'):.2f}, estimated FDP+ "
                f"{prov.get('fdp_plus'):.2g}"
            )
        if len(sig) == 0:
            out.append(
                f"No feature passes {name}'s error control ({control}): at this "
                "error level nothing in these base models is distinguishable from "
                "noise."
                + (
                    f" The other signatures' {largest} features are not backed by it."
                    if largest
                    else ""
                )
            )
        elif len(sig) < largest:
            out.append(
                f"Only {len(sig)} feature(s) pass {name}'s error control ({control}), "
                f"while the other signatures hold {largest}: the remaining "
                f"{largest - len(sig)} are not distinguishable from noise at that "
                "error level."
            )
    if null is not None:
        significant = set(np.flatnonzero(np.asarray(null.q_values) <= alpha).tolist())
        for name, sig in sigs.items():
            if not isinstance(sig, Signature) or len(sig) == 0:
                continue
            weak = [int(f) for f in sig.features if int(f) not in significant]
            if weak:
                out.append(
                    f"{len(weak)} of the {len(sig)} features of {name} are not "
                    f"selected more often than under permuted labels (q > {alpha:g}, "
                    f"{null.n_permutations} permutations)."
                )
    return out
