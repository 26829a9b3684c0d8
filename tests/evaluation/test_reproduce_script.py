"""The reproduction script (examples/reproduce_kdd12.py) in its fast CI setting."""

from __future__ import annotations

import re
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from modelmine import BaseModels

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "reproduce_kdd12.py"


@pytest.mark.slow
def test_fast_setting_writes_tables_beside_published_figures(tmp_path):
    """Also the examples' smoke run of this script (tests/examples runs every other
    example): its fast setting is colon with ig, svm-rfe and cfs, and the PKDD'08 runs."""
    out = tmp_path / "kdd12"
    proc = subprocess.run([sys.executable, str(SCRIPT), "--fast", "--n-jobs", "1", "--out",
                           str(out)], check=True, capture_output=True, text=True, timeout=600)
    assert proc.stdout.strip() and "Traceback" not in proc.stderr
    saeys = pd.read_csv(out / "saeys_table2.csv")
    assert len(saeys) > 0 and saeys.notna().any().all()
    table2 = pd.read_csv(out / "table2_microarray.csv", index_col="operator")
    # the paper's nine single-model operators, with their published points beside ours
    assert len(table2) == 9 and "closedApr" in table2.index
    assert table2.paper_error_points["closedApr"] == 5.6
    # averaged points of 9 methods: each selector distributes 9 * 8 / 2 = 36 points, in the
    # comparison with the paper's (default) reading and in the one with the area reading
    assert table2.error_points.sum() == pytest.approx(36, abs=0.05)  # rounded to 0.01
    assert table2.stability_points.sum() == pytest.approx(36, abs=0.05)
    area = table2.area_stability_points.dropna()
    assert set(area.index) == {"closedApr", "maxApr"}
    assert (out / "table2_microarray.md").read_text().startswith("# KDD'12 Table 2")
    # Table 3 from the signatures' provenance: both strategies of both operators
    table3 = pd.read_csv(out / "table3_microarray.csv", index_col="selector")
    folds = pd.read_csv(out / "colon_folds.csv")
    for col in ("closedApr_area_n", "closedApr_literal_size", "maxApr_area_support",
                "closedApr_scanned_n", "maxApr_scanned_support"):
        assert table3[col].notna().all()
    # the paper's count: every itemset scanned down to the stopping support, at least the
    # itemsets that contributed features
    for op in ("closedApr", "maxApr"):
        assert (table3[f"{op}_scanned_n"] >= table3[f"{op}_literal_n"]).all()
    # every itemset used adds at least one new feature to a signature of m = 20 features
    for op in ("closedApr", "maxApr"):
        for strategy in ("area", "literal"):
            assert table3[f"{op}_{strategy}_n"].between(1, 20).all()
            assert (table3[f"{op}_{strategy}_size"] >= 1).all()
            assert table3[f"{op}_{strategy}_support"].between(0, 1).all()
    assert table3.paper_closedApr_n["cfs"] == 164.2
    assert set(folds.selector) == {"ig", "svm-rfe", "cfs"}
    assert set(folds.fold) == {0, 1, 2}
    # CFS chooses its own subset size: its signatures are capped, never an error
    cfs = folds[(folds.selector == "cfs") & (folds.kind == "single")]
    assert (cfs.n_features <= 20).all()
    table4 = pd.read_csv(out / "table4_microarray.csv", index_col=["operator", "selector"])
    assert set(table4.index.get_level_values(0)) == {"allMed", "allClosedApr",
                                                      "allMedClosedApr"}
    # the paired differences (issue 25, item 3): both readings of closedApr / maxApr against
    # mostFreq and every aggregation against nobagg, per selector
    paired = pd.read_csv(out / "paired_differences_microarray.csv")
    assert list(paired.columns) == ["dataset", "selector", "operator", "strategy",
                                    "baseline", "n_samples", "identical_fraction",
                                    "error_difference", "ci_low", "ci_high"]
    against = paired[paired.baseline == "mostFreq"]
    assert set(zip(against.operator, against.strategy)) == {
        ("closedApr", "literal"), ("closedApr", "area"), ("maxApr", "literal"),
        ("maxApr", "area")}
    assert (paired.n_samples == 62).all()
    assert (paired.ci_low <= paired.error_difference).all()
    assert (paired.error_difference <= paired.ci_high).all()
    findings = pd.read_csv(out / "findings.csv")
    assert set(findings.domain) == {"microarray", "all"}
    assert "## microarray" in (out / "findings.md").read_text()
    # the fast run's predictions and itemset counts: Tables 2-3's inputs
    preds = pd.read_csv(out / "colon_predictions.csv")
    assert len(preds) == 62 and preds["sample"].tolist() == list(range(62))
    counts = pd.read_csv(out / "colon_itemsets.csv")
    assert set(counts.strategy) == {"literal", "scanned", "area"}
    # --combine weights each domain by its (dataset, selector) pairs: one domain is itself
    subprocess.run([sys.executable, str(SCRIPT), "--combine", str(out), "--out",
                    str(tmp_path / "all")], check=True, capture_output=True, text=True,
                   timeout=120)
    combined = pd.read_csv(tmp_path / "all" / "table2.csv", index_col="operator")
    pd.testing.assert_frame_equal(combined, table2)


