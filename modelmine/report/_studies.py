"""What the report suggests for the studies a run has not had: the command that adds error
vs stability (KDD 2012, Table 2) to it."""

from __future__ import annotations

import shlex
from typing import Any

from .._utils import jsonable

__all__ = ["evaluation_suggestion"]


def evaluation_suggestion(run: Any) -> str:
    """The exact command that adds error vs stability (KDD 2012, Table 2) to the report.

    For a run of ``modelmine run``: its own command line with ``--evaluate`` (the same
    data, selector, scaling and operators, cross-validated). For a run of
    :func:`modelmine.run`: the Python lines of :func:`modelmine.evaluate` and
    :meth:`modelmine.MiningRun.report`.
    """
    command = list(run.command or ())
    if command:
        extra = [a for a in ("--evaluate", "--force") if a not in command]
        return " ".join(shlex.quote(c) for c in [*command, *extra])
    return python_evaluation(run)


def python_evaluation(run: Any) -> str:
    """The lines of :func:`modelmine.evaluate` that evaluate the run's selector (with its
    parameters), operators and seed, then add the table to its report."""
    settings = run.settings
    ops = ", ".join(repr(str(o)) for o in run.signatures)
    name = str(settings["selector"])
    params = jsonable(settings.get("selector_params") or {})
    # the selector as it ran: its parameters (ReliefF's variant, say) are part of it
    selectors = (f"{{{name!r}: mm.selectors.get_selector({name!r}, {params!r})}}" if params
                 else f"[{name!r}]")
    op_params = jsonable(settings.get("operator_params") or {})
    more = f", operator_params={op_params!r}" if op_params else ""
    seed = str(settings.get("random_state", ""))
    more += f", random_state={int(seed)}" if seed.isdigit() else ""
    scale = str(settings.get("scale", "none"))
    note = (f"# the run scaled X ({scale!r}): evaluate the same scaled X\n"
            if scale != "none" else "")
    return (f"{note}result = mm.evaluate(X, y, selectors={selectors}, "
            f"operators=[{ops}], n_bootstraps={settings['n_bootstraps']}, "
            f"n_features={settings.get('signature_size', settings['n_features'])}, "
            f"n_signatures={settings['n_signatures']}{more})\n"
            "run.report('report.html', evaluation=result.to_frame('table2').reset_index())")
