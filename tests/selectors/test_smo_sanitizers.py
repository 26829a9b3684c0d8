"""modelmine's C SMO (``selectors/_smo.c``, SVM-RFE's ``solver="warm"``, issue 37) under
AddressSanitizer and UndefinedBehaviorSanitizer.

The source is built again with ``-fsanitize=address,undefined`` into a temporary directory
and run in a child Python (the ASan runtime preloaded) on random SVM duals: linear kernels
of random data with repeated rows, one to 1,200 rows (past 1,000 iterations libsvm's
shrinking and the gradient reconstruction run), per-row boxes, from zero and from feasible
warm starts, with and without shrinking. Each result is checked against the dual's
optimality conditions computed in numpy (any wrong alpha fails the test), and any
out-of-bounds access or undefined behaviour aborts the child. Inconsistent buffers must be
refused, not read. Skipped only where no C compiler with the sanitizers is found, never
under ``MODELMINE_REQUIRE_SANITIZER=1`` (set in CI).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from c_sanitizers import run_sanitized

import modelmine

SOURCE = Path(modelmine.__file__).parent / "selectors" / "_smo.c"

_CHILD = r'''
import importlib.util, sys
import numpy as np

spec = importlib.util.spec_from_file_location("_smo", sys.argv[1])
smo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(smo)


def violation(K, y, C, a):
    G = y * (K @ (y * a)) - 1.0
    up = ((y > 0) & (a < C)) | ((y < 0) & (a > 0))
    low = ((y > 0) & (a > 0)) | ((y < 0) & (a < C))
    if not up.any() or not low.any():
        return 0.0
    return (-y * G)[up].max() - (-y * G)[low].min()


rng = np.random.default_rng(int(sys.argv[2]))
sizes = [1, 2, 3, 7, 40, 150, 1200]
for case in range(int(sys.argv[3])):
    n = sizes[case % len(sizes)]
    p = int(rng.integers(1, 30))
    Z = rng.normal(size=(n, p))
    if n > 3:
        Z[1] = Z[0]                      # a repeated row
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    if n > 1:
        y[0], y[1] = 1.0, -1.0
    K = np.ascontiguousarray(Z @ Z.T)
    C = rng.uniform(0.1, 2.0, n) if case % 2 else np.full(n, 0.5)
    eps = [1e-3, 1e-6][case % 2]
    a = np.zeros(n)
    if case % 3 == 0 and n > 1:          # a feasible warm start: pairs of opposite labels
        pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
        m = min(pos.size, neg.size)
        t = rng.uniform(0, 1, m) * np.minimum(C[pos[:m]], C[neg[:m]])
        a[pos[:m]] += t
        a[neg[:m]] += t
    it = smo.solve(K, y, C, a, eps, 10**7, case % 4 != 1)
    assert it >= 0, (case, it)
    assert np.all(a >= 0) and np.all(a <= C), case
    assert abs(y @ a) <= 1e-9 * max(1.0, a.sum()), case
    assert violation(K, y, C, a) < eps * (1 + 1e-9), (case, n, violation(K, y, C, a), eps)

K = np.eye(4)
bad = [
    (np.eye(3), np.ones(4), np.ones(4), np.zeros(4)),       # K not n x n
    (K, np.ones(3), np.ones(4), np.zeros(4)),               # short y
    (K, np.ones(4), np.ones(5), np.zeros(4)),               # long C
    (K[:, :3].copy(), np.ones(4), np.ones(4), np.zeros(4)),
]
for args in bad:
    try:
        smo.solve(*args, 1e-3, 10)
    except ValueError:
        continue
    raise AssertionError("solve accepted inconsistent buffers")
try:
    smo.solve(K, np.ones(4), np.ones(4), np.zeros(4), 0.0, 10)
except ValueError:
    pass
else:
    raise AssertionError("solve accepted eps = 0")
print("ok", case + 1, "largest", max(sizes))
'''


@pytest.mark.slow
def test_the_c_smo_is_memory_safe_and_optimal_under_sanitizers(tmp_path):
    run = run_sanitized(SOURCE, "_smo", _CHILD, ["5", "28"], tmp_path)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "ok 28 largest 1200" in run.stdout
