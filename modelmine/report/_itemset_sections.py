"""The report's ``#itemsets`` section: the top of the closed-itemset lattice (KDD 2012,
section 2.1), the support distribution, the lattice explorer, and whether the itemsets
beat chance (``#cooccurrence``: curveball randomisations, Gionis et al., TKDD 2007)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..constants import LATTICE_HTML_MAX_ITEMSETS, LATTICE_REPORT_MAX_ITEMSETS
from ..patterns import ItemsetLattice, Itemsets, mine_itemsets
from ..patterns._explorer import explorer_fragment
from ._context import REPORT_FDR, REPORT_RANDOMIZATIONS
from ._format import csv_link, e, img, table
from ._plots import plot_lattice_top, plot_support_distribution

__all__ = ["cooccurrence_verdict", "itemsets"]


def itemsets(page: Any) -> str:
    """``#itemsets``: the lattice's top, the supports, the explorer and the test."""
    mined = page.run.itemsets
    out = ['<h2 id="itemsets">Frequent itemsets of the base models</h2>']
    if mined is None:
        note = page.run.itemsets_note or "The itemsets were not mined for this report."
        return out[0] + f"\n<p>{e(note)}</p>"
    out.append('<div class="note">An itemset is a group of genes selected '
               "<i>together</i>; its support is the fraction of base models containing "
               "the whole group. Closed itemsets are those no superset matches in support; "
               "closedApr builds the consensus signature from those of highest support "
               "(KDD 2012, section 2.1).</div>")
    out.append(img(plot_lattice_top(mined, page.names), "Top of the closed-itemset lattice"))
    out.append(img(plot_support_distribution(mined, n_models=page.base.n_models),
                   "Support distribution of the mined itemsets"))
    top = mined.to_frame() if hasattr(mined, "to_frame") else None
    if top is not None and len(top):
        out.append(f'<p class="dl">{csv_link(top, "itemsets.csv")}</p>')
    test = page.itemset_test
    if page.lattice_explorer:
        # the rings of the co-selection test; else the table given, its lift and q only
        ringed = page.co_selection
        out.append(_explorer(page, mined, ringed if ringed is not None else test))
    if test is not None:
        out.append(_significance(test, computed=not isinstance(page.significance,
                                                               pd.DataFrame)))
    return "\n".join(out)


def cooccurrence_verdict(table_: pd.DataFrame, fdr: float = REPORT_FDR) -> str:
    """One sentence: do the itemsets' supports exceed what the models' sizes and the
    features' selection frequencies explain (issue 25; Gionis et al., TKDD 2007)?"""
    n = len(table_)
    if n == 0:
        return ("No itemset of two or more features reaches the minimum support, so there "
                "is no co-selection structure to test.")
    sig = table_[table_["q_value"] <= fdr]
    lifts = table_["lift"].to_numpy(dtype=np.float64)
    finite = lifts[np.isfinite(lifts)]
    if finite.size == len(lifts):
        lift = f"median lift {float(np.median(finite)):.2f}"
    elif finite.size:
        lift = (f"median lift {float(np.median(finite)):.2f} over the {finite.size:,} whose "
                "items all occur where they were tested")
    else:
        lift = ("no lift: an item of each is absent from the models they were tested on, "
                "so the support expected by chance is 0; more base models (-b) give the "
                "test room")
    if len(sig) == 0:
        return (f"None of the {n:,} itemsets of two or more features is co-selected more "
                f"often than chance at q <= {fdr:g} ({lift}): the features "
                "are selected together about as often as their frequencies predict, so the "
                "itemsets describe frequent features, not groups that go together.")
    return (f"{len(sig):,} of the {n:,} itemsets of two or more features are co-selected "
            f"more often than chance at q <= {fdr:g} ({lift}"
            + (f", largest {float(np.max(finite)):.2f}" if finite.size else "")
            + "): the run's co-selection structure exceeds "
            "what the models' sizes and the features' frequencies explain.")


