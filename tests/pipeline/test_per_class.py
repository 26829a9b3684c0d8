"""Per-class panels (issue 26, item 1): each class against the rest on the run's own
resamples. Truths: planted per-class markers (recovered with their direction) and the stored
files read back (each class's models against scikit-learn's ``f_classif`` on each resample's
one-vs-rest labels: ``tests/kernels/test_class_models.py``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main

CLASSES = ["a", "b", "c", "d"]


def _planted(seed=0, per=25, p=80):
    """Four classes; class k has markers 3k (up), 3k+1 (up) and 3k+2 (down)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(CLASSES, per)
    X = rng.normal(size=(y.size, p))
    truth = {}
    for k, cls in enumerate(CLASSES):
        inside = y == cls
        X[inside, 3 * k] += 2.5
        X[inside, 3 * k + 1] += 2.5
        X[inside, 3 * k + 2] -= 2.5
        truth[cls] = {f"g{3 * k}": "up", f"g{3 * k + 1}": "up", f"g{3 * k + 2}": "down"}
    return pd.DataFrame(X, columns=[f"g{j}" for j in range(p)]), y, truth


def test_panels_recover_the_planted_markers_with_their_direction(tmp_path):
    X, y, truth = _planted()
    run = mm.run(X, y, selector="anova", operators=["mostFreq"], n_bootstraps=15,
                 n_features=3, per_class=True, random_state=1)
    assert sorted(run.class_signatures) == CLASSES
    markers = run.markers(per_class=True)
    assert set(markers.panel) == {"per_class"}
    found = 0
    for cls in CLASSES:
        panel = markers[markers["class"] == cls]
        got = dict(zip(panel.feature, panel.direction))
        hits = set(got) & set(truth[cls])
        found += len(hits)
        assert all(got[g] == truth[cls][g] for g in hits)  # every direction right
    precision = recall = found / (3 * len(CLASSES))  # panels of 3, 3 planted per class
    assert precision == recall == 1.0
    # the files: panels, frequencies, markers of both kinds, GMT sets, the report's dot plot
    out = run.save(tmp_path / "run")
    back = mm.MiningRun.load(out)
    pd.testing.assert_frame_equal(back.markers(per_class=True), markers)
    assert sorted(pd.read_csv(out / "markers.csv").panel.unique()) == ["per_class", "pooled"]
    sets = {line.split("\t")[0] for line in (out / "markers.gmt").read_text().splitlines()}
    assert {"mostFreq_a_up", "mostFreq_a_down", "mostFreq_pooled_a_up"} <= sets
    assert 'id="markers"' in (out / "report.html").read_text()
    effect, frequency = run.marker_grid()
    assert list(effect.columns) == CLASSES and effect.shape == frequency.shape
    assert effect.loc["g0", "a"] > 0 > effect.loc["g2", "a"]
    assert frequency.loc["g0", "a"] == 1.0


def test_per_class_refusals(colon, capsys):
    X, y, _ = colon
    with pytest.raises(ValueError, match=r"per_class.*two classes"):
        mm.run(X[:, :50], y, selector="anova", per_class=True, n_bootstraps=4)
    Xp, yp, _ = _planted()
    with pytest.raises(ValueError, match=r"per_class.*list of selectors"):
        mm.run(Xp, yp, selector=["anova", "ig"], per_class=True, n_bootstraps=4)
    run = mm.run(Xp, yp, selector="anova", operators=["mostFreq"], n_bootstraps=4,
                 n_features=3)
    with pytest.raises(ValueError, match="per_class"):
        run.markers(per_class=True)
    assert main(["run", "embedded:colon", "--per-class", "-s", "anova", "-b", "4", "-m",
                 "3", "--out", "/nonexistent/x"]) == 2
    assert "(--per-class)" in capsys.readouterr().err


def test_cli_per_class(tmp_path, capsys, report_page_left_out):
    X, y, _ = _planted(seed=5)
    frame = X.assign(cls=y)
    path = tmp_path / "four.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "run"
    assert main(["run", str(path), "--target", "cls", "--per-class", "-s", "anova", "-b",
                 "6", "-m", "3", "-o", "mostFreq", "-q", "--out", str(out)]) == 0
    capsys.readouterr()
    markers = pd.read_csv(out / "markers.csv")
    assert set(markers[markers.panel == "per_class"]["class"]) == set(CLASSES)
    assert mm.MiningRun.load(out).settings["per_class"] is True
