"""The run's settings declared once (issue 38, item 1): ``modelmine.spec.SETTINGS``.

Truths: the table itself (each door's keyword defaults are read from the signatures and
compared with it), docs/DEVELOPING.md (it must hold the table the code renders), and a
made-up setting added to the table in a fixture, which must reach RunSpec, run.json, the
command line and the docs with no other edit.
"""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

import modelmine as mm
import modelmine.spec as spec_module
from modelmine import _schema
from modelmine.base_models import bootstrap
from modelmine.cli import build_parser
from modelmine.cli._commands import run_spec
from modelmine.cli._main import option_of
from modelmine.estimator import ModelMiningSelector
from modelmine.exceptions import DataError
from modelmine.pipeline import MiningRun
from modelmine.spec import SETTINGS, Integer, RunSpec, Setting, settings_schema, settings_table

DEVELOPING = Path(__file__).resolve().parents[1] / "docs" / "DEVELOPING.md"

#: The settings a door does not take, each with its reason (anything else it must take).
NOT_TAKEN = {
    # the base-model stage: no operators, itemsets or per-class panels yet
    "bootstrap": {"operators", "operator_params", "n_signatures", "min_support",
                  "signature_size", "per_class",
                  # clinical covariates are columns of the data that mm.run reads and
                  # takes out of X; bootstrap is given the features alone
                  "covariates",
                  # the gene map renames and collapses the columns mm.run reads;
                  # bootstrap is given the features as they are
                  "feature_map", "feature_map_columns", "collapse", "unmapped"},
    # a scikit-learn selector of one operator (operator, operator_params of its own), on
    # classes, with the resampling it documents
    "ModelMiningSelector": {"operators", "min_support", "signature_size",
                            "sample_fraction", "scale", "artificial_features",
                            "weighted_resampling", "per_class", "outcome", "max_per_class",
                            "fit_full",
                            # covariates adjust regression and survival fits only
                            "covariates",
                            # a scikit-learn selector keeps the columns it is given
                            # (transform must return them): no gene map
                            "feature_map", "feature_map_columns", "collapse",
                            "unmapped"},
}
#: Defaults a door states on purpose (see the comment above ModelMiningSelector.__init__).
OWN_DEFAULTS = {"run": {"covariates": None},  # None: those read with the data, if any
                "ModelMiningSelector": {"selector": "svm-rfe", "n_signatures": None,
                                        "operator_params": None,
                                        # scikit-learn's parameters are plain values: "auto"
                                        # stands for the table's m (decided by the data)
                                        "n_features": "auto"}}


def _keywords(func):
    return {n: p.default for n, p in inspect.signature(func).parameters.items()
            if p.default is not inspect.Parameter.empty}


@pytest.mark.parametrize("door,func", [("run", mm.run), ("bootstrap", bootstrap),
                                       ("ModelMiningSelector", ModelMiningSelector.__init__)])
def test_every_door_takes_the_table_defaults(door, func):
    keywords = _keywords(func)
    table = {s.name: s.default for s in SETTINGS}
    missing = set(table) - set(keywords) - NOT_TAKEN.get(door, set())
    assert not missing, f"{door} lacks the settings {sorted(missing)}"
    for name, default in table.items():
        if name in keywords:
            expected = OWN_DEFAULTS.get(door, {}).get(name, default)
            assert keywords[name] == expected, (door, name, keywords[name], expected)


def test_runspec_defaults_are_the_table():
    declared = {f.name: f.default for f in dataclasses.fields(RunSpec)}
    assert set(declared) == {s.name for s in SETTINGS}
    for one in SETTINGS:
        assert declared[one.name] == one.default, one.name


def test_one_b_m_and_seed_at_every_door():
    """b, m and the seed: one default each (150, 20, 0), at the API doors, the estimator
    and the command line."""
    parser = build_parser()
    args = parser.parse_args(["run", "embedded:colon"])
    for name, value in (("n_bootstraps", 150), ("n_features", 20), ("random_state", 0)):
        assert spec_module.defaults()[name] == value
        assert _keywords(mm.run)[name] == value
        assert _keywords(bootstrap)[name] == value
        own = _keywords(ModelMiningSelector.__init__)[name]
        assert own == value or (name, own) == ("n_features", "auto")
        assert getattr(args, name) == value