def _family_sentence(table_: pd.DataFrame) -> str:
    """Which itemsets the q-values are over (``table.attrs`` of itemset_significance)."""
    family = table_.attrs.get("family")
    if family == "split":
        return (f"Tested: the itemsets chosen on a random half of the base models "
                f"({table_.attrs['n_selection']} models: closed itemsets of two or more "
                "features, those furthest above independence there), their supports tested "
                f"on the other half ({table_.attrs['n_test']} models), so that the choice "
                "cannot favour chance co-selection. ")
    if family == "given":
        return ("Tested: the itemsets given, on all the base models (calibrated only if "
                "they were not chosen from these models' co-selection). ")
    return ""


def _significance(table_: pd.DataFrame, *, computed: bool) -> str:
    out = ['<h3 id="cooccurrence">Do the itemsets beat chance?</h3>',
           f"<p><b>{e(cooccurrence_verdict(table_))}</b></p>",
           '<div class="note">Each itemset\'s support is compared with its support in '
           f"{REPORT_RANDOMIZATIONS if computed else 'the'}"
           " randomised selection matrices that keep every base model's size and every "
           "feature's selection frequency (curveball swaps, Gionis et al. 2007; Strona et "
           "al. 2014). Lift: support over the product of the items' frequencies (1 = "
           "independent). q: Benjamini-Hochberg over the itemsets tested "
           "(<code>mm.diagnostics.itemset_significance</code>). "
           f"{e(_family_sentence(table_))}</div>"]
    if len(table_):
        shown = table_[["itemset", "support", "expected_support", "lift", "p_value",
                        "q_value"]].copy()
        shown["itemset"] = shown["itemset"].map(lambda t: ", ".join(map(str, t)))
        out.append(table(shown, max_rows=25, csv="itemset_significance.csv"))
    return "\n".join(out)


def _co_selection_level(test: pd.DataFrame) -> str:
    """The error rate the rings are drawn at, in words (``table.attrs``)."""
    level = float(test.attrs.get("fdr", REPORT_FDR))
    if test.attrs.get("method") == "swap" and test.attrs.get("family") == "all":
        return (f"at a family-wise error rate of {level:g} over every group of up to "
                f"{len(test.attrs.get('critical_p', {})) + 1} features searched in all "
                f"the base models, calibrated by "
                f"{test.attrs.get('n_randomizations')} randomised selection matrices")
    return f"at a false discovery rate of {level:g} over the groups tested"


def _explorer(page: Any, mined: Itemsets, test: pd.DataFrame | None) -> str:
    """The lattice explorer of the report's closed itemsets (those of highest support when
    there are more than LATTICE_REPORT_MAX_ITEMSETS: closed itemsets do not depend on the
    threshold, so mining again at the cut count gives exactly them), the itemsets of the
    co-selection test ``test`` ringed (:func:`modelmine.diagnostics.self_sufficient_itemsets`:
    docs/lattice.md)."""
    if mined.itemset_type != "closed" or mined.max_len is not None:
        return ""
    closed = mined
    note = ""
    if len(closed) > LATTICE_REPORT_MAX_ITEMSETS:
        cut = int(np.sort(closed.counts)[::-1][LATTICE_REPORT_MAX_ITEMSETS]) + 1
        closed = mine_itemsets(page.base, itemset_type="closed", min_support=cut)
        note = (f" It holds the {len(closed):,} closed itemsets of support &ge; "
                f"{cut}/{page.base.n_models} of the {len(mined):,} mined (the report's cap); "
                "<code>modelmine lattice DIR --format html</code> writes a page with up to "
                f"{LATTICE_HTML_MAX_ITEMSETS:,}.")
    lattice = ItemsetLattice(closed)
    signatures = {r.operator: r.result for r in page.results}
    rings = ""
    if test is not None and "self_sufficient" in test.columns:
        rings = (" A solid green ring marks a group of features co-selected beyond every "
                 "split of it into two parts and explained by no larger group; a dashed "
                 "one, a group co-selected but explained by a larger one (the pairs of a "
                 f"co-selected triple), {_co_selection_level(test)} "
                 "(<code>mm.diagnostics.self_sufficient_itemsets</code>, "
                 "docs/diagnostics.md).")
    return ("<h3>Explore the lattice</h3>"
            '<div class="note">Search a feature, filter by support, size or signature, click '
            "an itemset for its base models and signatures, compare two signatures, export "
            f"the selection (docs/lattice.md).{rings}{note}</div>"
            + explorer_fragment(lattice, signatures=signatures, func="build_report",
                                significance=test))
