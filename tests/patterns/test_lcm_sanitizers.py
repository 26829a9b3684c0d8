"""modelmine's C itemset miner under AddressSanitizer and UndefinedBehaviorSanitizer.

``patterns/_lcm.c`` is built again with ``-fsanitize=address,undefined`` into a temporary
directory and run in a child Python (the ASan runtime preloaded) on a few hundred random
transaction sets, closed / maximal / frequent, with and without ``max_len`` and the
``max_itemsets`` limit, each compared with a brute-force miner: any out-of-bounds access,
use after free or undefined behaviour aborts the child, any wrong itemset fails the test.
The arguments the Python wrapper never passes (sizes that overflow, short or misaligned
buffers) must be refused, not read. Skipped only where no C compiler with the sanitizers is
found, never under ``MODELMINE_REQUIRE_SANITIZER=1`` (set in CI).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from c_sanitizers import run_sanitized

import modelmine

SOURCE = Path(modelmine.__file__).parent / "patterns" / "_lcm.c"

_CHILD = r'''
import importlib.util, itertools, sys
import numpy as np

spec = importlib.util.spec_from_file_location("_lcm", sys.argv[1])
lcm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lcm)


def tidsets(T):
    b, p = T.shape
    W = max(1, -(-b // 64))
    bits = np.zeros((p, W), np.uint64)
    for j in range(p):
        for i in np.flatnonzero(T[:, j]):
            bits[j, i // 64] |= np.uint64(1) << np.uint64(i % 64)
    root = np.zeros(W, np.uint64)
    for i in range(b):
        root[i // 64] |= np.uint64(1) << np.uint64(i % 64)
    return bits, root, W


def brute(T, minc, maxlen, mode):
    b, p = T.shape
    out = {}
    for k in range(1, p + 1):
        for S in itertools.combinations(range(p), k):
            rows = T[:, list(S)].all(1)
            c = int(rows.sum())
            if c < minc:
                continue
            others = [j for j in range(p) if j not in S]
            if mode == 0 and any(T[rows, j].all() for j in others):
                continue
            if mode == 1 and any(int((rows & T[:, j]).sum()) >= minc for j in others):
                continue
            if maxlen <= 0 or k <= maxlen:
                out[S] = c
    return out


def parse(res):
    lens = np.frombuffer(res[0], np.int64)
    items = np.frombuffer(res[1], np.int32)
    cnts = np.frombuffer(res[2], np.int64)
    out, pos = {}, 0
    for L, c in zip(lens, cnts):
        out[tuple(sorted(int(i) for i in items[pos:pos + L]))] = int(c)
        pos += L
    return out


rng = np.random.default_rng(int(sys.argv[2]))
cases = int(sys.argv[3])
for case in range(cases):
    b, p = int(rng.integers(1, 130)), int(rng.integers(1, 9))
    T = rng.random((b, p)) < rng.uniform(0.1, 0.95)
    if p > 2 and case % 3 == 0:
        T[:, 2] = T[:, 1]          # identical tidsets
    if case % 5 == 0:
        T[:, 0] = True             # an item in every transaction
    bits, root, W = tidsets(T)
    mode = int(rng.integers(0, 3))
    minc = int(rng.integers(1, max(2, b)))
    maxlen = int(rng.choice([0, 1, 2, 3]))
    if mode == 1 and maxlen > 0:
        maxlen = 0  # the wrapper mines maximal itemsets whole, then keeps the short ones
    got = parse(lcm.mine(bits.tobytes(), p, W, root.tobytes(), minc, maxlen, mode, -1, -1))
    want = brute(T, minc, maxlen, mode)
    assert got == want, (case, b, p, mode, minc, maxlen, sorted(got), sorted(want))
    # with a limit: what is stored is a part of the truth, and a run that did not stop
    # found all of it
    if want:
        limit = int(rng.integers(0, len(want) + 1))
        res = lcm.mine(bits.tobytes(), p, W, root.tobytes(), minc, maxlen, mode, limit, -1)
        part = parse(res)
        assert all(want.get(k) == v for k, v in part.items()), (case, "limit")
        if not res[4]:
            assert res[3] == len(want), (case, res[3], len(want))

# arguments the wrapper never passes: refused, not read
bits, root, W = tidsets(np.ones((10, 3), bool))
bad = [
    (bits.tobytes()[:-8], 3, W, root.tobytes()),             # a short tidset buffer
    (bits.tobytes(), 3, 2**62, root.tobytes()),              # f * W * 8 overflows
    (bits.tobytes(), 2**40, 2**40, root.tobytes()),          # so does this
    (bits.tobytes(), -1, W, root.tobytes()),
    (bits.tobytes(), 3, 0, root.tobytes()),
    (bits.tobytes(), 3, W, root.tobytes()[:-1]),             # a short root
]
for args in bad:
    try:
        lcm.mine(*args, 1, 0, 0, -1, -1)
    except ValueError:
        continue
    raise AssertionError(f"mine accepted f={args[1]}, W={args[2]}")
buf = bytearray(bits.tobytes() + b"\0")
view = memoryview(buf)[1:]                                   # a misaligned buffer
try:
    lcm.mine(view, 3, W, root.tobytes(), 1, 0, 0, -1, -1)
except ValueError as exc:
    assert "aligned" in str(exc)
else:
    raise AssertionError("a misaligned buffer was read")
print("ok", cases)
'''


@pytest.mark.slow
def test_the_c_miner_is_memory_safe_and_exact_under_sanitizers(tmp_path):
    run = run_sanitized(SOURCE, "_lcm", _CHILD, ["7", "300"], tmp_path)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "ok 300" in run.stdout
