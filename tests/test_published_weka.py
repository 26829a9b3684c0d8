"""The published "modelmine vs WEKA 3.6" table (``docs/weka.md``) against its committed CSV,
and a cheap slice of it recomputed with WEKA, so that a change that moves a published
number fails the build (issue 24; the CSV: ``benchmarks/bench_weka_information.py``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from weka_oracle import attribute_scores, requires_weka, selected_subset

import modelmine as mm
from modelmine.selectors import get_selector, information_gain, oner_scores

ROOT = Path(__file__).resolve().parents[1]
CSV = ROOT / "benchmarks" / "results" / "weka_information.csv"


def _doc_rows() -> list[list[str]]:
    text = (ROOT / "docs" / "weka.md").read_text()
    section = text.split("## Every column, every shared dataset")[1]
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in section.splitlines() if re.match(r"^\| [a-z]", line)
            and not line.startswith("| dataset")]


def test_the_doc_table_is_the_committed_csv():
    table = pd.read_csv(CSV)
    rows = _doc_rows()
    assert len(rows) == len(table)
    for doc, r in zip(rows, table.itertuples()):
        assert doc[0] == r.dataset and doc[1] == f"{r.n} x {r.p}" and doc[2] == r.selector
        assert doc[4].split()[0] == str(r.differ)
        if r.selector not in ("cfs", "oner"):
            assert doc[6] == str(int(r.differ_n_minus_1))
            assert doc[7] == f"{int(r.top20_n_minus_1)}/20"
        assert doc[8] == f"{r.weka_s:.2f}" and doc[9] == f"{r.ours_s:.3f}"


def _top20(a, b) -> int:
    return len(set(np.argsort(-a, kind="stable")[:20]) & set(np.argsort(-b, kind="stable")[:20]))


@requires_weka
@pytest.mark.slow
def test_colon_rows_recomputed(tmp_path: Path):
    table = pd.read_csv(CSV).set_index(["dataset", "selector"])
    X, y = mm.datasets.load("colon")
    X = np.asarray(X, dtype=np.float64)
    y = np.unique(np.asarray(y), return_inverse=True)[1]
    weka = attribute_scores(tmp_path, X, y, "InfoGainAttributeEval")
    row = table.loc[("colon", "ig")]
    ours, plain = information_gain(X, y), information_gain(X, y, better_encoding=False)
    tol = 1e-12 * np.maximum(1.0, np.abs(weka))
    assert int(np.sum(np.abs(ours - weka) > tol)) == row["differ"]
    assert int(np.sum(np.abs(plain - weka) > tol)) == row["differ_n_minus_1"]
    assert _top20(plain, weka) == row["top20_n_minus_1"]
    weka = attribute_scores(tmp_path, X, y, "OneRAttributeEval")
    assert int(np.sum(oner_scores(X, y) != weka)) == table.loc[("colon", "oner"), "differ"]
    subset = selected_subset(tmp_path, X, y, "CfsSubsetEval",
                             "weka.attributeSelection.BestFirst -D 1 -N 5")
    ours_set = np.flatnonzero(get_selector("cfs").select(X, y, random_state=0).support)
    assert len(subset) == table.loc[("colon", "cfs"), "size_weka"]
    assert ours_set.tolist() == subset


SVM_CSV = ROOT / "benchmarks" / "results" / "svm_scale.csv"


def test_svm_speed_table_is_the_committed_csv_and_its_rankings_recompute():
    """``docs/weka_relieff_svm.md``'s speed table against ``benchmarks/bench_svm_scale.py``'s
    CSV; the times cannot be recomputed, the rankings behind the overlap column can."""
    table = pd.read_csv(SVM_CSV)
    text = (ROOT / "docs" / "weka_relieff_svm.md").read_text()
    for r in table.itertuples():
        line = (f"| {r.case} | {r.n} x {r.p} | {r.scale} | {r.ours_cpu_s:.3f} | "
                f"{r.rfe_svc_cpu_s:.3f} | {r.ratio:.2f} |")
        assert line in text, line
    assert (table["ratio"] > 1).all()  # the bar: never slower than RFE(SVC)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_svm_scale import _cases, _library, _ours

    case, X, y = next(_cases())
    idx = np.random.default_rng(0).choice(y.size, y.size)
    ours, ref = _ours(X[idx], y[idx], "minmax"), _library(X[idx], y[idx], "minmax")
    overlap = len(set(np.argsort(ours, kind="stable")[:20])
                  & set(np.argsort(ref, kind="stable")[:20]))
    expected = table[(table["case"] == case) & (table["scale"] == "minmax")]
    assert overlap == int(expected["top20_overlap"].iloc[0])


CLASSIFIERS_CSV = ROOT / "benchmarks" / "results" / "weka_classifiers.csv"


def test_classifier_table_is_the_committed_csv():
    """``docs/weka_relieff_svm.md``'s table of the protocol's classifiers against WEKA's
    (``benchmarks/bench_weka_classifiers.py``'s per-fold CSV, summed); the predictions it
    counts are recomputed with WEKA by ``tests/evaluation/test_ibk_weka.py`` (a fold set of
    colon) and ``tests/test_published_kdd12.py`` (the committed 1NN predictions)."""
    per_fold = pd.read_csv(CLASSIFIERS_CSV)
    text = (ROOT / "docs" / "weka_relieff_svm.md").read_text()
    sums = per_fold.groupby(["dataset", "m", "classifier"], sort=False)[
        ["n_test", "agree", "errors_ours", "errors_weka", "agree_knn"]].sum(min_count=1)
    assert set(per_fold.dataset) == {"colon", "leukemia", "prostate", "basehock", "pcmac",
                                     "madelon"}
    for (ds, m, clf), r in sums.iterrows():
        eo, ew = r.errors_ours / r.n_test, r.errors_weka / r.n_test
        knn = "" if np.isnan(r.agree_knn) else f"{r.agree_knn / r.n_test:.3f}"
        line = (f"| {ds} | {m} | {clf} | {int(r.n_test)} | {r.agree / r.n_test:.3f} | "
                f"{eo:.3f} | {ew:.3f} | {eo - ew:.3f} | {knn} |")
        assert line in text, line
    one_nn = sums.xs("1nn", level="classifier")
    # what the page says: 1-NN agrees with WEKA on every test sample, the SVM on all but
    # one of madelon's at m = 20
    assert (one_nn.agree == one_nn.n_test).all()
    svm = sums.xs("svm", level="classifier")
    assert int((svm.n_test - svm.agree).sum()) == 1
    assert svm.loc[("madelon", 20)].agree == 2599
    assert int(one_nn.n_test.sum()) == 13544
