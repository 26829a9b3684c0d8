"""Docs that run, beyond the Python blocks: the command lines and the docstring examples.

**Command lines** (issue 38, item 8). Every ``modelmine ...`` line of a fenced block of
README.md and docs/*.md (``bash``, ``sh``, ``console`` or ``text``; a trailing
``\\`` joins the next line, a ``# comment`` is dropped) runs in order, page by page, in one
temporary directory, in process (``modelmine.cli.main``), and must exit 0. On small data,
by these rules, stated here once and nowhere else:

- *Files.* The data files the pages name (``expr.tsv``, ``samples.csv``, ``glioma.h5ad``,
  ``biopsies.csv``, ...: :data:`FILES`) are written before the page runs, each with the
  columns its lines ask for, from 30 genes of the embedded colon data (62 samples).
  ``embedded:NAME`` is the embedded data set as it is (colon: 62 x 2000).
- *Run directories.* A directory a line reads (``modelmine lattice leuk-run``,
  ``modelmine report colon-run``) that no earlier line of the page wrote is made first by
  ``modelmine run embedded:colon -s anova -b 4 --out DIR``.
- *Groups of lines* (:func:`groups`): a line that names what an earlier line of its page
  wrote (a run directory, a file) runs after it, in one test; every other line is a test
  of its own, in a directory of its own, so that pytest-xdist spreads them over the
  workers.
- *Fast settings* (:func:`fast`): ``-b`` / ``--n-bootstraps`` become 4 (the least a run
  takes: the itemsets' held-out significance needs 4), ``--null`` 10 (the least the null
  accepts), ``-k`` / ``--n-signatures`` 3 and ``--n-folds`` 3; a
  ``run``, ``evaluate`` or ``lattice`` line on data without ``-b`` gets ``-b 4``, and an
  ``evaluate`` line (or ``run --evaluate``) without ``--n-folds`` gets ``--n-folds 3``.
  Sizes (``-m``, ``--signature-size``) are kept: above the 30 genes they are capped, as the
  docs say.
- *Figures* are built but not rendered (``Figure.savefig`` writes nothing): rendering is
  what most of a report's time goes to, and tests/report renders them.
- *Skipped lines* (:data:`SKIP`), each with its reason: they need a killed run or hours.
- *Tier.* The pages' command lines are the slow tier (``make test-slow``, which CI runs
  after ``make test``): 38 tests, about 260 CPU-seconds. Each subcommand and option they
  use has its own fast test in tests/cli; the reader of the pages stays in ``make test``.

**Docstring examples.** The ``>>>`` examples of every module of the package run as doctests
(:func:`doctest_modules`), so a docstring cannot drift from the code it shows.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import shlex
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import modelmine

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^```(bash|sh|console|text)\s*\n(.*?)^```\s*$", re.S | re.M)

#: Lines that do not run here (a substring of the line -> why). Listed in docs/DEVELOPING.md.
SKIP = {
    "modelmine run --resume colon-run": "needs a killed run (tests/pipeline and "
                                        "tests/reliability kill and resume runs)",
}

#: Option -> the value it takes here.
FAST = {"-b": "4", "--n-bootstraps": "4", "--null": "10", "-k": "3", "--n-signatures": "3",
        "--n-folds": "3"}


def commands(text: str) -> list[str]:
    """The ``modelmine`` command lines of a page's non-Python blocks, in order."""
    out = []
    for match in _FENCE.finditer(text):
        joined = re.sub(r"\s*\\\n\s*", " ", match.group(2))
        for line in joined.splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("modelmine "):
                out.append(re.sub(r"\s+#.*$", "", line).strip())
    return out


def fast(argv: list[str]) -> list[str]:
    """The command with the fast settings of the module docstring."""
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg in FAST:
            out[i + 1] = FAST[arg]
    command = out[0] if out else ""
    reads_data = len(out) > 1 and not out[1].startswith("-") and (
        command in ("run", "evaluate") or "--target" in out or out[1].startswith("embedded:"))
    if reads_data and not {"-b", "--n-bootstraps"} & set(out):
        out += ["-b", "4"]
    if (command == "evaluate" or "--evaluate" in out) and "--n-folds" not in out:
        out += ["--n-folds", "3"]
    return out


def _frame(n_genes: int = 30) -> tuple[pd.DataFrame, np.ndarray]:
    X, y = modelmine.datasets.load_colon()
    genes = [f"g{j}" for j in range(n_genes)]
    frame = pd.DataFrame(np.asarray(X)[:, :n_genes], columns=genes)
    return frame, np.asarray(y)


