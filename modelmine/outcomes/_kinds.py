"""What an outcome is: one :class:`OutcomeKind` per kind, in one registry (issue 48, item 4).

A run's ``outcome`` setting is a name ("classification", "regression", "survival"), as
run.json records it; the name stands for an :class:`OutcomeKind`, which carries every
fact that follows from it: how a target of that kind is checked and stratified
(:meth:`OutcomeKind.check`), its default selector, its columns in a run's files, the
models and measures the evaluation fits on a signature, which selectors take covariates
and which nulls draw an outcome beside them, and what the report says of it. Code that
behaves differently by outcome asks the kind (an attribute or a method), never compares
its name; the names are compared here, in the registry, and nowhere else.

The registry is the one pattern of :mod:`modelmine._registry` (the operators', the
selectors'): :func:`register_outcome_kind` (usable by name at once), the
``modelmine.outcomes`` entry-point group, :func:`outcome_kind` (an unknown name lists the
kinds and the closest), :func:`available_outcome_kinds`. A fourth kind is one
:class:`OutcomeKind` registered (docs/DEVELOPING.md, "Add an outcome").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._registry import BUILT_IN, Entry, Registry
from .._utils import FrozenDict
from ..validation import param_error

__all__ = [
    "DEFAULT_OUTCOME",
    "KindView",
    "Outcome",
    "OutcomeKind",
    "OutcomeKindRegistry",
    "add_builtins",
    "available_outcome_kinds",
    "builtin_kinds",
    "check_outcome",
    "default_registry",
    "outcome_kind",
    "register_outcome_kind",
]

#: The outcome of a run unless told otherwise (``RunSpec.outcome``): class labels. Records
#: name the outcome only when it is another, so that the files of earlier runs read as before.
DEFAULT_OUTCOME = "classification"

#: The entry-point group a package lists its outcome kinds in (``name = "module:KIND"``).
OUTCOME_ENTRY_POINT_GROUP = "modelmine.outcomes"

#: ``check_target(y, *, func, name) -> (values, strata, strata_labels)``.
TargetCheck = Callable[..., tuple[Any, Any, Any]]


@dataclass(frozen=True, eq=False)
class OutcomeKind:
    """One kind of outcome, and every fact that follows from it.

    Nothing after the selector needs classes (KDD 2012, section 2: the base models are
    subsets and rankings of features, whatever the selector fitted): what depends on the
    outcome is declared here, once, and read by the stages that need it. The stages that
    compute on the values (the selectors' door, the markers' effects, the covariates, the
    report's figures, the readers of files) know three types of them, which
    :attr:`classes` and :attr:`censored` name; a kind of one of these types needs nothing
    else (docs/DEVELOPING.md, "Add an outcome"). A kind registered by a script is known in
    that process; a study's workers (``n_jobs`` above 1) know those of installed packages
    (the ``modelmine.outcomes`` entry points) and the built-ins.

    Parameters
    ----------
    name : str
        Its name: the value of ``RunSpec.outcome``, ``mm.run(outcome=...)``, ``--outcome``
        and run.json's ``outcome``.
    description : str
        What y holds, in words ("class labels"), for help texts and messages.
    check_target : callable
        ``check_target(y, *, func, name) -> (values, strata, strata_labels)``: checks a
        target of this kind (raising :func:`modelmine.validation.param_error` naming
        ``name`` and ``func``) and returns what the selectors fit (``values``), the codes
        0..K-1 the resampling stratifies by and checks (each resample must hold two), and
        what each stratum is. It must accept the values it returns: a study checks each
        fold's values again.
    default_selector : str
        The registered selector a run fits unless told otherwise.
    columns : tuple of str
        The outcome's columns in a run's files (``expression.csv.gz``, before the genes):
        ``("class",)``, ``("outcome",)``, ``("time", "event")``.
    classes : bool, default=False
        y holds class labels: the classifiers, per-class markers and panels, the KDD'12
        tables of class errors apply.
    censored : bool, default=False
        y is a right-censored time (a structured array of ``event`` and ``time``).
        Neither ``classes`` nor ``censored``: y is numbers.
    fitted_as : str, optional
        The kind whose selectors fit it, and whose values they see: its own name (the
        default), or that of a registered kind of the same type of values (an ordinal
        outcome's levels fitted as numbers by the regression selectors,
        ``fitted_as="regression"``). :attr:`modelmine.selectors.Selector.outcomes` names
        such kinds.
    requires : callable, optional
        ``requires(func)``: refuses the kind where an optional dependency is missing,
        naming the extra that installs it (survival: scikit-survival).
    group_strata : callable, optional
        ``group_strata(values, members) -> (codes, labels) or None``: the strata of whole
        groups (one code per group) when resampling keeps groups whole; None: those of
        each group's samples' labels (classes).
    models : mapping of str to callable, optional
        The models the outcome's evaluation fits on a signature's genes, by name, each a
        factory of a fresh estimator (the first is the default:
        :func:`modelmine.evaluation.evaluate_outcome`). Classes use the classifiers'
        registry instead (:func:`modelmine.evaluation.available_classifiers`).
    measures : tuple of str, optional
        The columns of the evaluation's per-fold table that measure a model
        (:meth:`modelmine.evaluation.EvaluationResult.summary` averages them).
    measure : callable, optional
        ``measure(model, X_test, prediction, y_train, y_test) -> {column: value}``: the
        :attr:`measures` of a fitted model on a test part.
    sample_errors : callable, optional
        ``sample_errors(prediction, y_test) -> {column: array}``: the per-sample columns of
        the evaluation's predictions, :attr:`sample_loss` among them; None where a
        sample's error is not defined alone (a concordance is a measure of pairs).
    sample_loss : str, optional
        The column of :attr:`sample_errors` that
        :meth:`~modelmine.evaluation.EvaluationResult.paired_differences` compares sample
        by sample (``"squared_error"``); None: no paired differences.
    error_measure : str, default="error"
        The measure ``modelmine run --evaluate`` writes as the error.
    higher_is_better : bool, default=False
        Whether :attr:`error_measure` is a score (the error is then 1 minus it, as
        1 - Harrell's C).
    adjusted_selectors : tuple of str, optional
        The selectors whose fits take clinical covariates; None: every selector of the
        kind (classes: as ``selectors._covariates.CLASS_ADJUSTMENT`` says; numbers: on
        residuals).
    covariate_nulls : tuple of str, optional
        The schemes of :func:`modelmine.evaluation.selection_null` with covariates, the
        first the default; empty: no null with covariates.
    question : str, default=""
        The question the report's summary asks of the data ("Which genes separate the
        classes {classes} of"; ``{classes}`` is filled with the class names).
    strata_note : str, default=""
        The report's data row on the strata of a kind without classes (``{n}`` strata,
        ``{labels}``).
    """

    name: str
    description: str
    check_target: TargetCheck
    default_selector: str
    columns: tuple[str, ...]
    classes: bool = False
    censored: bool = False
    fitted_as: str = ""
    requires: Callable[[str], None] | None = None
    group_strata: Callable[..., Any] | None = None
    models: Mapping[str, Callable[[], Any]] = field(default_factory=FrozenDict)
    measures: tuple[str, ...] = ()
    measure: Callable[..., dict[str, float]] | None = None
    sample_errors: Callable[..., dict[str, Any]] | None = None
    sample_loss: str | None = None
    error_measure: str = "error"
    higher_is_better: bool = False
    adjusted_selectors: tuple[str, ...] | None = None
    covariate_nulls: tuple[str, ...] = ()
    question: str = ""
    strata_note: str = ""

    def __post_init__(self) -> None:
        func = "OutcomeKind"
        if not isinstance(self.name, str) or not self.name.strip():
            raise param_error("name", func, "a non-empty string", self.name)
        for what in ("description", "default_selector", "error_measure", "question",
                     "strata_note"):
            if not isinstance(getattr(self, what), str):
                raise param_error(what, func, "a string", getattr(self, what),
                                  exc=TypeError)
        if not callable(self.check_target):
            raise param_error("check_target", func, "a callable (y, *, func, name) -> "
                              "(values, strata, strata_labels)", self.check_target,
                              exc=TypeError)
        columns = tuple(self.columns) if not isinstance(self.columns, str) else ()
        if not columns or not all(isinstance(c, str) and c for c in columns) \
                or len(set(columns)) != len(columns):
            raise param_error("columns", func, "a tuple of distinct, non-empty column "
                              "names", self.columns)
        if self.classes and self.censored:
            raise param_error("censored", func, "False for a kind of class labels "
                              "(classes=True)", True)
        if len(columns) != (2 if self.censored else 1):
            raise param_error("columns", func, "two names (the time's and the event's) for "
                              "censored times, one otherwise", columns)
        models = FrozenDict(self.models)
        if not all(isinstance(k, str) and callable(v) for k, v in models.items()):
            raise param_error("models", func, "a mapping of model names to factories",
                              dict(models), exc=TypeError)
        if models and self.measure is None:
            raise param_error("measure", func, "the function that measures its models",
                              None)
        if self.measures and self.error_measure not in self.measures:
            raise param_error("error_measure", func, "one of its measures "
                              f"({', '.join(map(repr, self.measures))})", self.error_measure)
        if self.sample_loss is not None and self.sample_errors is None:
            raise param_error("sample_loss", func, "None without sample_errors",
                              self.sample_loss)
        set_ = object.__setattr__
        set_(self, "columns", columns)
        set_(self, "fitted_as", self.fitted_as or self.name)
        set_(self, "models", models)
        set_(self, "measures", tuple(self.measures))
        set_(self, "covariate_nulls", tuple(self.covariate_nulls))
        if self.adjusted_selectors is not None:
            set_(self, "adjusted_selectors", tuple(self.adjusted_selectors))

    def __repr__(self) -> str:
        return f"OutcomeKind({self.name!r})"

    # -------------------------------------------------------------- the target
    def require(self, func: str) -> None:
        """Refuse the kind where what it needs is not installed (:attr:`requires`)."""
        if self.requires is not None:
            self.requires(func)

    def check(self, y: Any, *, func: str, name: str = "y") -> Outcome:
        """A target of this kind, checked, with its strata (:attr:`check_target`).

        Parameters
        ----------
        y : array-like of shape (n_samples,)
        func, name : str
            The public function and the parameter, named in error messages.

        Returns
        -------
        Outcome
        """
        self.require(func)
        values, strata, labels = self.check_target(y, func=func, name=name)
        values = np.asarray(values)
        strata = np.asarray(strata)
        labels = np.asarray(labels)
        n = values.shape[0] if values.ndim else 0
        if strata.shape != (n,) or strata.dtype.kind not in "iu" or (
                n and (strata.min() < 0 or strata.max() >= labels.size)):
            raise param_error("check_target", f"OutcomeKind({self.name!r})", "strata: one "
                              "code per sample, 0 to the number of strata labels - 1",
                              f"codes of shape {strata.shape} and dtype {strata.dtype} for "
                              f"{n} samples and {labels.size} labels", show=False)
        return Outcome(self, values, strata.astype(np.intp, copy=False), labels)

    def fits(self, selector: Any) -> bool:
        """Whether ``selector`` (its ``outcomes``) fits this kind (:attr:`fitted_as`)."""
        return self.fitted_as in tuple(getattr(selector, "outcomes", ()))

    def target_columns(self, y: Any) -> dict[str, np.ndarray]:
        """The outcome's columns of a run's values table (:attr:`columns`, in order) from
        its target: the labels (as text when they are), the values, or the time and the
        event indicator (0/1)."""
        labels = y.to_numpy() if isinstance(y, pd.Series) else np.asarray(y)
        if self.censored:
            return {self.columns[0]: np.asarray(labels["time"], dtype=np.float64),
                    self.columns[1]: np.asarray(labels["event"], dtype=np.int64)}
        if self.classes:
            return {self.columns[0]: labels.astype(str) if labels.dtype.kind in "OUS"
                    else labels}
        return {self.columns[0]: labels.astype(np.float64)}

    def values_from(self, frame: pd.DataFrame) -> np.ndarray:
        """The target from its columns of ``frame`` (:meth:`target_columns` read back):
        the labels, the values, or the structured array of event and time."""
        if self.censored:
            from ._target import SURVIVAL_DTYPE

            out = np.empty(len(frame), dtype=SURVIVAL_DTYPE)
            out["event"] = frame[self.columns[1]].to_numpy().astype(bool)
            out["time"] = frame[self.columns[0]].to_numpy(dtype=np.float64)
            return out
        return frame[self.columns[0]].to_numpy()

    def error_of(self, table: pd.DataFrame) -> tuple[pd.Series, str]:
        """The error of each row of an evaluation's summary (:attr:`error_measure`, or 1
        minus it for a score) and its name ("rmse", "1 - harrell_c")."""
        values = table[self.error_measure]
        if self.higher_is_better:
            return 1.0 - values, f"1 - {self.error_measure}"
        return values, self.error_measure


@dataclass(frozen=True)
class Outcome:
    """A checked target of one kind (:meth:`OutcomeKind.check`, :func:`check_outcome`).

    Attributes
    ----------
    kind : OutcomeKind
        Its kind (``kind.name``: "classification", "regression", "survival", ...).
    values : ndarray
        What the selectors fit: float64 values (regression), a structured array with the
        fields ``event`` (bool) and ``time`` (float64) (survival); the labels as given
        (classification).
    strata : ndarray of int
        Codes 0..K-1 the resampling stratifies by and checks (each resample must hold two).
    strata_labels : ndarray of str
        What each stratum is ("Q1".."Q5", "censored"/"event", "early"/"late").
    """

    kind: OutcomeKind
    values: np.ndarray
    strata: np.ndarray
    strata_labels: np.ndarray

    @property
    def n_samples(self) -> int:
        """The number of samples."""
        return int(self.values.shape[0])


class OutcomeKindRegistry(Registry[Entry]):
    """Outcome kinds by name: the built-ins, registered kinds and entry-point plugins.

    The pattern of every registry (:mod:`modelmine._registry`): loud conflicts, the
    ``modelmine.outcomes`` entry-point group (a plugin lists ``name = "module:KIND"``, an
    :class:`OutcomeKind` of that name), lazy discovery with ``refresh()``, closest-name
    errors and one ``available()`` shape. An entry's kind is the kind's
    :attr:`~OutcomeKind.fitted_as` (whose selectors fit it).
    """

    def __init__(self, *, group: str | None = OUTCOME_ENTRY_POINT_GROUP,
                 builtins: bool = True) -> None:
        super().__init__("outcome kind", group=group,
                         builtins=_register_builtins if builtins else None)

    def _entry(self, kind: Any, *, origin: str, entry_point: str | None) -> Entry:
        if not isinstance(kind, OutcomeKind):
            raise param_error("kind", "register_outcome_kind", "an OutcomeKind", kind,
                              exc=TypeError)
        if kind.fitted_as != kind.name:
            own = self._entries.get(kind.fitted_as)
            base = None if own is None else own.obj
            if base is None or (base.classes, base.censored) != (kind.classes,
                                                                 kind.censored):
                raise param_error(
                    "fitted_as", "register_outcome_kind", "its own name or a registered "
                    "outcome kind of the same values (classes, censored)",
                    kind.fitted_as, hint=f"Registered: {', '.join(map(repr, self._entries))}.")
        check = kind.check_target
        module = getattr(check, "__module__", None) or type(kind).__module__
        return Entry(name=kind.name, kind=kind.fitted_as, obj=kind,
                     description=kind.description, origin=origin, module=module,
                     qualname=getattr(check, "__qualname__", ""), entry_point=entry_point)

    def _from_entry_point(self, obj: Any, *, origin: str, entry_point: str,
                          ep_name: str) -> Entry:
        if isinstance(obj, OutcomeKind) and obj.name != ep_name:
            raise ValueError(f"the outcome kind is listed as {ep_name!r} but is named "
                             f"{obj.name!r}")
        return self._entry(obj, origin=origin, entry_point=entry_point)

    def register(self, kind: OutcomeKind) -> OutcomeKind:
        """Register ``kind`` under its name; a taken name raises naming both owners."""
        self._ensure()
        origin = self.caller_origin(getattr(kind, "check_target", kind))
        self._add(self._entry(kind, origin=origin, entry_point=None))
        return kind

    def kind(self, name: Any, *, func: str = "outcome_kind",
             param: str = "outcome") -> OutcomeKind:
        """The kind registered as ``name`` (an :class:`OutcomeKind` is returned as it is)."""
        if isinstance(name, OutcomeKind):
            return name
        self._ensure()
        if not isinstance(name, str) or name not in self._entries:
            listed = ", ".join(repr(n) for n in self._entries)
            raise self.unknown(name, func, param, f"one of the outcome kinds ({listed})")
        kind = self._entries[name].obj
        assert isinstance(kind, OutcomeKind)
        return kind


#: The built-in kinds, in order: ``_builtin.py`` adds them when the package is imported;
#: every registry instance registers them first.
_BUILTINS: list[OutcomeKind] = []


def add_builtins(kinds: Any) -> None:
    """Declare the built-in kinds (called once, by ``outcomes/_builtin.py``)."""
    _BUILTINS.extend(kinds)


def builtin_kinds() -> tuple[OutcomeKind, ...]:
    """The built-in kinds, in order, without scanning the entry points (for the texts a
    module writes when it is imported)."""
    return tuple(_BUILTINS)


def _register_builtins(registry: Registry[Entry]) -> None:
    assert isinstance(registry, OutcomeKindRegistry)
    for kind in _BUILTINS:
        registry._add(registry._entry(kind, origin=BUILT_IN, entry_point=None))


_DEFAULT = OutcomeKindRegistry()


def default_registry() -> OutcomeKindRegistry:
    """The registry behind :func:`outcome_kind` and :func:`available_outcome_kinds`."""
    return _DEFAULT


def outcome_kind(name: Any, *, func: str = "outcome_kind",
                 param: str = "outcome") -> OutcomeKind:
    """The :class:`OutcomeKind` named ``name`` ("classification", "regression", ...).

    Parameters
    ----------
    name : str or OutcomeKind
        A registered name (an :class:`OutcomeKind` is returned as it is).
    func, param : str
        The public function and its parameter, named when ``name`` is unknown.

    Returns
    -------
    OutcomeKind

    Raises
    ------
    InvalidParameterError
        For an unknown name: the registered kinds, and the closest.
    """
    return _DEFAULT.kind(name, func=func, param=param)


def register_outcome_kind(kind: OutcomeKind) -> OutcomeKind:
    """Register an :class:`OutcomeKind` in the default registry (usable by name at once).

    ``mm.run(..., outcome=kind.name)``, :class:`~modelmine.RunSpec`, run.json and
    ``modelmine run --outcome`` take it from then on (docs/DEVELOPING.md, "Add an
    outcome"); ``default_registry().unregister(name)`` removes it. Installed packages add
    kinds through the ``modelmine.outcomes`` entry-point group instead.

    Parameters
    ----------
    kind : OutcomeKind

    Returns
    -------
    OutcomeKind
        ``kind``, registered.
    """
    return _DEFAULT.register(kind)


def available_outcome_kinds() -> pd.DataFrame:
    """The outcome kinds: name, kind, origin, description, module, entry_point.

    An outcome kind's ``kind`` is the kind whose selectors fit it (its
    :attr:`~OutcomeKind.fitted_as`)."""
    return _DEFAULT.available()


def check_outcome(y: Any, kind: Any, *, func: str, name: str = "y") -> Outcome:
    """Check a target against the run's kind of outcome and derive its strata.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels (classification); numbers (regression); a structured array of event
        and time (survival, scikit-survival's ``Surv.from_arrays(event, time)``).
    kind : str or OutcomeKind
        The outcome's name (:func:`outcome_kind`) or kind.
    func, name : str
        The public function and the parameter, named in error messages.

    Returns
    -------
    Outcome
    """
    return outcome_kind(kind, func=func).check(y, func=func, name=name)


class KindView(Mapping[str, Any]):
    """A read-only mapping of every registered kind's name to one of its attributes (the
    tables that were kept per outcome, now views of the registry: ``DEFAULT_SELECTORS``)."""

    def __init__(self, attribute: str) -> None:
        self._attribute = attribute

    def __getitem__(self, name: str) -> Any:
        if name not in _DEFAULT:
            raise KeyError(name)
        return getattr(outcome_kind(name), self._attribute)

    def __iter__(self) -> Iterator[str]:
        return iter(_DEFAULT.names())

    def __len__(self) -> int:
        return len(_DEFAULT)

    def __repr__(self) -> str:
        return repr(dict(self))
