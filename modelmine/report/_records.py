"""What the report shows of one operator: its name, kind, signature(s) and parameters.

Operators return a :class:`~modelmine.Signature` (single-model) or a
:class:`~modelmine.SignatureSet` of k alternatives (multi-model; Woznica, Nguyen and
Kalousis, KDD 2012, section 2). :class:`OperatorResult` puts either behind one shape for the
report's sections, and :func:`signature_table` gives the table of a signature that the
report and the run directory's ``signatures/OPERATOR.csv`` show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._utils import frozen
from ..base_models import BaseModels
from ..operators import Signature, SignatureSet

__all__ = ["OperatorResult", "markdown_table", "operator_result", "signature_table"]


def signature_table(base: BaseModels | None, result: Signature | SignatureSet,
                    null: Any = None) -> pd.DataFrame:
    """A signature (or each of k alternatives) as rows: position, feature, index, score and,
    given the base models, each feature's selection frequency and mean (tied) rank; given
    a permutation null (:func:`modelmine.evaluation.selection_null`), each feature's
    ``p_value`` and ``q_value`` under it."""
    sigs = [result] if isinstance(result, Signature) else list(result)
    parts = []
    for i, sig in enumerate(sigs, start=1):
        frame = sig.to_frame().reset_index()
        if base is not None:
            frame["frequency"] = base.subsets[:, sig.features].mean(axis=0)
            frame["mean_rank"] = base.tied_ranks()[:, sig.features].mean(axis=0,
                                                                         dtype=np.float64)
        if null is not None:
            table = null.to_frame()
            names = [str(n) for n in sig.names]
            frame["p_value"] = table["p_value"].reindex(names).to_numpy()
            frame["q_value"] = table["q_value"].reindex(names).to_numpy()
        if isinstance(result, SignatureSet):
            frame.insert(0, "alternative", i)
        parts.append(frame)
    if not parts:
        return pd.DataFrame(columns=["alternative", "position", "feature", "index"])
    return pd.concat(parts, ignore_index=True)


@dataclass(frozen=True)
class OperatorResult:
    """The output of one operator: its name, kind, signature(s) and the parameters used.

    ``kind`` is ``"single"`` (one consensus signature) or ``"multi"`` (k alternatives,
    KDD 2012, section 2.2); ``result`` is what :func:`modelmine.aggregate` returned.
    """

    operator: str
    result: Signature | SignatureSet
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", frozen(dict(self.params)))

    @property
    def kind(self) -> str:
        return "single" if isinstance(self.result, Signature) else "multi"

    @property
    def signatures(self) -> tuple[Signature, ...]:
        """The signature(s), one for a single-model operator."""
        return (self.result,) if isinstance(self.result, Signature) else tuple(self.result)

    def to_frame(self, base: BaseModels | None = None) -> pd.DataFrame:
        """All signatures in one table (:func:`signature_table`), with an ``operator``
        column and, for multi-model operators, an ``alternative`` column (1-based)."""
        frame = signature_table(base, self.result)
        frame.insert(0, "operator", self.operator)
        return frame


def operator_result(name: str, result: Signature | SignatureSet,
                    params: Mapping[str, Any] | None = None) -> OperatorResult:
    """Wrap what :func:`modelmine.operators.aggregate` returned (Signature or SignatureSet)."""
    if not isinstance(result, Signature | SignatureSet):
        raise TypeError(f"operator_result takes a Signature or SignatureSet; got "
                        f"{type(result).__name__}.")
    return OperatorResult(name, result, dict(params or {}))


def markdown_table(frame: pd.DataFrame, digits: int = 2) -> str:
    """A GitHub Markdown table of ``frame`` (its index too, unless a plain range).

    For the reproduction documents (``docs/reproduction.md``, ``docs/operators.md``):
    numbers with ``digits`` decimals, NaN as an empty cell; no dependency beyond pandas.
    """
    frame = frame.reset_index() if not isinstance(frame.index, pd.RangeIndex) else frame

    def cell(v: object) -> str:
        if isinstance(v, float | np.floating):
            return "" if np.isnan(v) else f"{v:.{digits}f}"
        return str(v)

    lines = ["| " + " | ".join(map(str, frame.columns)) + " |",
             "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |"
              for row in frame.itertuples(index=False)]
    return "\n".join(lines) + "\n"
