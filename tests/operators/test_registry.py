"""The operator registry: decorator, entry points, conflicts, protocol, bad input."""

from __future__ import annotations

import types
import warnings

import numpy as np
import pytest

import modelmine as mm
from modelmine.exceptions import PluginWarning
from modelmine.operators import (
    OperatorRegistry,
    Signature,
    SignatureSet,
    aggregate,
    available_operators,
    declare_operator,
    default_registry,
    register_operator,
)
from modelmine.testing import make_base_models


@pytest.fixture
def base():
    return make_base_models()


@pytest.fixture
def reg():
    return OperatorRegistry(group=None)


class FakeEntryPoint:
    def __init__(self, name, obj, dist="fake-plugin", error=None):
        self.name, self.value, self._obj, self._error = name, f"fake_mod:{name}", obj, error
        self.dist = types.SimpleNamespace(name=dist)

    def load(self):
        if self._error:
            raise self._error
        return self._obj


def plugin_registry(monkeypatch, eps):
    reg = OperatorRegistry(group="modelmine.operators")
    calls = {"n": 0}

    def fake():
        calls["n"] += 1
        return eps

    monkeypatch.setattr(reg, "_entry_points", fake)
    return reg, calls


def test_decorator_usable_at_once_in_default_registry(base):
    try:
        @register_operator("topTwoTest", kind="single")
        def top_two(base, *, n_features):
            """Top by frequency."""
            return np.argsort(-base.subsets.mean(axis=0), kind="stable")[:n_features]

        sig = aggregate(base, "topTwoTest", n_features=2)
        assert isinstance(sig, Signature) and len(sig) == 2
        row = available_operators().set_index("name").loc["topTwoTest"]
        assert row["kind"] == "single" and row["description"] == "Top by frequency."
        assert row["origin"] == "tests" or row["origin"].startswith("test")
        assert sig.provenance["operator"] == "topTwoTest"
    finally:
        default_registry().unregister("topTwoTest")
    assert "topTwoTest" not in default_registry()


def test_available_lists_builtins(reg):
    table = reg.available()
    assert list(table.columns[:4]) == ["name", "kind", "origin", "description"]
    for name in ("avgRank", "mostFreq", "closedApr", "maxApr", "mostRep", "largeMed",
                 "medClosedApr", "medMaxApr", "allMed", "allClosedApr", "allMaxApr",
                 "allMedClosedApr", "meanScore", "geomMean", "l2Norm", "stuart", "rra",
                 "nobagg"):
        assert name in set(table["name"])
    assert set(table["origin"]) == {"built-in"}
    assert set(table.set_index("name").loc[["allMed", "allClosedApr"], "kind"]) == {"multi"}


def test_duplicate_name_names_both_owners(reg):
    with pytest.raises(ValueError, match=r"'closedApr' is already registered by 'built-in' "
                       r"\(modelmine\.operators\._itemsets\.closed_apr\); .*test_registry"):
        @reg.register("closedApr")
        def mine(base, *, n_features):
            return np.arange(n_features)


@pytest.mark.parametrize("func,reason", [
    (lambda base, k: None, "must accept the keyword parameter 'n_features'"),
    (lambda base, *args, n_features: None, r"\*args is not allowed"),
    (lambda base, *, n_features, **kw: None, r"\*\*kw is not allowed"),
    (lambda base, *, n_features, alpha: None, "parameter 'alpha' has no default"),
    (lambda *, n_features: None, "must take the base models positionally"),
    (lambda base=None, *, n_features: None, "must not have a default"),
])
def test_protocol_refused_at_registration(reg, func, reason):
    with pytest.raises(TypeError, match=r"cannot be registered: its call signature .* does "
                       r"not fit the operator protocol: .*" + reason):
        reg.register("bad", func)
    assert "bad" not in reg


