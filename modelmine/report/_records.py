"""Plain records of signatures and diagnostics: what the report shows and the CLI saves.

Operators return :class:`~modelmine.operators.Signature` objects (one for a single-model
operator, k in a ``SignatureSet`` for a multi-model one; Woznica, Nguyen and Kalousis,
KDD 2012, section 2). The report and the files of ``modelmine run`` need the same facts in
a JSON-friendly form that can be read back without the operator code:
:class:`SignatureRecord` and :class:`OperatorResult`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._utils import jsonable
from ..base_models import BaseModels
from ..operators import Signature, SignatureSet

__all__ = [
    "OperatorResult",
    "SignatureRecord",
    "jsonable",
    "operator_result",
    "read_signatures_json",
    "signatures_json",
]


@dataclass(frozen=True)
class SignatureRecord:
    """One signature as plain data: feature indices, names, scores and provenance.

    Attributes
    ----------
    features : tuple of int
        Column indices, in the signature's order (best first).
    names : tuple of str
    scores : tuple of float or None
        The operator's score per feature, where it has one.
    provenance : dict
        What produced it (itemsets, supports, medoid, cluster sizes...), JSON values.
    score_name : str or None
        What the scores are (for example ``"mean_rank"``, lower is better).
    """

    features: tuple[int, ...]
    names: tuple[str, ...]
    scores: tuple[float | None, ...] | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    score_name: str | None = None

    @classmethod
    def from_signature(cls, sig: Signature) -> SignatureRecord:
        """Build from an operator's :class:`~modelmine.operators.Signature`."""
        features = tuple(int(f) for f in sig.features)
        names = tuple(str(n) for n in sig.names)
        score_t = None if sig.scores is None else tuple(
            jsonable(s) for s in np.asarray(sig.scores, dtype=np.float64))
        name = sig.score_name
        return cls(features, names, score_t, jsonable(dict(sig.provenance)),
                   None if name is None else str(name))

    def to_dict(self) -> dict[str, Any]:
        return {"features": list(self.features), "names": list(self.names),
                "scores": None if self.scores is None else list(self.scores),
                "provenance": self.provenance, "score_name": self.score_name}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SignatureRecord:
        scores = d.get("scores")
        return cls(tuple(int(f) for f in d["features"]), tuple(str(n) for n in d["names"]),
                   None if scores is None else tuple(scores), dict(d.get("provenance") or {}),
                   d.get("score_name"))

    def mask(self, n_features: int) -> np.ndarray:
        """The signature as a boolean vector of length ``n_features``."""
        m = np.zeros(n_features, dtype=bool)
        m[list(self.features)] = True
        return m

    def to_frame(self, base: BaseModels | None = None) -> pd.DataFrame:
        """Table with rank, feature name, column index, score and, given the base models,
        each feature's selection frequency across the b models and its mean rank."""
        frame = pd.DataFrame({
            "rank": np.arange(1, len(self.features) + 1),
            "feature": list(self.names),
            "index": list(self.features),
        })
        if self.scores is not None:
            col = f"score ({self.score_name})" if self.score_name else "score"
            frame[col] = [np.nan if s is None else float(s) for s in self.scores]
        if base is not None and self.features:
            idx = np.asarray(self.features)
            frame["frequency"] = base.subsets[:, idx].mean(axis=0)
            frame["mean_rank"] = base.tied_ranks()[:, idx].mean(axis=0, dtype=np.float64)
        return frame


@dataclass(frozen=True)
class OperatorResult:
    """The output of one operator: its name, kind and its signature(s).

    ``kind`` is ``"single"`` (one consensus signature) or ``"multi"`` (k alternatives,
    KDD 2012, section 2.3).
    """

    operator: str
    kind: str
    signatures: tuple[SignatureRecord, ...]
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"operator": self.operator, "kind": self.kind, "params": jsonable(self.params),
                "signatures": [s.to_dict() for s in self.signatures]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> OperatorResult:
        return cls(str(d["operator"]), str(d["kind"]),
                   tuple(SignatureRecord.from_dict(s) for s in d["signatures"]),
                   dict(d.get("params") or {}))

    def to_frame(self, base: BaseModels | None = None) -> pd.DataFrame:
        """All signatures in one long table, with an ``alternative`` column (1-based)."""
        parts = []
        for i, sig in enumerate(self.signatures, start=1):
            f = sig.to_frame(base)
            f.insert(0, "alternative", i)
            f.insert(0, "operator", self.operator)
            parts.append(f)
        if not parts:
            return pd.DataFrame(columns=["operator", "alternative", "rank", "feature", "index"])
        return pd.concat(parts, ignore_index=True)


def operator_result(name: str, result: Signature | SignatureSet,
                    params: Mapping[str, Any] | None = None) -> OperatorResult:
    """Wrap what :func:`modelmine.operators.aggregate` returned (Signature or SignatureSet)."""
    if isinstance(result, SignatureSet):
        records = tuple(SignatureRecord.from_signature(s) for s in result.signatures)
        kind = "multi"
    else:
        records = (SignatureRecord.from_signature(result),)
        kind = "single"
    return OperatorResult(name, kind, records, dict(params or {}))


def signatures_json(results: Sequence[OperatorResult]) -> str:
    """The ``signatures.json`` text of a run."""
    return json.dumps({"format": "modelmine.signatures", "format_version": 1,
                       "operators": [r.to_dict() for r in results]}, indent=2)


def read_signatures_json(text: str) -> list[OperatorResult]:
    """Read back :func:`signatures_json`."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != "modelmine.signatures":
        raise ValueError("not a modelmine signatures.json file")
    return [OperatorResult.from_dict(d) for d in data["operators"]]
