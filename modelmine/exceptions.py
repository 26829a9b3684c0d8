"""The exceptions modelmine raises on purpose, in one small hierarchy.

Every error a user can cause derives from :class:`ModelmineError`, so an application (or
the command line, which prints these as one line and exits with status 2) can tell them
from bugs. Each also derives from the built-in class it refines (``ValueError``; a bad
parameter, :class:`InvalidParameterError`, from ``TypeError`` too), so ``except
ValueError`` keeps working. This module imports nothing of modelmine: every other module
may raise from it.
"""

from __future__ import annotations

__all__ = ["DataError", "DatasetNotFoundError", "InvalidParameterError", "MissingExtraError",
           "ModelmineError", "NotApplicableError", "OperatorError", "PluginWarning",
           "RunStateError", "SizeCappedWarning"]


class ModelmineError(Exception):
    """Base class of the errors modelmine raises on purpose (bad input, bad files)."""


class DataError(ModelmineError, ValueError):
    """Bad input data or a bad file: the message is one line, meant for the user as is."""


class InvalidParameterError(ModelmineError, ValueError, TypeError):
    """A parameter of a public function has a wrong value or type.

    The one class every door raises (:func:`modelmine.validation.param_error`), as
    scikit-learn's ``InvalidParameterError`` (``sklearn/utils/_param_validation.py``). It is a
    ``ValueError`` and a ``TypeError``, so ``except ValueError`` and ``except TypeError``
    written for the former messages keep working.

    Attributes
    ----------
    param : str or None
        The parameter, as the user wrote it (the command line names its option from it,
        a stored file its key: no caller reads the message's text).
    func : str or None
        The public function or class that received it.
    """

    def __init__(self, message: str, *, param: str | None = None,
                 func: str | None = None) -> None:
        super().__init__(message)
        self.param, self.func = param, func

    def __reduce__(self) -> tuple[object, ...]:  # raised in workers (joblib, dask)
        return (_rebuild_invalid, (str(self), self.param, self.func))


def _rebuild_invalid(message: str, param: str | None, func: str | None
                     ) -> InvalidParameterError:
    return InvalidParameterError(message, param=param, func=func)


class RunStateError(ModelmineError, ValueError):
    """A run directory is in the wrong state for the request (unfinished, finished, busy)."""


class NotApplicableError(ModelmineError, ValueError):
    """An operator does not apply to these base models (say geomMean on negative scores,
    nobagg without the full-data model, a score aggregation on a ranking-only selector).

    The one exception that :func:`modelmine.evaluate` records as "skipped" and goes on; any
    other error of an operator propagates.
    """


class OperatorError(ModelmineError, ValueError):
    """An operator (usually a plugin) returned something that breaks the operator protocol."""


class DatasetNotFoundError(ModelmineError, FileNotFoundError):
    """A dataset that modelmine does not embed (:data:`modelmine.datasets.SHARED_FILES`) was
    not found where it was looked for; the message names the folders and how to point to
    another (``data_home=`` or ``MODELMINE_DATA_HOME``). A ``FileNotFoundError``, so
    ``except FileNotFoundError`` keeps working; the test suite skips a test that raises it,
    with its message as the reason."""


class PluginWarning(UserWarning):
    """A plugin could not be loaded (the others still load)."""


class SizeCappedWarning(UserWarning):
    """A size was above what the data allow and was capped (:func:`modelmine.spec.capped`:
    m or the signature size above p, k above an operator's alternatives). A ``UserWarning``,
    so it shows by default; filter this class to silence only these."""


class MissingExtraError(ModelmineError, ImportError):
    """A feature needs an optional dependency that is not installed; the message names the
    extra that installs it (``pip install "modelmine[parquet]"``). The command line exits
    with status 1 (not available in this installation)."""


def require_extra(module: str, extra: str, purpose: str) -> object:
    """Import ``module`` or raise :class:`MissingExtraError` naming ``extra``.

    Parameters
    ----------
    module : str
        The module to import (``"pyarrow"``, ``"distributed"``, ``"anndata"``).
    extra : str
        The optional extra of modelmine that installs it.
    purpose : str
        What needs it, completing "... needs the <module> package".
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"{purpose} needs the {module} package: pip install \"modelmine[{extra}]\" (the "
            "README's `make` set-up installs every extra).") from None
