"""The evaluation protocol of Woznica, Nguyen and Kalousis (KDD 2012, section 3).

:func:`evaluate` cross-validates selectors x operators x classifiers (error, stability,
agreement, diversity) and returns an :class:`EvaluationResult` with the KDD'12 Table 2 and
Table 4 layouts and the Saeys et al. (2008) single-versus-ensemble robustness table.
"""

from ._classifiers import CLASSIFIERS, make_classifier
from ._protocol import DEFAULT_SELECTORS, evaluate
from ._result import EvaluationResult, average_points

__all__ = [
    "CLASSIFIERS",
    "DEFAULT_SELECTORS",
    "EvaluationResult",
    "average_points",
    "evaluate",
    "make_classifier",
]
