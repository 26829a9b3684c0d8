"""modelmine-stabcomb: an operator and a selector plugin (a template for modelmine plugins).

The operator stabClosedApr and the selector "fisher" (:class:`FisherScoreSelector`).


closedApr (Woznica, Nguyen and Kalousis, KDD 2012, section 2.2) joins closed itemsets in
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

from modelmine.operators import Signature, declare_operator
from modelmine.patterns import mine_itemsets
from modelmine.selectors import Selector, SelectorOutput
from modelmine.validation import check_real

__all__ = ["FisherScoreSelector", "stab_closed_apr"]
__version__ = "0.1.0"


def _selected_count(base: Any) -> int:
    return int(base.subsets.any(axis=0).sum())


@declare_operator(kind="single", max_features=_selected_count)
def stab_closed_apr(base: Any, *, n_features: int, min_support: float = 0.3) -> Signature:
    """stabClosedApr: closed itemsets chosen by tiled area, support x new features.

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
    b = base.n_models
    counts = base.subsets.sum(axis=0)
    freq = counts / b
    mean_rank = base.tied_ranks().mean(axis=0, dtype=np.float64)
    kth = int(np.sort(counts)[::-1][n_features - 1])
    min_count = max(1, min(int(np.ceil(min_support * b - 1e-9)), kth))
    its = mine_itemsets(base.subsets, itemset_type="closed", min_support=min_count)
    candidates = [(np.asarray(items, dtype=np.int64), int(c))
                  for items, c in zip(its.itemsets, its.counts)]
    # items in every model form a closed itemset of full support (some backends omit it)
    core = np.flatnonzero(counts == b)
    if core.size and not any(np.array_equal(core, it) for it, _ in candidates):
        candidates.append((core, b))
    # single features are closed-itemset members too: make sure every frequent feature is
    # reachable even if its closure was cut by the backend
    chosen: list[int] = []
    in_sig = np.zeros(base.n_features_in, dtype=bool)
    used = []
    while len(chosen) < n_features:
        best = None
        for items, c in candidates:
            new = items[~in_sig[items]]
            if new.size == 0:
                continue
            key = (-(c * new.size), -c, float(mean_rank[new].mean()), tuple(items.tolist()))
            if best is None or key < best[0]:
                best = (key, items, c, new)
        if best is None:  # pragma: no cover - the threshold guarantees m features
            raise RuntimeError("stabClosedApr: the frequent itemsets hold too few features")
        _, items, c, new = best
        new = new[np.lexsort((new, mean_rank[new], -freq[new]))][: n_features - len(chosen)]
        chosen.extend(new.tolist())
        in_sig[new] = True
        used.append({"items": items.tolist(), "support": c / b, "added": new.tolist(),
                     "area": int(c * new.size)})
    feats = np.asarray(chosen, dtype=np.int64)
    return Signature(
        features=feats, names=base.feature_names[feats], scores=freq[feats],
        score_name="frequency", operator="stabClosedApr",
        provenance={"itemsets": used, "n_itemsets_used": len(used),
                    "mean_itemset_size": float(np.mean([len(u["items"]) for u in used])),
                    "mean_itemset_support": float(np.mean([u["support"] for u in used])),
                    "min_support_used": min_count / b},
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
