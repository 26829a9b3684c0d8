"""Which refitting studies can adjust for a run's covariates: the one check.

A run adjusted for clinical covariates (``mm.run(covariates=...)``) fits its regression
and survival selectors with them. The studies that refit the selector (the permutation
null, the cross-validated evaluations) do not yet carry the covariates' values into every
refit, nor adjust the models that measure their error: their answer would not be the
adjusted run's. Until they do (the Freedman-Lane permutation of residuals, issue 49), each
refuses such settings here, before any fit; ``modelmine run`` refuses ``--null`` and
``--evaluate`` with ``--covariate`` through the same check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..exceptions import DataError
from ..validation import param_error

__all__ = ["refuse_covariates"]

#: Why, in words (the API's message and the command line's).
_WHY = ("refit the selector without the covariates, so their answer would not be adjusted "
        "for them (docs/outcomes.md, 'Clinical covariates')")


def refuse_covariates(covariates: Any, func: str, *, param: str = "covariates",
                      what: str = "settings", options: Sequence[str] = ()) -> None:
    """Refuse covariates in a study that would refit without them, before any fit.

    Parameters
    ----------
    covariates : RunSpec or sequence of str
        The study's settings (their ``covariates``), or the covariates' names.
    func : str
        The study, named in the message.
    param, what : str
        The parameter that brought them (``"spec"``, ``"run"``, ``"base"``) and what it is
        ("base models"), for the message.
    options : sequence of str
        The command-line options that asked for the studies (``["--null"]``): the message
        then speaks of them and of ``--covariate``.

    Raises
    ------
    InvalidParameterError
        Naming ``param`` (the API).
    DataError
        Naming the options (the command line).
    """
    names = tuple(getattr(covariates, "covariates", covariates) or ())
    if not names:
        return
    if options:
        asked = " and ".join(options)
        raise DataError(
            f"{asked} cannot be used with --covariate ({', '.join(names)}): the "
            f"permutation null and the cross-validated evaluation {_WHY}. Run the adjusted "
            f"analysis without {asked}, or run them on a run without --covariate.")
    raise param_error(param, func, f"{what} without covariates (this study would {_WHY})",
                      f"{what} adjusted for {', '.join(names)}", show=False,
                      hint="Run it on a run without covariates.")
