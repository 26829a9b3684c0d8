"""Operators: base models -> signature(s) (KDD 2012, section 2), and their registry."""

from .._registry import PluginWarning
from ._apply import apply_operators, operator_kinds, operator_seed
from ._registry import (
    ENTRY_POINT_GROUP,
    Operator,
    OperatorRegistry,
    aggregate,
    available,
    declare_operator,
    default_registry,
    get_operator,
    refresh,
    register_operator,
)
from ._signature import Signature, SignatureSet
from ._univariate import rra_scores, stuart_scores

__all__ = [
    "ENTRY_POINT_GROUP",
    "Operator",
    "OperatorRegistry",
    "PluginWarning",
    "Signature",
    "SignatureSet",
    "aggregate",
    "apply_operators",
    "available",
    "declare_operator",
    "default_registry",
    "get_operator",
    "operator_kinds",
    "operator_seed",
    "refresh",
    "register_operator",
    "rra_scores",
    "stuart_scores",
]
