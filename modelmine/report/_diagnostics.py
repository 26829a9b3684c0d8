"""The diagnostics a run reports, as a table with confidence intervals and reading notes.

Stability of the b base models (how much the selector's choice moves between bootstrap
samples: Kalousis et al. 2007; Kuncheva 2007; Nogueira, Sechidis and Brown, JMLR 2018, with
variance and confidence interval) and diversity of each multi-model operator's alternatives
(Woznica, Nguyen and Kalousis, KDD 2012, section 3, equation 1).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..base_models import BaseModels
from ..diagnostics import (
    diversity,
    jaccard_stability,
    kuncheva_stability,
    nogueira_stability,
    spearman_stability,
)
from ..operators import Signature, SignatureSet

__all__ = ["NOTES", "run_diagnostics"]

#: Plain-language notes on how to read each diagnostic (shown in the report).
NOTES: dict[str, str] = {
    "nogueira": (
        "Stability of the selector across the bootstrap samples, corrected for chance "
        "(Nogueira et al. 2018): 1 = the same features every time, 0 = no better than picking "
        "features at random. Above about 0.75 is excellent, 0.4 to 0.75 intermediate, below "
        "0.4 poor. The interval is where the true value lies with 95 % confidence."),
    "jaccard": (
        "Average overlap of two base models' subsets, |A and B| / |A or B| (Kalousis et al. "
        "2007): 1 = identical subsets, 0 = disjoint. Not corrected for chance, so small "
        "subsets out of many features give small values even for a good selector."),
    "kuncheva": (
        "Kuncheva's consistency index: overlap of equal-size subsets corrected for the "
        "overlap expected by chance; 0 = random, 1 = identical."),
    "spearman": (
        "Average Spearman correlation of the full rankings of all features (Kalousis et al. "
        "2007); it weighs the whole ranking, including the many irrelevant features."),
    "diversity": (
        "Average pairwise Jaccard similarity among the alternative signatures of a "
        "multi-model operator (KDD 2012, eq. 1): low values mean the alternatives use "
        "different features. The paper reports about 0.2 to 0.45 for allMed on leukemia."),
}


def run_diagnostics(base: BaseModels,
                    signatures: Mapping[str, Signature | SignatureSet] | None = None,
                    *, confidence_level: float = 0.95) -> pd.DataFrame:
    """Diagnostics of a run: stability of the base models, diversity of alternatives.

    Parameters
    ----------
    base : BaseModels
    signatures : mapping of str to Signature or SignatureSet, optional
        The operators' outputs by name; each set of 2 or more alternatives gets a
        diversity row.
    confidence_level : float, default=0.95
        Level of the Nogueira interval.

    Returns
    -------
    pandas.DataFrame
        Columns ``scope`` ("base models" or the operator), ``measure``, ``value``,
        ``ci_low``, ``ci_high`` (NaN where the measure has no interval), ``note``.
    """
    rows: list[dict[str, object]] = []
    Z = np.asarray(base.subsets)
    nog = nogueira_stability(Z, confidence_level=confidence_level)
    lo, hi = nog.confidence_interval
    rows.append({"scope": "base models", "measure": "nogueira", "value": nog.value,
                 "ci_low": lo, "ci_high": hi, "note": NOTES["nogueira"]})
    rows.append({"scope": "base models", "measure": "jaccard",
                 "value": jaccard_stability(Z).value, "ci_low": np.nan, "ci_high": np.nan,
                 "note": NOTES["jaccard"]})
    sizes = Z.sum(axis=1)
    if sizes.min() == sizes.max() and 0 < sizes[0] < Z.shape[1]:
        rows.append({"scope": "base models", "measure": "kuncheva",
                     "value": kuncheva_stability(Z).value, "ci_low": np.nan,
                     "ci_high": np.nan, "note": NOTES["kuncheva"]})
    if Z.shape[1] >= 2:
        rows.append({"scope": "base models", "measure": "spearman",
                     "value": spearman_stability(base.tied_ranks()).value, "ci_low": np.nan,
                     "ci_high": np.nan, "note": NOTES["spearman"]})
    for name, result in (signatures or {}).items():
        if isinstance(result, SignatureSet) and len(result) >= 2:
            div = diversity(result)
            rows.append({"scope": name, "measure": "diversity (jaccard)",
                         "value": div.value, "ci_low": np.nan, "ci_high": np.nan,
                         "note": NOTES["diversity"]})
    return pd.DataFrame(rows, columns=["scope", "measure", "value", "ci_low", "ci_high",
                                       "note"])
