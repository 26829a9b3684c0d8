"""Signature and SignatureSet: what an operator returns.

A signature is a feature model built from the base models (Woznica, Nguyen and Kalousis,
KDD 2012, section 2): feature indices in signature order, their names, a score per feature
where the operator has one, and a provenance record saying how it was built (operator,
parameters, itemsets or base models and clusters behind it). A multi-model operator
(KDD 2012, section 2.2) returns k alternative signatures as a :class:`SignatureSet`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._utils import frozen, readonly
from .._utils import jsonable as _jsonable
from ..patterns import intersection_counts

__all__ = ["Signature", "SignatureSet", "jsonable"]


#: The features a signature shows in Jupyter (``Signature._repr_html_``).
_HTML_ROWS = 20


def _cell(value: Any) -> str:
    """A value of a signature's table as shown in Jupyter (scores to 4 significant digits)."""
    return f"{value:.4g}" if isinstance(value, float | np.floating) else str(value)


def jsonable(value: Any) -> Any:
    """A JSON-serialisable copy of ``value``; TypeError for what has no JSON form (the
    caller names the operator)."""
    return _jsonable(value, unknown="raise")


def _readonly(a: np.ndarray) -> np.ndarray:
    return readonly(a, copy=True)


def jaccard_similarities(signatures: Sequence[Signature]) -> np.ndarray:
    """Pairwise Jaccard similarities of signatures, (k, k), 1 where both are empty.

    Through the one overlap kernel (:func:`modelmine.patterns.intersection_counts`), on the
    columns of the features that some signature holds.
    """
    k = len(signatures)
    if k == 0:
        return np.ones((0, 0))
    used, cols = np.unique(np.concatenate([s.features for s in signatures]),
                           return_inverse=True)
    masks = np.zeros((k, max(used.size, 1)), dtype=bool)
    rows = np.repeat(np.arange(k), [len(s) for s in signatures])
    masks[rows, cols] = True
    inter = intersection_counts(masks).astype(np.float64)
    sizes = masks.sum(axis=1).astype(np.float64)
    union = sizes[:, None] + sizes[None, :] - inter
    out = np.ones((k, k))
    np.divide(inter, union, out=out, where=union > 0)
    np.fill_diagonal(out, 1.0)
    return out


