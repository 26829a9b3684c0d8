"""Selectors, stability measures, classifiers and operators share one registry pattern."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

import modelmine as mm
from modelmine._registry import AVAILABLE_COLUMNS
from modelmine.diagnostics import MeasureRegistry
from modelmine.evaluation import ClassifierRegistry
from modelmine.exceptions import PluginWarning
from modelmine.outcomes import OutcomeKindRegistry, outcome_kind
from modelmine.selectors import Selector, SelectorOutput, SelectorRegistry


class FakeEntryPoint:
    def __init__(self, name, obj, dist="fake-plugin", error=None):
        self.name, self._obj, self._error = name, obj, error
        self.value = f"fake_module:{name}"
        self.dist = type("Dist", (), {"name": dist})()

    def load(self):
        if self._error is not None:
            raise self._error
        return self._obj


class VarianceSelector(Selector):
    """Variance of each feature (a test selector)."""

    name = "variance"

    def select(self, X, y, *, random_state):
        return SelectorOutput(scores=np.asarray(X, dtype=float).var(axis=0))


def test_every_available_has_one_shape():
    for table in (mm.operators.available_operators(), mm.selectors.available_selectors(),
                  mm.diagnostics.available_measures(), mm.evaluation.available_classifiers(),
                  mm.outcomes.available_outcome_kinds()):
        assert list(table.columns) == AVAILABLE_COLUMNS
        assert len(table) > 0 and table["name"].is_unique
        assert (table.loc[table["entry_point"].isna(), "origin"] == "built-in").any()
    assert {"chi2", "anova", "ig", "su", "relieff", "svm-rfe", "svm", "l1-logistic",
            "random-forest"} <= set(mm.selectors.available_selectors()["name"])
    assert set(mm.evaluation.available_classifiers()["name"]) >= {"svm", "1nn", "tree"}


def test_selector_registry_decorator_conflicts_and_closest_names(monkeypatch):
    reg = SelectorRegistry(group=None)
    reg.register(VarianceSelector)
    assert reg.entry("variance").obj is VarianceSelector
    assert reg.available().set_index("name").loc["variance", "kind"] == "scores"
    with pytest.raises(ValueError, match=r"'variance' is already registered by .*"
                                         r"test_registries.*cannot register it too"):
        reg.register(VarianceSelector)
    with pytest.raises(ValueError, match=r"registered as 'var' but its class "
                                         r"VarianceSelector says name = 'variance'"):
        SelectorRegistry(group=None).register(VarianceSelector, name="var")
    with pytest.raises(ValueError, match=r"'selector' parameter of get must be one of the "
                                         r"available selectors .*Did you mean 'variance'\?"):
        reg.entry("varience")
    # The default registry: a decorated class is usable by name in bootstrap at once.
    default = mm.selectors.default_registry()
    monkeypatch.setattr(default, "_entries", dict(default._entries))
    mm.selectors.register_selector(VarianceSelector)
    X, y = mm.datasets.load_colon()
    base = mm.bootstrap(X, y, selector="variance", n_bootstraps=2, n_features=5,
                        random_state=0)
    Xb = X[base.sample_indices[0]].astype(float)
    np.testing.assert_allclose(base.scores[0], Xb.var(axis=0), rtol=1e-5)
    with pytest.raises(ValueError, match=r"Did you mean 'variance'\?"):
        mm.bootstrap(X, y, selector="varianse", n_bootstraps=2, n_features=5)


def test_selector_plugins_load_lazily_and_broken_ones_warn(monkeypatch):
    reg = SelectorRegistry(group="test")
    eps = [FakeEntryPoint("variance", VarianceSelector),
           FakeEntryPoint("broken", None, error=ImportError("no such module")),
           FakeEntryPoint("notaselector", object)]
    monkeypatch.setattr(reg, "_entry_points", lambda: eps)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = reg.names()
    assert "variance" in names and "broken" not in names and "notaselector" not in names
    assert sum(issubclass(w.category, PluginWarning) for w in caught) == 2
    row = reg.available().set_index("name").loc["variance"]
    assert row["origin"] == "fake-plugin"
    assert row["entry_point"] == "variance = fake_module:variance"


def test_outcome_kinds_load_lazily_conflict_loudly_and_are_fitted_as_their_values(
        monkeypatch):
    reg = OutcomeKindRegistry(group="test")
    regression = outcome_kind("regression")
    ordinal = dataclasses.replace(regression, name="ordinal")
    eps = [FakeEntryPoint("ordinal", ordinal),
           FakeEntryPoint("broken", None, error=ImportError("no such module")),
           FakeEntryPoint("notakind", object()), FakeEntryPoint("levels", ordinal)]
    monkeypatch.setattr(reg, "_entry_points", lambda: eps)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = reg.names()
    assert names == ["classification", "regression", "survival", "ordinal"]
    assert sum(issubclass(w.category, PluginWarning) for w in caught) == 3
    row = reg.available().set_index("name").loc["ordinal"]
    assert (row["kind"], row["origin"]) == ("regression", "fake-plugin")
    assert reg.kind("ordinal") is ordinal
    with pytest.raises(ValueError, match=r"'ordinal' is already registered by 'fake-plugin'"
                                         r".*cannot register it too"):
        reg.register(ordinal)
    # numbers cannot be fitted by the selectors of censored times
    with pytest.raises(ValueError, match=r"'fitted_as' parameter of register_outcome_kind"):
        reg.register(dataclasses.replace(regression, name="times", fitted_as="survival"))
    with pytest.raises(TypeError, match="must be an OutcomeKind"):
        reg.register("ordinal")
    with pytest.raises(ValueError, match=r"Did you mean 'ordinal'\?"):
        reg.kind("ordnal", func="run")


def test_measure_registry_and_stability_by_name():
    reg = MeasureRegistry(group=None)

    @reg.register("overlap_count", kind="subsets", reference="a test measure")
    def overlap_count(Z, n_features_in=None):
        return float(np.asarray(Z).all(axis=0).sum())

    assert reg.entry("overlap_count").kind == "subsets"
    with pytest.raises(ValueError, match="already registered"):
        reg.register("overlap_count", overlap_count)
    with pytest.raises(ValueError, match=r"'kind' parameter of register_measure must be one "
                                         r"of 'subsets', 'rankings', 'scores'"):
        reg.register("bad", overlap_count, kind="sets")
    X, y = mm.datasets.load_colon()
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=5, n_features=5, random_state=0)
    for name in ("nogueira", "spearman", "score_std"):
        assert mm.diagnostics.stability(base, name).value == pytest.approx(
            mm.diagnostics.get_measure(name).func(
                {"subsets": base.subsets, "rankings": base.tied_ranks(),
                 "scores": base.scores}[mm.diagnostics.get_measure(name).kind]).value)


def test_classifier_registry_is_used_by_evaluate(monkeypatch):
    reg = ClassifierRegistry(group=None)
    reg.register("logreg", lambda: LogisticRegression(max_iter=200),
                 description="logistic regression")
    est = reg.make("logreg")
    assert isinstance(est, LogisticRegression) and est is not reg.make("logreg")
    with pytest.raises(ValueError, match=r"'classifiers' parameter of make_classifier must "
                                         r"be one of the available classifiers .*Did you "
                                         r"mean 'logreg'\?"):
        reg.make("logrec")
    import modelmine.evaluation._classifiers as module

    default = module._DEFAULT
    default.names()  # loaded first: a copy of a registry not yet filled would stay empty
    monkeypatch.setattr(default, "_entries", dict(default._entries))
    mm.evaluation.register_classifier("logreg", lambda: LogisticRegression(max_iter=200))
    X, y = mm.datasets.load_colon()
    res = mm.evaluate(X, y, selectors=["anova"], operators=["mostFreq"],
                      classifiers=["logreg"], n_folds=2, n_bootstraps=3, n_features=5,
                      random_state=0)
    assert set(res.folds["classifier"]) == {"logreg"}


_SHAPE = {
    "operator": mm.operators, "selector": mm.selectors, "measure": mm.diagnostics,
    "classifier": mm.evaluation,
}


@pytest.mark.parametrize("thing", sorted(_SHAPE))
def test_every_registry_has_the_same_three_doors(thing):
    """issue 23: register_<thing>, get_<thing>, available_<things>() everywhere, the
    listing in one shape, and what get_ returns is what the listing names."""
    module = _SHAPE[thing]
    register = getattr(module, f"register_{thing}")
    get = getattr(module, f"get_{thing}")
    table = getattr(module, f"available_{thing}s")()
    assert list(table.columns) == list(AVAILABLE_COLUMNS) or set(AVAILABLE_COLUMNS) <= set(
        table.reset_index().columns)
    assert callable(register)
    first = table["name"].iloc[0] if "name" in table.columns else table.index[0]
    assert get(first) is not None


def test_register_selector_takes_the_shared_shape(monkeypatch):
    """register_selector("name", cls) and @register_selector("name") as the other
    registries; the earlier bare and name= forms still work."""
    registry = SelectorRegistry(group=None)
    monkeypatch.setattr(mm.selectors._builtin, "_DEFAULT", registry)

    def make(label):
        return type(f"Spread_{label}", (VarianceSelector,), {"name": label})

    a = make("spread-a")
    mm.selectors.register_selector("spread-a", a)
    mm.selectors.register_selector("spread-b")(make("spread-b"))
    mm.selectors.register_selector(name="spread-c")(make("spread-c"))
    mm.selectors.register_selector(make("spread-d"))
    names = set(mm.selectors.available_selectors()["name"])
    assert {"spread-a", "spread-b", "spread-c", "spread-d"} <= names
    assert isinstance(mm.selectors.get_selector("spread-a"), a)
    assert repr(mm.evaluation.get_classifier("1nn")) == \
        repr(mm.evaluation.make_classifier("1nn"))


def test_register_operator_takes_everything_declare_operator_takes():
    """One path: register_operator marks the function as declare_operator does, then
    registers the mark (variable_size and requires included), and leaves the function as
    it was."""
    import inspect

    from modelmine.operators import OperatorRegistry, declare_operator

    declared = set(inspect.signature(declare_operator).parameters) - {"name", "func"}
    registered = set(inspect.signature(OperatorRegistry.register).parameters) - {
        "self", "name", "func"}
    assert declared == registered

    reg = OperatorRegistry(group=None)

    def capped_top(base, *, n_features=None):
        return base.frequencies().to_numpy().argsort()[::-1][: n_features or 3]

    reg.register("cappedTop", capped_top, variable_size=True, requires=("scores",))
    op = reg.get("cappedTop")
    assert op.variable_size and op.requires == ("scores",)
    assert not hasattr(capped_top, "__modelmine_operator__")
