"""One operator on base models: validate at the door, call, check and complete the result.

The model aggregation step of Woznica, Nguyen and Kalousis (KDD 2012, section 2), apart from
the registry that finds operators by name (``_registry.py``): :func:`run_operator` checks
the sizes asked (m, k) against what the operator can return (capping by the one policy,
:func:`modelmine.spec.capped`, and recording the cap in the provenance), calls the operator,
turns what it returns into a :class:`~modelmine.Signature` or
:class:`~modelmine.SignatureSet` and completes the provenance.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any

import numpy as np

from ..base_models import BaseModels
from ..constants import DEFAULT_N_SIGNATURES
from ..exceptions import NotApplicableError, OperatorError
from ..spec import capped
from ..validation import check_int, closest_names, param_error
from ._signature import Signature, SignatureSet, jsonable

if TYPE_CHECKING:
    from ._registry import Operator

__all__ = ["distinct_models", "run_operator"]


def distinct_models(base: BaseModels) -> int:
    """Number of distinct subsets among the base models (k's limit for the medoid
    operators, KDD 2012, section 2.2)."""
    return int(np.unique(np.packbits(base.subsets, axis=1), axis=0).shape[0])


def _default_n_features(base: BaseModels) -> int:
    if base.n_features is not None:
        return int(base.n_features)
    return max(1, round(float(base.subset_sizes().mean())))


def _applicable(op: Operator, most: int) -> int:
    """``most``, the largest size the operator can serve, unless it can serve nothing."""
    if most < 1:
        raise NotApplicableError(f"The operator {op.name!r} cannot build a signature from "
                                 "these base models (no feature is selected by any model).")
    return most


def run_operator(op: Operator, base: BaseModels, *, n_features: Any = None,
                 n_signatures: Any = None, random_state: Any = None,
                 **params: Any) -> Signature | SignatureSet:
    """Validate at the door, call the operator, validate and complete what it returns.

    What :func:`modelmine.aggregate` does once it has found the operator by name (KDD 2012,
    section 2): the sizes checked and capped (:func:`modelmine.spec.capped`), the
    parameters checked against the operator's, the result turned into a Signature or
    SignatureSet of the asked size with its provenance.
    """
    func = "aggregate"
    if not isinstance(base, BaseModels):
        raise param_error("base", func, "a modelmine.BaseModels (from modelmine.bootstrap)",
                          type(base).__name__, exc=TypeError, show=False)
    for key in params:
        if key not in op.params:
            size = "n_features" if op.kind == "single" else "n_signatures"
            accepted = ", ".join(repr(k) for k in op.params) or f"none besides {size}"
            close = closest_names(key, list(op.params))
            raise param_error(key, func, f"a parameter of the operator {op.name!r} "
                              f"(it accepts: {accepted})", "an unknown parameter",
                              show=False, exc=TypeError,
                              hint=f"Did you mean {close[0]!r}?" if close else None)
    if random_state is not None and not (
            isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool)
            and int(random_state) >= 0):
        raise param_error("random_state", func, "None or a non-negative integer",
                          random_state, exc=TypeError if not isinstance(
                              random_state, numbers.Integral) else ValueError)
    call: dict[str, Any] = dict(params)
    capped_record: dict[str, Any] = {}
    if op.accepts_random_state:
        call["random_state"] = None if random_state is None else int(random_state)
    if op.kind == "single":
        if n_signatures is not None:
            raise param_error("n_signatures", func, f"None for the single-model operator "
                              f"{op.name!r}", n_signatures)
        if op.variable_size:
            # A cap, not a size: the operator returns what passes its error control.
            call["n_features"] = check_int(n_features, "n_features", func, min_value=1,
                                           max_value=base.n_features_in, allow_none=True)
        else:
            hi = _applicable(op, int(op.max_features(base)))
            if n_features is None:
                m = min(_default_n_features(base), hi)
            else:
                asked = check_int(n_features, "n_features", func, min_value=1)
                assert asked is not None
                # The one capping policy (modelmine.spec.capped), recorded as k's is.
                m = capped(asked, hi, name="n_features", func=func,
                           why=f"the {hi} features {op.name} can return from these base "
                           "models")
                if m < asked:
                    capped_record = {"n_features_requested": asked, "n_features_cap": hi}
            call["n_features"] = m
    else:
        requested = check_int(DEFAULT_N_SIGNATURES if n_signatures is None else n_signatures,
                              "n_signatures", func, min_value=1)
        assert requested is not None
        # The one capping policy of k (KDD 2012, section 2.2): an operator cannot return
        # more alternatives than its max_signatures (the distinct base models for the
        # medoid operators); the request and the cap are recorded in the provenance.
        hi = _applicable(op, int(op.max_signatures(base)))
        call["n_signatures"] = k = capped(
            requested, hi, name="n_signatures", func=func,
            why=f"the {hi} alternatives {op.name} can return from these {base.n_models} "
            f"base models ({distinct_models(base)} distinct)")
        if k < requested:
            capped_record = {"n_signatures_requested": requested, "n_signatures_cap": hi,
                      "n_signatures_capped_because": (
                          f"{op.name} can return at most {hi} alternatives from these "
                          f"{base.n_models} base models ({distinct_models(base)} distinct)")}
        if n_features is not None:
            if not op.accepts_n_features:
                raise param_error("n_features", func, f"None for the operator {op.name!r} "
                                  "(it returns whole base models or itemsets)", n_features)
            call["n_features"] = check_int(n_features, "n_features", func, min_value=1,
                                           max_value=base.n_features_in)
    result = op.func(base, **call)
    record = {"operator": op.name, "kind": op.kind, "origin": op.origin,
              "params": dict(call), **capped_record,
              "base_models": {"selector": base.selector_name,
                              "n_models": base.n_models, "n_features_in": base.n_features_in,
                              "n_features": base.n_features,
                              "random_state": str(base.random_state)}}
    if op.kind == "single":
        sig = _as_signature(op, base, result, record)
        if op.variable_size:
            if call["n_features"] is not None and len(sig) > call["n_features"]:
                raise OperatorError(f"The operator {op.name!r} from {op.owner()} returned "
                                    f"{len(sig)} features; at most n_features="
                                    f"{call['n_features']} were asked.")
        elif len(sig) != call["n_features"]:
            raise OperatorError(f"The operator {op.name!r} from {op.owner()} returned "
                                f"{len(sig)} features; n_features={call['n_features']} were "
                                "asked.")
        return sig
    sigs = _as_signature_set(op, base, result, record)
    if len(sigs) != call["n_signatures"]:
        raise OperatorError(f"The operator {op.name!r} from {op.owner()} returned "
                            f"{len(sigs)} signatures; n_signatures={call['n_signatures']} "
                            "were asked.")
    return sigs


def _wrong_type(op: Operator, result: Any, expected: str) -> TypeError:
    who = "plugin" if op.is_plugin else "operator"
    return TypeError(f"The operator {op.name!r} from {who} {op.owner()} returned "
                     f"{type(result).__name__}; a {op.kind}-model operator must return "
                     f"{expected}.")


def _indices(op: Operator, base: BaseModels, value: Any, expected: str) -> np.ndarray:
    arr = np.asarray(value)
    if arr.ndim != 1 or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        raise _wrong_type(op, value, expected)
    arr = arr.astype(np.int64)
    if arr.size and (arr.min() < 0 or arr.max() >= base.n_features_in
                     or np.unique(arr).size != arr.size):
        raise OperatorError(f"The operator {op.name!r} from {op.owner()} returned feature "
                            f"indices that are repeated or outside [0, "
                            f"{base.n_features_in}).")
    return arr


def _complete(op: Operator, base: BaseModels, sig: Signature, record: dict[str, Any],
              extra: dict[str, Any] | None = None) -> Signature:
    try:
        prov = {**record, **(extra or {}), **sig.provenance}
        prov.update(record)  # the registry's record of the call wins over the operator's
        prov = jsonable(prov)
    except TypeError as exc:
        raise TypeError(f"The operator {op.name!r} from {op.owner()} put a value that is "
                        f"not JSON-serialisable in its provenance ({exc}).") from None
    if sig.features.size and sig.features.max() >= base.n_features_in:
        raise OperatorError(f"The operator {op.name!r} from {op.owner()} returned feature "
                            f"indices outside [0, {base.n_features_in}).")
    names = base.feature_names[sig.features]
    return Signature(features=sig.features, names=names, scores=sig.scores,
                     score_name=sig.score_name, operator=op.name, provenance=prov,
                     n_features_in=base.n_features_in)


def _as_signature(op: Operator, base: BaseModels, result: Any,
                  record: dict[str, Any]) -> Signature:
    expected = "a Signature or a 1-D array of feature indices"
    if isinstance(result, Signature):
        return _complete(op, base, result, record)
    if isinstance(result, (SignatureSet, str, bytes, dict)) or result is None:
        raise _wrong_type(op, result, expected)
    try:
        feats = _indices(op, base, result, expected)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, OperatorError):
            raise
        raise _wrong_type(op, result, expected) from None
    sig = Signature(features=feats, names=base.feature_names[feats], operator=op.name)
    return _complete(op, base, sig, record)


def _as_signature_set(op: Operator, base: BaseModels, result: Any,
                      record: dict[str, Any]) -> SignatureSet:
    expected = "a SignatureSet or a list of Signatures (or of 1-D arrays of feature indices)"
    if isinstance(result, SignatureSet):
        items: list[Any] = list(result.signatures)
        set_prov = dict(result.provenance)
    elif isinstance(result, (list, tuple)):
        items, set_prov = list(result), {}
    else:
        raise _wrong_type(op, result, expected)
    sigs = []
    for i, item in enumerate(items):
        if isinstance(item, Signature):
            sig = _complete(op, base, item, record, {"signature": i})
        else:
            try:
                feats = _indices(op, base, item, expected)
            except TypeError:
                raise _wrong_type(op, item, expected) from None
            sig = _complete(op, base, Signature(features=feats,
                                                names=base.feature_names[feats],
                                                operator=op.name), record, {"signature": i})
        sigs.append(sig)
    try:
        prov = jsonable({**set_prov, **record})
    except TypeError as exc:
        raise TypeError(f"The operator {op.name!r} from {op.owner()} put a value that is "
                        f"not JSON-serialisable in its provenance ({exc}).") from None
    return SignatureSet(signatures=tuple(sigs), operator=op.name, provenance=prov)
