"""modelmine's compiled MDL search and OneR rules (``selectors/_mdl.c``, issue 37) under
AddressSanitizer and UndefinedBehaviorSanitizer.

The source is built again with ``-fsanitize=address,undefined`` into a temporary directory
and run in a child Python (the ASan runtime preloaded) on random blocks: one to 300 rows,
one to 40 columns, two to six classes, values absent from the resample (zero counts),
constant columns and a single row. Each result is checked against the numpy search
(``_search_levels_numpy``, itself checked against WEKA in ``test_information.py``), the
counts against ``numpy.add.at``, the level tables against ``numpy.bincount``, and OneR's
first pass, rule classes and hits against its numpy passes: any wrong cut or rule fails the
test, and any out-of-bounds access or undefined behaviour aborts the child.
Inconsistent buffers and out-of-range indices must be refused, not read. Skipped only
where no C compiler with the sanitizers is found, never under
``MODELMINE_REQUIRE_SANITIZER=1`` (set in CI).

Slow-marked, as the LCM and SMO sanitizer tests are: the sanitized build and the child
Python under ASan take about 6 CPU-s whatever the number of cases. The fast tier checks the
compiled search and OneR rules against the numpy passes bit for bit on real and awkward data
(``test_information.py``, ``test_shared_counting_routes.py``); this test adds the memory
checks, in ``make test-slow`` and CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from c_sanitizers import run_sanitized

import modelmine

SOURCE = Path(modelmine.__file__).parent / "selectors" / "_mdl.c"

_CHILD = r'''
import importlib.util, sys
import numpy as np

spec = importlib.util.spec_from_file_location("_mdl", sys.argv[1])
mdl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mdl)

from modelmine.selectors import _information as inf, _oner_rows, _rankers

compiled = lambda: mdl
numpy_only = lambda: None


def use(kernel):
    for module in (inf, _oner_rows, _rankers):
        module._mdl_kernel = kernel


rng = np.random.default_rng(int(sys.argv[2]))
n_cuts = 0
for case in range(int(sys.argv[3])):
    n = [1, 2, 5, 40, 300][case % 5]
    p = int(rng.integers(1, 40))
    k = int(rng.integers(2, 7))
    y = rng.integers(0, k, n)
    X = rng.integers(0, int(rng.integers(1, 60)), size=(n, p)).astype(float)
    X += (rng.random(p) * 4)[None, :] * y[:, None]
    fold = inf.SortedColumns(X)
    rows = rng.integers(0, n, max(1, n - case % 3))
    yr = y[rows]
    kr = int(yr.max()) + 1
    for be in (True, False):
        for a, b, width in fold.blocks(rows.size, kr):
            use(compiled)
            counts = inf._dense_counts(fold, a, b, width, rows, yr, kr)
            ours = inf._search_levels(counts, fold.values[a:b], rows.size, be)
            table = inf._level_table(counts, ours[0], 1 + int(ours[1].max(initial=0)))
            use(numpy_only)
            ref_counts = inf._dense_counts(fold, a, b, width, rows, yr, kr)
            ref = inf._search_levels(ref_counts, fold.values[a:b], rows.size, be)
            ref_table = inf._level_table(ref_counts, ref[0], 1 + int(ref[1].max(initial=0)))
            assert np.array_equal(counts, ref_counts), case
            assert np.array_equal(ours[0], ref[0]) and np.array_equal(ours[1], ref[1]), case
            assert np.array_equal(table, ref_table), case
            for j in range(b - a):
                assert (np.sort(ours[3][ours[2] == j]).tolist()
                        == np.sort(ref[3][ref[2] == j]).tolist()), (case, j)
            n_cuts += ours[2].size
            # OneR: the first pass, each value index's class, the hits
            bsize = int(rng.integers(1, 8))
            _, _, _, _, n_present, compact, vals = inf._compact_present(fold, a, counts)
            ref_pass = _rankers._pass_one_numpy(compact, vals, n_present, bsize)
            use(compiled)
            got_pass = _rankers._pass_one(compact, vals, n_present, bsize)
            for u, v in zip(got_pass, ref_pass):
                assert np.array_equal(u, v), case
            got = _oner_rows._bucket_classes(fold, a, b, width, counts, bsize)
            got_hits = _oner_rows._hits(fold, rows[::-1], y, None, a, b, got[0])
            use(numpy_only)
            ref = _oner_rows._bucket_classes(fold, a, b, width, counts, bsize)
            ref_hits = _oner_rows._hits(fold, rows[::-1], y, None, a, b, ref[0])
            assert np.array_equal(got[1], ref[1]), case
            assert np.array_equal(got[0], ref[0]), case
            assert np.array_equal(got_hits, ref_hits), case

i64, f64, i32 = np.int64, np.float64, np.int32
t = np.zeros(11), np.zeros(3), np.zeros(11)
good = (np.ones((2, 3, 2), i64), np.zeros((2, 3)), 3, 2, True, *t, np.log(2),
        np.zeros((2, 3), i32), np.zeros(2, i64), np.zeros(4, i64), np.zeros(4))
assert mdl.search(*good) >= 0
bad = [
    {0: np.ones((2, 3, 3), i64)},                 # counts of three classes, K = 2
    {1: np.zeros((2, 2))},                        # values shorter than the rows read
    {2: 2},                                       # a stride below the width
    {7: np.zeros(3)},                             # logn not as long as xlnx
    {6: np.zeros(2)},                             # log3k not K + 1 long
    {12: np.zeros(3)},                            # cut_val not as long as cut_feat
    {0: np.full((2, 3, 2), 20, i64)},             # a total beyond the tables (n_max = 10)
]
for change in bad:
    args = list(good)
    for pos, value in change.items():
        args[pos] = value
    try:
        mdl.search(*args)
    except ValueError as exc:
        print("refused:", exc)
        continue
    raise AssertionError(f"search accepted {sorted(change)}")
try:  # too few cut slots for the cuts found
    perfect = np.zeros((1, 4, 2), i64)
    perfect[0, :2, 0] = 5
    perfect[0, 2:, 1] = 5
    mdl.search(perfect, np.arange(4.0)[None, :], 4, 2, True, *(inf._kernel_tables(20, 2)),
               np.log(2), np.zeros((1, 4), i32), np.zeros(1, i64), np.zeros(0, i64),
               np.zeros(0))
except ValueError:
    pass
else:
    raise AssertionError("search wrote past cut_feat")
group = np.zeros((3, 2), i32)
for rows, labels, grp in (([0, 3], [0, 0], group), ([0, 1], [0, 2], group),
                          ([0, 1], [0, 1], group + 5)):
    try:
        mdl.dense_counts(grp, 2, 0, np.array(rows, i64), np.array(labels, i64), 2, 2,
                         np.zeros((2, 2, 2), i64))
    except ValueError as exc:
        print("refused:", exc)
        continue
    raise AssertionError("dense_counts read out of range")
for args in (  # pass_one, oner_predict, dense_hits: inconsistent sizes
        lambda: mdl.pass_one(np.ones((2, 3, 2), i64), np.zeros((2, 3)), 3,
                             np.array([3, 4], i64), 6, np.zeros((2, 3, 2), i64),
                             np.zeros((2, 3)), np.zeros(2, i64), np.zeros((2, 3), i64)),
        lambda: mdl.oner_predict(np.ones((2, 3, 2), i64), np.zeros((2, 2)), 2, 6,
                                 np.zeros((2, 3), i64), np.zeros(2, i64)),
        lambda: mdl.dense_hits(group, 2, 0, np.array([0, 1], i64), np.array([0], i64),
                               np.zeros((2, 2), i64), np.zeros(2, i64)),
        lambda: mdl.dense_hits(group + 3, 2, 0, np.array([0, 1], i64), np.array([0, 1], i64),
                               np.zeros((2, 2), i64), np.zeros(2, i64))):
    try:
        args()
    except ValueError as exc:
        print("refused:", exc)
        continue
    raise AssertionError("a OneR kernel accepted inconsistent buffers")
try:
    mdl.level_table(np.ones((1, 2, 2), i64), np.array([[0, 3]], i32), 2, np.zeros((1, 2, 2)))
except ValueError:
    pass
else:
    raise AssertionError("level_table wrote out of range")
print("ok", case + 1, "cuts", n_cuts)
'''


@pytest.mark.slow
def test_the_c_mdl_search_is_memory_safe_and_exact_under_sanitizers(tmp_path):
    run = run_sanitized(SOURCE, "_mdl", _CHILD, ["7", "60"], tmp_path)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "ok 60 cuts" in run.stdout, run.stdout
    assert run.stdout.count("refused:") == 14, run.stdout
    assert int(run.stdout.split()[-1]) > 50  # the blocks were not all cut-free