def _run_script(monkeypatch, *args: str) -> None:
    """The script's main() in this process (no interpreter start, no import per run)."""
    monkeypatch.setattr(sys, "argv", [str(SCRIPT), *args])
    runpy.run_path(str(SCRIPT), run_name="__main__")


TINY = ["--domains", "microarray", "--datasets", "colon", "--selectors", "ig", "relieff",
        "--relieff", "weka", "--folds", "3", "--bootstraps", "3", "--classifiers", "svm",
        "--no-saeys", "--n-jobs", "1"]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """The TINY setting run once with a cache and a log, shared by the tests below that
    read its output (the resume test copies the cache and the log before changing them):
    the output directory, the cache and the log."""
    root = tmp_path_factory.mktemp("kdd12-tiny")
    cache, log, out = root / "cache", root / "run.log", root / "first"
    with pytest.MonkeyPatch.context() as monkeypatch:
        _run_script(monkeypatch, *TINY, "--cache", str(cache), "--log", str(log),
                    "--out", str(out))
    return out, cache, log


def test_a_rerun_resumes_from_the_cache_and_refits_only_unfinished_work(tiny_run, tmp_path,
                                                                        monkeypatch):
    """Issue 37: `make reproduce-full` resumes where a killed run stopped. A (selector,
    fold) whose base models were not yet saved is refitted, every finished one is loaded
    (its file untouched), the results are those of the uninterrupted run, and the run log
    gains one more header and one more line per dataset."""
    first, shared_cache, shared_log = tiny_run
    cache, log, second = tmp_path / "cache", tmp_path / "run.log", tmp_path / "second"
    shutil.copytree(shared_cache, cache)  # the shared run's files stay as it wrote them
    shutil.copy2(shared_log, log)
    files = sorted((cache / "colon").glob("*.npz"))
    assert len(files) == 6  # 2 selectors x 3 folds, each saved as it finished
    # the --relieff weka choice reached the selector the base models were fitted with
    relieff = [BaseModels.load(f).selector for f in files if f.name.startswith("relieff")]
    assert all(s["name"] == "relieff" and s["params"]["variant"] == "weka" for s in relieff)
    # a run killed before relieff's fold 1 was saved (saves are atomic: a file is whole
    # or absent)
    lost = next(f for f in files if f.name.startswith("relieff_fold01"))
    lost.unlink()
    kept = {f: f.stat().st_mtime_ns for f in files if f != lost}
    _run_script(monkeypatch, *TINY, "--cache", str(cache), "--log", str(log),
                "--out", str(second))
    t1 = pd.read_csv(first / "colon_tasks.csv")
    t2 = pd.read_csv(second / "colon_tasks.csv")
    assert not t1.cached.any()
    refitted = t2[~t2.cached]
    assert list(zip(refitted.selector, refitted.fold)) == [("relieff", 1)]
    assert all(f.stat().st_mtime_ns == m for f, m in kept.items())  # loaded, not rewritten
    assert lost.exists()
    # bit-identical to the uninterrupted run
    pd.testing.assert_frame_equal(pd.read_csv(first / "colon_folds.csv"),
                                  pd.read_csv(second / "colon_folds.csv"))
    text = log.read_text()
    assert text.count("# run started") == 2 and text.count("# run finished") == 2
    for needle in ("commit: ", "command: ", "--relieff weka", "machine: ", " cores",
                   "memory", "- microarray, colon (62 x 2000)", "0/6 (selector, fold)",
                   "5/6 (selector, fold) tasks from the cache"):
        assert needle in text, needle
    assert re.search(r"colon \(62 x 2000\).*: \d+ s wall", text)