def write_files(where: Path) -> None:
    """The stand-in data files of the pages (rule *Files* of the module docstring)."""
    frame, y = _frame()
    ids = [f"GSM{100 + i}" for i in range(len(y))]
    label = np.where(y == 1, "tumour", "normal")
    rng = np.random.default_rng(0)
    expr = frame.copy()
    expr.insert(0, "sample", ids)
    expr.to_csv(where / "expr.tsv", sep="\t", index=False)
    pd.DataFrame({"sample": ids[::-1], "diagnosis": label[::-1]}).to_csv(
        where / "samples.csv", index=False)
    with_class = expr.assign(**{"class": label})
    with_class.to_csv(where / "expr.csv", index=False)
    frame.assign(**{"class": label}).to_csv(where / "data.csv", index=False)
    patients = np.repeat(np.arange(len(y) // 2), 2)[: len(y)]
    frame.assign(diagnosis=label, patient=[f"p{p}" for p in patients],
                 sex=rng.choice(["f", "m"], len(y))).to_csv(where / "biopsies.csv",
                                                           index=False)
    signal = frame["g0"].to_numpy() - frame["g1"].to_numpy()
    frame.assign(ic50=signal + rng.normal(0, 50, len(y))).to_csv(where / "cell_lines.csv",
                                                                  index=False)
    days = np.round(np.exp(5 + (signal - signal.mean()) / signal.std()) + 1)
    event = rng.random(len(y)) < 0.7
    survival = frame.assign(days=days, relapse=event)
    # a GEO layout of probes (two per gene), its platform annotation and gene sets
    # (docs/biology.md)
    probes = [f"{1007 + j}_s_at" for j in range(frame.shape[1])]
    frame.set_axis(probes, axis=1).assign(**{"class": label}).to_csv(
        where / "geo_probes.csv", index=False)
    (where / "GPL570.txt").write_text(
        "#ID = the probe\nID\tGene Symbol\n" + "".join(
            f"{p}\tGENE{j // 2}\n" for j, p in enumerate(probes)), encoding="utf-8")
    (where / "hallmarks.gmt").write_text(
        "MADE_UP_A\tna\t" + "\t".join(f"GENE{j}" for j in range(5)) + "\n"
        "MADE_UP_B\tna\t" + "\t".join(f"GENE{j}" for j in range(5, 12)) + "\n",
        encoding="utf-8")
    survival.to_csv(where / "bc.csv", index=False)
    survival.to_csv(where / "cohort.csv", index=False)
    # clinical covariates beside the genes (the --covariate lines)
    clinical = np.random.default_rng(2)
    survival.assign(age=clinical.integers(30, 80, len(y)),
                    sex=clinical.choice(["f", "m"], len(y))).to_csv(
        where / "patients.csv", index=False)
    # three subtypes for the per-class lines (a panel per class needs three or more)
    split = np.random.default_rng(1).random(len(y)) < 0.5
    frame.assign(subtype=np.where(y == 1, np.where(split, "luminal", "basal"), "normal")
                 ).to_csv(where / "tumours.csv", index=False)
    matrix = frame.T
    matrix.columns = ids
    matrix.index.name = "probe"
    matrix.to_csv(where / "series_matrix.tsv", sep="\t")
    anndata = pytest.importorskip("anndata")
    counts = (frame - frame.min().min()).to_numpy(dtype=np.float32)  # non-negative
    adata = anndata.AnnData(X=counts,
                            obs=pd.DataFrame({"subtype": label}, index=ids),
                            var=pd.DataFrame(index=list(frame.columns)))
    adata.layers["log1p"] = np.log1p(adata.X)
    adata.write_h5ad(where / "glioma.h5ad")
    # several omics of the same samples (docs/biology.md): the first 20 genes as a
    # transcript table, the last 10 as protein intensities, one MuData of both
    blocks = {"rna": frame.iloc[:, :20], "prot": 1000.0 * frame.iloc[:, 20:]}
    for name, block in blocks.items():
        block.set_axis(ids).rename_axis("sample").to_csv(where / f"{name}.csv")
    mudata = pytest.importorskip("mudata")
    mods = {name: anndata.AnnData(X=block.to_numpy(), obs=pd.DataFrame(index=ids),
                                  var=pd.DataFrame(index=list(block.columns)))
            for name, block in blocks.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # mudata's notes on its future defaults
        study = mudata.MuData(mods)
        study.obs["diagnosis"] = pd.Series(label, index=ids)
        study.write(where / "study.h5mu")


def _gsm_column(where: Path) -> None:
    table = pd.read_csv(where / "expr.csv")
    table.rename(columns={"sample": "GSM"}).to_csv(where / "expr.csv", index=False)


def _class_row(where: Path) -> None:
    table = pd.read_csv(where / "series_matrix.tsv", sep="\t", index_col=0)
    labels = pd.read_csv(where / "samples.csv", index_col=0)["diagnosis"]
    table.loc["class"] = labels.reindex(table.columns)
    table.to_csv(where / "series_matrix.tsv", sep="\t")


#: A line (by a substring) whose file differs from the one of the other lines of its page,
#: as the page says: the file is rewritten just before that line runs.
PREPARE = {"--index-col GSM": _gsm_column,       # expr.csv, its ID column named GSM
           "--transpose --target class": _class_row}  # series_matrix.tsv with a 'class' row


def _writes(argv: list[str]) -> str | None:
    return argv[argv.index("--out") + 1] if "--out" in argv[:-1] else None


def groups(lines: list[str]) -> list[list[str]]:
    """The lines of a page in groups that run apart (rule *Groups of lines*): a line joins
    the group of the earlier line that last wrote a directory or file it names; the groups
    come in the order of their first line, each in the page's order."""
    argvs = [shlex.split(line)[1:] for line in lines]
    owner: dict[str, int] = {}  # what a line wrote -> its group
    member: list[int] = []
    for i, argv in enumerate(argvs):
        named = [owner[a] for a in argv[1:] if a in owner]
        group = min(named) if named else i
        for other in set(named) - {group}:  # a line joining two groups merges them
            member = [group if g == other else g for g in member]
            owner = {k: group if g == other else g for k, g in owner.items()}
        member.append(group)
        if _writes(argv) is not None:
            owner[_writes(argv)] = group
    return [[lines[i] for i in range(len(lines)) if member[i] == g]
            for g in sorted(set(member))]


def _pages() -> list:
    params = []
    for page in PAGES:
        lines = [line for line in commands(page.read_text(encoding="utf-8"))
                 if not any(key in line for key in SKIP)]
        for i, group in enumerate(groups(lines)):
            params.append(pytest.param(page, group,
                                       id=f"{page.relative_to(ROOT)}:{i + 1}"))
    return params


def test_the_command_reader_joins_lines_and_drops_comments():
    text = ("```bash\nmodelmine run a.csv \\\n    -b 150 --out r   # note\n"
            "echo no\n```\n\n```python\nmodelmine = 1\n```\n")
    assert commands(text) == ["modelmine run a.csv -b 150 --out r"]
    assert fast(["run", "a.csv", "-b", "150"]) == ["run", "a.csv", "-b", "4"]
    assert fast(["evaluate", "a.csv"]) == ["evaluate", "a.csv", "-b", "4", "--n-folds", "3"]
    assert fast(["lattice", "run1", "--format", "html"]) == ["lattice", "run1", "--format",
                                                            "html"]
    lines = ["modelmine run a.csv --out r", "modelmine run b.csv --out q",
             "modelmine lattice r --out r.html", "modelmine report r", "modelmine datasets"]
    assert groups(lines) == [[lines[0], lines[2], lines[3]], lines[1:2], lines[4:]]


def _no_rendering(self: Any, fname: Any, **kwargs: Any) -> None:
    """``Figure.savefig`` that writes nothing: the figures are built, not rendered."""
    if hasattr(fname, "write"):
        fname.write(b"")
    else:
        Path(fname).write_bytes(b"")


@pytest.mark.slow  # the docs run as written (make test-slow; CI runs it): 260 CPU-s in all
@pytest.mark.parametrize("page, lines", _pages())
def test_the_command_lines_of_the_page_run(page, lines, tmp_path, monkeypatch, capsys):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from modelmine.cli import main

    monkeypatch.setattr(Figure, "savefig", _no_rendering)

    monkeypatch.chdir(tmp_path)
    write_files(tmp_path)
    written: set[str] = set()
    for line in lines:
        argv = fast(shlex.split(line)[1:])
        for key, prepare in PREPARE.items():
            if key in line:
                prepare(tmp_path)
        source = argv[1] if len(argv) > 1 else ""
        if argv[0] in ("lattice", "report") and not source.endswith(
                (".csv", ".tsv", ".h5ad")) and not Path(source).exists():
            assert main(["--quiet", "run", "embedded:colon", "-s", "anova", "-b", "4",
                         "--out", source]) == 0
        if "--out" in argv:  # a later line may write the same directory again
            out = argv[argv.index("--out") + 1]
            if out in written or Path(out).exists():
                argv.insert(argv.index("--out"), "--force")
            written.add(out)
        code = main(["--quiet", *argv])
        err = capsys.readouterr().err
        assert code == 0, f"{page.name}: `{line}` (run as {argv}) exited {code}: {err}"


def doctest_modules() -> list[str]:
    """The modules of the package whose docstrings hold ``>>>`` examples."""
    names = []
    for info in pkgutil.walk_packages(modelmine.__path__, "modelmine."):
        module = importlib.import_module(info.name)
        tests = doctest.DocTestFinder(exclude_empty=True).find(module, module.__name__)
        if any(t.examples and t.name.startswith(info.name) for t in tests):
            names.append(info.name)
    return names


@pytest.mark.parametrize("name", doctest_modules())
def test_the_docstring_examples_run(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module, name) if t.examples]
    assert tests
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
