"""Apply several operators to one set of base models: the operator stage of a run.

What :func:`modelmine.run`, :class:`modelmine.ModelMiningSelector` and
:func:`modelmine.evaluate` share: the operator names are checked once (all of them, before
any work), each single-model operator gets ``n_features`` (m) and each multi-model one
``n_signatures`` (k, capped by :func:`aggregate`'s one policy), all seeded alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from .._progress import phase
from ..base_models import BaseModels
from ..constants import SEED_MODULUS
from ._registry import aggregate, default_registry
from ._signature import Signature, SignatureSet

__all__ = ["apply_operators", "operator_kinds", "operator_seed"]


def operator_kinds(operators: Iterable[str], *, param: str = "operators",
                   func: str = "apply_operators") -> dict[str, str]:
    """Check operator names against the registry; return ``{name: "single" | "multi"}``.

    The one place where operator names given by a user are validated: an unknown name
    raises :class:`ValueError` listing the registered ones and the closest; a repeated name
    is refused. ``param`` and ``func`` name the caller's parameter and function in the
    message.
    """
    return default_registry().kinds(operators, param=param, func=func)


def operator_seed(base: BaseModels) -> int:
    """The seed handed to operators that draw: the run's seed reduced to 32 bits."""
    return int(base.random_state) % SEED_MODULUS


def apply_operators(base: BaseModels, operators: Iterable[str], *,
                    n_features: int | None = None, n_signatures: int | None = None,
                    random_state: int | None = None,
                    params: Mapping[str, Mapping[str, Any]] | None = None,
                    ) -> Mapping[str, Signature | SignatureSet]:
    """Run each operator on the base models (KDD 2012, section 2).

    Parameters
    ----------
    base : BaseModels
    operators : iterable of str
        Registered operator names, in the order wanted.
    n_features : int, optional
        m for the single-model operators (default: the base models' m).
    n_signatures : int, optional
        k for the multi-model operators (default 10), capped per operator by
        :func:`aggregate`, which records the cap in the provenance.
    random_state : int, optional
        Seed of the operators that draw; default :func:`operator_seed` of ``base``.
    params : mapping of str to mapping, optional
        Extra parameters per operator name, e.g. ``{"closedApr": {"min_support": 0.3}}``.

    Returns
    -------
    mapping of str to Signature or SignatureSet
        Read-only, in the order of ``operators``.
    """
    kinds = operator_kinds(operators)
    extra = dict(params or {})
    unknown = set(extra) - set(kinds)
    if unknown:
        raise ValueError(f"The 'params' parameter names operator(s) {sorted(unknown)} that "
                         f"are not among the operators {list(kinds)}.")
    seed = operator_seed(base) if random_state is None else random_state
    out: dict[str, Signature | SignatureSet] = {}
    for name, kind in kinds.items():
        size = {"n_signatures": n_signatures} if kind == "multi" else {
            "n_features": n_features}
        phase("operator %s (%s-model)", name, kind, detail=True)
        out[name] = aggregate(base, name, random_state=seed, **size, **extra.get(name, {}))
    return MappingProxyType(out)
