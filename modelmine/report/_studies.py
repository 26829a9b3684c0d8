"""What the report suggests for the studies a run has not had: how to add error vs
stability (KDD 2012, Table 2) to it."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from .._utils import jsonable
from ._words import shareable

__all__ = ["Suggestion", "evaluation_suggestion"]

#: What the suggested code gives.
WHAT = ("The cross-validated error and stability of each operator (KDD 2012, Table 2) "
        "come from")


@dataclass(frozen=True)
class Suggestion:
    """A sentence, then the code (a command line or Python lines) it introduces."""

    text: str
    code: str


def evaluation_suggestion(run: Any) -> Suggestion:
    """How to add error vs stability to ``run``'s report.

    For a run of ``modelmine run``: ``modelmine run --resume DIR --evaluate``, which adds
    the evaluation to the finished run without refitting it (each fold adjusted for the
    run's covariates, as the run) and rebuilds the report; not the run's command with
    ``--force``, which fits everything again. For a run of :func:`modelmine.run`: the
    Python lines of :func:`modelmine.evaluate` and :meth:`modelmine.MiningRun.report`.
    """
    command = [str(c) for c in run.command or ()]
    if command[:2] != ["modelmine", "run"]:
        return Suggestion(f"{WHAT}:", python_evaluation(run))
    directory = _run_directory(command)
    adjusted = ", ".join(map(str, run.settings.get("covariates") or ()))
    return Suggestion(
        f"{WHAT} this command, which adds the evaluation to this run without refitting it"
        + (f" (each fold adjusted for {adjusted}, as the run)" if adjusted else "")
        + f" and rebuilds this report ({directory}: the run's directory):",
        f"modelmine run --resume {shlex.quote(directory)} --evaluate")


def _run_directory(command: list[str]) -> str:
    """The run's directory as its command named it (a file name for an absolute path)."""
    for i, arg in enumerate(command):
        if arg in ("--out", "--resume") and i + 1 < len(command):
            return str(shareable(command[i + 1]))
        if arg.startswith(("--out=", "--resume=")):
            return str(shareable(arg.split("=", 1)[1]))
    return "DIR"


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
    if settings.get("covariates"):  # each fold's fits adjusted, as the run's
        more += ", covariates=run.covariates"
    return (f"{note}result = mm.evaluate(X, y, selectors={selectors}, "
            f"operators=[{ops}], n_bootstraps={settings['n_bootstraps']}, "
            f"n_features={settings.get('signature_size', settings['n_features'])}, "
            f"n_signatures={settings['n_signatures']}{more})\n"
            "run.report('report.html', evaluation=result.to_frame('table2').reset_index())")
