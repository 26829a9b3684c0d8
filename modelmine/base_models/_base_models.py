"""BaseModels: the b base feature models a selector produced on b resamples.

Woznica, Nguyen and Kalousis (KDD 2012, section 2) represent each base model three ways: a
weighting of the features (scores), a ranking and a subset. :class:`BaseModels` keeps all
three as b x p matrices, with the resampled sample indices behind each model (so that
out-of-bag evaluation is possible), the feature names, and a record of the selector, its
parameters, the resampling scheme and the seed.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import os
import pickle
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .. import _schema as schema
from .._files import umask_mode, write_error
from .._utils import frozen, jsonable
from ..exceptions import DataError
from ..outcomes import DEFAULT_OUTCOME
from ..selectors import FeatureModel, average_ranks, record_from_file
from ..selectors._scaling import SCALE_METHODS
from ..spec import RunSpec

__all__ = ["BaseModels", "data_fingerprint", "equal_score_models", "equal_scores_statement"]

_FORMAT = "modelmine.BaseModels"
_FORMAT_VERSION = 2
# What the stored record may name (bootstrap's RESAMPLING_METHODS and ARTIFICIAL_FEATURES;
# "unknown" for artificial subsets given without their record).
_RESAMPLING_METHODS = ("bootstrap", "subsample", "complementary-pairs")
_ARTIFICIAL_METHODS = ("permutation", "knockoff", "unknown")


def data_fingerprint(X: Any, y: np.ndarray, design: Any = None, target: Any = None) -> str:
    """A sha256 of the data (values, shape, sparsity structure and labels), and of the
    groups and sample weights when the run has them (``design``, a
    :class:`._design.SampleDesign`).

    Used to refuse mixing results computed on different data (a resumed run, for example).
    """
    h = hashlib.sha256()
    if sp.issparse(X):
        Xc = sp.csr_matrix(X)
        for part, dtype in ((Xc.data, np.float64), (Xc.indices, np.int64),
                            (Xc.indptr, np.int64)):
            _update_by_chunks(h, part, dtype)
    else:
        _update_by_chunks(h, np.asarray(X), np.float64)
    h.update(str(tuple(X.shape)).encode())
    h.update(np.ascontiguousarray(y, dtype=np.int64).tobytes())
    if design is not None:
        design.fingerprint_into(h)
    if target is not None:  # a continuous or survival outcome (its strata are y)
        h.update(np.ascontiguousarray(target).tobytes())
    return h.hexdigest()


def equal_score_models(base: BaseModels) -> np.ndarray:
    """The base models whose scores are all equal (the selector told no feature from
    another on that resample), as indices: their ranking and subset are the column order
    (ties go to the lower index), not the data (issue 50). Models without scores (a
    selector that gives none, NaN in a pooled ensemble) are not counted."""
    scores = base.scores
    if scores is None or scores.shape[1] < 2:
        return np.empty(0, dtype=np.intp)
    with np.errstate(invalid="ignore"):
        equal = np.all(scores == scores[:, :1], axis=1) & np.isfinite(scores[:, 0])
    return np.flatnonzero(equal)


def equal_scores_statement(base: BaseModels, where: str = "") -> str | None:
    """The caution about :func:`equal_score_models`, in words with the figures, or None."""
    tied = equal_score_models(base)
    if not tied.size:
        return None
    first = ", ".join(str(int(i)) for i in tied[:5]) + (" ..." if tied.size > 5 else "")
    return (f"{where}{tied.size} of the {base.n_models} base models scored every feature "
            f"equally (models {first}): the selector told no feature from another on "
            "those resamples, so their rankings and subsets are the column order, not the "
            "data. Look at what these resamples hold (sample weights that swamp the others, "
            "constant features in a resample, a selector that saturates).")


def _update_by_chunks(h: Any, a: np.ndarray, dtype: Any, step: int = 1 << 20) -> None:
    """Feed the C-order bytes of ``a`` as ``dtype`` to the hash ``h``, a million values at
    a time: the digest of the whole array, without a converted copy of an atlas (a
    float32 atlas of 10^8 entries would need 1.6 GB of float64 and int64 copies)."""
    flat = np.ravel(a, order="C")
    for i in range(0, flat.size, step):
        h.update(np.ascontiguousarray(flat[i:i + step], dtype=dtype))


def _readonly(a: np.ndarray) -> np.ndarray:
    """A read-only array: a copy, unless ``a`` is already read-only (then nobody can change
    it through us, and large runs are spared a second copy of their b x p matrices)."""
    a = np.asarray(a)
    if a.flags.writeable:
        a = a.copy()
        a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class BaseModels:
    """The b base feature models of one selector (KDD 2012, section 2). Immutable.

    Build it with :func:`modelmine.bootstrap`; load a saved one with :meth:`load`. It holds
    one record of what made the models, :attr:`spec`; the descriptions of the selector,
    the resampling and the artificial features, m and the seed are views of it (and of
    :attr:`design`, what the data brought: groups, weights).

    Attributes
    ----------
    subsets : ndarray of bool, shape (b, p)
        ``subsets[i, j]`` is True when model i selected feature j. For ranking selectors
        each row holds exactly ``n_features`` True values; for selectors that choose their
        own subset (``selector_kind == "subset"``) the rows may differ in size.
    ranks : ndarray of int32, shape (b, p)
        Rank of each feature in each model, 1 = best, a total order (ties broken by
        feature index, see :mod:`modelmine.selectors`).
    scores : ndarray of float32, shape (b, p), or None
        The selector's relevance scores (higher = better), None for selectors that only
        rank (such as SVM-RFE); in a heterogeneous ensemble mixing both, the rows of the
        ranking-only selectors are NaN (``extra["selectors_without_scores"]`` names
        them). Stored in single precision to halve the memory of large
        runs; ranks and subsets are computed from the selector's double-precision scores
        before storage, so single precision never changes them.
    sample_indices : ndarray of int32, shape (b, n_drawn)
        Row indices of the data each model was fitted on (with repeats for the bootstrap).
        Resamples of whole groups (``bootstrap(..., groups=...)``) vary in size: their rows
        are padded on the right with -1; :meth:`resample` gives model i's rows alone.
    feature_names : ndarray of str, shape (p,)
    spec : RunSpec
        The settings that made these models (:class:`~modelmine.RunSpec`, without the
        mining settings: ``operators=()``), the one record they hold; saved with them.
        A workflow that refits derives its settings from it (``base.spec.replace(...)``).
        For a custom selector read back from a file (its object is not stored), the spec
        holds a :class:`~modelmine.selectors.RecordedSelector`, which refuses to refit.
    classes : tuple
        The class labels of the data, in the order of the codes 0..K-1.
    n_samples : int
        Number of samples of the data.
    data_sha256 : str
        Fingerprint of the data (:func:`data_fingerprint`).
    full_model : FeatureModel or None
        The selector fitted once on all the data (the "nobagg" baseline of KDD 2012,
        section 3), with ``scores`` (or None), ``ranks`` and ``subset`` of shape (p,).
    extra : mapping (read-only)
        What the fit adds (a heterogeneous ensemble's ``model_selectors``, ...).
    artificial_subsets : ndarray of bool, shape (b, p_artificial), or None
        When the models were fitted on data with artificial features appended
        (``bootstrap(..., artificial_features=...)``): ``artificial_subsets[i, j]`` is True
        when model i selected artificial feature j. The real features' subsets, ranks
        (among the real features) and scores are in the attributes above, and
        ``feature_names`` are the real features' names. None otherwise.
    design : mapping (read-only)
        What the data brought to the resampling, not a setting: ``groups`` (the number
        of groups whole groups were drawn from) and ``sample_weight`` (``"resampling"``
        when the weights drew the resamples, ``"selector"`` when the selector took them).
    """

    subsets: np.ndarray
    ranks: np.ndarray
    scores: np.ndarray | None
    sample_indices: np.ndarray
    feature_names: np.ndarray
    spec: RunSpec
    classes: Sequence[Any]
    n_samples: int
    data_sha256: str = ""
    full_model: FeatureModel | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    artificial_subsets: np.ndarray | None = None
    design: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        subsets = np.asarray(self.subsets, dtype=bool)
        if subsets.ndim != 2:
            raise ValueError(f"subsets must be a 2-D boolean matrix; got shape {subsets.shape}.")
        b, p = subsets.shape
        ranks = np.asarray(self.ranks)
        if ranks.shape != (b, p):
            raise ValueError(f"ranks must have shape {(b, p)}; got {ranks.shape}.")
        if not isinstance(self.spec, RunSpec):
            raise TypeError(f"spec must be a modelmine.RunSpec; got {type(self.spec).__name__}.")
        object.__setattr__(self, "subsets", _readonly(subsets))
        object.__setattr__(self, "ranks", _readonly(ranks.astype(np.int32, copy=False)))
        if self.scores is not None:
            scores = np.asarray(self.scores, dtype=np.float32)
            if scores.shape != (b, p):
                raise ValueError(f"scores must have shape {(b, p)}; got {scores.shape}.")
            object.__setattr__(self, "scores", _readonly(scores))
        idx = np.asarray(self.sample_indices)
        if idx.ndim != 2 or idx.shape[0] != b:
            raise ValueError(f"sample_indices must have {b} rows; got shape {idx.shape}.")
        object.__setattr__(self, "sample_indices", _readonly(idx.astype(np.int32, copy=False)))
        names = np.asarray(self.feature_names).astype(str)
        if names.shape != (p,):
            raise ValueError(f"feature_names must hold {p} names; got {names.size}.")
        object.__setattr__(self, "feature_names", _readonly(names))
        # Immutable all the way down: the records become read-only mappings and tuples.
        if self.artificial_subsets is not None:
            art = np.asarray(self.artificial_subsets, dtype=bool)
            if art.ndim != 2 or art.shape[0] != b:
                raise ValueError(f"artificial_subsets must have {b} rows; got shape "
                                 f"{art.shape}.")
            object.__setattr__(self, "artificial_subsets", _readonly(art))
        for name in ("extra", "design"):
            object.__setattr__(self, name, frozen(jsonable(dict(getattr(self, name)))))
        object.__setattr__(self, "classes", frozen([_json_label(c) for c in self.classes]))
        if self.full_model is not None:
            fm = self.full_model
            full = FeatureModel(
                scores=None if fm.scores is None else _readonly(
                    np.asarray(fm.scores, dtype=np.float64)),
                ranks=_readonly(np.asarray(fm.ranks, dtype=np.int32)),
                subset=_readonly(np.asarray(fm.subset, dtype=bool)),
            )
            if full.ranks.shape != (p,) or full.subset.shape != (p,):
                raise ValueError(f"full_model must hold arrays of shape ({p},).")
            object.__setattr__(self, "full_model", full)

    @classmethod
    def from_records(cls, *, subsets: Any, ranks: Any, scores: Any, sample_indices: Any,
                     feature_names: Any, selector: Mapping[str, Any],
                     n_features: int | None, resampling: Mapping[str, Any],
                     random_state: int, classes: Sequence[Any], n_samples: int,
                     data_sha256: str = "", full_model: FeatureModel | None = None,
                     extra: Mapping[str, Any] | None = None,
                     artificial_subsets: Any = None,
                     artificial: Mapping[str, Any] | None = None,
                     settings: Mapping[str, Any] | None = None) -> BaseModels:
        """Base models from the records of a file (or of models made by hand): the
        selector's description, the resampling record, m, the seed, the artificial
        features' record and, when stored, the settings; their :attr:`spec` is read from
        ``settings``, else rebuilt from the records (a selector not registered here is
        held as a :class:`~modelmine.selectors.RecordedSelector` of its description).
        The one reader of the old records (:meth:`load` and :mod:`modelmine.testing`)."""
        record = record_from_file(selector)  # as it is meant; also for a record by hand
        b = int(np.asarray(subsets).shape[0])
        if settings:
            spec = RunSpec.from_settings(settings, record=record, func="BaseModels.spec")
        else:
            spec = _spec_from_records(record, n_features=n_features,
                                      resampling=resampling, random_state=random_state,
                                      artificial=artificial or {}, n_models=b,
                                      fit_full=full_model is not None)
        design = {k: resampling[k] for k in ("groups", "sample_weight") if k in resampling}
        return cls(subsets=subsets, ranks=ranks, scores=scores,
                   sample_indices=sample_indices, feature_names=feature_names, spec=spec,
                   classes=classes, n_samples=n_samples, data_sha256=data_sha256,
                   full_model=full_model, extra=extra or {},
                   artificial_subsets=artificial_subsets, design=design)

    def __getstate__(self) -> dict[str, Any]:
        # A custom selector may not pickle (a lambda): workers then get its record, as a
        # copy read from a file does.
        state = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        try:
            pickle.dumps(self.spec)
        except Exception:
            from ..selectors import RecordedSelector

            state["spec"] = self.spec.replace(
                "BaseModels", selector=RecordedSelector(self.selector), selector_params=None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # ------------------------------------------------------------------ views
    def _view(self, name: str, make: Any) -> Any:
        memo = self.__dict__.get(name)
        if memo is None:
            memo = make()
            object.__setattr__(self, name, memo)
        return memo

    @property
    def selector(self) -> Mapping[str, Any]:
        """The selector's description (``{"name", "kind", "params"}`` and, for another
        outcome, ``"outcome"``; its ``scale``, its ``covariates``), as the fitted selector
        describes itself: a view of :attr:`spec`. Read-only."""
        return self._view("_selector", lambda: frozen(jsonable(fitted_description(
            self.spec))))

    @property
    def selector_name(self) -> str:
        """The selector's name (the names joined by "+" for a heterogeneous ensemble)."""
        return str(self.selector.get("name"))

    @property
    def selector_kind(self) -> str:
        """What the selector returns: "scores", "ranking", "subset", or "heterogeneous"."""
        return str(self.selector.get("kind"))

    @property
    def resampling(self) -> Mapping[str, Any]:
        """The resampling record (``{"method", "stratify", "fraction"}``, and ``groups``,
        ``max_per_class``, ``sample_weight``, ``n_pairs`` when they apply): a view of
        :attr:`spec` and :attr:`design`. Read-only."""
        def make() -> Any:
            spec = self.spec
            out: dict[str, Any] = {"method": spec.resampling, "stratify": spec.stratify,
                                   "fraction": float(spec.sample_fraction or 1.0)}
            if "groups" in self.design:
                out["groups"] = self.design["groups"]
            if spec.max_per_class is not None:
                out["max_per_class"] = spec.max_per_class
            if "sample_weight" in self.design:
                out["sample_weight"] = self.design["sample_weight"]
            if spec.resampling == "complementary-pairs":
                out["n_pairs"] = spec.n_bootstraps // 2
            return frozen(out)

        return self._view("_resampling", make)

    @property
    def artificial(self) -> Mapping[str, Any]:
        """``{"method": "permutation" | "knockoff", "n_features": p_artificial}`` of the
        artificial features (``"unknown"`` for artificial subsets given without their
        setting), or empty: a view of :attr:`spec`. Read-only."""
        if self.artificial_subsets is None:
            return frozen({})
        return frozen({"method": self.spec.artificial_features or "unknown",
                       "n_features": int(self.artificial_subsets.shape[1])})

    @property
    def n_features(self) -> int | None:
        """m, the requested subset size (a cap for subset selectors): ``spec.n_features``."""
        return self.spec.n_features

    @property
    def random_state(self) -> int:
        """The seed (``numpy.random.SeedSequence`` entropy) that reproduces these models:
        ``spec.random_state``."""
        return int(self.spec.random_state)

    @property
    def settings(self) -> Mapping[str, Any]:
        """The record of :attr:`spec` (:meth:`RunSpec.to_settings`), as saved with the
        models. Read-only."""
        return self._view("_settings", lambda: frozen(jsonable(self.spec.to_settings())))

    @property
    def outcome(self) -> str:
        """What the models' y was: "classification", "regression" or "survival"."""
        return str(self.spec.outcome)

    @property
    def weighted_resampling(self) -> bool:
        """Whether the resamples were drawn in proportion to the sample weights (else,
        with weights, the selector took them)."""
        return self.design.get("sample_weight") == "resampling"

    @property
    def n_models(self) -> int:
        """b, the number of base models."""
        return int(self.subsets.shape[0])

    @property
    def n_features_in(self) -> int:
        """p, the number of features of the data."""
        return int(self.subsets.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        """(b, p)."""
        return (self.n_models, self.n_features_in)

    def tied_ranks(self) -> np.ndarray:
        """Ranks where exactly tied scores share their average rank, shape (b, p), float32.

        What rank aggregations (avgRank, Stuart, RRA) and rank stability use: averaging
        :attr:`ranks`, whose ties are broken by feature index, would favour low-index
        features wherever a selector gives many features the same score (a random
        forest's importance or an MDL information gain is exactly 0 for most genes).
        Equal to :attr:`ranks` where no score is tied, and for selectors that give no
        scores (their ranking is taken as given).
        """
        cached = self.__dict__.get("_tied_ranks")
        if cached is None:
            if self.scores is not None:
                cached = average_ranks(self.scores)
                # A heterogeneous ensemble keeps NaN scores for its ranking-only selectors.
                nan_rows = np.isnan(self.scores).any(axis=1)
                if nan_rows.any():
                    cached[nan_rows] = self.ranks[nan_rows]
            else:
                cached = self.ranks.astype(np.float32)
            cached.flags.writeable = False
            object.__setattr__(self, "_tied_ranks", cached)
        return cached

    @property
    def modalities(self) -> tuple[tuple[str, int], ...]:
        """Base models of multi-omic data: each modality's name and number of features, in
        column order (``extra["modalities"]``, from
        :func:`modelmine.datasets.from_mudata` or a mapping of tables); empty otherwise."""
        return tuple((str(k), int(v)) for k, v in self.extra.get("modalities", ()))

    def feature_modalities(self) -> np.ndarray:
        """The modality of each feature, shape (p,) (``""`` for all without modalities)."""
        blocks = self.modalities
        if not blocks:
            return np.full(self.n_features_in, "", dtype=object)
        return np.repeat(np.asarray([k for k, _ in blocks], dtype=object),
                         [v for _, v in blocks])

    @property
    def has_artificial(self) -> bool:
        """True when the models also selected among artificial features."""
        return self.artificial_subsets is not None

    def artificial_frequencies(self) -> np.ndarray:
        """Selection frequency of each artificial feature, shape (p_artificial,).

        Raises
        ------
        NotApplicableError
            The base models were built without artificial features.
        """
        if self.artificial_subsets is None:
            from ..exceptions import NotApplicableError

            raise NotApplicableError(
                "These base models were built without artificial features: use "
                "bootstrap(..., artificial_features='permutation').")
        return self.artificial_subsets.mean(axis=0)

    @property
    def model_selectors(self) -> tuple[str, ...]:
        """The name of the selector that made each model, shape (b,).

        One name repeated for the models of one selector; in a heterogeneous ensemble
        (``bootstrap(selector=["ig", "su", ...])``, Salman 2022, Section 3.2.2) the name
        of each model's own selector, in the order of the list (all the models of the
        first selector, then those of the second, ...).
        """
        names = self.extra.get("model_selectors")
        if names is None:
            return (str(self.selector.get("name")),) * self.n_models
        return tuple(str(v) for v in names)

    @property
    def selector_names(self) -> tuple[str, ...]:
        """The distinct selectors of the models, in order of first appearance."""
        return tuple(dict.fromkeys(self.model_selectors))

    def models_of(self, selector: str) -> BaseModels:
        """The base models made by one selector of a heterogeneous ensemble.

        Parameters
        ----------
        selector : str
            One of :attr:`selector_names`.

        Returns
        -------
        BaseModels
            Those models alone, with that selector's record (no ``full_model``).
        """
        names = self.selector_names
        if selector not in names:
            from ..validation import param_error

            raise param_error("selector", "BaseModels.models_of",
                              "one of " + ", ".join(repr(n) for n in names), selector)
        if len(names) == 1:
            return self
        rows = np.flatnonzero(np.asarray(self.model_selectors) == selector)
        without = set(self.extra.get("selectors_without_scores", ()))
        scores = None if (self.scores is None or selector in without) else self.scores[rows]
        whole = self.spec
        if whole.heterogeneous:  # the ensemble's settings, for that selector alone
            given = whole.selector[list(names).index(selector)]
            params = whole.selector_params.get(selector) if isinstance(given, str) else None
        else:  # an ensemble known by its record: that selector's record
            from ..selectors import RecordedSelector

            records = {r["name"]: r for r in self.selector["params"]["selectors"]}
            given, params = RecordedSelector(records[selector]), None
        spec = whole.replace("BaseModels.models_of", selector=given,
                             selector_params=dict(params or {}), fit_full=False)
        return BaseModels(
            subsets=self.subsets[rows], ranks=self.ranks[rows], scores=scores,
            sample_indices=self.sample_indices[rows], feature_names=self.feature_names,
            spec=spec, classes=list(self.classes), n_samples=self.n_samples,
            data_sha256=self.data_sha256, design=dict(self.design),
            extra={"modalities": self.extra["modalities"]} if self.modalities else {},
        )

    def subset_sizes(self) -> np.ndarray:
        """Number of features selected by each model, shape (b,)."""
        return self.subsets.sum(axis=1)

    # ------------------------------------------------------------- accessors
    def selected(self, i: int) -> np.ndarray:
        """Feature indices selected by model ``i``, best rank first."""
        cols = np.flatnonzero(self.subsets[i])
        return cols[np.argsort(self.ranks[i, cols], kind="stable")]

    def resample(self, i: int) -> np.ndarray:
        """The row indices model ``i`` was fitted on (``sample_indices[i]`` without the -1
        padding of resamples of whole groups)."""
        row = self.sample_indices[i]
        return row[row >= 0]

    def oob_indices(self, i: int) -> np.ndarray:
        """Indices of the samples model ``i`` did not see (out of bag), ascending."""
        seen = np.zeros(self.n_samples, dtype=bool)
        seen[self.resample(i)] = True
        return np.flatnonzero(~seen)

    def frequencies(self) -> pd.Series:
        """Selection frequency of each feature: the fraction of the b models selecting it.

        Returns
        -------
        pandas.Series
            Indexed by feature name, in feature order, named ``"frequency"``.
        """
        freq = self.subsets.mean(axis=0)
        return pd.Series(freq, index=pd.Index(self.feature_names, name="feature"),
                         name="frequency")

    def summary(self, top: int = 20) -> pd.DataFrame:
        """The ``top`` most frequently selected features with frequency and mean rank.

        The mean rank averages :meth:`tied_ranks`.

        Ordered by frequency (descending), then mean rank, then feature index.
        """
        freq = self.subsets.mean(axis=0)
        mean_rank = self.tied_ranks().mean(axis=0, dtype=np.float64)
        order = np.lexsort((np.arange(freq.size), mean_rank, -freq))[:top]
        return pd.DataFrame({
            "feature": self.feature_names[order],
            "index": order,
            "frequency": freq[order],
            "mean_rank": mean_rank[order],
        }).set_index("feature")

    def __repr__(self) -> str:
        sizes = self.subset_sizes()
        size = (f"{sizes[0]}" if sizes.min() == sizes.max()
                else f"{sizes.min()}..{sizes.max()}")
        return (f"BaseModels(selector={self.selector.get('name')!r}, n_models={self.n_models}, "
                f"n_features_in={self.n_features_in}, subset_size={size}, "
                f"resampling={self.resampling.get('method')!r}, "
                f"random_state={self.random_state})")

    def _repr_html_(self) -> str:
        """The base models in Jupyter, as :meth:`MiningRun._repr_html_
        <modelmine.MiningRun._repr_html_>` shows a run: what was fitted on what, the
        subset sizes and the ten most frequently selected features (:meth:`summary`)."""
        e = html.escape
        sizes = self.subset_sizes()
        size = (f"{sizes[0]}" if sizes.min() == sizes.max()
                else f"{sizes.min()} to {sizes.max()}")
        rows = "".join(f"<tr><td>{e(str(name))}</td><td>{row.frequency:.3f}</td>"
                       f"<td>{row.mean_rank:.1f}</td></tr>"
                       for name, row in self.summary(top=10).iterrows())
        return (f"<div><p><b>BaseModels</b>: {self.n_models} base models of "
                f"{e(str(self.selector.get('name')))} on {self.n_samples} samples x "
                f"{self.n_features_in} features ({e(str(self.resampling.get('method')))}, "
                f"seed {self.random_state}); {e(size)} features per model</p>"
                "<table><thead><tr><th>feature</th><th>frequency</th><th>mean rank</th>"
                f"</tr></thead><tbody>{rows}</tbody></table></div>")

    def __eq__(self, other: object) -> bool:
        """Exact equality of every array and of the records (bit-identical models), the
        settings record aside."""
        if not isinstance(other, BaseModels):
            return NotImplemented
        arrays = ("subsets", "ranks", "sample_indices", "feature_names")
        if any(not np.array_equal(getattr(self, a), getattr(other, a)) for a in arrays):
            return False
        if (self.scores is None) != (other.scores is None):
            return False
        if (self.artificial_subsets is None) != (other.artificial_subsets is None):
            return False
        if (self.artificial_subsets is not None and other.artificial_subsets is not None
                and not np.array_equal(self.artificial_subsets, other.artificial_subsets)):
            return False
        if (self.scores is not None and other.scores is not None
                and not np.array_equal(self.scores, other.scores, equal_nan=True)):
            return False
        if (self.full_model is None) != (other.full_model is None):
            return False
        if self.full_model is not None and other.full_model is not None:
            a, b = self.full_model, other.full_model
            if not (np.array_equal(a.ranks, b.ranks) and np.array_equal(a.subset, b.subset)):
                return False
            if (a.scores is None) != (b.scores is None) or (
                    a.scores is not None and b.scores is not None
                    and not np.array_equal(a.scores, b.scores)):
                return False
        # The record of the settings is not compared: the same models come from doors
        # whose mining settings differ, and models saved before it have none.
        mine, theirs = self._meta(), other._meta()
        mine.pop("settings", None)
        theirs.pop("settings", None)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------ persistence
    def _meta(self) -> dict[str, Any]:
        """The file's record: the views of :attr:`spec` the format stores, and the spec's
        own record (``settings``), from which :meth:`load` reads it back."""
        return {
            "format": _FORMAT,
            "format_version": _FORMAT_VERSION,
            "selector": jsonable(self.selector),
            "n_features": self.n_features,
            "resampling": jsonable(self.resampling),
            "random_state": str(self.random_state),
            "classes": [_json_label(c) for c in self.classes],
            "n_samples": self.n_samples,
            "data_sha256": self.data_sha256,
            "extra": jsonable(self.extra),
            **({"artificial": jsonable(self.artificial)} if self.artificial else {}),
            "settings": jsonable(self.settings),
        }

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Save to a ``.npz`` file (numpy arrays and a JSON record; no pickle).

        The file is written to a temporary name and renamed, so an interrupted save never
        leaves a truncated file under ``path``. Format 2 records a sha256 of the arrays and
        of the record, which :meth:`load` checks (format 1 files, without it, still load).

        Returns
        -------
        pathlib.Path
            The path written (``.npz`` is appended when missing).

        Raises
        ------
        OSError
            The file could not be written (disk full, permissions); the message names it.
        """
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_name(path.name + ".npz")
        arrays: dict[str, np.ndarray] = {
            "subsets": np.packbits(self.subsets, axis=1),
            "subsets_shape": np.array(self.subsets.shape, dtype=np.int64),
            "ranks": self.ranks,
            "sample_indices": self.sample_indices,
            "feature_names": self.feature_names.astype(str),
        }
        if self.scores is not None:
            arrays["scores"] = self.scores
        if self.artificial_subsets is not None:
            arrays["artificial_subsets"] = np.packbits(self.artificial_subsets, axis=1)
            arrays["artificial_shape"] = np.array(self.artificial_subsets.shape,
                                                  dtype=np.int64)
        if self.full_model is not None:
            arrays["full_ranks"] = self.full_model.ranks
            arrays["full_subset"] = self.full_model.subset
            if self.full_model.scores is not None:
                arrays["full_scores"] = self.full_model.scores
        meta = self._meta()
        meta["sha256"] = _checksum(meta, arrays)
        arrays["meta"] = np.array(json.dumps(meta))
        tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
        try:
            with open(tmp, "wb") as fh:
                np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]
            os.chmod(tmp, umask_mode(directory=False))
            os.replace(tmp, path)
        except OSError as exc:
            raise write_error(path, exc) from exc
        finally:
            if tmp.exists():
                tmp.unlink()
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> BaseModels:
        """Load base models saved by :meth:`save` (never executes code: no pickle).

        ``path`` may also be a run directory (``modelmine run --out DIR``), whose
        ``base_models.npz`` is opened. Before anything is used, the file is checked: its
        record against a declared schema (:mod:`modelmine._schema`), every array's dtype
        and shape against the record and each other, the sha256 of format 2, and the
        invariants of base models (each ranking a permutation of 1..p, ranking subsets the
        top ``n_features`` ranks, sample indices below ``n_samples``, finite scores).

        Raises
        ------
        FileNotFoundError
            No such file.
        DataError
            The file is not a modelmine BaseModels file, or it is corrupt; the message
            names the file and what is wrong. (DataError is a ValueError.)
        """
        path = Path(path)
        if path.is_dir():  # a run directory written by ``modelmine run --out DIR``
            from .._files import regular_file

            path = regular_file(path / "base_models.npz")
        if not path.exists():
            raise FileNotFoundError(f"No BaseModels file at {str(path)!r}.")
        where = repr(str(path))
        if not path.is_file():
            raise DataError(f"{where} is not a regular file: not a modelmine BaseModels file.")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DataError(f"Cannot read {where} ({exc.strerror or exc}).") from None
        if data[:4] not in (b"PK\x03\x04", b"PK\x05\x06"):
            # np.load would take it for a pickle and advise loading it unsafely: never.
            raise DataError(f"{where} is not a modelmine BaseModels file (not a .npz "
                            "archive).")
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as arch:
                if "meta" not in arch.files:
                    raise DataError(f"{where} is not a modelmine BaseModels file (no record "
                                    "'meta').")
                arrays = {k: arch[k] for k in arch.files}
        except DataError:
            raise
        except (zipfile.BadZipFile, KeyError, ValueError, OSError, EOFError, TypeError,
                zlib.error, NotImplementedError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise DataError(f"{where} is not a modelmine BaseModels file or it is corrupt "
                            f"({type(exc).__name__}{': ' + first if first else ''}).") from None
        return cls._from_arrays(arrays, where)

    @classmethod
    def _from_arrays(cls, arrays: dict[str, np.ndarray], where: str) -> BaseModels:
        """Check the arrays and the record of a saved file, then build the BaseModels."""
        def corrupt(what: str) -> DataError:
            return DataError(f"{where} is corrupt: {what}.")

        raw = arrays.pop("meta")
        if raw.shape != () or raw.dtype.kind != "U":
            raise corrupt("its record 'meta' is not a JSON text")
        try:
            meta = json.loads(str(raw))
        except ValueError as exc:  # JSONDecodeError, or an integer beyond the digit limit
            raise corrupt(f"its record 'meta' is not valid JSON ({exc})") from None
        if not isinstance(meta, dict) or meta.get("format") != _FORMAT:
            raise DataError(f"{where} is not a modelmine BaseModels file (wrong format "
                            "marker).")
        version = meta.get("format_version")
        if isinstance(version, int) and not isinstance(version, bool) and (
                version > _FORMAT_VERSION):
            raise DataError(f"{where} was written by a newer modelmine (BaseModels format "
                            f"{version}; this one reads up to {_FORMAT_VERSION}).")
        schema.check(meta, _META_SCHEMA, where)
        if meta["format_version"] >= 2:
            stored = meta.pop("sha256", None)
            if stored is None:
                raise corrupt("it lacks its checksum 'sha256' (format 2)")
            if _checksum(meta, arrays) != stored:
                raise corrupt("its checksum does not match its content (the file was "
                              "changed or damaged)")
        missing = [k for k in ("subsets", "subsets_shape", "ranks", "sample_indices",
                               "feature_names") if k not in arrays]
        if missing:
            raise corrupt(f"it lacks the array(s) {missing}")
        shape = arrays["subsets_shape"]
        if shape.shape != (2,) or shape.dtype.kind not in "iu":
            raise corrupt(f"'subsets_shape' must be 2 integers; it is {shape.tolist()!r}")
        b, p = (int(v) for v in shape)
        packed = arrays["subsets"]
        if b < 1 or p < 1 or packed.dtype != np.uint8 or packed.shape != (b, -(-p // 8)):
            raise corrupt(f"'subsets_shape' {[b, p]} does not match the stored subsets "
                          f"(shape {packed.shape}, dtype {packed.dtype})")

        def matrix(name: str, kinds: str, shape: tuple[int, ...]) -> np.ndarray:
            a = arrays[name]
            if a.dtype.kind not in kinds or a.shape != shape:
                raise corrupt(f"{name!r} has shape {a.shape} and dtype {a.dtype}; expected "
                              f"shape {shape} ({'integers' if kinds == 'iu' else 'numbers'})")
            return a

        ranks = matrix("ranks", "iu", (b, p))
        names = arrays["feature_names"]
        if names.dtype.kind != "U" or names.shape != (p,):
            raise corrupt(f"'feature_names' must hold {p} names; it has shape {names.shape}")
        idx = arrays["sample_indices"]
        if idx.dtype.kind not in "iu" or idx.ndim != 2 or idx.shape[0] != b:
            raise corrupt(f"'sample_indices' has shape {idx.shape} and dtype {idx.dtype}; "
                          f"expected {b} rows of integers")
        scores = matrix("scores", "f", (b, p)) if "scores" in arrays else None
        n_samples = meta["n_samples"]
        if idx.size and (idx.min() < -1 or idx.max() >= n_samples):
            raise corrupt(f"sample indices range over [{idx.min()}, {idx.max()}], outside "
                          f"the {n_samples} samples of 'n_samples'")
        _check_ranking(ranks, "ranks", corrupt)
        # Per model: whether its selector chooses its own subset, and whether it gives no
        # scores (NaN rows of a heterogeneous ensemble mixing ranking-only selectors).
        subset_rows, nan_rows = _model_layout(meta, b, where, corrupt)
        if scores is not None:
            if not np.isfinite(scores[~nan_rows]).all():
                raise corrupt("'scores' holds NaN or infinite values")
            if not np.isnan(scores[nan_rows]).all():
                raise corrupt("'scores' of the selectors in 'selectors_without_scores' are "
                              "not NaN")
        subsets = np.unpackbits(packed, axis=1, count=p).astype(bool)
        artificial_subsets = None
        artificial = meta.get("artificial") or {}
        if ("artificial_subsets" in arrays) != bool(artificial):
            raise corrupt("'artificial_subsets' and the record 'artificial' must be stored "
                          "together")
        if artificial:
            if "artificial_shape" not in arrays:
                raise corrupt("it has 'artificial_subsets' without 'artificial_shape'")
            art_shape = arrays["artificial_shape"]
            q = artificial["n_features"]
            if (art_shape.shape != (2,) or art_shape.dtype.kind not in "iu"
                    or [int(v) for v in art_shape] != [b, q]):
                raise corrupt(f"'artificial_shape' must be {[b, q]} (the b models and the "
                              f"'n_features' of 'artificial'); it is {art_shape.tolist()!r}")
            art_packed = arrays["artificial_subsets"]
            if art_packed.dtype != np.uint8 or art_packed.shape != (b, -(-q // 8)):
                raise corrupt(f"'artificial_subsets' has shape {art_packed.shape} and dtype "
                              f"{art_packed.dtype}; expected {(b, -(-q // 8))} uint8")
            artificial_subsets = np.unpackbits(art_packed, axis=1, count=q).astype(bool)
        m = meta["n_features"]
        if m is not None and m > p:
            raise corrupt(f"'n_features' is {m}, above the {p} features")
        sizes = subsets.sum(axis=1)
        ranked = ~subset_rows
        if artificial_subsets is not None:
            # The selector chose among real and artificial features (bootstrap's
            # artificial_features): a model's real subset may hold fewer than m features,
            # but for ranking selectors it is still the top of the model's real ranking.
            if not np.array_equal(subsets[ranked], ranks[ranked] <= sizes[ranked, None]):
                raise corrupt("the subsets are not the top ranks of each model")
            if m is not None and (sizes > m).any():
                raise corrupt(f"a subset holds more than the {m} features of 'n_features'")
        else:
            if m is not None and not np.array_equal(subsets[ranked], ranks[ranked] <= m):
                raise corrupt("the subsets are not the top 'n_features' ranks of each "
                              "model")
            if m is not None and (sizes[subset_rows] > m).any():
                raise corrupt(f"a subset holds more than the {m} features of 'n_features'")
        full = None
        if "full_ranks" in arrays:
            if "full_subset" not in arrays:
                raise corrupt("it has 'full_ranks' without 'full_subset'")
            full_ranks = matrix("full_ranks", "iu", (p,))
            _check_ranking(full_ranks[None, :], "full_ranks", corrupt)
            full_subset = matrix("full_subset", "b", (p,))
            full_scores = (matrix("full_scores", "f", (p,)) if "full_scores" in arrays
                           else None)
            full = FeatureModel(scores=full_scores, ranks=full_ranks, subset=full_subset)
        blocks = (meta.get("extra") or {}).get("modalities")
        if blocks is not None:
            from ..datasets._multiomic import check_modalities

            try:
                check_modalities(blocks, p, where="base_models.npz")
            except (DataError, TypeError, ValueError) as exc:
                raise corrupt(f"'extra.modalities' is not a list of [name, features] "
                              f"covering the {p} features ({exc})") from None
        try:
            return cls.from_records(
                subsets=subsets, ranks=ranks, scores=scores, sample_indices=idx,
                # a record from before a default changed keeps its meaning (ReliefF's)
                feature_names=names, selector=meta["selector"], n_features=m,
                resampling=meta["resampling"], random_state=int(meta["random_state"]),
                classes=meta["classes"], n_samples=n_samples,
                data_sha256=meta["data_sha256"], full_model=full,
                extra=meta.get("extra", {}), artificial_subsets=artificial_subsets,
                artificial=artificial, settings=meta.get("settings") or {})
        except (TypeError, ValueError) as exc:  # settings the specification refuses
            raise corrupt(f"its settings are refused ({' '.join(str(exc).split())})"
                          ) from None


def fitted_description(spec: RunSpec) -> dict[str, Any]:
    """How the selector(s) of ``spec`` describe themselves once fitted (what a BaseModels
    file records as ``selector``): each built selector's :meth:`Selector.describe`, with
    the covariates its fit adjusts for (:func:`modelmine.selectors._covariates.adjusts`),
    and, for a heterogeneous ensemble (Salman 2022, Section 3.2.2), the pooled record."""
    from ..selectors import RecordedSelector
    from ..selectors._covariates import adjusts

    def one(sel: Any) -> dict[str, Any]:
        out = dict(sel.describe())
        if (spec.covariates and not isinstance(sel, RecordedSelector) and adjusts(sel)):
            out["covariates"] = list(spec.covariates)  # as CovariateAdjustedSelector's
        return out

    if not spec.heterogeneous:
        return one(spec.selectors[0])
    out: dict[str, Any] = {"name": "+".join(s.name for s in spec.selectors),
                           "kind": "heterogeneous",
                           "params": {"selectors": [one(s) for s in spec.selectors]}}
    if spec.outcome != DEFAULT_OUTCOME:  # the records of classes name none
        out["outcome"] = spec.outcome
    return out


def _spec_from_records(record: Mapping[str, Any], *, n_features: int | None,
                       resampling: Mapping[str, Any], random_state: int,
                       artificial: Mapping[str, Any], n_models: int,
                       fit_full: bool) -> RunSpec:
    """The spec of base models saved before their settings record was kept (or made by
    hand), rebuilt from their records; a selector not registered here is held as its
    record (:class:`~modelmine.selectors.RecordedSelector`)."""
    from ..selectors import RecordedSelector, default_registry

    params = dict(record.get("params") or {})
    if record.get("kind") == "heterogeneous":
        records = list(params.get("selectors", ()))
        names = [str(r["name"]) for r in records]
        b = n_models // max(1, len(records))
        if all(n in default_registry() for n in names):
            selector: Any = names
            params = {str(r["name"]): dict(r.get("params") or {}) for r in records}
        else:
            selector, params = RecordedSelector(record), {}
    else:
        b = n_models
        name = record.get("name")
        if name in default_registry():
            selector = name
        else:
            selector, params = RecordedSelector(record), {}
    res = dict(resampling)
    method = res.get("method", "bootstrap")
    return RunSpec(
        selector=selector, selector_params=params,
        # b of the models (at least the 2 a spec takes: base models made by hand)
        n_bootstraps=max(2, b + (b % 2 if method == "complementary-pairs" else 0)),
        n_features=n_features, resampling=method, sample_fraction=res.get("fraction"),
        stratify=bool(res.get("stratify", False)), max_per_class=res.get("max_per_class"),
        weighted_resampling=res.get("sample_weight") == "resampling",
        scale=record.get("scale") or "none",
        outcome=str(record.get("outcome", DEFAULT_OUTCOME)),
        artificial_features=artificial.get("method") if artificial.get("method") in (
            "permutation", "knockoff") else None,
        fit_full=fit_full or record.get("kind") == "heterogeneous",
        covariates=record.get("covariates") or (),
        random_state=int(random_state), operators=(), func="BaseModels.spec")


def _model_layout(meta: dict[str, Any], b: int, where: str,
                  corrupt: Any) -> tuple[np.ndarray, np.ndarray]:
    """Which of the b models come from a subset selector, and which have no scores (NaN).

    One selector: every model has its kind, none is NaN. A heterogeneous ensemble
    (``bootstrap(selector=[...])``): each model's selector is ``extra["model_selectors"]``,
    its kind that selector's record in ``selector["params"]["selectors"]``, and the models
    of ``extra["selectors_without_scores"]`` hold NaN scores.
    """
    extra = meta.get("extra") or {}
    kind = meta["selector"]["kind"]
    if kind != "heterogeneous":
        if "model_selectors" in extra:
            schema.check(meta, {"extra": {"model_selectors": schema.Where(
                schema.ListOf(str), lambda v: set(v) == {meta["selector"]["name"]},
                f"a list naming the selector {meta['selector']['name']!r}")}}, where)
            if len(extra["model_selectors"]) != b:
                raise corrupt(f"'model_selectors' names {len(extra['model_selectors'])} "
                              f"models; there are {b}")
        return np.full(b, kind == "subset"), np.zeros(b, dtype=bool)
    schema.check(meta, _HETEROGENEOUS_SCHEMA, where)
    records = meta["selector"]["params"]["selectors"]
    kinds = {r["name"]: r["kind"] for r in records}
    if len(kinds) != len(records):
        raise corrupt("'selector.params.selectors' names a selector twice")
    names = extra["model_selectors"]
    if len(names) != b:
        raise corrupt(f"'model_selectors' names {len(names)} models; there are {b}")
    without = set(extra.get("selectors_without_scores", ()))
    unknown = sorted((set(names) | without) - set(kinds))
    if unknown:
        raise corrupt(f"'model_selectors' or 'selectors_without_scores' name {unknown}, not "
                      "among the selectors of 'selector.params.selectors'")
    subset_rows = np.array([kinds[n] == "subset" for n in names], dtype=bool)
    nan_rows = np.array([n in without for n in names], dtype=bool)
    return subset_rows, nan_rows


def _check_ranking(ranks: np.ndarray, name: str, corrupt: Any) -> None:
    """Each row of ``ranks`` must be a permutation of 1..p (rank 1 = best, no ties)."""
    b, p = ranks.shape
    if ranks.size == 0:
        return
    low, high = int(ranks.min()), int(ranks.max())
    if low < 1 or high > p:
        raise corrupt(f"{name!r} ranges over [{low}, {high}]; ranks are 1..{p}")
    seen = np.zeros((b, p + 1), dtype=bool)
    seen[np.arange(b)[:, None], ranks] = True
    if not seen[:, 1:].all():
        raise corrupt(f"a row of {name!r} is not a permutation of 1..{p} (repeated ranks)")


def _checksum(meta: dict[str, Any], arrays: Mapping[str, np.ndarray]) -> str:
    """sha256 of the record (without its checksum) and of every array (name, dtype, shape,
    bytes), in name order: what format 2 stores as ``meta["sha256"]``."""
    h = hashlib.sha256(json.dumps({k: v for k, v in meta.items() if k != "sha256"},
                                  sort_keys=True).encode())
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"\n{name}:{a.dtype.str}:{a.shape}\n".encode())
        h.update(a.tobytes())
    return h.hexdigest()


#: The scaling a :class:`~modelmine.selectors._scaling.ScaledSelector` records in the
#: selector's description (``modelmine run --scale``).
_SCALE = schema.Where(str, lambda v: v in SCALE_METHODS,
                      "one of " + ", ".join(repr(m) for m in SCALE_METHODS))
_META_SCHEMA = {
    "format": str,
    "format_version": schema.Where(int, lambda v: v >= 1, "an integer >= 1"),
    "sha256": schema.Optional(str),
    "selector": {"name": str, "kind": str, "params": dict,
                 "scale": schema.Optional(_SCALE)},
    "n_features": (schema.Where(int, lambda v: v >= 1, "an integer >= 1"), type(None)),
    "resampling": {"method": schema.Where(str, lambda v: v in _RESAMPLING_METHODS,
                                          "'bootstrap', 'subsample' or "
                                          "'complementary-pairs'"),
                   "stratify": bool,
                   "fraction": schema.Where(float, lambda v: 0 < v <= 1,
                                            "a number in (0, 1]"),
                   "n_pairs": schema.Optional(schema.Where(int, lambda v: v >= 1,
                                                           "an integer >= 1"))},
    "random_state": schema.Where(str, schema.integer_text, "the decimal text of a seed"),
    "classes": schema.Where(list, lambda v: len(v) >= 1 and all(
        isinstance(c, str | int | float | bool) for c in v), "a list of class labels"),
    "n_samples": schema.Where(int, lambda v: v >= 1, "an integer >= 1"),
    "data_sha256": str,
    "extra": schema.Optional(dict),
    # bootstrap(..., artificial_features=...): what the artificial features were.
    "artificial": schema.Optional(schema.Where(dict, lambda v: not v or (
        v.get("method") in _ARTIFICIAL_METHODS and isinstance(v.get("n_features"), int)
        and not isinstance(v.get("n_features"), bool) and v["n_features"] >= 1),
        "empty or {'method': 'permutation' | 'knockoff', 'n_features': an integer >= 1}")),
}


# The record of a heterogeneous ensemble (selector kind "heterogeneous", Salman 2022):
# every selector's own record and the selector of each model.
_HETEROGENEOUS_SCHEMA = {
    "selector": {"params": {"selectors": schema.Where(
        schema.ListOf({"name": str, "kind": str, "params": dict}), lambda v: len(v) >= 1,
        "a non-empty list of selector records")}},
    "extra": {"model_selectors": schema.ListOf(str),
              "selectors_without_scores": schema.Optional(schema.ListOf(str))},
}


def _json_label(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    return value
