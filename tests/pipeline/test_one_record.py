"""Results hold one record of their settings (issue 48, item 3).

Truths: the views of a result (the selector's, the resampling's and the artificial
features' records, m, the seed, the outcome, run.json's settings) are what its spec says
(an invariant, checked on the built selectors' own descriptions); a run of a custom
selector keeps a spec in memory, from its directory and through a pickle, and a refit of
one read back is refused naming the selector; the modules outside the loader read the
spec, never the old records (the source, read).
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import numpy as np
import pytest

import modelmine as mm
from modelmine.selectors import Selector, SelectorOutput

ROOT = Path(mm.__file__).resolve().parent


def _data():
    X, y = mm.datasets.load_colon()
    return X[:, :80], y


def test_the_records_of_base_models_are_views_of_their_spec():
    X, y = _data()
    base = mm.bootstrap(X, y, selector=["anova", "relieff"], scale="standard",
                        resampling="complementary-pairs", n_bootstraps=4, n_features=5,
                        artificial_features="permutation", random_state=7)
    spec = base.spec
    assert spec.operators == () and spec.random_state == base.random_state == 7
    assert base.n_features == spec.n_features == 5
    assert base.selector["params"]["selectors"] == [s.describe() for s in spec.selectors]
    assert base.selector_name == "anova+relieff" == base.selector["name"]
    assert dict(base.resampling) == {"method": "complementary-pairs", "stratify": False,
                                     "fraction": 0.5, "n_pairs": 2}
    assert dict(base.artificial) == {"method": "permutation", "n_features": 80}
    assert base.settings == spec.to_settings()
    with pytest.raises(AttributeError):
        base.selector = {}
    one = base.models_of("relieff")
    assert one.spec.selector == "relieff" and one.selector == spec.selectors[1].describe()


class _Scorer(Selector):
    """A custom selector (its object is not stored with a run)."""

    name = "my-scorer"

    def select(self, X, y, *, random_state):
        X = np.asarray(X, dtype=float)
        return SelectorOutput(scores=np.abs(X[y == y[0]].mean(0) - X[y != y[0]].mean(0)))


def test_a_run_of_a_custom_selector_always_has_its_spec(tmp_path):
    X, y = _data()
    kw = dict(n_bootstraps=4, n_features=5, operators=["mostFreq"], progress=False)
    run = mm.run(X, y, selector=_Scorer(), **kw)
    assert isinstance(run.spec.selector, _Scorer)  # the object, in memory
    checked = mm.evaluation.check_error_control(run, X, y, pfer=1.0)  # refits with it
    assert checked.run.spec.selector is run.spec.selector
    back = mm.MiningRun.load(run.save(tmp_path / "run", report=False))  # no page read
    assert back.spec is not None and back.spec.selectors[0].describe() == \
        run.base_models.selector
    assert back.settings == run.settings and back == run
    with pytest.raises(ValueError, match=r"'selector' parameter of run must be a selector "
                                         r"that can be fitted.*'my-scorer'.*selector="):
        mm.evaluation.check_error_control(back, X, y, pfer=1.0)
    # a pickle of its base models (workers) holds the record when the object cannot go
    lam = mm.bootstrap(X, y, selector=lambda X, y: np.asarray(X).var(0), n_bootstraps=4,
                       n_features=5)
    copy = pickle.loads(pickle.dumps(lam))
    assert copy == lam and copy.spec.selectors[0].describe() == lam.selector


def test_no_module_outside_the_loader_reads_the_old_records():
    """The records the spec replaced are read only where files are (pipeline/_store.py,
    base_models/_rundir.py, base_models/_base_models.py); the report being rewritten
    reads the views, kept for it."""
    allowed = {"pipeline/_store.py", "base_models/_rundir.py", "base_models/_base_models.py"}
    old = re.compile(r"\.(selector|resampling|artificial)(\[|\.get\()|"
                     r"\.settings\[\"(selector|resampling|n_bootstraps|n_features)\"\]")
    found = []
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel in allowed or rel.startswith("report/"):
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if old.search(line) and "self.selector." not in line:
                found.append(f"{rel}:{i}: {line.strip()}")
    assert not found, found
