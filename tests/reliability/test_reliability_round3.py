"""Hardening, round three (issue 30): each defect reproduced as the report describes it,
then fixed at its root, and the class of defect swept (every file a run directory holds,
every stored number at the limits of its type)."""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest
from reliability_helpers import FAST, bad, copy_tree, figures

import modelmine as mm
from modelmine._files import directory_lock
from modelmine.cli import main
from modelmine.exceptions import DataError

#: Every file a finished run directory holds that modelmine reads back.
RUN_FILES = ("run.json", "base_models.npz", "signatures.json", "diagnostics.json",
             "expression.csv.gz")


# ------------------------------------------------------------------ 1. the lock and links
def test_the_lock_never_writes_through_a_symlink(tmp_path, capsys, data_csv):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / ".out.lock").symlink_to(victim)
    bad(["run", data_csv, "-t", "y", *FAST, "--out", tmp_path / "out"], capsys,
        "is a symbolic link")
    assert victim.read_text() == "precious\n"
    with pytest.raises(DataError, match="symbolic link"), directory_lock(tmp_path / "out"):
        pass
    assert victim.read_text() == "precious\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_lock_file_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / ".out.lock")
    with pytest.raises(DataError, match="not a regular file"), \
            directory_lock(tmp_path / "out"):
        pass


def test_a_symlinked_partial_directory_is_refused_and_kept(tmp_path, capsys, data_csv):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine")
    (tmp_path / ".out.partial").symlink_to(elsewhere, target_is_directory=True)
    bad(["run", data_csv, "-t", "y", *FAST, "--out", tmp_path / "out"], capsys,
        "is a symbolic link")
    assert (elsewhere / "keep.txt").read_text() == "mine"
    X, y = np.random.default_rng(0).normal(size=(20, 5)), np.arange(20) % 2
    (tmp_path / "api-link").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(mm.exceptions.RunStateError, match="symbolic link"):
        mm.run(X, y, selector="anova", n_bootstraps=4, n_features=2,
               run_dir=tmp_path / "api-link")


# ------------------------------------------------- 5, 6. special files and links in a run
@pytest.mark.parametrize("name", RUN_FILES)
def test_a_linked_file_in_a_run_directory_is_refused(tmp_path, finished_run, name):
    run = copy_tree(finished_run, tmp_path / "run")
    outside = tmp_path / f"outside-{name}"
    shutil.move(run / name, outside)
    (run / name).symlink_to(outside)
    with pytest.raises(DataError, match="symbolic link"):
        mm.MiningRun.load(run)


@pytest.mark.parametrize("name", RUN_FILES)
def test_a_device_in_a_run_directory_is_refused(tmp_path, finished_run, name):
    """run.json linked to /dev/zero read until memory ran out: a link is refused first,
    and a special file in its place is refused without reading it."""
    run = copy_tree(finished_run, tmp_path / "run")
    (run / name).unlink()
    (run / name).symlink_to("/dev/zero")
    with pytest.raises(DataError, match="symbolic link"):
        mm.MiningRun.load(run)
    if hasattr(os, "mkfifo"):
        (run / name).unlink()
        os.mkfifo(run / name)
        with pytest.raises(DataError, match="not a regular file"):
            mm.MiningRun.load(run)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_checkpoint_does_not_hang_resume(tmp_path, capsys, interrupted_run):
    partial = copy_tree(interrupted_run, tmp_path / ".run.partial")
    (partial / "checkpoint.json").unlink()
    os.mkfifo(partial / "checkpoint.json")
    code = main(["run", "--resume", str(tmp_path / "run"), "-q"])
    assert code == 2
    assert "not a regular file" in capsys.readouterr().err


# ------------------------------------------------------------ 7. integers beyond limits
@pytest.mark.parametrize("name", ["run.json", "signatures.json", "diagnostics.json"])
def test_an_integer_of_5000_digits_names_the_file(tmp_path, finished_run, name):
    run = copy_tree(finished_run, tmp_path / "run")
    text = (run / name).read_text()
    (run / name).write_text(text.replace("{", "{\"huge\": " + "9" * 5000 + ", ", 1))
    with pytest.raises(DataError, match=rf"{name}.* is not valid JSON"):
        mm.MiningRun.load(run)


def test_an_integer_of_5000_digits_in_the_manifest_names_it(tmp_path):
    X, y = np.random.default_rng(0).normal(size=(20, 5)), np.arange(20) % 2
    run = tmp_path / "boot"
    mm.bootstrap(X, y, selector="anova", n_bootstraps=4, n_features=2, run_dir=run)
    manifest = run / "manifest.json"
    manifest.write_text(manifest.read_text().replace("{", "{\"huge\": " + "9" * 5000 + ", ",
                                                     1))
    with pytest.raises(mm.base_models.RunDirectoryError, match="manifest"):
        mm.base_models.RunDirectory.read_manifest(run)


