"""modelmine-stabcomb: an operator and a selector plugin (a template for modelmine plugins).

The operator stabClosedApr and the selector "fisher" (:class:`FisherScoreSelector`).


closedApr (Woznica, Nguyen and Kalousis, KDD 2012, section 2.1) joins closed itemsets in
order of support alone, so its first itemsets are often single features. stabClosedApr
picks, at each step, the frequent closed itemset that covers the largest *area* of the
base-model matrix with features not yet chosen: ``support x |new features|``, the greedy
tiling criterion of Geerts, Goethals and Mielikainen ("Tiling databases", DS 2004). Groups
of features that are stably selected *together* enter first, which keeps the structure of
the base models that closedApr aims at while preferring large, frequent groups.

Nothing is registered at import: the function is marked with ``declare_operator`` and
listed in the ``modelmine.operators`` entry-point group of this package's pyproject.toml;
the selector class is listed in the ``modelmine.selectors`` group. Parameters are checked
with :mod:`modelmine.validation`, so they fail the way modelmine's own do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from modelmine.operators import Signature, aggregate, declare_operator
from modelmine.selectors import Selector, SelectorOutput
from modelmine.validation import check_real

__all__ = ["FisherScoreSelector", "stab_closed_apr"]
__version__ = "0.1.0"


def _selected_count(base: Any) -> int:
    return int(base.subsets.any(axis=0).sum())


@declare_operator(kind="single", max_features=_selected_count)
def stab_closed_apr(base: Any, *, n_features: int, min_support: float = 0.3) -> Signature:
    """stabClosedApr: closed itemsets chosen by tiled area, support x new features.

    closedApr's ``"area"`` strategy (greedy tiling, Geerts et al. 2004) at a minimum
    support of 0.3 by default: this plugin shows how to build an operator on a built-in
    one through the public API, with a parameter default of its own.

    Parameters
    ----------
    base : modelmine.BaseModels
    n_features : int
        m, the signature size.
    min_support : float in (0, 1], default=0.3
        Mining threshold; lowered to the m-th largest feature frequency when the frequent
        itemsets hold fewer than m features (as closedApr).

    Notes
    -----
    Ties in area: higher support, then lower mean rank of the new features, then
    lexicographic order. The last itemset is cut to its most frequent new features.
    """
    check_real(min_support, "min_support", "stabClosedApr", low=0.0, high=1.0,
               closed="right")
    sig = aggregate(base, "closedApr", n_features=n_features, strategy="area",
                    min_support=float(min_support))
    keep = ("itemsets", "n_itemsets_used", "mean_itemset_size", "mean_itemset_support",
            "min_support_used")
    return Signature(features=sig.features, names=sig.names, scores=sig.scores,
                     score_name=sig.score_name, operator="stabClosedApr",
                     provenance={k: sig.provenance[k] for k in keep},
                     n_features_in=base.n_features_in)


class FisherScoreSelector(Selector):
    """The Fisher score of each feature (Duda, Hart and Stork 2001; Gu, Li and Han 2011).

    ``F_j = sum_c n_c (mu_cj - mu_j)^2 / sum_c n_c sigma_cj^2``: between-class scatter over
    within-class scatter of feature j (population variances); a feature constant within
    every class and across them scores 0. Dense or sparse X, two or more classes.
    """

    name = "fisher"
    kind = "scores"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        X = X.toarray() if hasattr(X, "toarray") else np.asarray(X, dtype=np.float64)
        mu = X.mean(axis=0)
        between = np.zeros(X.shape[1])
        within = np.zeros(X.shape[1])
        for c in np.unique(y):
            Xc = X[y == c]
            between += Xc.shape[0] * (Xc.mean(axis=0) - mu) ** 2
            within += Xc.shape[0] * Xc.var(axis=0)
        scores = np.zeros(X.shape[1])
        np.divide(between, within, out=scores, where=within > 0)
        return SelectorOutput(scores=scores)
