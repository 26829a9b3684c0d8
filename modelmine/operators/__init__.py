"""Operators: base models -> signature(s) (KDD 2012, section 2), and their registry."""

from .._deprecation import moved_names
from . import _builtin  # noqa: F401  (declares the built-in operators to the registry)
from ._apply import (
    apply_operators,
    operator_kinds,  # noqa: F401 (internal)
    operator_seed,  # noqa: F401 (internal)
)
from ._bounds import pfer_bound, threshold_for_pfer
from ._error_control import (
    bound_for,  # noqa: F401 (internal)
    fdp_plus,
)
from ._registry import (
    Operator,
    OperatorRegistry,
    aggregate,
    available_operators,
    declare_operator,
    default_registry,
    get_operator,
    refresh,
    register_operator,
)
from ._signature import Signature, SignatureSet
from ._univariate import stuart_scores  # noqa: F401 (internal)

#: Names of the previous release's ``__all__`` that moved or stopped being public (issue 38);
#: they warn for one release.
_MOVED = {
    "PluginWarning": "modelmine.exceptions.PluginWarning",
    "available": "modelmine.operators.available_operators",
}
__getattr__ = moved_names(__name__, _MOVED)

#: The public names. Those imported above with ``noqa: F401 (internal)`` are not public:
#: other modules of the project import them from here (issue 38).
__all__ = [
    "Operator",
    "OperatorRegistry",
    "Signature",
    "SignatureSet",
    "aggregate",
    "apply_operators",
    "available_operators",
    "declare_operator",
    "default_registry",
    "fdp_plus",
    "get_operator",
    "pfer_bound",
    "refresh",
    "register_operator",
    "threshold_for_pfer",
]