def test_the_cli_names_the_file_of_a_huge_integer(tmp_path, capsys, finished_run):
    run = copy_tree(finished_run, tmp_path / "run")
    text = json.loads((run / "run.json").read_text())
    raw = json.dumps(text).replace("{", "{\"huge\": " + "9" * 5000 + ", ", 1)
    (run / "run.json").write_text(raw)
    bad(["report", str(run), "--out", str(tmp_path / "r.html")], capsys, "run.json",
        "not valid JSON")


def test_int_digit_limit_is_what_python_enforces():
    """The independent truth behind the tests above: Python refuses to parse such an
    integer (a ValueError that is not a JSONDecodeError)."""
    with pytest.raises(ValueError) as info:
        json.loads("9" * 5000)
    assert not isinstance(info.value, json.JSONDecodeError)


# --------------------------------------------------- 2. repeated sample IDs and --labels
def test_repeated_obs_names_with_labels_are_refused(tmp_path, capsys):
    """The report's case: obs_names S0, S0, S2, ... and a label file S0 -> normal,
    S1 -> tumor: the second row (really S1) was labelled normal, silently."""
    anndata = pytest.importorskip("anndata")
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 20
    names = [f"S{i}" for i in range(n)]
    names[1] = "S0"
    import warnings

    with warnings.catch_warnings():  # anndata says obs_names are not unique
        warnings.simplefilter("ignore", UserWarning)
        adata = anndata.AnnData(rng.normal(size=(n, 6)).astype(np.float32),
                                obs=pd.DataFrame(index=names))
        path = tmp_path / "cells.h5ad"
        adata.write_h5ad(path)
    labels = tmp_path / "labels.csv"
    pd.DataFrame({"sample": [f"S{i}" for i in range(n)],
                  "class": ["normal", "tumor"] * (n // 2)}).to_csv(labels, index=False)
    bad(["run", str(path), "--labels", str(labels), *FAST, "--out", str(tmp_path / "o")],
        capsys, "repeats sample IDs", "S0")
    with pytest.raises(DataError, match="repeats sample IDs"):
        mm.datasets.read_data(path, labels=labels)


# ------------------------------------------------------------ 3. names are data, not TeX
def _dollar_csv(tmp_path, names):
    import pandas as pd

    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(30, len(names))), columns=names)
    frame["y"] = np.arange(30) % 2
    frame.iloc[:, 0] += frame["y"] * 2
    path = tmp_path / "dollars.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("drawn", [
    False, pytest.param(True, marks=[pytest.mark.slow, pytest.mark.rendered])])
