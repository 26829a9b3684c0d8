"""An outcome is an object (issue 48, item 4): one OutcomeKind per kind, in one registry.

What is checked, and against what:

- a made-up fourth kind (ordered levels fitted as numbers by the regression selectors),
  registered in a fixture and removed after it, reaches ``mm.run``, ``RunSpec``'s checks,
  run.json and ``MiningRun.load``, ``mm.evaluate`` and ``modelmine run --outcome`` with no
  other edit (docs/DEVELOPING.md, "Add an outcome"); the oracle for its fits is the
  regression kind's: the same lasso on the same values gives the same base models;
- an unknown kind is refused naming the parameter and the registered kinds;
- no module outside the registry compares outcome names (the source, read as text).
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest

import modelmine as mm
from modelmine.cli import build_parser
from modelmine.exceptions import DataError, InvalidParameterError
from modelmine.outcomes import (
    OutcomeKind,
    available_outcome_kinds,
    default_registry,
    outcome_kind,
    register_outcome_kind,
)
from modelmine.validation import param_error

ROOT = Path(mm.__file__).resolve().parent


def check_levels(y, *, func, name="y"):
    """Ordered levels: whole numbers, three or more distinct ones; the strata are the
    levels. Accepts the floats it returns (a study checks a fold's values again)."""
    arr = np.asarray(y)
    if arr.ndim != 1 or arr.dtype.kind not in "iuf" or not np.isfinite(arr).all() \
            or (arr != np.round(arr)).any():
        raise param_error(name, func, "ordered levels (whole numbers)",
                          f"an array of shape {arr.shape} and dtype {arr.dtype}", show=False)
    levels, codes = np.unique(arr, return_inverse=True)
    if levels.size < 3:
        raise param_error(name, func, "three or more ordered levels", f"{levels.size}",
                          show=False)
    return arr.astype(np.float64), codes.ravel(), np.array([f"L{v:g}" for v in levels])


@pytest.fixture
def ordinal():
    """A made-up fourth outcome, registered for the test and removed after it."""
    kind = register_outcome_kind(dataclasses.replace(
        outcome_kind("regression"), name="ordinal", description="ordered levels",
        check_target=check_levels, strata_note="{labels}"))
    yield kind
    default_registry().unregister("ordinal")


@pytest.fixture(scope="module")
def data():
    X, _ = mm.datasets.load_colon()
    X = X[:, :30]
    levels = np.argsort(np.argsort(X[:, 0], kind="stable")) * 3 // X.shape[0]
    return X, levels


def test_a_made_up_kind_reaches_every_door_with_no_other_edit(ordinal, data, tmp_path):
    X, levels = data
    assert ordinal.fitted_as == "regression" and ordinal.default_selector == "lasso"
    spec = mm.RunSpec(outcome="ordinal")
    assert spec.outcome_kind is ordinal and spec.selector_name == "lasso"
    assert mm.spec.DEFAULT_SELECTORS["ordinal"] == "lasso"
    assert mm.selectors.selectors_for("ordinal") == mm.selectors.selectors_for("regression")
    with pytest.raises(ValueError, match=r"a selector for outcome='ordinal'.*'svm-rfe', "
                                         r"which fits 'classification' only"):
        mm.RunSpec(outcome="ordinal", selector="svm-rfe")
    with pytest.raises(ValueError, match="three or more ordered levels"):
        mm.run(X, levels.clip(0, 1), outcome="ordinal", n_bootstraps=2, progress=False)
    # a table, read as the command line reads it (--target level --outcome ordinal)
    table = tmp_path / "levels.csv"
    table.write_text("level," + ",".join(f"g{j}" for j in range(X.shape[1])) + "\n" + "".join(
        ",".join([str(v), *map(str, row)]) + "\n" for v, row in zip(levels, X)))
    loaded = mm.datasets.read_data(table, "level", outcome="ordinal")
    np.testing.assert_array_equal(loaded.y, levels)
    settings = dict(n_bootstraps=4, n_features=5, operators=["mostFreq"], progress=False)
    run = mm.run(loaded, outcome="ordinal", **settings)
    assert run.outcome == "ordinal" and run.base_models.classes == ("L0", "L1", "L2")
    # the oracle: the regression kind fits the same lasso on the same numbers
    reference = mm.run(X, levels.astype(float), outcome="regression", **settings)
    np.testing.assert_array_equal(run.base_models.subsets, reference.base_models.subsets)
    assert list(run.expression.columns[:1]) == ["outcome"]  # the columns of its values
    assert set(run.markers().feature) <= set(run.expression.columns[1:])
    run.save(tmp_path / "run", report=False)
    back = mm.MiningRun.load(tmp_path / "run")
    assert back.spec.outcome == "ordinal" and back.spec == run.spec
    assert json.loads((tmp_path / "run" / "run.json").read_text())["settings"]["outcome"] \
        == "ordinal"
    folds = mm.evaluate(X, levels, run=run, n_folds=3, progress=False).folds
    assert set(folds.classifier) == {"ridge"} and folds.rmse.notna().all()
    # the command line's choices (read from the registry when the parser is built)
    args = build_parser().parse_args(["run", str(table), "--target", "level",
                                      "--outcome", "ordinal"])
    assert args.outcome == "ordinal"
    # removed, it is refused where it was taken
    default_registry().unregister("ordinal")
    try:
        assert "ordinal" not in available_outcome_kinds()["name"].tolist()
        with pytest.raises(ValueError, match="'outcome' parameter of RunSpec"):
            mm.RunSpec(outcome="ordinal")
        # not called damage: the kind a package registers is missing, and how to add it
        with pytest.raises(DataError, match=r"made with the outcome kind 'ordinal', which is "
                           r"not registered here \(the kinds here: 'classification', "
                           r"'regression', 'survival'\): install or import the package"):
            mm.MiningRun.load(tmp_path / "run")
    finally:
        register_outcome_kind(ordinal)  # for the fixture's own removal


def test_an_unknown_kind_names_the_parameter_and_the_kinds():
    with pytest.raises(InvalidParameterError) as caught:
        outcome_kind("regresion", func="run")
    assert caught.value.param == "outcome" and caught.value.func == "run"
    assert str(caught.value) == (
        "The 'outcome' parameter of run must be one of the outcome kinds ('classification', "
        "'regression', 'survival'). Got 'regresion' instead. Did you mean 'regression'?")
    with pytest.raises(ValueError, match="'classification', 'regression', 'survival'"):
        mm.RunSpec(outcome="regresion")


def test_a_kind_states_its_facts_once():
    for name in ("classification", "regression", "survival"):
        kind = outcome_kind(name)
        assert isinstance(kind, OutcomeKind) and kind.name == name
        assert mm.RunSpec(outcome=name).selector_name == kind.default_selector
        assert (kind.classes, kind.censored) == (name == "classification",
                                                 name == "survival")
        assert set(kind.measures) >= {kind.error_measure}
    with pytest.raises(ValueError, match="'censored' parameter of OutcomeKind"):
        dataclasses.replace(outcome_kind("classification"), name="both", censored=True)
    survival = outcome_kind("survival")  # immutable all the way down
    with pytest.raises(dataclasses.FrozenInstanceError):
        survival.default_selector = "cox-score"
    with pytest.raises(TypeError):
        survival.models["cox"] = survival.models["coxph"]


#: Comparisons of an outcome with the name of a kind (the brief's measure), and tables
#: keyed by the names.
_COMPARED = re.compile(r"outcome ?(==|!=|in|not in) ?[\(\"'\{]|== ?[\"'](regression|survival|"
                       r"classification)[\"']|\{\s*[\"'](regression|survival)[\"']\s*:")


def test_no_module_outside_the_registry_compares_outcome_names():
    found = [f"{path.relative_to(ROOT.parent)}:{n}"
             for path in sorted(ROOT.rglob("*.py"))
             if path.parent.name != "outcomes" or path.name not in ("_kinds.py", "_builtin.py")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if _COMPARED.search(line)]
    assert found == []