def test_the_defaults_the_data_decide_are_equal_at_every_door(tmp_path):
    """m unset is decided by the data at every door: round(p / 3) below 60 features
    (issue 39 item 3; the oracle: the rule the table states, default_n_features), 20 above;
    an m the user gives is kept (capped at p with a warning), even when it equals 20."""
    import json

    import numpy as np

    from modelmine.cli._main import main
    from modelmine.constants import default_n_features

    rng = np.random.default_rng(0)
    for p in (14, 75):
        X = rng.normal(size=(40, p))
        y = np.repeat([0, 1], 20)
        expected = default_n_features(p)
        assert expected == (round(p / 3) if p < 60 else 20)
        kw = dict(selector="anova", n_bootstraps=4, progress=False)
        assert mm.run(X, y, **kw, operators=["mostFreq"]).settings["n_features"] == expected
        assert bootstrap(X, y, **kw).n_features == expected
        est = ModelMiningSelector(selector="anova", n_bootstraps=4, operator="mostFreq")
        assert est.fit(X, y).n_features_ == expected
        assert mm.evaluate(X, y, selectors=["anova"], operators=["mostFreq"],
                           classifiers=["1nn"], n_folds=2, n_bootstraps=4,
                           progress=False).settings["n_features"] == expected
        spec = RunSpec(selector="anova", n_bootstraps=4)
        assert spec.for_data(p).n_features == expected
        assert type(spec.for_data(p).n_features) is int  # the record holds a number
        if p > 60:
            continue  # the command line once, on the table of few variables
        path = tmp_path / f"p{p}.csv"
        np.savetxt(path, np.column_stack([X, y]), delimiter=",", comments="",
                   header=",".join([f"g{j}" for j in range(p)] + ["y"]))
        out = tmp_path / f"out{p}"
        assert main(["run", str(path), "-t", "y", "-s", "anova", "-b", "4", "--operator",
                     "mostFreq", "--out", str(out), "--quiet"]) == 0
        assert json.loads((out / "run.json").read_text())["settings"]["n_features"] == expected
    X = rng.normal(size=(40, 14))
    with pytest.warns(UserWarning, match="n_features=20 is above"):
        assert bootstrap(X, y, selector="anova", n_bootstraps=4, n_features=20,
                         progress=False).n_features == 14
    assert RunSpec(selector="anova", n_features=20).for_data(14).n_features == 20
    # the estimator's plain-value spelling of the table's default, and nothing else
    with pytest.raises(ValueError, match=r"'n_features' parameter of ModelMiningSelector "
                                         r"must be an integer >= 1 or 'auto'. Got 'all'"):
        ModelMiningSelector(selector="anova", n_bootstraps=4, n_features="all").fit(X, y)


def test_docs_hold_the_table():
    text = DEVELOPING.read_text()
    assert settings_table() in text, ("docs/DEVELOPING.md's 'Run settings' table differs from "
                                      "modelmine.spec.settings_table(): paste its output")


@pytest.fixture
def widgets(monkeypatch):
    """A made-up setting, declared in the table and nowhere else."""
    made_up = Setting("n_widgets", 3, Integer(1), "widgets per resample (a test)",
                      ("--n-widgets",), metavar="W")
    monkeypatch.setattr(spec_module, "SETTINGS", (*SETTINGS, made_up))
    return made_up


def test_a_new_setting_reaches_api_files_cli_and_docs(widgets, tmp_path):
    # the API: RunSpec takes it, checks it with its constraint, defaults it
    spec = RunSpec(selector="anova", n_widgets=5)
    assert spec.n_widgets == 5
    assert RunSpec(selector="anova").n_widgets == 3
    with pytest.raises(ValueError, match="'n_widgets' parameter of RunSpec must be an "
                                         "integer >= 1"):
        RunSpec(selector="anova", n_widgets=0)
    with pytest.raises(TypeError, match="'n_widgets' parameter of RunSpec"):
        RunSpec(selector="anova", n_widgets="many")
    assert spec.replace(n_bootstraps=20).n_widgets == 5
    assert spec.replace(n_widgets=7).n_widgets == 7
    # run.json: stored under its key, checked by the derived schema, read back
    stored = spec.to_settings()
    assert stored["n_widgets"] == 5
    _schema.check(stored, settings_schema(), "'run.json'")
    with pytest.raises(DataError, match="'n_widgets' must be an integer >= 1"):
        _schema.check({**stored, "n_widgets": 0}, settings_schema(), "'run.json'")
    back = RunSpec.from_settings(stored)
    assert back.n_widgets == 5 and back.to_settings() == stored
    assert "n_widgets" not in RunSpec(selector="anova").to_settings()  # at its default
    # the command line: an option of `modelmine run`, checked, into the run's spec
    parser = build_parser()
    args = parser.parse_args(["run", "embedded:colon", "--n-widgets", "4", "-s", "anova"])
    assert args.n_widgets == 4 and run_spec(args, operators=["closedApr"]).n_widgets == 4
    assert parser.parse_args(["run", "embedded:colon"]).n_widgets == 3
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "embedded:colon", "--n-widgets", "0"])
    assert option_of("n_widgets") == "--n-widgets"
    # the docs table
    assert ("| `n_widgets` | `3` | an integer >= 1 | `--n-widgets` | `n_widgets` | widgets "
            "per resample (a test) |") in settings_table()


