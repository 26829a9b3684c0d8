"""modelmine run --pfer / --fdr / --null, checked against the Python API (issue 12)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main

SEED = 4
FAST = ["--selector", "anova", "-b", "12", "-m", "15", "--seed", str(SEED)]


def _main_captured(argv):
    """``main(argv)`` in this process with its stdout and stderr captured (a module
    fixture cannot use capsys): the exit status, what it printed on each."""
    import contextlib
    import io

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main(argv)
    return code, stdout.getvalue(), stderr.getvalue()


@pytest.fixture(scope="module")
def ec_quiet(tmp_path_factory, first_page_left_out):
    """One quiet run with --pfer, --fdr and --null, shared by the tests that read it: its
    directory and what it printed on stdout and stderr (--quiet before the command). The
    page they read is the one the extras write; the finished run's page before it is left
    out."""
    out = tmp_path_factory.mktemp("cli-ec") / "colon-ec"
    with first_page_left_out():
        code, stdout, stderr = _main_captured(
            ["--quiet", "run", "embedded:colon", *FAST, "-o", "closedApr", "--pfer", "1",
             "--fdr", "0.2", "--null", "10", "--out", str(out)])
    assert code == 0, stderr
    return out, stdout, stderr


@pytest.fixture(scope="module")
def ec_dir(ec_quiet):
    return ec_quiet[0]


@pytest.fixture(scope="module")
def loud_run(tmp_path_factory, page_left_out):
    """One run that is not quiet, with --pfer 0.1 (a level the 5 genes of mostFreq do not
    all pass) and --null 10, shared by the tests of what a run prints: its directory and
    what it printed on stdout and stderr (its report's page, which they do not read, left
    out)."""
    out = tmp_path_factory.mktemp("cli-ec-loud") / "run"
    with page_left_out():
        code, stdout, stderr = _main_captured(
            ["run", "embedded:colon", "-s", "anova", "-b", "6", "-m", "5", "--seed",
             str(SEED), "-o", "mostFreq", "--pfer", "0.1", "--null", "10", "--out",
             str(out)])
    assert code == 0, stderr
    return out, stdout, stderr


def test_error_control_run_equals_the_python_api(ec_dir):
    """--pfer / --fdr check the run as asked, beside it (issue 26, item 2): the run keeps
    its bootstrap and its features, and error_control.csv is check_error_control's."""
    X, y, names = mm.datasets.load_colon(return_names=True, class_names=True)
    run = mm.run(X, y, selector="anova", feature_names=names, operators=["closedApr"],
                 n_bootstraps=12, n_features=15, random_state=SEED, progress=False)
    stored = mm.MiningRun.load(ec_dir)
    assert stored.base_models == run.base_models  # the user's experiment, unchanged
    assert list(stored.signatures) == ["closedApr"]
    assert stored.base_models.resampling["method"] == "bootstrap"
    assert "artificial_features" not in stored.settings
    np.testing.assert_array_equal(stored.signatures["closedApr"].features,
                                  run.signatures["closedApr"].features)
    check = mm.evaluation.check_error_control(run, X, y, pfer=1.0, fdr=0.2)
    pd.testing.assert_frame_equal(
        pd.read_csv(ec_dir / "error_control.csv", keep_default_na=False), check.table,
        check_dtype=False)
    beside = mm.MiningRun.load(ec_dir / "error_control")
    assert beside.base_models == check.run.base_models
    assert beside.base_models.resampling["method"] == "complementary-pairs"
    prov = beside.signatures["stabilitySelection"].provenance
    assert prov["pfer_target"] == 1.0 and prov["bound"] == "ss-unimodal"
    assert beside.signatures["stabl"].provenance["fdr_target"] == 0.2
    # each boolean column is the error-controlled signature, gene by gene
    for op in ("stabilitySelection", "stabl"):
        assert set(check.table.feature[check.table[op]]) == set(
            beside.signatures[op].names.tolist())
    genes = set(run.signatures["closedApr"].names.tolist())
    kept = int(check.table[check.table.feature.isin(genes)].stabilitySelection.sum())
    assert check.statements[0].startswith(f"{kept} of the 15 genes of closedApr pass "
                                          "stabilitySelection")
    # the null, as selection_null computes it on the same base models
    null = mm.evaluation.selection_null(
        X,
        y,
        base=run.base_models,
        n_permutations=10,
        itemsets=run.signatures["closedApr"],
        random_state=SEED,
        progress=False,
    )
    table = pd.read_csv(ec_dir / "null.csv", index_col="feature")
    expected = null.to_frame()
    np.testing.assert_allclose(table.loc[expected.index, "p_value"], expected["p_value"])
    assert (ec_dir / "null_itemsets.csv").exists()
    # each gene of each signature carries its p- and q-value (issue 26, item 2)
    sig_table = pd.read_csv(ec_dir / "signatures" / "closedApr.csv")
    for column in ("p_value", "q_value"):
        np.testing.assert_allclose(sig_table[column],
                                   expected[column].reindex(sig_table.feature).to_numpy())
    markers = pd.read_csv(ec_dir / "markers.csv")
    pooled = markers[(markers.signature == "closedApr") & (markers.panel == "pooled")]
    np.testing.assert_allclose(pooled.q_value,
                               expected["q_value"].reindex(pooled.feature).to_numpy())
    html = (ec_dir / "report.html").read_text()
    assert "q value" in html
    # the frequency plot's stars and its caption count the same genes: q <= 0.05
    assert f"Stars: the {int((expected.q_value <= 0.05).sum())} features" in html
    assert "permutation null" in html and "10 permutations" in html
    assert 'id="error-control"' in html and "pass stabilitySelection" in html
    assert "artificial_features" not in json.loads((ec_dir / "run.json").read_text())[
        "settings"]


@pytest.mark.parametrize("quiet", [False, True])
def test_summary_prints_cautions(request, quiet):
    # CAUTION lines go to stderr, and --quiet never hides them (issue 26): the shared quiet
    # run (--pfer 1 --fdr 0.2) and the shared loud one (--pfer 0.1)
    _, out, err = request.getfixturevalue("ec_quiet" if quiet else "loud_run")
    assert "CAUTION:" in err and "pass stabilitySelection" in err
    assert "CAUTION:" not in out
    if quiet:
        assert out == ""
    else:
        assert "error control: " in out  # the statements, also on stdout when not quiet


@pytest.mark.parametrize(
    "extra,message",
    [
        (["-b", "11", "--resampling", "complementary-pairs"],
         "(-b/--n-bootstraps) of run must be an even number"),
        (["--null", "5"], "expected an integer >= 10"),
        (["--fdr", "1.5"], "expected a number in (0, 1)"),
        (["--pfer", "0"], "expected a positive number"),
    ],
)
def test_bad_error_control_options(tmp_path, capsys, extra, message):
    code = main(
        ["run", "embedded:colon", "--selector", "anova", *extra, "--out", str(tmp_path / "r")]
    )
    assert code == 2
    assert message in capsys.readouterr().err


def test_the_null_announces_its_cost_and_logs_its_progress(loud_run):
    """Issue 26, item 2: a time estimate before the null starts, and its progress in
    null.log when the output is not a terminal (as under pytest). The shared loud run."""
    out, _, err = loud_run
    assert "permutation null: 10 permutations x 6 refits of anova, about" in err
    lines = (out / "null.log").read_text().splitlines()
    assert "started, 10 permutations to do" in lines[0]
    assert "done, 10/10 permutations" in lines[-1]
    done = [int(line.split(": ")[1].split("/")[0]) for line in lines[1:-1]]
    assert done == sorted(done) and done[-1] == 10