@dataclass(frozen=True, eq=False)
class Signature:
    """One feature signature built by an operator. Immutable.

    Attributes
    ----------
    features : ndarray of int, shape (m,)
        Feature indices, in signature order (the operator's order of preference).
    names : ndarray of str, shape (m,)
        Their names.
    scores : ndarray of float, shape (m,), or None
        The operator's value for each feature (see ``score_name``), None when it has none.
    score_name : str or None
        What ``scores`` hold, e.g. ``"mean_rank"`` (lower is better), ``"frequency"``.
    operator : str
        Name of the operator that built it.
    provenance : mapping
        Read-only, JSON-serialisable record of how it was built (``jsonable`` or
        :meth:`to_dict` give plain dicts).
    n_features_in : int or None
        p, the number of features of the data (for :meth:`mask`).
    """

    features: np.ndarray
    names: np.ndarray
    scores: np.ndarray | None = None
    score_name: str | None = None
    operator: str = ""
    provenance: dict[str, Any] = field(default_factory=dict)
    n_features_in: int | None = None

    def __post_init__(self) -> None:
        feats = np.asarray(self.features)
        if feats.ndim != 1 or (feats.size and not np.issubdtype(feats.dtype, np.integer)):
            raise TypeError("Signature.features must be a 1-D array of integer indices.")
        feats = feats.astype(np.int64)
        if np.unique(feats).size != feats.size:
            raise ValueError("Signature.features must not repeat a feature.")
        if feats.size and feats.min() < 0:
            raise ValueError("Signature.features must be non-negative indices.")
        if self.n_features_in is not None and feats.size and feats.max() >= self.n_features_in:
            raise ValueError(f"Signature.features must be < {self.n_features_in}.")
        names = np.asarray(self.names).astype(str)
        if names.shape != feats.shape:
            raise ValueError("Signature.names must hold one name per feature.")
        object.__setattr__(self, "features", _readonly(feats))
        object.__setattr__(self, "names", _readonly(names))
        if self.scores is not None:
            scores = np.asarray(self.scores, dtype=np.float64)
            if scores.shape != feats.shape:
                raise ValueError("Signature.scores must hold one value per feature.")
            object.__setattr__(self, "scores", _readonly(scores))
        object.__setattr__(self, "provenance", frozen(jsonable(dict(self.provenance))))

    def __len__(self) -> int:
        return int(self.features.size)

    def __iter__(self) -> Iterator[int]:
        return iter(int(f) for f in self.features)

    def __contains__(self, feature: object) -> bool:
        return bool(np.any(self.features == feature))

    def mask(self, p: int | None = None) -> np.ndarray:
        """Boolean mask of length ``p`` (default: ``n_features_in``), True on the features."""
        size = self.n_features_in if p is None else int(p)
        if size is None:
            raise ValueError("Signature.mask needs p: this signature does not record it.")
        out = np.zeros(size, dtype=bool)
        out[self.features] = True
        return out

    def overlap(self, other: Signature) -> float:
        """Jaccard similarity ``|A & B| / |A | B|`` with another signature (1 if both empty)."""
        return float(jaccard_similarities([self, other])[0, 1])

    def to_frame(self) -> pd.DataFrame:
        """One row per feature, in signature order: position, index, name (and score)."""
        data: dict[str, Any] = {
            "position": np.arange(1, len(self) + 1),
            "feature": self.names,
            "index": self.features,
        }
        if self.scores is not None:
            data[self.score_name or "score"] = self.scores
        return pd.DataFrame(data).set_index("position")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (``json.dumps(sig.to_dict())`` works)."""
        return {
            "operator": self.operator,
            "features": self.features.tolist(),
            "names": self.names.tolist(),
            "scores": None if self.scores is None else jsonable(self.scores),
            "score_name": self.score_name,
            "n_features_in": self.n_features_in,
            "provenance": jsonable(self.provenance),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Signature:
        """Rebuild a signature from :meth:`to_dict` (as read back from JSON)."""
        scores = data.get("scores")
        return cls(features=np.asarray(data["features"], dtype=np.int64),
                   names=np.asarray(data["names"], dtype=str),
                   scores=None if scores is None else np.asarray(
                       [np.nan if s is None else s for s in scores], dtype=np.float64),
                   score_name=data.get("score_name"), operator=str(data.get("operator", "")),
                   provenance=data.get("provenance") or {},
                   n_features_in=data.get("n_features_in"))

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict())

    def __eq__(self, other: object) -> bool:
        """Same features in the same order, same operator (scores and provenance ignored)."""
        if not isinstance(other, Signature):
            return NotImplemented
        return self.operator == other.operator and np.array_equal(self.features,
                                                                  other.features)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(self.names[:5].tolist()) + (", ..." if len(self) > 5 else "")
        return f"Signature(operator={self.operator!r}, n_features={len(self)}, [{shown}])"

    def _repr_html_(self) -> str:
        """The signature in Jupyter, as :meth:`MiningRun._repr_html_
        <modelmine.MiningRun._repr_html_>` shows a run: the operator, the size and the
        first 20 features of :meth:`to_frame` in signature order."""
        e = html.escape
        frame = self.to_frame()
        head = "".join(f"<th>{e(str(c))}</th>" for c in ["position", *frame.columns])
        rows = "".join(
            "<tr>" + "".join(f"<td>{e(_cell(v))}</td>" for v in (position, *row)) + "</tr>"
            for position, row in zip(frame.index[:_HTML_ROWS],
                                     frame.head(_HTML_ROWS).itertuples(index=False)))
        more = (f"<p>... and {len(self) - _HTML_ROWS} more (to_frame() lists all)</p>"
                if len(self) > _HTML_ROWS else "")
        of = "" if self.n_features_in is None else f" of {self.n_features_in}"
        return (f"<div><p><b>Signature</b> of {e(self.operator or 'no operator')}: "
                f"{len(self)} features{of}</p><table><thead><tr>{head}</tr></thead>"
                f"<tbody>{rows}</tbody></table>{more}</div>")


@dataclass(frozen=True, eq=False)
class SignatureSet:
    """k alternative signatures from a multi-model operator (KDD 2012, section 2.2).

    Attributes
    ----------
    signatures : tuple of Signature
    operator : str
    provenance : dict
        JSON-serialisable record shared by the set (each signature has its own too).
    """

    signatures: tuple[Signature, ...]
    operator: str = ""
    provenance: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        sigs = tuple(self.signatures)
        if not all(isinstance(s, Signature) for s in sigs):
            raise TypeError("SignatureSet.signatures must all be Signature objects.")
        object.__setattr__(self, "signatures", sigs)
        object.__setattr__(self, "provenance", frozen(jsonable(dict(self.provenance))))

    def __len__(self) -> int:
        return len(self.signatures)

    def __getitem__(self, i: int) -> Signature:
        return self.signatures[i]

    def __iter__(self) -> Iterator[Signature]:
        return iter(self.signatures)

    def overlap(self) -> np.ndarray:
        """k x k matrix of pairwise Jaccard similarities between the signatures."""
        return jaccard_similarities(self.signatures)

    def mean_overlap(self) -> float:
        """Average pairwise Jaccard similarity (the "similarity" of KDD 2012, Table 4)."""
        k = len(self)
        if k < 2:
            return 1.0
        sim = self.overlap()
        return float(sim[np.triu_indices(k, 1)].mean())

    def to_frame(self) -> pd.DataFrame:
        """One row per signature: size, feature names, indices and scalar provenance."""
        rows = []
        for i, sig in enumerate(self.signatures):
            row: dict[str, Any] = {
                "signature": i,
                "n_features": len(sig),
                "features": " ".join(sig.names.tolist()),
                "indices": " ".join(str(f) for f in sig.features.tolist()),
            }
            for key, val in sig.provenance.items():
                if isinstance(val, (bool, int, float, str)) and key not in ("operator",):
                    row[key] = val
            rows.append(row)
        return pd.DataFrame(rows).set_index("signature")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict."""
        return {"operator": self.operator, "provenance": jsonable(self.provenance),
                "signatures": [s.to_dict() for s in self.signatures]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SignatureSet:
        """Rebuild a set from :meth:`to_dict` (as read back from JSON)."""
        return cls(tuple(Signature.from_dict(s) for s in data["signatures"]),
                   operator=str(data.get("operator", "")),
                   provenance=data.get("provenance") or {})

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict())

    def __repr__(self) -> str:
        return f"SignatureSet(operator={self.operator!r}, n_signatures={len(self)})"