#: Every door that takes a setting of the base models' stage, as the user reaches it.
DOORS = {"run": mm.run, "bootstrap": bootstrap, "evaluate": mm.evaluate,
         "RunSpec": RunSpec, "ModelMiningSelector": ModelMiningSelector,
         "evaluate_outcome": mm.evaluation.evaluate_outcome,
         "selection_null": mm.evaluation.selection_null,
         "evaluate_thresholds": mm.evaluation.evaluate_thresholds,
         "compare_aggregations": mm.evaluation.compare_aggregations,
         "grouping_effect": mm.evaluation.grouping_effect,
         "leave_one_group_out": mm.evaluation.leave_one_group_out,
         "marker_panels": mm.singlecell.marker_panels}


@pytest.mark.parametrize("name", sorted(DOORS))
def test_a_new_setting_is_a_documented_keyword_of_every_door(widgets, name):
    """The signature (inspect.signature: what IDEs and scikit-learn's get_params read) and
    the numpydoc Parameters of each door, from the table's row alone; and they go when
    the row goes (the fixture's teardown restores the table)."""
    door = DOORS[name]
    params = inspect.signature(door).parameters
    assert params["n_widgets"].default == 3
    assert params["n_widgets"].kind is inspect.Parameter.KEYWORD_ONLY
    doc = inspect.getdoc(door)
    assert "n_widgets : int, default=3\n    Widgets per resample (a test)." in doc
    assert _documented_parameters(door) == [
        f"**{p}" if params[p].kind is inspect.Parameter.VAR_KEYWORD else p
        for p in params if p != "self"]


def test_the_keywords_go_with_the_row():
    for door in DOORS.values():
        assert "n_widgets" not in inspect.signature(door).parameters
        assert "n_widgets" not in (inspect.getdoc(door) or "")


def _documented_parameters(func):
    """The names of the Parameters section, read from the text (the truth to compare with
    the signature); ``a, b, c`` lines name several."""
    doc = inspect.getdoc(func)
    section = doc.split("Parameters\n----------\n", 1)[1].split("\n\n", 1)[0]
    names = []
    for line in section.splitlines():
        if line and not line.startswith(" "):
            names += [n.strip() for n in line.split(" : ", 1)[0].split(",")]
    return names


def test_a_new_setting_reaches_the_base_models_of_every_door(widgets, tmp_path):
    """mm.run, mm.bootstrap, mm.evaluate (each fold's base models, read back from its
    cache), mm.resume (through checkpoint.json) and the estimator (get_params,
    set_params, clone) hand it to the base models they fit, in their record."""
    import numpy as np
    from sklearn.base import clone

    from modelmine.operators import default_registry, register_operator

    X, y = mm.datasets.load_colon()
    X = X[:, :60]
    kw = dict(selector="anova", n_bootstraps=4, n_features=5, progress=False)
    r = mm.run(X, y, n_widgets=5, operators=["mostFreq"], **kw)
    assert r.spec.n_widgets == 5 and r.base_models.spec.n_widgets == 5
    assert r.settings["n_widgets"] == 5
    assert MiningRun.load(r.save(tmp_path / "run")).spec.n_widgets == 5
    with pytest.raises(TypeError, match="'spec' parameter of run must be given alone"):
        mm.run(X, y, spec=r.spec, n_widgets=5)
    assert bootstrap(X, y, n_widgets=6, **kw).spec.n_widgets == 6
    result = mm.evaluate(X, y, selectors=["anova"], operators=["mostFreq"],
                         classifiers=["1nn"], n_folds=2, n_bootstraps=4, n_features=5,
                         n_widgets=7, cache_dir=tmp_path / "cache", progress=False)
    cached = sorted((tmp_path / "cache").glob("*.npz"))
    assert len(cached) == 2 == len(result.fold_indices)
    assert {mm.BaseModels.load(c).spec.n_widgets for c in cached} == {7}
    # resume: the setting is in the checkpoint, the resumed run has it
    calls = {"n": 0}

    @register_operator("failsOnceTest", kind="single")
    def fails_once(base, *, n_features):
        """Fails on its first call (a killed run's stand-in)."""
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("stopped")
        return np.arange(n_features)

    try:
        with pytest.raises(RuntimeError, match="stopped"):
            mm.run(X, y, n_widgets=8, operators=["failsOnceTest"], run_dir=tmp_path / "d",
                   **kw)
        assert mm.resume(tmp_path / "d", X, y).spec.n_widgets == 8
    finally:
        default_registry().unregister("failsOnceTest")
    # the estimator: a parameter as any other
    est = ModelMiningSelector(selector="anova", operator="mostFreq", n_bootstraps=4,
                              n_features=5, n_widgets=9)
    assert est.get_params()["n_widgets"] == 9
    assert clone(est).get_params()["n_widgets"] == 9
    est.set_params(n_widgets=2)
    assert est.fit(X, y).base_models_.spec.n_widgets == 2
    # the studies: their base models' settings (their results keep the spec)
    kw = dict(n_bootstraps=4, progress=False)
    assert mm.evaluation.selection_null(X, y, "anova", n_widgets=4, n_permutations=10,
                                        **kw).spec.n_widgets == 4
    assert mm.evaluation.evaluate_thresholds(
        X, y, selectors=["anova"], thresholds=[0.1], n_folds=2, n_widgets=5,
        **kw).spec.n_widgets == 5
    assert mm.evaluation.compare_aggregations(
        X, y, operators=["meanScore"], n_folds=2, thresholds=[0.5], n_widgets=6,
        **kw).spec.n_widgets == 6
    # the subcommands whose base models it shapes, and their defaults
    parser = build_parser()
    for line in (["lattice", "embedded:colon"], ["evaluate", "embedded:colon"],
                 ["markers", "cells.h5ad", "--groupby", "obs:leiden"]):
        assert parser.parse_args(line).n_widgets == 3
        assert parser.parse_args([*line, "--n-widgets", "4"]).n_widgets == 4