def test_multi_protocol_needs_n_signatures(reg):
    with pytest.raises(TypeError, match="must accept the keyword parameter 'n_signatures'"):
        reg.register("badMulti", lambda base, *, n_features: [], kind="multi")


def test_unknown_operator_lists_available_and_closest(base):
    with pytest.raises(ValueError, match=r"The 'operator' parameter of aggregate must be one "
                       r"of the available operators \('avgRank', .*'allMed'.*\)\. Got "
                       r"'closedAprr' instead\. Did you mean 'closedApr'\?"):
        aggregate(base, "closedAprr")


def test_n_features_out_of_range_is_capped_and_recorded(base, reg):
    """The one capping policy (modelmine.spec.capped): m above what an operator can return
    is capped with a warning and recorded, and the capped signature is the one asked at
    the cap (an invariant); m below 1 is refused."""
    p = base.n_features_in
    selected = int(base.subsets.any(axis=0).sum())
    for name, asked, cap in (("avgRank", p + 1, p), ("closedApr", 39, selected),
                             ("mostRep", 9, 8)):  # a base model holds 8 features
        with pytest.warns(mm.exceptions.SizeCappedWarning,
                          match=rf"n_features={asked} is above the {cap} features {name} "
                                rf"can return .*: aggregate uses n_features={cap}\."):
            sig = reg.aggregate(base, name, n_features=asked)
        assert len(sig) == cap
        assert sig.provenance["n_features_requested"] == asked
        assert sig.provenance["n_features_cap"] == cap
        assert list(sig.features) == list(reg.aggregate(base, name, n_features=cap).features)
    with pytest.raises(ValueError, match=r"The 'n_features' parameter of aggregate must be "
                                         r"an integer >= 1\. Got 0 instead\."):
        reg.aggregate(base, "avgRank", n_features=0)
    with pytest.raises(TypeError, match=r"'n_features' parameter of aggregate must be an "
                       "integer"):
        reg.aggregate(base, "avgRank", n_features=2.5)


def test_too_many_signatures_for_distinct_models_are_capped_and_recorded(reg):
    base = make_base_models(n_models=12)
    dup = type(base)(**{**base.__dict__, "subsets": np.repeat(base.subsets[:3], 4, axis=0),
                        "ranks": np.repeat(base.ranks[:3], 4, axis=0)})
    capped = reg.aggregate(dup, "allMed", n_signatures=4)
    assert len(capped) == 3
    assert capped.provenance["n_signatures_requested"] == 4
    assert capped.provenance["n_signatures_cap"] == 3
    assert "3 distinct" in capped.provenance["n_signatures_capped_because"]
    exact = reg.aggregate(dup, "allMed", n_signatures=3)
    assert len(exact) == 3 and "n_signatures_requested" not in exact.provenance
    assert [s.features.tolist() for s in exact] == [s.features.tolist() for s in capped]


def test_other_bad_parameters(base, reg):
    with pytest.raises(TypeError, match=r"The 'min_suport' parameter of aggregate must be a "
                       r"parameter of the operator 'closedApr' \(it accepts: 'min_support', "
                       r"'strategy'\)"
                       r"\. Got an unknown parameter instead\. Did you mean 'min_support'\?"):
        reg.aggregate(base, "closedApr", min_suport=0.5)
    with pytest.raises(ValueError, match=r"The 'n_signatures' parameter of aggregate must be "
                       r"None for the single-model operator 'avgRank'"):
        reg.aggregate(base, "avgRank", n_signatures=3)
    with pytest.raises(ValueError, match=r"The 'min_support' parameter of closedApr must be a "
                       r"fraction in \(0, 1\] or a count"):
        reg.aggregate(base, "closedApr", min_support=1.5)
    with pytest.raises(ValueError, match=r"The 'lists' parameter of rra must be one of"):
        reg.aggregate(base, "rra", lists="top")
    with pytest.raises(ValueError, match=r"The 'k_range' parameter of largeMed must be an "
                       r"integer >= 2"):
        reg.aggregate(base, "largeMed", k_range=[1, 2])
    with pytest.raises(TypeError, match=r"The 'base' parameter of aggregate must be a "
                       r"modelmine.BaseModels"):
        reg.aggregate(np.zeros((3, 3)), "avgRank")
    with pytest.raises(ValueError, match=r"The 'random_state' parameter of aggregate"):
        reg.aggregate(base, "allMed", random_state=-1)
    nofull = type(base)(**{**base.__dict__, "full_model": None})
    with pytest.raises(ValueError, match="fit_full=True"):
        reg.aggregate(nofull, "nobagg")
    noscores = type(base)(**{**base.__dict__, "scores": None})
    with pytest.raises(ValueError, match="gives only rankings"):
        reg.aggregate(noscores, "meanScore")