def test_dollar_signs_in_feature_names_are_drawn_as_they_are(tmp_path, capsys, monkeypatch,
                                                             drawn):
    """g{i}$^$ made matplotlib's mathtext fail after all the bootstraps (and every
    --resume); a$_b$c was drawn garbled. Every figure is built with parse_math off: each
    figure the run's report saves shows its names with parse_math off, and the
    selection-frequency figure and the lattice are drawn. The report's figures are built
    here, drawn in the slow twin (drawn=True: what raised)."""
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    names = [f"g{i}$^$" for i in range(11)] + ["a$_b$c"]
    data = _dollar_csv(tmp_path, names)
    saved, savefig = [], Figure.savefig

    def keep(self, *args, **kwargs):
        saved.append([t for t in self.findobj(Text) if "$" in t.get_text()
                      and t.get_visible()])  # drawing makes hidden tick labels too
        return savefig(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    assert main(["run", str(data), "-t", "y", *FAST, "--out", str(tmp_path / "o")]) == 0
    monkeypatch.setattr(Figure, "savefig", savefig)
    assert (tmp_path / "o" / "report.html").stat().st_size > 0
    shown = [t for texts in saved for t in texts]
    assert {t.get_text() for t in shown} & set(names)
    assert all(not t.get_parse_math() for t in shown)
    from modelmine.report import plot_selection_frequency

    run = mm.MiningRun.load(tmp_path / "o")
    fig = plot_selection_frequency(run.base_models)
    texts = [t for ax in fig.axes for t in ax.get_yticklabels() + ax.get_xticklabels()]
    shown = {t.get_text() for t in texts}
    assert shown & set(names) and all(not t.get_parse_math() for t in texts)
    fig.canvas.draw()  # mathtext would raise here on g0$^$
    with figures(drawn=True):
        run.lattice().draw(tmp_path / "lattice.png")
    assert (tmp_path / "lattice.png").stat().st_size > 0


# ------------------------------------------ 8. every stored number at the limits of its type
_LIMITS = ["Infinity", "-Infinity", "NaN", "1e308", "-1e308", "9" * 5000, "-1", "0",
           "18446744073709551616"]


def _numeric_paths(value, path=()):
    """Paths to the numeric leaves of a JSON value."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _numeric_paths(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _numeric_paths(inner, (*path, i))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield path


def _with_token(record, path, token):
    """The JSON text of ``record`` with the number at ``path`` replaced by ``token``."""
    marker = "\u0000MARK\u0000"
    copy = json.loads(json.dumps(record))
    inner = copy
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = marker
    return json.dumps(copy).replace(json.dumps(marker), token)


def _limit_cases(paths: list, *, full: bool) -> list:
    """(path, token) pairs of the sweep: every path with every limit (full), or a seeded
    slice in which each limit is put in two numeric fields drawn at random."""
    if full:
        return [(path, token) for path in paths for token in _LIMITS]
    rng = np.random.default_rng(8)
    return [(paths[int(i)], token) for token in _LIMITS
            for i in rng.choice(len(paths), min(2, len(paths)), replace=False)]


@pytest.mark.parametrize("full", [
    False, pytest.param(True, marks=[pytest.mark.slow, pytest.mark.rendered])])
@pytest.mark.parametrize("name", ["run.json", "signatures.json", "diagnostics.json"])
def test_every_stored_number_at_its_limits_is_refused_or_harmless(tmp_path, finished_run,
                                                                   name, full):
    """Numeric fields of each stored JSON record (at most 25 per file, spread over the
    file) set to the limits of their type: loading either refuses the value with a
    DataError that names the file, or gives a run whose tables and report build. The fast
    tier puts each limit in two fields drawn with a fixed seed and builds one report (its
    figures built, not drawn); the slow twin (full=True) sweeps every field with every
    limit and draws up to 4 reports."""
    record = json.loads((finished_run / name).read_text())
    paths = list(_numeric_paths(record))
    paths = paths[:: max(1, len(paths) // 25)]
    assert paths
    loaded, refused = [], []
    cases = _limit_cases(paths, full=full)
    assert {token for _, token in cases} == set(_LIMITS)
    for path, token in cases:
        run = copy_tree(finished_run, tmp_path / "run")
        (run / name).write_text(_with_token(record, path, token))
        try:
            got = mm.MiningRun.load(run)
        except DataError as exc:
            assert name in str(exc), (path, token, str(exc))
            refused.append((path, token))
        else:
            got.frequencies()
            got.warnings()
            loaded.append((path, token, got))
        shutil.rmtree(run)
    assert refused and loaded  # the sweep does reach the checks, and what passes them
    # The report (the slow consumer) for the most extreme values that loaded.
    extreme = [case for case in loaded if case[1] in ("1e308", "-1e308", "9" * 5000)]
    shown = extreme or loaded
    for _, _, got in shown[:: max(1, len(shown) // 4)][:4 if full else 1]:
        got.report(tmp_path / "r.html")
        assert (tmp_path / "r.html").stat().st_size > 0


# ------------------------------------------------------------- 11. CSV formula injection
_FORMULAS = ["=HYPERLINK(\"http://x\")", "+1+2", "-2+3", "@SUM(A1)", "\tlead"]


def test_names_that_start_formulas_are_neutralised_in_every_csv(tmp_path):
    """OWASP: a text cell starting with = + - @ (or a tab) gets a leading apostrophe in
    the CSV files meant for spreadsheets; numbers are never changed; the run directory
    still loads back exactly; spreadsheet_safe=False writes the cells as they are."""
    import pandas as pd

    from modelmine._csv import FORMULA_START, restore_cell, safe_cell

    rng = np.random.default_rng(2)
    names = _FORMULAS + [f"g{j}" for j in range(7)]
    X = pd.DataFrame(rng.normal(size=(30, len(names))), columns=names)
    y = np.arange(30) % 2
    X.iloc[:, :5] += y[:, None] * 2  # the formula-named features are the informative ones
    run = mm.run(X, y, selector="anova", n_bootstraps=8, n_features=6, n_signatures=2,
                 operators=["mostFreq", "allMed"])
    run.save(tmp_path / "safe", report=False)  # the CSV files are what is checked
    run.save(tmp_path / "raw", spreadsheet_safe=False, report=False)
    for rel in ("frequencies.csv", "signatures/mostFreq.csv", "signatures/allMed.csv",
                "diagnostics.csv"):
        text = (tmp_path / "safe" / rel).read_text()
        cells = [c.strip('"') for line in text.splitlines() for c in line.split(",")]
        assert not any(c.startswith(FORMULA_START) and not _is_number(c) for c in cells), rel
        raw = (tmp_path / "raw" / rel).read_text()
        assert text.replace("'", "") == raw.replace("'", "") or rel == "diagnostics.csv"
    freq = pd.read_csv(tmp_path / "safe" / "frequencies.csv")
    assert set(freq.iloc[:, 0].map(restore_cell)) == set(names)
    assert mm.MiningRun.load(tmp_path / "safe") == run
    assert [safe_cell(v) for v in (-0.5, 3, None, "g1")] == [-0.5, 3, None, "g1"]
    assert all(restore_cell(safe_cell(n)) == n for n in names)


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


# ------------------------------------------------------------------ 12. messages that fit
def test_labels_from_a_device_are_not_called_missing(tmp_path, capsys, data_csv):
    bad(["run", data_csv, "--labels", "/dev/zero", *FAST, "--out", tmp_path / "o"], capsys,
        "not a regular file")
    bad(["run", data_csv, "--labels", tmp_path / "nope.csv", *FAST, "--out",
         tmp_path / "o"], capsys, "no such file")


def test_repeated_ids_in_the_first_column_are_named_as_ids(tmp_path, capsys):
    import pandas as pd

    frame = pd.DataFrame(np.random.default_rng(0).normal(size=(20, 4)),
                         columns=list("abcd"))
    frame.insert(0, "sample", [f"S{i % 10}" for i in range(20)])
    frame["y"] = np.arange(20) % 2
    path = tmp_path / "ids.csv"
    frame.to_csv(path, index=False)
    err = bad(["run", path, "-t", "y", *FAST, "--out", tmp_path / "o"], capsys,
              "looks like sample IDs", "repeats")
    assert "non-numeric" not in err


def test_a_broken_checkpoint_is_not_advised_to_be_resumed(tmp_path, capsys,
                                                          interrupted_run):
    partial = copy_tree(interrupted_run, tmp_path / ".run.partial")
    (partial / "checkpoint.json").write_text("{not json")
    err = bad(["run", "--resume", tmp_path / "run"], capsys, "checkpoint.json",
              "cannot be resumed")
    assert "continue it with" not in err


# ---------------------------------------- every user string through every output format
_NASTY = ["<script>alert(1)</script>", "a\"b'c", "x&amp;y", "$^$", "a$_b$c", "=1+2",
          "@cmd", "-neg", "tab\there", "new\nline", "ünïcødé-β", "g" * 300, "{json}",
          "back\\slash", "%(fmt)s"]


@pytest.mark.parametrize("drawn", [
    False, pytest.param(True, marks=[pytest.mark.slow, pytest.mark.rendered])])
def test_every_user_string_survives_every_output_format(tmp_path, drawn):
    """Feature names and class labels with markup, TeX, formula starts, control
    characters and very long text go through every writer: the HTML report (no markup of
    theirs is live), the lattice drawing as SVG and PNG, the CSV files (no cell starts a
    formula), the GMT file (one line per gene set, tab-separated fields), the annotated
    h5ad; the run directory loads back equal. The report's figures are built here and
    drawn (their SVG in the page) in the slow twin (drawn=True); the lattice is drawn in
    both."""
    import xml.etree.ElementTree as ET

    import pandas as pd

    from modelmine._csv import FORMULA_START

    rng = np.random.default_rng(4)
    names = _NASTY + [f"f{j}" for j in range(5)]
    X = pd.DataFrame(rng.normal(size=(40, len(names))), columns=names)
    labels = np.array(["<b>bold</b>", "=cmd"])[np.arange(40) % 2]
    X.iloc[:, :8] += (np.arange(40) % 2)[:, None] * 1.5
    run = mm.run(X, labels, selector="anova", n_bootstraps=10, n_features=8, n_signatures=2)
    out = run.save(tmp_path / "run")
    assert mm.MiningRun.load(out) == run
    html = (out / "report.html").read_text()
    assert "<script>alert(1)</script>" not in html and "<b>bold</b>" not in html
    lattice = run.lattice()
    with figures(drawn=True):
        lattice.draw(tmp_path / "lattice.svg")
        lattice.draw(tmp_path / "lattice.png")
    ET.parse(tmp_path / "lattice.svg")  # well-formed XML whatever the names
    assert (tmp_path / "lattice.png").stat().st_size > 0
    explorer = tmp_path / "lattice.html"
    lattice.to_html(explorer)
    assert "<script>alert(1)</script>" not in explorer.read_text().replace(
        "\\u003cscript", "")
    for csv in out.rglob("*.csv"):
        for row in pd.read_csv(csv, dtype=str, keep_default_na=False).itertuples(index=False):
            for cell in row:
                assert not (cell.startswith(FORMULA_START) and not _is_number(cell)), (csv,
                                                                                    cell)
    gmt = (out / "signatures.gmt").read_text().splitlines()
    assert len(gmt) == 1 + 2  # one consensus, two alternatives
    assert all(len(line.split("\t")) >= 3 for line in gmt)
    anndata = pytest.importorskip("anndata")
    from modelmine.report import annotate_anndata

    annotated = annotate_anndata(run, mm.datasets.LoadedData(
        X=X.to_numpy(), y=labels, feature_names=np.array(names), source="frame",
        target="y", format="python"))
    annotated.write_h5ad(tmp_path / "a.h5ad")
    back = anndata.read_h5ad(tmp_path / "a.h5ad")
    assert list(back.var_names) == names


# ------------------------------------------------------- 4, 10. max_len at its extremes
def _brute_itemsets(T, minc, maxlen, kind):
    import itertools

    p = T.shape[1]
    out = []
    for k in range(1, p + 1):
        for S in itertools.combinations(range(p), k):
            rows = T[:, list(S)].all(1)
            if rows.sum() < minc:
                continue
            others = [j for j in range(p) if j not in S]
            if kind == "closed" and any(T[rows, j].all() for j in others):
                continue
            if kind == "maximal" and any((rows & T[:, j]).sum() >= minc for j in others):
                continue
            if maxlen is None or k <= maxlen:
                out.append(S)
    return sorted(out)


@pytest.mark.parametrize("backend", ["lcm", "pyfim", "mlxtend"])
def test_max_len_is_exact_and_extreme_values_are_no_bound(backend):
    """Closed and maximal itemsets of at most max_len items are judged against every
    itemset (a brute-force oracle, with an item in every transaction and two identical
    items: closures longer than max_len); max_len at or beyond the number of items, up to
    2**70, is the same as none."""
    rng = np.random.default_rng(9)
    for _ in range(25):
        b, p = int(rng.integers(6, 25)), int(rng.integers(4, 9))
        T = rng.random((b, p)) < rng.uniform(0.3, 0.9)
        T[:, 0] = True
        T[:, 2] = T[:, 1]
        minc = int(rng.integers(1, max(2, b // 2)))
        for kind in ("closed", "maximal"):
            for L in (1, 2):
                got = mm.mine_itemsets(T, itemset_type=kind, min_support=minc, max_len=L,
                                       backend=backend)
                assert sorted(got.itemsets) == _brute_itemsets(T, minc, L, kind)
            whole = sorted(mm.mine_itemsets(T, itemset_type=kind, min_support=minc,
                                            backend=backend).itemsets)
            for big in (p, 2**40, 2**70):
                huge = mm.mine_itemsets(T, itemset_type=kind, min_support=minc, max_len=big,
                                        backend=backend)
                assert sorted(huge.itemsets) == whole and huge.max_len == big


@pytest.mark.parametrize("token", ["Infinity", "NaN", "9" * 5000])
def test_a_manifest_number_at_its_limits_names_the_manifest(tmp_path, token):
    X, y = np.random.default_rng(0).normal(size=(20, 5)), np.arange(20) % 2
    run = tmp_path / "boot"
    mm.bootstrap(X, y, selector="anova", n_bootstraps=4, n_features=2, run_dir=run)
    manifest = run / "manifest.json"
    record = json.loads(manifest.read_text())
    path = next(p for p in _numeric_paths(record) if p[-1] == "n_bootstraps")
    manifest.write_text(_with_token(record, path, token))
    with pytest.raises(mm.base_models.RunDirectoryError, match="manifest"):
        mm.base_models.RunDirectory.read_manifest(run)


def test_safe_frame_handles_repeated_column_names_and_keeps_numbers():
    import pandas as pd

    from modelmine._csv import safe_frame

    frame = pd.DataFrame([["=a", -1.5, "+b"], ["ok", 2.0, "@c"]], columns=["x", "n", "x"])
    out = safe_frame(frame)
    assert out.iloc[:, 0].tolist() == ["'=a", "ok"] and out.iloc[:, 2].tolist() == ["'+b", "'@c"]
    assert out.iloc[:, 1].tolist() == [-1.5, 2.0] and frame.iloc[0, 0] == "=a"