def test_a_field_s_own_check_never_replaces_the_table_s_constraint(monkeypatch):
    """The trap of issue 48: a setting with a field of RunSpec (and rules of its own) is
    still checked by its row's constraint: declare a stricter one, and it applies."""
    stricter = [dataclasses.replace(s, constraint=Integer(5, allow_none=True))
                if s.name == "max_per_class" else s for s in SETTINGS]
    monkeypatch.setattr(spec_module, "SETTINGS", tuple(stricter))
    with pytest.raises(ValueError, match=r"'max_per_class' parameter of RunSpec must be an "
                                         r"integer >= 5 or None\. Got 3"):
        RunSpec(max_per_class=3)
    assert RunSpec(max_per_class=6).max_per_class == 6


def test_cli_options_of_the_settings_are_derived():
    """Every setting with flags is an option of `modelmine run` with the table's default,
    and messages name it."""
    parser = build_parser()
    args = parser.parse_args(["run", "embedded:colon"])
    from modelmine.cli._options import setting_dest

    for one in SETTINGS:
        if not one.flags:
            continue
        value = getattr(args, setting_dest(one.name))
        if one.name in ("operators", "selector_params"):
            assert value in (None, [])  # the table's default applies (run_spec)
        else:
            assert value == one.default, one.name
        assert option_of(one.name) == one.option
    spec = run_spec(args, operators=list(spec_module.DEFAULT_OPERATORS))
    assert spec == RunSpec(func="run")


def test_the_outcomes_default_selectors_are_stated_as_the_code_has_them():
    """Issue 48: the regression default had become lasso while five texts still said
    svr-rfe. Every text that lists the three defaults (docs, docstrings, help) lists
    DEFAULT_SELECTORS, and the help and the docstrings derive it."""
    import re

    from modelmine.spec import DEFAULT_SELECTORS

    truth = ", ".join(DEFAULT_SELECTORS.values())
    root = Path(__file__).resolve().parents[1]
    files = [root / "README.md", *sorted((root / "docs").glob("*.md")),
             *sorted((root / "modelmine").rglob("*.py"))]
    found = 0
    for path in files:
        for listed in re.findall(r"svm-rfe, [a-z-]+, coxnet", path.read_text("utf-8")):
            found += 1
            assert listed == truth, (path, listed)
    assert found >= 2
    helped = " ".join(build_parser()._subparsers._group_actions[0].choices["run"]
                      .format_help().split())
    assert (f"(default: {DEFAULT_SELECTORS['classification']}; "
            f"{DEFAULT_SELECTORS['regression']} with --outcome regression") in helped
    for door in (mm.run, bootstrap, RunSpec):
        assert f"'{DEFAULT_SELECTORS['regression']}' for regression" in " ".join(
            inspect.getdoc(door).split())
