"""Conformance checks for operators: ``check_operator(op)``.

Plugin authors run :func:`check_operator` on their operators (as scikit-learn's
``check_estimator`` and imbalanced-learn's ``estimator_checks``); modelmine runs it over
every built-in operator. It checks, on small base models (synthetic by default, or the
ones given):

- **sizes**: a single-model operator returns n_features distinct valid features, a
  multi-model one n_signatures signatures; names match the indices;
- **provenance**: present, JSON-serialisable, naming the operator and its parameters;
- **determinism**: the same call with the same seed gives the same result;
- **feature relabelling equivariance**: permuting the features (columns of the base
  models) permutes the result accordingly (an operator must not depend on feature labels);
- **order invariance**, for operators registered with ``order_invariant=True``: permuting
  the base models leaves the result unchanged (the KDD 2012 definitions of avgRank,
  mostFreq, closedApr, ... are functions of the multiset of models).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np

from .base_models import BaseModels
from .operators._registry import Operator, OperatorRegistry, default_registry
from .operators._signature import Signature, SignatureSet
from .selectors import FeatureModel, ranks_from_scores

__all__ = ["base_models_from_subsets", "check_operator", "make_base_models", "permute_features",
           "permute_models"]


def make_base_models(n_models: int = 24, n_features_in: int = 40, n_features: int = 8,
                     random_state: int = 0, *, resampling: str = "bootstrap",
                     artificial: bool = False) -> BaseModels:
    """Small synthetic base models with a shared structure and no exact ties.

    Scores are a decreasing relevance profile plus model-specific noise, so that a few
    features are selected by most models, some by a subgroup, most rarely.

    ``resampling`` is only recorded (``"complementary-pairs"`` needs an even
    ``n_models``); ``artificial=True`` adds ``n_features_in`` artificial features that
    each model selects with probability 0.05 (what error-controlled operators read).
    """
    rng = np.random.default_rng(random_state)
    relevance = np.sort(rng.gamma(1.0, 1.0, n_features_in))[::-1]
    relevance = relevance[rng.permutation(n_features_in)]
    group = rng.integers(0, 2, n_models)
    boost = np.zeros((2, n_features_in))
    boost[0, rng.choice(n_features_in, 4, replace=False)] = 1.5
    boost[1, rng.choice(n_features_in, 4, replace=False)] = 1.5
    scores = relevance + boost[group] + rng.gamma(1.0, 0.5, (n_models, n_features_in))
    ranks = np.vstack([ranks_from_scores(s) for s in scores])
    subsets = ranks <= n_features
    full_scores = relevance + boost.mean(axis=0)
    full_ranks = ranks_from_scores(full_scores)
    n_samples = 30
    record: dict[str, Any] = {"method": resampling, "stratify": False,
                              "fraction": 1.0 if resampling == "bootstrap" else 0.5}
    if resampling == "complementary-pairs":
        record["n_pairs"] = n_models // 2
    art = rng.random((n_models, n_features_in)) < 0.05 if artificial else None
    return BaseModels.from_records(
        subsets=subsets, ranks=ranks, scores=scores,
        sample_indices=rng.integers(0, n_samples, (n_models, n_samples)),
        feature_names=np.array([f"f{j}" for j in range(n_features_in)]),
        selector={"name": "synthetic", "kind": "ranking", "params": {}},
        n_features=n_features, resampling=record,
        random_state=random_state, classes=[0, 1], n_samples=n_samples,
        full_model=FeatureModel(scores=full_scores, ranks=full_ranks,
                                subset=full_ranks <= n_features),
        artificial_subsets=art,
        artificial={"method": "permutation", "n_features": n_features_in} if artificial
        else {},
    )


def base_models_from_subsets(subsets: Any) -> BaseModels:
    """Base models made by hand from a boolean (b, p) matrix of subsets.

    Each model ranks its selected features first (lower index first), then the others;
    scores follow the ranks. For worked examples in tests of operators (plugins too).
    """
    S = np.asarray(subsets, dtype=bool)
    b, p = S.shape
    key = -S.astype(np.float64) * 10 + np.arange(p)[None, :] * 1e-3
    ranks = np.argsort(np.argsort(key, axis=1, kind="stable"), axis=1) + 1
    return BaseModels.from_records(
        subsets=S, ranks=ranks, scores=-key, sample_indices=np.zeros((b, 1), dtype=np.int64),
        feature_names=np.array([f"f{j}" for j in range(p)]),
        selector={"name": "hand", "kind": "subset", "params": {}}, n_features=None,
        resampling={"method": "bootstrap", "stratify": False, "fraction": 1.0},
        random_state=0, classes=[0, 1], n_samples=1)


def permute_features(base: BaseModels, perm: np.ndarray) -> BaseModels:
    """Base models whose feature j is feature ``perm[j]`` of ``base``."""
    perm = np.asarray(perm)
    full = base.full_model
    if full is not None:
        full = FeatureModel(scores=None if full.scores is None else full.scores[perm],
                            ranks=full.ranks[perm], subset=full.subset[perm])
    return dataclasses.replace(
        base, subsets=base.subsets[:, perm], ranks=base.ranks[:, perm],
        scores=None if base.scores is None else base.scores[:, perm],
        feature_names=base.feature_names[perm], full_model=full)


def permute_models(base: BaseModels, order: np.ndarray) -> BaseModels:
    """Base models in the order ``order`` (model i of the result is ``order[i]``)."""
    order = np.asarray(order)
    extra = dict(base.extra)
    if "model_selectors" in extra:  # a heterogeneous ensemble: each model keeps its maker
        extra["model_selectors"] = [base.model_selectors[i] for i in order]
    return dataclasses.replace(
        base, subsets=base.subsets[order], ranks=base.ranks[order],
        scores=None if base.scores is None else base.scores[order],
        sample_indices=base.sample_indices[order], extra=extra)


def _features(result: Signature | SignatureSet) -> list[list[int]]:
    sigs = [result] if isinstance(result, Signature) else list(result.signatures)
    return [s.features.tolist() for s in sigs]


def _fail(name: str, check: str, message: str) -> AssertionError:
    return AssertionError(f"check_operator({name!r}) failed the {check!r} check: {message}")


def check_operator(
    op: str | Operator,
    base: BaseModels | None = None,
    *,
    n_features: int | None = None,
    n_signatures: int | None = None,
    random_state: int = 0,
    registry: OperatorRegistry | None = None,
    **params: Any,
) -> dict[str, bool]:
    """Run the operator conformance suite (see the module docstring).

    Parameters
    ----------
    op : str or Operator
        A registered operator name (looked up in ``registry``) or an :class:`Operator`.
    base : BaseModels, optional
        Base models to check on; default :func:`make_base_models` (24 models, 40
        features, subsets of 8).
    n_features, n_signatures : int, optional
        Passed to :func:`~modelmine.operators.aggregate` (defaults: 5 features for
        single-model operators, 3 signatures for multi-model ones; n_features goes to a
        multi-model operator only when it accepts it).
    random_state : int, default=0
        Seed for the operator and for the permutations.
    registry : OperatorRegistry, optional
        Where to look ``op`` up (default: the default registry).
    **params
        Operator-specific parameters.

    Returns
    -------
    dict
        ``{check name: True}`` for every check that ran (order invariance is skipped for
        operators registered with ``order_invariant=False``).

    Raises
    ------
    AssertionError
        A check failed; the message names the operator and the check.
    """
    reg = registry or default_registry()
    oper = reg.get(op)
    name = oper.name
    if base is None:
        base = make_base_models(
            random_state=random_state,
            resampling="complementary-pairs" if "error-control" in oper.requires
            else "bootstrap", artificial="artificial-features" in oper.requires)
    kwargs: dict[str, Any] = dict(params, random_state=random_state)
    if oper.kind == "single":
        kwargs["n_features"] = 5 if n_features is None else n_features
    else:
        kwargs["n_signatures"] = 3 if n_signatures is None else n_signatures
        if n_features is not None and oper.accepts_n_features:
            kwargs["n_features"] = n_features

    def run(b: BaseModels) -> Signature | SignatureSet:
        return reg.aggregate(b, oper, **kwargs)

    done: dict[str, bool] = {}
    first = run(base)
    # sizes
    if oper.kind == "single":
        if not isinstance(first, Signature):
            raise _fail(name, "sizes", f"returned {type(first).__name__}, not a Signature")
        if (len(first) > kwargs["n_features"] if oper.variable_size
                else len(first) != kwargs["n_features"]):
            raise _fail(name, "sizes", f"{len(first)} features for "
                        f"n_features={kwargs['n_features']}")
        sigs = [first]
    else:
        if not isinstance(first, SignatureSet):
            raise _fail(name, "sizes", f"returned {type(first).__name__}, not a SignatureSet")
        if len(first) != kwargs["n_signatures"]:
            raise _fail(name, "sizes", f"{len(first)} signatures for "
                        f"n_signatures={kwargs['n_signatures']}")
        sigs = list(first.signatures)
    for s in sigs:
        if (len(s) == 0 and not oper.variable_size) or np.unique(s.features).size != len(s):
            raise _fail(name, "sizes", "a signature is empty or repeats a feature")
        if len(s) and (s.features.min() < 0 or s.features.max() >= base.n_features_in):
            raise _fail(name, "sizes", "feature indices out of range")
        if not np.array_equal(s.names, base.feature_names[s.features]):
            raise _fail(name, "sizes", "names do not match the feature indices")
        if s.scores is not None and s.scores.shape != s.features.shape:
            raise _fail(name, "sizes", "one score per feature expected")
    done["sizes"] = True
    # provenance
    for s in sigs:
        if not s.provenance or s.provenance.get("operator") != name:
            raise _fail(name, "provenance", "missing, or not naming the operator")
        if "params" not in s.provenance:
            raise _fail(name, "provenance", "the parameters are not recorded")
        try:
            json.dumps(s.to_dict())
        except TypeError as exc:
            raise _fail(name, "provenance", f"not JSON-serialisable ({exc})") from None
    done["provenance"] = True
    # determinism
    again = run(base)
    if _features(again) != _features(first):
        raise _fail(name, "determinism", "two runs with the same seed differ")
    done["determinism"] = True
    # feature relabelling equivariance
    rng = np.random.default_rng(random_state)
    perm = rng.permutation(base.n_features_in)
    relabelled = run(permute_features(base, perm))
    mapped = [[int(perm[j]) for j in feats] for feats in _features(relabelled)]
    if mapped != _features(first):
        raise _fail(name, "feature relabelling equivariance",
                    f"features {_features(first)} became {mapped} after relabelling")
    done["feature relabelling equivariance"] = True
    # order invariance
    if oper.order_invariant:
        order = rng.permutation(base.n_models)
        shuffled = run(permute_models(base, order))
        if _features(shuffled) != _features(first):
            raise _fail(name, "base-model order invariance",
                        f"features {_features(first)} became {_features(shuffled)} after "
                        "shuffling the base models")
        done["base-model order invariance"] = True
    return done