def test_paired_differences_csv_agrees_with_the_per_fold_results(tiny_run, tmp_path,
                                                                 monkeypatch):
    """Issue 37, item 4: paired_differences.csv has the issue's columns (and the baseline
    that tells closedApr - mostFreq from closedApr - nobagg); each difference is the
    difference of the pooled cross-validated errors recomputed from the per-fold errors
    and test sizes, inside its interval, and identical_fraction the share of folds whose
    two signatures hold the same features. The run is the shared TINY one (it fitted
    every task: its cache was only written)."""
    out = tiny_run[0]
    paired = pd.read_csv(out / "paired_differences.csv", keep_default_na=False,
                         na_values=[""])
    assert list(paired.columns) == ["dataset", "selector", "operator", "strategy",
                                    "baseline", "n_samples", "identical_fraction",
                                    "error_difference", "ci_low", "ci_high"]
    against = paired[paired.baseline == "mostFreq"]
    assert set(zip(against.selector, against.operator, against.strategy)) == {
        (s, o, r) for s in ("ig", "relieff") for o in ("closedApr", "maxApr")
        for r in ("literal", "area")}
    aggregations = paired[paired.baseline == "nobagg"]
    assert {"avgRank", "mostFreq", "closedApr", "maxApr"} <= set(aggregations.operator)
    assert (paired.n_samples == 62).all()
    assert (paired.ci_low <= paired.error_difference).all()
    assert (paired.error_difference <= paired.ci_high).all()
    assert paired.identical_fraction.between(0, 1).all()
    folds = pd.read_csv(out / "colon_folds.csv")
    by = {key: g.set_index("fold").sort_index()
          for key, g in folds[folds.classifier == "svm"].groupby(["selector", "operator"])}
    n_test = pd.read_csv(out / "colon_tasks.csv").groupby("fold").n_test.first()
    for row in paired.itertuples():
        op = f"{row.operator}:area" if row.strategy == "area" else row.operator
        a, b = by[(row.selector, op)], by[(row.selector, row.baseline)]
        wrong = ((a.error - b.error) * n_test).sum()
        assert row.error_difference == pytest.approx(wrong / 62, abs=1e-12)
        same = (a.features.str.split().map(frozenset)
                == b.features.str.split().map(frozenset)).mean()
        assert row.identical_fraction == pytest.approx(same)
    # the file of separate runs (--combine) holds the same rows
    _run_script(monkeypatch, "--combine", str(out), "--out", str(tmp_path / "all"))
    pd.testing.assert_frame_equal(
        pd.read_csv(tmp_path / "all" / "paired_differences.csv"),
        pd.read_csv(out / "paired_differences.csv"))


def test_findings_test_every_claim_the_run_can_and_are_recomputed_from_the_files(
        tiny_run, tmp_path, monkeypatch):
    """Issue 49, item 1: the run ends with findings.csv (every claim of the paper's sections
    4.1-4.2 whose selectors, operators and classifiers it ran, per domain), and
    ``--findings`` recomputes it from the run's files alone. Here the run predicts every
    sample, so the error cells are exact: each one's difference is the difference of the
    two operators' cross-validated errors in the per-fold results."""
    out, again = tiny_run[0], tmp_path / "again"  # the shared TINY run
    findings = pd.read_csv(out / "findings.csv")
    kf = runpy.run_path(str(SCRIPT.with_name("kdd12_findings.py")), run_name="kdd12_findings")
    ran = {"ig", "relieff"}
    expected = {c["claim"] for c in kf["CLAIMS"] if set(c["selectors"]) <= ran
                and "1nn" not in c["classifiers"]}
    assert set(findings.claim) == expected
    assert set(findings.domain) == {"microarray", "all"}
    folds = pd.read_csv(out / "colon_folds.csv")
    svm = (folds[folds.classifier == "svm"].set_index(["selector", "operator", "fold"])
           .error.sort_index())
    n_test = pd.read_csv(out / "colon_tasks.csv").groupby("fold").n_test.first()
    row = findings[(findings.domain == "microarray")
                   & (findings.claim == "avgRank has a lower error than nobagg with IG")]
    wrong = ((svm.loc[("ig", "avgRank")] - svm.loc[("ig", "nobagg")]) * n_test).sum()
    assert row.difference.iloc[0] == pytest.approx(wrong / 62, abs=1e-12)
    _run_script(monkeypatch, "--findings", str(out), "--out", str(again))
    pd.testing.assert_frame_equal(findings, pd.read_csv(again / "findings.csv"))


@pytest.mark.parametrize("direction, quantity, diff, p, p_diff, power, expected", [
    ("better", "error", -0.02, 0.001, 0.001, 0.9, "holds"),
    ("better", "error", 0.02, 0.001, 0.001, 0.9, "opposite"),
    ("worse", "error", -0.015, 6e-5, 6e-5, 0.35, "opposite"),
    ("better", "error", -0.002, 0.5, 0.5, 0.85, "refuted"),
    ("better", "error", -0.002, 0.8, 0.8, 0.2, "untestable"),
    ("better", "stability", 0.1, 0.001, 0.001, 0.9, "holds"),
    ("worse", "stability", -0.1, 0.001, 0.001, 0.9, "holds"),
    ("better", "similarity", -0.05, 0.001, 0.001, 0.9, "holds"),
    ("equal", "error", 0.001, 0.01, 0.6, 0.1, "holds"),
    ("equal", "stability", 0.04, 1.0, 1e-11, 0.0, "refuted"),
    ("equal", "error", 0.0, 0.3, 1.0, 0.9, "refuted"),
    ("equal", "error", 0.0, 0.3, 1.0, 0.2, "untestable"),
])
def test_a_claims_verdict_follows_its_tests_and_power(direction, quantity, diff, p, p_diff,
                                                       power, expected):
    """holds / refuted / opposite / untestable (issue 49): significant in the paper's
    direction, significant the other way, not significant at power >= 0.8 (or, for an
    "equal", a significant difference), not significant at lower power."""
    verdict = runpy.run_path(str(SCRIPT.with_name("kdd12_findings.py")),
                             run_name="kdd12_findings")["verdict"]
    assert verdict(direction, quantity, diff, p, p_diff, power) == expected
