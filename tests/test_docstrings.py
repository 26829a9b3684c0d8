"""Shared docstring fragments (modelmine._docstring.fill_doc): substituted once, completely,
and the filled Parameters sections document exactly the functions' signatures."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import modelmine
from modelmine._docstring import fill_doc
from modelmine.operators._common import DOC_FRAGMENTS as OPERATOR_FRAGMENTS
from modelmine.selectors import gain_ratio, information_gain, symmetrical_uncertainty
from modelmine.selectors._information import DOC_FRAGMENTS as SELECTOR_FRAGMENTS
from modelmine.selectors._svm_rows import svm_rfe_rows, svm_weights_rows


def test_fill_doc_substitutes_each_placeholder_and_returns_the_object():
    def f(a, b):
        """Sum.

        Parameters
        ----------
        %(ab)s

        A 50 %% share.
        """

    filled = fill_doc({"ab": "a : int\n        First.\n    b : int\n        Second."})(f)
    assert filled is f
    assert f.__doc__ == (
        "Sum.\n\n        Parameters\n        ----------\n        a : int\n        First.\n"
        "    b : int\n        Second.\n\n        A 50 % share.\n        "
    )

    def g():
        """%(missing)s"""

    with pytest.raises(KeyError, match="missing"):
        fill_doc({"ab": ""})(g)

    def h():
        pass

    assert fill_doc({})(h).__doc__ is None  # python -OO: nothing to fill


def _modules():
    for info in pkgutil.walk_packages(modelmine.__path__, "modelmine."):
        try:
            yield importlib.import_module(info.name)
        except ImportError:  # an optional extra that is not installed
            continue


def test_no_placeholder_is_left_in_any_docstring():
    left = []
    for module in _modules():
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != module.__name__:
                continue
            doc = inspect.getdoc(obj) or ""
            if re.search(r"(?<!``)%\(\w+\)s", doc):  # ``%(name)s`` quotes one
                left.append(f"{module.__name__}.{name}")
    assert not left, left


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


@pytest.mark.parametrize(
    "func", [information_gain, symmetrical_uncertainty, gain_ratio, svm_rfe_rows, svm_weights_rows]
)
def test_parameters_sections_document_the_signatures(func):
    assert _documented_parameters(func) == list(inspect.signature(func).parameters)


@pytest.mark.parametrize("func", [information_gain, symmetrical_uncertainty, gain_ratio])
def test_discretised_feature_scores_share_one_text(func):
    doc = inspect.getdoc(func)
    assert inspect.cleandoc(SELECTOR_FRAGMENTS["discretized_params"]) in doc
    assert 'discretization : {"mdl", "quantile", "uniform"}, default="mdl"' in doc


def test_operator_fragments_still_fill_the_operators():
    from modelmine.operators._itemsets import closed_apr

    assert "n_features : int\n    m, the signature size" in inspect.getdoc(closed_apr)
    assert set(OPERATOR_FRAGMENTS) >= {"n_features", "n_signatures", "min_support"}
