"""Operators: base models -> signature(s) (KDD 2012, section 2), and their registry."""

from .._registry import PluginWarning
from . import _builtin  # noqa: F401  (declares the built-in operators to the registry)
from ._apply import apply_operators, operator_kinds, operator_seed
from ._bounds import BOUND_METHODS, pfer_bound, threshold_for_pfer
from ._error_control import STABL_GRID, bound_for, fdp_plus
from ._registry import (
    ENTRY_POINT_GROUP,
    Operator,
    OperatorRegistry,
    aggregate,
    available,
    available_operators,
    declare_operator,
    default_registry,
    get_operator,
    refresh,
    register_operator,
)
from ._signature import Signature, SignatureSet
from ._univariate import rra_scores, stuart_scores

__all__ = [
    "BOUND_METHODS",
    "ENTRY_POINT_GROUP",
    "STABL_GRID",
    "Operator",
    "OperatorRegistry",
    "PluginWarning",
    "Signature",
    "SignatureSet",
    "aggregate",
    "apply_operators",
    "available",
    "available_operators",
    "bound_for",
    "declare_operator",
    "default_registry",
    "fdp_plus",
    "get_operator",
    "operator_kinds",
    "operator_seed",
    "pfer_bound",
    "refresh",
    "register_operator",
    "rra_scores",
    "stuart_scores",
    "threshold_for_pfer",
]
