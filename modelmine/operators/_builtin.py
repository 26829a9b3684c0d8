"""The built-in operators, in the order :func:`modelmine.operators.available_operators` lists them.

KDD 2012 (Woznica, Nguyen and Kalousis) section 2 operators, the Salman (2022)
aggregations and the nobagg baseline. Each is a plain function marked with
:func:`~modelmine.operators.declare_operator`; every registry instance loads this list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._error_control import stability_selection, stabl
from ._itemsets import all_closed_apr, all_max_apr, closed_apr, max_apr
from ._medoids import (
    all_med,
    all_med_closed_apr,
    all_med_max_apr,
    large_med,
    med_closed_apr,
    med_max_apr,
    most_rep,
)
from ._registry import add_builtins
from ._univariate import avg_rank, geom_mean, l2_norm, mean_score, most_freq, nobagg, rra, stuart

__all__ = ["BUILTINS"]

BUILTINS: tuple[Callable[..., Any], ...] = (
    # single-model (KDD 2012, sections 2.1-2.3)
    avg_rank, most_freq, closed_apr, max_apr, most_rep, large_med, med_closed_apr,
    med_max_apr,
    # score and rank aggregations (Salman 2022; Kolde et al. 2012)
    mean_score, geom_mean, l2_norm, stuart, rra,
    # baseline (KDD 2012, section 3)
    nobagg,
    # error-controlled selection (Meinshausen and Buehlmann 2010; Shah and Samworth 2013;
    # Hedou et al. 2024)
    stability_selection, stabl,
    # multi-model (KDD 2012, section 2.2)
    all_med, all_closed_apr, all_max_apr, all_med_closed_apr, all_med_max_apr,
)

add_builtins(BUILTINS)
