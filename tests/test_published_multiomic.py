"""The committed multi-omic benchmark (docs/biology.md, "Multi-omic data";
``benchmarks/results/multiomic.csv``): one seed of the l1-logistic setting recomputed (the
base models across both blocks with their two readings, and the small block's own base
models), and the page's table read back from the CSV, so that a change that moves a
published number fails the build (issue 51, item 4)."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
CSV = ROOT / "benchmarks" / "results" / "multiomic.csv"
KEY = ["scenario", "config", "seed", "reading", "block"]


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_multiomic

    return bench_multiomic


def _same(row: dict, committed: pd.Series) -> None:
    for column in ("selected", "true", "false", "planted"):
        assert row[column] == committed[column], column
    for column in ("threshold", "fdp_plus", "planted_frequency", "null_frequency"):
        assert row[column] == pytest.approx(committed[column], abs=1e-9), column
    assert row["features"] == (committed["features"] if isinstance(committed["features"], str)
                               else "")


def test_one_seed_of_the_benchmark_recomputed(bench):
    table = pd.read_csv(CSV).set_index(KEY)
    rows = bench.across("prot-weaker", "l1-logistic", 0)
    rows.append(bench.per_modality("prot-weaker", "l1-logistic", 0, "prot"))
    assert len(rows) == 5
    for row in rows:
        _same(row, table.loc[tuple(row[k] for k in KEY)])


def test_the_pages_table_is_the_csvs_summary(bench):
    """Every figure of the table in docs/biology.md is the benchmark's summary of the CSV
    (the l1-logistic rows, rounded as printed)."""
    text = (ROOT / "docs" / "biology.md").read_text(encoding="utf-8")
    body = text.split("<!-- multiomic-table -->", 2)[1]
    lines = [line for line in body.strip().splitlines() if line.startswith("|")][2:]
    summary = bench.summary(pd.read_csv(CSV)).set_index(["scenario", "config", "reading",
                                                        "block"])
    assert len(lines) == 18
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        scenario, block, reading = cells[:3]
        want = summary.loc[(scenario, "l1-logistic", reading, block)]
        assert cells[3:] == [f"{want.recall:.2f} ± {want.recall_se:.2f}",
                             f"{want.fdr:.2f} ± {want.fdr_se:.2f}",
                             f"{want.missed:.2f}"], line


#: The paired differences the page quotes: (selector, scenario, block, comparison, column,
#: the text), comparison 0 = a threshold per modality minus one threshold (the same base
#: models), 1 = base models per modality minus across (both with a threshold per modality).
QUOTED = [
    ("l1-logistic", "prot-weaker", "prot", 0, "recall", "+0.29 ± 0.04"),
    ("l1-logistic", "prot-weaker", "both", 0, "recall", "0.12 ± 0.02"),
    ("l1-logistic", "prot-stronger", "both", 0, "recall", "0.07 ± 0.02"),
    ("l1-logistic", "prot-weaker", "both", 0, "fdr", "0.15 ± 0.03"),
    ("l1-logistic", "prot-stronger", "both", 1, "recall", "+0.04 ± 0.02"),
    ("l1-logistic", "prot-weaker", "both", 1, "recall", "+0.03 ± 0.02"),
    ("l1-logistic", "prot-stronger", "both", 1, "fdr", "-0.02 ± 0.02"),
    ("l1-logistic", "prot-weaker", "both", 1, "fdr", "-0.03 ± 0.03"),
    ("svm-rfe", "prot-stronger", "both", 1, "recall", "-0.03 ± 0.04"),
    ("svm-rfe", "prot-weaker", "both", 1, "recall", "-0.06 ± 0.05"),
]


def test_the_paired_differences_the_page_quotes(bench):
    text = " ".join((ROOT / "docs" / "biology.md").read_text(encoding="utf-8").split())
    paired = bench.paired(pd.read_csv(CSV)).set_index(["config", "scenario", "block",
                                                       "difference"])
    for config, scenario, block, which, column, quoted in QUOTED:
        assert quoted in text, quoted
        reading, other = bench.COMPARISONS[which]
        row = paired.loc[(config, scenario, block, f"{reading} - {other}")]
        assert f"{row[column]:.2f} ± {row[column + '_se']:.2f}" == quoted.lstrip("+"), quoted
