"""A selector known only by its record: what a stored run keeps of a selector it cannot
rebuild (a custom object, or a plugin that is not installed here).

:class:`modelmine.BaseModels` and :class:`modelmine.MiningRun` hold one record of their
settings, a :class:`~modelmine.RunSpec`, also when their selector was a custom object: the
spec then holds a :class:`RecordedSelector`, which describes itself exactly as the stored
record says (name, kind, parameters, outcome) and refuses to fit, naming the selector and
how to give it again. A refit of such a run is refused before any work
(:func:`modelmine.base_models.check_run_data`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._utils import jsonable
from ..exceptions import DataError
from ..outcomes import DEFAULT_OUTCOME
from ._base import Selector, SelectorOutput

__all__ = ["RecordedSelector"]


class RecordedSelector(Selector):
    """A selector of which only the record is known (a custom object, an absent plugin).

    Parameters
    ----------
    record : mapping
        What :meth:`Selector.describe` wrote: ``{"name", "kind", "params"}`` and, for
        another outcome than classes, ``"outcome"`` (any further keys are kept).
    """

    def __init__(self, record: Mapping[str, Any]) -> None:
        self.record = jsonable(dict(record))
        self.name = str(self.record.get("name") or "selector")
        self.kind = self.record.get("kind", "scores")
        outcome = str(self.record.get("outcome", DEFAULT_OUTCOME))
        self.outcomes = (outcome,)

    def get_params(self) -> dict[str, Any]:
        return dict(self.record.get("params") or {})

    def describe(self) -> dict[str, Any]:
        """The record, as stored."""
        return jsonable(dict(self.record))

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        raise DataError(refit_refusal(self.name))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RecordedSelector) and other.record == self.record

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RecordedSelector({self.name!r})"


def refit_refusal(name: str) -> str:
    """Why a recorded selector cannot be fitted, and what to do."""
    return (f"The selector {name!r} of these settings is known only by its record (a "
            "custom object, whose code is not stored, or a plugin that is not installed "
            "here): it cannot be fitted again. Give the object again (selector=..., or "
            "spec.replace(selector=...)), or install the plugin.")
