"""Metadata columns are never silently features; messages follow the door (issue 39,
items 4 and 9).

Oracles: tables built here whose metadata columns are known, and the probability a
bootstrap of n draws misses a class of n_c samples, (1 - n_c / n)^n, checked by simulation.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main
from modelmine.datasets import ManyClassesWarning, MetadataColumnsWarning, read_data
from modelmine.exceptions import DataError


def _expression(n=40, p=30, seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.normal(8, 2, size=(n, p)), columns=[f"G{j}" for j in range(p)])
    frame["label"] = np.repeat(["a", "b"], n // 2)
    return frame


def test_numeric_metadata_columns_are_named_with_the_options_of_the_api(tmp_path):
    frame = _expression()
    frame["Age"] = np.linspace(30, 70, len(frame)).round()
    frame["patientID"] = np.repeat(np.arange(20), 2)  # two samples per patient
    frame["row"] = np.arange(len(frame))  # a monotone row number
    frame["plate7"] = np.tile([1, 2, 3, 4], 10)  # groups by value, not by name
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    with pytest.warns(MetadataColumnsWarning) as caught:
        data = read_data(path, "label")
    text = str(caught[0].message)
    for name in ("'Age' (its name)", "'patientID' (its name)", "'row' (a row number)",
                 "'plate7' (integers shared by groups of samples (4 values))"):
        assert name in text
    assert "drop=['Age', 'patientID', 'row', 'plate7']" in text
    assert "groups='patientID'" in text and "--" not in text
    assert data.X.shape[1] == 34  # still features: the user decides


def test_gene_tables_and_counts_raise_no_metadata_warning(tmp_path):
    frame = _expression()
    frame["ID1"] = np.random.default_rng(1).normal(size=len(frame))  # a gene, not an ID
    counts = pd.DataFrame(np.random.default_rng(2).poisson(3, size=(40, 30)),
                          columns=[f"ENSG{j}" for j in range(30)])
    counts["label"] = frame["label"]
    for i, table in enumerate((frame, counts)):
        path = tmp_path / f"t{i}.csv"
        table.to_csv(path, index=False)
        with warnings.catch_warnings():
            warnings.simplefilter("error", MetadataColumnsWarning)
            read_data(path, "label")


def test_a_repeated_text_id_points_to_groups_on_each_door(tmp_path, capsys):
    frame = _expression()
    frame.insert(0, "sample", [f"S{i}" for i in range(len(frame))])
    frame["patient"] = [f"P{i // 2}" for i in range(len(frame))]
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"'patient' repeats its values \(20 distinct over "
                       r"40 samples\).*pass groups='patient'"):
        read_data(path, "label")
    assert main(["run", str(path), "--target", "label", "-b", "4", "--out",
                 str(tmp_path / "out")]) != 0
    err = capsys.readouterr().err
    assert "pass --groups patient" in err and "--drop patient" in err
    # and the advice works: the groups are resampled whole
    run = mm.run(read_data(path, "label", groups="patient"), selector="anova",
                 n_bootstraps=4, n_features=3, progress=False)
    assert run.settings["design"]["groups"]["n_groups"] == 20


def test_the_tiny_class_warning_states_the_probability_of_a_miss(tmp_path):
    n, small = 60, 3
    y = np.array(["a"] * 30 + ["b"] * 27 + ["c"] * small)
    ids = [f"s{i}" for i in range(n)]
    genes = np.random.default_rng(1).normal(size=(n, 2))
    pd.DataFrame({"id": ids, "g1": genes[:, 0], "g2": genes[:, 1]}).to_csv(
        tmp_path / "expr.csv", index=False)
    pd.DataFrame({"id": ids, "y": y}).to_csv(tmp_path / "labels.csv", index=False)
    with pytest.warns(ManyClassesWarning) as caught:
        read_data(tmp_path / "expr.csv", labels=tmp_path / "labels.csv")
    assert len(caught) == 1
    text = str(caught[0].message)
    p = (1 - small / n) ** n
    assert f"(1 - 3/60)^60 = {p:.2g}" in text and "will miss" not in text
    assert text.startswith("labels 'y' of ")  # the API's name, not --labels
    # the stated probability is that of a bootstrap of n draws
    rng = np.random.default_rng(0)
    draws = rng.integers(0, n, size=(20000, n))
    missed = ~(draws >= n - small).any(axis=1)
    assert missed.mean() == pytest.approx(p, abs=0.01)