def test_entry_points_lazy_cached_refresh(monkeypatch, base):
    @declare_operator(kind="single")
    def plug(base, *, n_features):
        """A plugin operator."""
        return np.arange(n_features)

    reg, calls = plugin_registry(monkeypatch, [FakeEntryPoint("plugOp", plug)])
    assert calls["n"] == 0  # lazy: nothing read at construction
    row = reg.available().set_index("name").loc["plugOp"]
    assert row["origin"] == "fake-plugin" and row["entry_point"] == "plugOp = fake_mod:plugOp"
    reg.names()
    reg.aggregate(base, "plugOp", n_features=3)
    assert calls["n"] == 1  # cached
    reg.refresh()
    assert calls["n"] == 2 and "plugOp" in reg


def test_broken_plugin_warns_and_others_load(monkeypatch):
    @declare_operator(kind="single")
    def good(base, *, n_features):
        return np.arange(n_features)

    def unmarked(base, *, n_features):
        return np.arange(n_features)

    @declare_operator(kind="single")
    def clash(base, *, n_features):
        return np.arange(n_features)

    eps = [FakeEntryPoint("broken", None, dist="broken-plugin", error=ImportError("boom")),
           FakeEntryPoint("unmarked", unmarked, dist="lazy-plugin"),
           FakeEntryPoint("avgRank", clash, dist="clash-plugin"),
           FakeEntryPoint("goodOp", good, dist="good-plugin")]
    reg, _ = plugin_registry(monkeypatch, eps)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = reg.names()
    messages = [str(w.message) for w in caught if issubclass(w.category, PluginWarning)]
    assert any("'broken-plugin' failed to load" in m and "ImportError: boom" in m
               for m in messages)
    assert any("'lazy-plugin'" in m and "declare_operator" in m for m in messages)
    assert any("'clash-plugin'" in m and "already registered by 'built-in'" in m
               for m in messages)
    assert "goodOp" in names and reg.get("avgRank").origin == "built-in"


@pytest.mark.parametrize("returned,kind", [("abc", "single"), (None, "single"),
                                           (np.array([0.5, 1.5]), "single"),
                                           ({"a": 1}, "multi"), (5, "multi")])
def test_wrong_return_type_names_plugin(monkeypatch, base, returned, kind):
    @declare_operator(kind=kind)
    def wrong(base, *, n_features=None, n_signatures=None):
        return returned

    reg, _ = plugin_registry(monkeypatch, [FakeEntryPoint("wrongOp", wrong,
                                                          dist="modelmine-wrong")])
    kwargs = {"n_features": 2} if kind == "single" else {"n_signatures": 2}
    with pytest.raises(TypeError, match=r"The operator 'wrongOp' from plugin "
                       r"'modelmine-wrong' \(.*wrong\) returned .*; a " + kind +
                       r"-model operator must return"):
        reg.aggregate(base, "wrongOp", **kwargs)


def test_wrong_size_and_bad_indices_are_refused(reg, base):
    reg.register("short", lambda base, *, n_features: np.arange(n_features - 1))
    reg.register("outside", lambda base, *, n_features: np.arange(100, 100 + n_features))
    with pytest.raises(ValueError, match="returned 2 features; n_features=3 were asked"):
        reg.aggregate(base, "short", n_features=3)
    with pytest.raises(ValueError, match=r"outside \[0, 40\)"):
        reg.aggregate(base, "outside", n_features=3)


def test_registry_instances_are_isolated(base):
    a, b = OperatorRegistry(group=None), OperatorRegistry(group=None)
    a.register("onlyInA", lambda base, *, n_features: np.arange(n_features))
    assert "onlyInA" in a and "onlyInA" not in b and "onlyInA" not in default_registry()


def test_multi_returns_list_of_indices_wrapped(reg, base):
    reg.register("twoSets", lambda base, *, n_signatures: [np.arange(i, i + 3)
                                                          for i in range(n_signatures)],
                 kind="multi", order_invariant=False)
    out = reg.aggregate(base, "twoSets", n_signatures=2)
    assert isinstance(out, SignatureSet) and out[1].features.tolist() == [1, 2, 3]
    assert out[1].provenance["signature"] == 1
    assert out.to_frame().loc[1, "features"] == "f1 f2 f3"


def test_signature_api(reg, base):
    sig = reg.aggregate(base, "mostFreq", n_features=4)
    frame = sig.to_frame()
    assert frame["index"].tolist() == sig.features.tolist()
    assert frame["feature"].tolist() == sig.names.tolist()
    mask = sig.mask(base.n_features_in)
    assert mask.sum() == 4 and mask[sig.features].all()
    assert np.array_equal(sig.mask(), mask)
    import json

    assert json.loads(sig.to_json())["features"] == sig.features.tolist()
    assert sig.provenance["base_models"]["n_models"] == base.n_models


def test_module_level_functions_use_default_registry():
    assert mm.operators.get_operator("allMed") is default_registry().get("allMed")


def test_register_operator_takes_what_declare_operator_takes(base):
    # Issue 38: register_operator dropped variable_size and requires, which
    # declare_operator (and OperatorRegistry.register) take; the docs promise the same.
    import inspect

    declared = set(inspect.signature(declare_operator).parameters) - {"func"}
    assert declared <= set(inspect.signature(register_operator).parameters)
    try:
        @register_operator("capTest", variable_size=True, requires=("artificial",))
        def cap(base, *, n_features):
            """Top by frequency, n_features a cap."""
            return np.argsort(-base.subsets.mean(axis=0), kind="stable")[:n_features]

        op = default_registry().get("capTest")
        assert op.variable_size is True and op.requires == ("artificial",)
    finally:
        default_registry().unregister("capTest")


def test_the_installed_distributions_are_scanned_once_per_refresh(monkeypatch):
    """The origin of a registered object is the distribution that provides its package
    (importlib.metadata's packages_distributions, which reads every installed distribution's
    file list): read once, and again after refresh(), which rescans for new plugins."""
    import importlib.metadata

    calls = []
    real = importlib.metadata.packages_distributions

    def counted():
        calls.append(1)
        return real()

    monkeypatch.setattr(importlib.metadata, "packages_distributions", counted)
    reg = OperatorRegistry(group=None)
    reg.refresh()  # forget what an earlier test read
    reg.register("fromTests", lambda base, *, n_features: np.arange(n_features))
    def numpy_like(base, *, n_features):
        return np.arange(n_features)

    numpy_like.__module__ = "numpy.lib"  # as a function of numpy's distribution
    reg.register("fromNumpy", numpy_like)
    assert len(calls) == 1
    assert reg.get("fromNumpy").origin == real()["numpy"][0] == "numpy"
    assert reg.get("fromTests").origin == __name__.split(".")[0]  # no distribution
    reg.refresh()
    reg.register("again", lambda base, *, n_features: np.arange(n_features))
    assert len(calls) == 2
