"""The run specification: every setting that shapes a model-mining run, validated once.

A model-mining run (Woznica, Nguyen and Kalousis, KDD 2012, sections 2-3) is decided by a
handful of settings: the selector and its parameters, b resamples of a resampling scheme,
m features per base model, the operators with k alternatives and the signatures' size, the
minimum support of the itemsets, the scaling, the artificial features, and the seed.
:class:`RunSpec` holds them in one frozen, validated record. Every door builds one and
passes it down: :func:`modelmine.run`, :func:`modelmine.resume`,
:func:`modelmine.bootstrap`, :class:`modelmine.ModelMiningSelector`,
:func:`modelmine.evaluate` (one per fold) and ``modelmine run``; ``run.json`` stores it
(:meth:`RunSpec.to_settings`), and :meth:`RunSpec.from_settings` reads it back. A new
setting is added here, in one place.

What can be checked without the data is checked when the record is made, with messages that
name the public function the user called (``func``); what needs the data (m against p,
classes per resample, memory) is checked by :func:`modelmine.base_models.check_run_data`
before the first fit. Two policies live here, each owned by one function:

- the seed (:func:`resolve_seed`): None, an int, a ``SeedSequence``, a
  ``numpy.random.RandomState`` or a ``Generator`` become one non-negative integer, the
  run's recorded seed; the default is the fixed seed 0, so the same call gives the same
  result;
- sizes above what the data allow (:func:`capped`): m above p, a signature size above p,
  k above the distinct base models, an operator's m above what it can return: capped with a
  warning, everywhere.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import os
import sys
import types
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import InitVar, dataclass, fields, replace
from typing import Any

import numpy as np

from ._registry import default_of
from .constants import (
    DEFAULT_MIN_SUPPORT,
    DEFAULT_N_BOOTSTRAPS,
    DEFAULT_N_FEATURES,
    DEFAULT_N_SIGNATURES,
    LOW_DIMENSIONAL_P,
    default_n_features,
)
from .exceptions import SizeCappedWarning
from .outcomes import (
    DEFAULT_OUTCOME,
    KindView,
    OutcomeKind,
    builtin_kinds,
    default_registry,
    outcome_kind,
)
from .validation import check_choice, check_fraction_or_count, check_int, check_real, param_error

#: The public names (issue 38); the policies other modules share (``capped``, ``resolve_seed``,
#: ``spec_alone``) and the lists of choices are imported from here but are not public.
__all__ = ["DEFAULT_SELECTORS", "PRESETS", "Preset", "RunSpec"]

#: The operators of ``mm.run`` and ``modelmine run`` unless told otherwise: one consensus
#: signature from frequent model fragments (closedApr) and k alternatives (allMed).
DEFAULT_OPERATORS = ("closedApr", "allMed")

#: The selector of each outcome unless told otherwise: SVM-RFE for classes (KDD 2012's
#: default), the lasso for a continuous target, the elastic-net Cox path (stabs' survival
#: learner) for survival. A read-only view of the outcome kinds' ``default_selector``
#: (:func:`modelmine.outcomes.outcome_kind`), registered ones included.
DEFAULT_SELECTORS: Mapping[str, str] = KindView("default_selector")

#: The seed of every door unless told otherwise (as scanpy's ``random_state=0``): the
#: same command gives the same result. ``random_state=None`` draws fresh entropy.
DEFAULT_RANDOM_STATE = 0

#: The resampling schemes of :func:`modelmine.bootstrap`.
RESAMPLING_METHODS = ("bootstrap", "subsample", "complementary-pairs")

#: The kinds of artificial features :func:`modelmine.bootstrap` can append.
ARTIFICIAL_FEATURES = ("permutation", "knockoff")

#: The default size of a resample, as a fraction of n, per scheme.
DEFAULT_FRACTIONS = {"bootstrap": 1.0, "subsample": 0.9, "complementary-pairs": 0.5}


class DataDefault(int):
    """A default of the settings table that the data decide: an int equal to ``value``
    (the default for data of many features) until :meth:`RunSpec.for_data` replaces it by
    ``rule(p)`` once the number of features p is known (every door passes through it in
    :func:`modelmine.base_models.check_run_data`). A value the user gives, even equal to
    ``value``, is a plain int and is kept.

    Parameters
    ----------
    value : int
    rule : callable
        ``p -> int``, the default for data of p features (a module-level function: the
        spec travels to workers).
    text : str
        How the rule reads in the docs ("20; round(p / 3) below 60 features").
    shown : str, optional
        How a signature shows it when ``value`` means nothing alone (Salman's p // 4).
    """

    rule: Any
    text: str
    shown: str | None

    def __new__(cls, value: int, rule: Any, text: str, shown: str | None = None
                ) -> DataDefault:
        obj = super().__new__(cls, value)
        obj.rule, obj.text, obj.shown = rule, text, shown
        return obj

    def __repr__(self) -> str:  # shown as the number in signatures and help
        return str(int(self)) if self.shown is None else self.shown

    def __reduce__(self) -> Any:  # the spec travels to workers (joblib, dask)
        return (DataDefault, (int(self), self.rule, self.text, self.shown))


#: m's default (KDD 2012, section 3: m = 20), a third of p for tables of few variables
#: (:func:`modelmine.constants.default_n_features`, issue 39 item 3).
DEFAULT_M = DataDefault(DEFAULT_N_FEATURES, default_n_features,
                        f"{DEFAULT_N_FEATURES}; round(p / 3) below {LOW_DIMENSIONAL_P} "
                        "features")


def error_bounds_for(method: str, fraction: float) -> tuple[str, ...]:
    """The PFER bounds that hold for base models of resampling ``method`` with
    ``sample_fraction`` ``fraction``: Meinshausen and Buehlmann's ("mb", 2010, Theorem 1)
    for subsamples of n/2 and complementary pairs, Shah and Samworth's ("ss-unimodal",
    "ss-r-concave", 2013, section 3) for complementary pairs only; none for the bootstrap.

    The one statement of which resamplings an error-controlling operator can use: RunSpec
    checks the settings with it before the first fit, and
    :func:`modelmine.operators.bound_for` checks built base models.
    """
    if method == "complementary-pairs":
        return ("mb", "ss-unimodal", "ss-r-concave")
    if method == "subsample" and abs(float(fraction) - 0.5) < 1e-9:
        return ("mb",)
    return ()

# ---------------------------------------------------------------------- the settings table
class Constraint:
    """What a setting accepts (as scikit-learn's ``_parameter_constraints``): one check for
    the API (:meth:`check`, with the messages of :func:`modelmine.validation.param_error`),
    the conversion of a command-line value (:meth:`parse`), and the stored value's schema
    (:meth:`schema`, the declarations of :mod:`modelmine._schema`)."""

    def describe(self) -> str:
        """What it accepts, in words (docs, help, usage errors)."""
        return "a value"

    def type_text(self) -> str:
        """Its type as a numpydoc Parameters entry states it ("int", "bool", ...)."""
        return "object"

    def check(self, value: Any, name: str, func: str) -> Any:
        return value

    def parse(self, text: str) -> Any:
        return text

    def choices(self) -> list[str] | None:
        return None

    def schema(self) -> Any:
        from ._schema import Where

        return Where(object, lambda v: True, self.describe())


@dataclass(frozen=True)
class Integer(Constraint):
    """An integer >= ``low`` (or None when ``allow_none``)."""

    low: int = 1
    allow_none: bool = False

    def describe(self) -> str:
        return f"an integer >= {self.low}" + (" or None" if self.allow_none else "")

    def type_text(self) -> str:
        return "int or None" if self.allow_none else "int"

    def check(self, value: Any, name: str, func: str) -> Any:
        return check_int(value, name, func, min_value=self.low, allow_none=self.allow_none)

    def parse(self, text: str) -> Any:
        return int(text)

    def schema(self) -> Any:
        from ._schema import Where

        low = self.low
        test = Where(int, lambda v: v >= low, f"an integer >= {low}")
        return (test, type(None)) if self.allow_none else test


@dataclass(frozen=True)
class Fraction(Constraint):
    """A number in (0, 1] (or None when ``allow_none``)."""

    allow_none: bool = False

    def describe(self) -> str:
        return "a number in (0, 1]" + (" or None" if self.allow_none else "")

    def type_text(self) -> str:
        return "float in (0, 1]" + (" or None" if self.allow_none else "")

    def check(self, value: Any, name: str, func: str) -> Any:
        if value is None and self.allow_none:
            return None
        return float(check_real(value, name, func, low=0.0, high=1.0, closed="right"))

    def parse(self, text: str) -> Any:
        return float(text)

    def schema(self) -> Any:
        from ._schema import Where

        test = Where(float, lambda v: 0 < v <= 1, "a number in (0, 1]")
        return (test, type(None)) if self.allow_none else test


@dataclass(frozen=True)
class Choice(Constraint):
    """One of ``options`` (or None when ``allow_none``); ``options`` may be a function
    giving them (a registry, read when the check runs). ``shown``, a function too, gives
    the options the docstrings and the docs' table list when they are not all of them (a
    registry's built-ins: no plugin is scanned when a module is imported, and the docs do
    not depend on what is installed)."""

    options: Any = ()
    allow_none: bool = False
    shown: Any = None

    def choices(self) -> list[str]:
        return list(self.options() if callable(self.options) else self.options)

    def _listed(self) -> list[str]:
        return self.choices() if self.shown is None else list(self.shown())

    def describe(self) -> str:
        return ("one of " + ", ".join(repr(o) for o in self._listed())
                + (" or None" if self.allow_none else ""))

    def type_text(self) -> str:
        return ("{" + ", ".join(f'"{o}"' for o in self._listed()) + "}"
                + (" or None" if self.allow_none else ""))

    def check(self, value: Any, name: str, func: str) -> Any:
        return check_choice(value, name, func, self.choices(), allow_none=self.allow_none)

    def schema(self) -> Any:
        from ._schema import Where

        test = Where(str, lambda v: v in self.choices(), "one of " + ", ".join(
            repr(o) for o in self.choices()))
        return (test, type(None)) if self.allow_none else test


@dataclass(frozen=True)
class Boolean(Constraint):
    """True or False (numpy's bool too)."""

    def describe(self) -> str:
        return "a bool"

    def type_text(self) -> str:
        return "bool"

    def check(self, value: Any, name: str, func: str) -> Any:
        if not isinstance(value, bool | np.bool_):
            raise param_error(name, func, "a bool", value, exc=TypeError)
        return bool(value)

    def schema(self) -> Any:
        return bool


@dataclass(frozen=True)
class Checked(Constraint):
    """A setting :class:`RunSpec` checks with code of its own (it depends on other settings
    or on a registry): ``text`` says what it accepts, ``stored`` is its schema in run.json
    (a function giving it, so that the schema module is imported late), ``type`` its type
    in a numpydoc entry."""

    text: str = "a value"
    stored: Any = None
    convert: Any = None
    type: str = "object"

    def describe(self) -> str:
        return self.text

    def type_text(self) -> str:
        return self.type

    def parse(self, text: str) -> Any:
        return text if self.convert is None else self.convert(text)

    def schema(self) -> Any:
        if self.stored is not None:
            return self.stored() if callable(self.stored) and not isinstance(
                self.stored, type) else self.stored
        return super().schema()


@dataclass(frozen=True)
class Seed(Constraint):
    """The seed of every random draw: anything :func:`resolve_seed` takes, resolved to
    one non-negative integer when the spec is made (stored as its decimal text)."""

    def describe(self) -> str:
        return "None, an integer >= 0, a SeedSequence, a RandomState or a Generator"

    def type_text(self) -> str:
        return "None, int, SeedSequence, RandomState or Generator"

    def check(self, value: Any, name: str, func: str) -> Any:
        return resolve_seed(value, func)

    def parse(self, text: str) -> Any:
        return int(text)

    def schema(self) -> Any:
        from ._schema import Where, integer_text

        return (Where(str, integer_text, "the decimal text of a seed"), type(None))


@dataclass(frozen=True)
class Names(Constraint):
    """A sequence of distinct non-empty names (columns of the data), kept as a tuple."""

    def describe(self) -> str:
        return "a sequence of distinct column names"

    def type_text(self) -> str:
        return "sequence of str"

    def check(self, value: Any, name: str, func: str) -> Any:
        if value is None:
            return ()
        if isinstance(value, str) or not isinstance(value, Sequence) or not all(
                isinstance(c, str) and c for c in value) or len(set(value)) != len(value):
            raise param_error(name, func, self.describe(), value, exc=TypeError)
        return tuple(value)

    def schema(self) -> Any:
        from ._schema import ListOf

        return ListOf(str)


@dataclass(frozen=True)
class Setting:
    """One setting of a run, declared once; everything else is derived from this record.

    Attributes
    ----------
    name : str
        The keyword of :class:`RunSpec` and of every door (``mm.run``, ``mm.bootstrap``,
        ``ModelMiningSelector``).
    default : object
        The default at every door.
    constraint : Constraint
        What it accepts: :class:`RunSpec`'s check, the command line's conversion, the
        schema of run.json.
    doc : str
        One line: the vocabulary table of docs/DEVELOPING.md and the ``--help``.
    flags : tuple of str
        The options of ``modelmine run`` (the first long one is its name, a later long one
        an old spelling still accepted); empty: not on the command line.
    stored : str
        Its key in run.json's ``settings`` (dotted: inside an object). Default: ``name``.
    required : bool
        A key every stored run has (format version 1); the others may be absent.
    always_stored : bool
        Written even at its default; else written only when it differs from the default,
        so that the files of runs without it stay as they were.
    metavar : str, optional
        The placeholder of its command-line value.
    deprecated : tuple of str
        Old spellings among ``flags``, still accepted for one release with a note on
        stderr naming the first long flag (issue 38: one name per thing).
    stage : {"models", "mining", "data"}
        What it shapes: the base models (``"models"``, the default: every door that fits
        base models takes it, :func:`modelmine.bootstrap` and the studies included); only
        how a run mines them (``"mining"``: operators, k, the support; the base models'
        own record, :attr:`modelmine.BaseModels.spec`, leaves these at their defaults);
        or the data's columns before anything is fitted (``"data"``: the gene map, which
        :func:`modelmine.run` and :func:`modelmine.resume` apply; the doors given the
        features as they are do not take it).
    note : str
        Further sentences of the docstrings' entry (numpydoc Parameters of every door and
        of :class:`RunSpec`), after ``doc``.
    """

    name: str
    default: Any
    constraint: Constraint
    doc: str
    flags: tuple[str, ...] = ()
    stored: str = ""
    required: bool = False
    always_stored: bool = False
    metavar: str | None = None
    deprecated: tuple[str, ...] = ()
    stage: str = "models"
    note: str = ""

    def __post_init__(self) -> None:
        if not self.stored:
            object.__setattr__(self, "stored", self.name)

    @property
    def option(self) -> str | None:
        """The command-line option as messages name it (``-b/--n-bootstraps``)."""
        if not self.flags:
            return None
        shorts = [f for f in self.flags if not f.startswith("--")]
        longs = [f for f in self.flags if f.startswith("--")]
        return "/".join(shorts[:1] + longs[:1])


@dataclass(frozen=True)
class FeatureMap(Constraint):
    """A probe -> symbol map: a table file (read when the spec is made, with the columns
    of ``feature_map_columns``), a DataFrame or a mapping; held and stored as the mapping,
    so that a resumed run maps its data again without the file."""

    def describe(self) -> str:
        return "a two-column table of probes and symbols (a file, a DataFrame or a mapping)"

    def type_text(self) -> str:
        return "path-like, DataFrame or mapping"

    def check(self, value: Any, name: str, func: str) -> Any:
        if value is None:
            return None
        if isinstance(value, Mapping):
            from ._utils import frozen

            if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
                raise param_error(name, func, "a mapping of probe IDs to symbols (text)",
                                  "other values", exc=TypeError, show=False)
            return frozen(dict(value))
        if isinstance(value, str | os.PathLike) or type(value).__name__ == "DataFrame":
            return value  # read by RunSpec with feature_map_columns
        raise param_error(name, func, self.describe(), type(value).__name__, exc=TypeError,
                          show=False)

    def schema(self) -> Any:
        return (dict, type(None))


@dataclass(frozen=True)
class ColumnPair(Constraint):
    """Two column names (probe, symbol), or None; ``PROBE,SYMBOL`` on the command line."""

    def describe(self) -> str:
        return "two column names (probe, symbol) or None"

    def type_text(self) -> str:
        return "(str, str) or None"

    def check(self, value: Any, name: str, func: str) -> Any:
        if value is None:
            return None
        if (isinstance(value, str) or not isinstance(value, Sequence) or len(value) != 2
                or not all(isinstance(c, str) and c for c in value)):
            raise param_error(name, func, self.describe(), value, exc=TypeError)
        return tuple(value)

    def parse(self, text: str) -> Any:
        parts = [t.strip() for t in text.split(",")]
        if len(parts) != 2 or not all(parts):
            raise ValueError(text)
        return tuple(parts)

    def schema(self) -> Any:
        from ._schema import ListOf

        return (ListOf(str), type(None))


def _collapse_rules() -> list[str]:
    from .datasets._genemap import COLLAPSE_RULES

    return list(COLLAPSE_RULES)


def _unmapped_choices() -> list[str]:
    from .datasets._genemap import UNMAPPED_CHOICES

    return list(UNMAPPED_CHOICES)


def _scales() -> list[str]:
    from .selectors._scaling import SCALE_METHODS

    return list(SCALE_METHODS)


def _outcomes() -> list[str]:
    """The registered outcome kinds (read when a value is checked: plugins' too)."""
    return default_registry().names()


def _builtin_outcomes() -> list[str]:
    """The built-in outcome kinds (what the docstrings and the docs' table list)."""
    return [kind.name for kind in builtin_kinds()]


def _support_schema() -> Any:
    from ._schema import Where

    return Where(float, lambda v: (0 < v <= 1) if isinstance(v, float) else v >= 1,
                 "a fraction in (0, 1] or a count of base models >= 1")


def _number(text: str) -> float | int:
    """A number typed on the command line: an integer when it is one (a count), else a
    float (a fraction)."""
    stripped = text.strip()
    return int(stripped) if stripped.isdigit() else float(stripped)


def _list_schema() -> Any:
    from ._schema import ListOf

    return ListOf(str)


def _outcome_defaults() -> str:
    """The default selector of each built-in outcome, in words (from the kinds, so that no
    text restates it; the built-ins only, so that importing modelmine scans no plugin and
    the docs' table does not depend on what is installed)."""
    return ", ".join(f"{kind.default_selector!r} for "
                     f"{'classes' if kind.classes else kind.name}" for kind in builtin_kinds())


#: Every setting of a run, declared once (KDD 2012, sections 2-3). Derived from it:
#: :class:`RunSpec`'s defaults, checks, signature and docstring; the keywords, signatures
#: and docstrings of every door (:mod:`modelmine._doors`: ``mm.run``, ``mm.bootstrap``,
#: ``mm.evaluate``, the studies, ``ModelMiningSelector``); the options of the subcommands
#: of ``modelmine``; the keys and schema of run.json (:meth:`RunSpec.to_settings`,
#: :func:`settings_schema`) and the vocabulary table of docs/DEVELOPING.md
#: (:func:`settings_table`). A new setting is one more row here, and the code that uses
#: its value (docs/DEVELOPING.md, "Add a setting").
SETTINGS: tuple[Setting, ...] = (
    Setting("selector", None, Checked(
        "a registered selector name, a Selector, an estimator, a callable, or a list of "
        "them", stored=(str, type(None)),
        type="str, Selector, estimator, callable, or a list of them"),
        f"the feature selector of the base models (default: the outcome's: "
        f"{', '.join(kind.default_selector for kind in builtin_kinds())})",
        ("-s", "--selector"), required=True,
        always_stored=True, metavar="NAME",
        note="A registered name (:func:`modelmine.selectors.available_selectors`), a "
        ":class:`modelmine.selectors.Selector`, a scikit-learn estimator (with ``coef_`` "
        "or ``feature_importances_``, or a ``SelectorMixin``) or a callable ``(X, y) -> "
        "scores``. Default: the outcome's (``modelmine.spec.DEFAULT_SELECTORS``: "
        f"{_outcome_defaults()}). A list makes a heterogeneous ensemble (Salman 2022, "
        "section 3.2.2): every selector is fitted on the same b resamples, and "
        "``selector_params`` maps a selector's name to its parameters."),
    Setting("selector_params", None, Checked("a mapping of parameter names to values",
                                             stored=dict, type="mapping"),
            "parameters of the selector (command line: KEY=VALUE, repeatable)",
            ("--selector-param",), always_stored=True, metavar="KEY=VALUE",
            note="For example ``{\"C\": 1.0}`` for \"svm-rfe\"; for a list of selectors, "
            "selector name -> parameters."),
    Setting("n_bootstraps", DEFAULT_N_BOOTSTRAPS, Integer(2),
            "b, the resamples and base models (KDD 2012, section 3)",
            ("-b", "--n-bootstraps"), required=True, always_stored=True, metavar="B"),
    Setting("n_features", DEFAULT_M, Integer(1, allow_none=True),
            "m, features per base model (None: subset selectors choose)",
            ("-m", "--n-features"), required=True, always_stored=True, metavar="M",
            note="Above p it is capped at p with a warning (:func:`modelmine.spec.capped`). "
            "Unset, the data decide it (:class:`modelmine.spec.DataDefault`): 20, or "
            "round(p / 3) on data of fewer than 60 features. For selectors that choose "
            "their own subset, a cap; None keeps their whole subset (and is refused for "
            "ranking selectors)."),
    Setting("n_signatures", DEFAULT_N_SIGNATURES, Integer(1),
            "k, alternative signatures of the multi-model operators",
            ("-k", "--n-signatures"), required=True, always_stored=True, metavar="K",
            stage="mining",
            note="Capped per operator by :func:`modelmine.aggregate` at the distinct base "
            "models, which records the cap in the provenance."),
    Setting("operators", DEFAULT_OPERATORS, Checked("a sequence of registered operator names",
                                                    stored=_list_schema,
                                                    type="sequence of str"),
            "the operators that aggregate the base models (repeatable)",
            ("-o", "--operator"), required=True, always_stored=True, metavar="NAME",
            stage="mining",
            note="Registered names (:func:`modelmine.operators.available_operators`)."),
    Setting("operator_params", None, Checked("a mapping of operator names to mappings of "
                                             "parameters", stored=dict,
                                             type="mapping of str to mapping"),
            "parameters per operator", always_stored=True, stage="mining",
            note="For example ``{\"closedApr\": {\"min_support\": 0.3}}``."),
    Setting("min_support", DEFAULT_MIN_SUPPORT, Checked(
        "a fraction in (0, 1] or a count of base models in [1, b]", stored=_support_schema,
        convert=_number, type="float in (0, 1] or int"),
        "minimum support of the closed itemsets a run keeps", ("--min-support",),
        required=True, always_stored=True, metavar="S", stage="mining"),
    Setting("resampling", "bootstrap", Choice(RESAMPLING_METHODS),
            "the resampling scheme", ("--resampling",), stored="resampling.method",
            required=True, always_stored=True,
            note="With replacement (the bootstrap of KDD 2012) or without (subsamples, "
            "Saeys et al. 2008, Pes 2019; with ``sample_fraction=0.5`` those of "
            "Meinshausen and Buehlmann's stability selection, 2010). "
            "``\"complementary-pairs\"``: b/2 random splits into two disjoint halves of "
            "floor(n/2), both used (Shah and Samworth 2013); b must be even."),
    Setting("sample_fraction", None, Fraction(allow_none=True),
            "size of a resample as a fraction of n (default per scheme: 1.0, 0.9, 0.5)",
            ("--sample-fraction", "--fraction"), stored="resampling.fraction",
            always_stored=True, metavar="F", deprecated=("--fraction",)),
    Setting("stratify", False, Boolean(), "keep the class proportions in every resample",
            ("--stratify",), stored="resampling.stratify", always_stored=True,
            note="For a continuous or survival outcome, the proportions of its strata (the "
            "quantile bins of y, or events and censored times)."),
    Setting("random_state", DEFAULT_RANDOM_STATE, Seed(),
            "the seed of every random draw (default 0)",
            ("--random-state", "--seed"), required=True, always_stored=True, metavar="INT",
            note="Resolved to one integer when the spec is made "
            "(:func:`modelmine.spec.resolve_seed`); the fixed seed 0 unless told otherwise, "
            "so the same call gives the same result. None draws fresh entropy and records "
            "it."),
    Setting("scale", "none", Choice(_scales),
            "scale the features inside each resample before the selector sees them",
            ("--scale",), always_stored=True,
            note="Fitted on each resample's rows. The SVM selectors (\"svm-rfe\", \"svm\", "
            "\"svm-rfe50\") scale to [0, 1] themselves by default (as WEKA's SMO); a "
            "run-level scale replaces theirs unless ``selector_params`` sets it."),
    Setting("signature_size", None, Integer(1, allow_none=True),
            "features per signature, when it differs from m", ("--signature-size",),
            always_stored=True, metavar="N", stage="mining",
            note="For example base models of 50 features mined into signatures of 20. "
            "Default: ``n_features``."),
    Setting("artificial_features", None, Choice(ARTIFICIAL_FEATURES, allow_none=True),
            "append permuted or knockoff copies of the features (for stabl)",
            note="p artificial features before resampling, one per real feature: each real "
            "column permuted (Stabl's decoys) or Gaussian model-X knockoffs (``knockpy``); "
            "what each model selected among them is kept in "
            "``BaseModels.artificial_subsets`` for the ``stabl`` operator (Hedou et al. "
            "2024)."),
    Setting("weighted_resampling", False, Boolean(),
            "draw the resamples in proportion to the sample weights, fit unweighted",
            ("--weighted-resampling",),
            note="With ``sample_weight``: each resample drawn with probabilities "
            "proportional to the weights (of the rows, or of the groups by their summed "
            "weight); False gives the weights to the selector instead. Not for "
            "complementary pairs."),
    Setting("per_class", False, Boolean(),
            "also select each class against the rest, on the same resamples",
            ("--per-class",),
            note="The per-class panels (``MiningRun.class_signatures``, "
            "``MiningRun.markers()``; ``docs/markers.md``), on the run's own resamples "
            "(common random numbers). Three or more classes."),
    Setting("outcome", DEFAULT_OUTCOME, Choice(_outcomes, shown=_builtin_outcomes),
            "what y is: class labels, a continuous value, or a survival target",
            ("--outcome",),
            note="A survival target is the structured array of the event indicator and the "
            "time (``sksurv.util.Surv.from_arrays``). Every selector must fit it "
            "(``modelmine.selectors.selectors_for(outcome)``); ``docs/outcomes.md``."),
    Setting("max_per_class", None, Integer(1, allow_none=True),
            "at most this many samples of each class in each resample",
            ("--max-per-class",), stored="resampling.max_per_class", metavar="N",
            note="Drawn among the class's own (a cap for classes of very different sizes: "
            "the single-cell panels). Not for complementary pairs."),
    Setting("covariates", (), Names(),
            "clinical covariates (columns of the data) adjusted for where the model allows",
            note="Their values are data (``mm.run(covariates=...)``); ``docs/outcomes.md``."),
    Setting("fit_full", True, Boolean(),
            "also fit the selector once on all the data (KDD 2012's nobagg baseline)"),
    # the data stage: what mm.run does to the data's columns before anything is fitted
    Setting("feature_map", None, FeatureMap(),
            "map probe IDs to gene symbols before selection, collapsing the probes of a "
            "gene (docs/biology.md)", ("--gene-map",), metavar="FILE", stage="data",
            note="Read once when the spec is made (a file, with ``feature_map_columns``, "
            "or a table), held and stored as the mapping, so that a resumed run maps its "
            "data again without the file."),
    Setting("feature_map_columns", None, ColumnPair(),
            "the probe and symbol columns of the gene map (default: its first two)",
            ("--gene-map-columns",), metavar="PROBE,SYMBOL", stage="data"),
    Setting("collapse", "max-mean", Choice(_collapse_rules),
            "probes of one gene: the one of highest mean (WGCNA's MaxMean) or their mean "
            "(limma's avereps)", ("--collapse",), stage="data"),
    Setting("unmapped", "keep", Choice(_unmapped_choices),
            "probes the gene map gives no single symbol: kept under their IDs, or dropped",
            ("--unmapped",), stage="data"),
)


def setting(name: str) -> Setting:
    """The declaration of one setting (:data:`SETTINGS`)."""
    for one in SETTINGS:
        if one.name == name:
            return one
    raise KeyError(name)


def defaults(*names: str) -> dict[str, Any]:
    """The defaults of the named settings (all of them when none is named), from
    :data:`SETTINGS`: what every door's keywords default to."""
    table = {s.name: s.default for s in SETTINGS}
    return table if not names else {n: table[n] for n in names}


def settings_schema() -> dict[str, Any]:
    """The schema of run.json's ``settings`` (:mod:`modelmine._schema`), from
    :data:`SETTINGS`: the keys of format version 1 required, the later ones optional."""
    from ._schema import Optional

    out: dict[str, Any] = {}
    for one in SETTINGS:
        part = one.constraint.schema()
        keys = one.stored.split(".")
        node = out
        for key in keys[:-1]:
            node = node.setdefault(key, {})
        node[keys[-1]] = part if one.required else Optional(part)
    return out


def settings_table() -> str:
    """The vocabulary table of the run's settings in docs/DEVELOPING.md (Markdown), from
    :data:`SETTINGS` (tests/test_settings.py checks that the page holds it)."""
    lines = ["| setting | default | accepts | command line | run.json | what |",
             "|---|---|---|---|---|---|"]
    for one in SETTINGS:
        flags = ", ".join(f"`{f}`" + (" (deprecated)" if f in one.deprecated else "")
                          for f in one.flags)
        default = ("the outcome's" if one.name == "selector" else
                   f"`{list(one.default)!r}`" if isinstance(one.default, tuple) else
                   f"`{one.default!r}` ({one.default.text})"
                   if isinstance(one.default, DataDefault) else
                   f"`{one.default!r}`")
        lines.append(f"| `{one.name}` | {default} | {one.constraint.describe()} | {flags} | "
                     f"`{one.stored}` | {one.doc} |")
    return "\n".join(lines) + "\n"


def _shown(value: Any) -> str:
    """A default as a numpydoc entry shows it (strings in double quotes)."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "(" + ", ".join(_shown(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def _sentence(text: str) -> str:
    """A table's line as a sentence: a capital (not on a symbol such as "b," or "m,") and
    a full stop."""
    text = text.strip()
    if not text[1:2].isalpha():  # "b, the resamples": a symbol keeps its case
        return text.rstrip(".") + "."
    return (text[:1].upper() + text[1:]).rstrip(".") + "."


def parameters_doc(names: Sequence[str], defaults: Mapping[str, Any] | None = None, *,
                   notes: Mapping[str, str] | None = None, indent: str = "    ") -> str:
    """The numpydoc Parameters entries of the named settings, from their rows in
    :data:`SETTINGS`: the type from the constraint, the default (``defaults`` overrides the
    table's, as a door or a preset states it), then the row's ``doc`` and ``note`` (and a
    door's ``notes``). Every door's docstring and :class:`RunSpec`'s are filled by it."""
    import textwrap

    defaults = dict(defaults or {})
    lines: list[str] = []
    for name in names:
        one = setting(name)
        default = defaults.get(name, one.default)
        kind = one.constraint.type_text()
        head = (f"{name} : {kind}, optional" if default is None else
                f"{name} : {kind}, default={_shown(default)}")
        text = " ".join(t for t in (_sentence(one.doc), one.note,
                                    (notes or {}).get(name, "")) if t)
        if isinstance(default, DataDefault):
            text += f" Default: {default.text}."
        lines.append(indent + head)
        lines += textwrap.wrap(text, 88 - len(indent) - 4, initial_indent=indent + "    ",
                               subsequent_indent=indent + "    ", break_long_words=False,
                               break_on_hyphens=False)
    return "\n".join(lines)


def fill_settings(doc: str | None, names: Sequence[str],
                  defaults: Mapping[str, Any] | None = None, *,
                  notes: Mapping[str, str] | None = None,
                  after: Sequence[str] = ()) -> str | None:
    """``doc`` with its Parameters entry ``**settings`` replaced by the entries of the
    named settings (:func:`parameters_doc`, indented as the marker), and the entries of
    ``after`` (whole numpydoc entries, unindented) appended to the section. None stays
    None (``python -OO``)."""
    if not doc:
        return doc
    lines = doc.split("\n")
    at = next((i for i, line in enumerate(lines) if line.strip() == "**settings"), None)
    if at is None:
        raise ValueError("the docstring has no '**settings' entry in its Parameters")
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    block = parameters_doc(names, defaults, notes=notes, indent=indent)
    end = at + 1
    while end < len(lines) and lines[end].strip():  # the section ends at a blank line
        end += 1
    extra = [indent + line if line else line
             for entry in after for line in entry.split("\n")]
    rest = lines[at + 1:end]
    # a trailing ``**old_names`` entry stays last, as in the signature
    cut = next((i for i, line in enumerate(rest) if line.startswith(indent + "**")),
               len(rest))
    filled = (lines[:at] + ([block] if block else []) + rest[:cut] + extra + rest[cut:]
              + lines[end:])
    return "\n".join(filled)


@dataclass(frozen=True)
class Preset:
    """The defaults of a published protocol, as settings (a partial :class:`RunSpec`).

    A study door takes its protocol's preset as the defaults of its settings keywords
    (``mm.evaluation.evaluate_thresholds`` Pes's, ``selection_null`` stability
    selection's, ...), so that its committed tables recompute as published; given
    ``spec=`` or ``run=``, the study takes those settings instead.

    Attributes
    ----------
    name : str
        Its key in :data:`PRESETS`.
    cite : str
        The paper and section the values come from (or why modelmine chose them).
    values : mapping
        Setting name -> value; the other settings keep the table's defaults.
    """

    name: str
    cite: str
    values: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", dict(self.values))

    def spec(self, func: str = "RunSpec", **changes: Any) -> RunSpec:
        """The :class:`RunSpec` of the preset, with ``changes``."""
        return RunSpec(**{**self.values, **changes}, func=func)

    def default(self, name: str) -> Any:
        """The preset's value of ``name``, else the table's default."""
        return self.values[name] if name in self.values else setting(name).default


def _quarter(p: int) -> int:
    """Salman (2022)'s subset size: a quarter of the p features (at least one)."""
    return max(1, p // 4)


#: The presets of the published protocols (and of modelmine's own studies), by name: the
#: defaults of each study door (docs/DEVELOPING.md, "Doors and presets").
PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("kdd2012", "Woznica, Nguyen and Kalousis (KDD 2012, section 3): b = 150 "
           "bootstraps, m = 20, KDD'12's cross-validation (mm.evaluate): the table's "
           "defaults", {}),
    Preset("stability-selection", "Meinshausen and Buehlmann (2010): b = 50 subsamples of "
           "half the samples, m = 20 (selection_null's base models when none are given; "
           "the selector: the outcome's, SVM-RFE for classes)",
           {"n_bootstraps": 50, "n_features": 20,
            "resampling": "subsample", "sample_fraction": 0.5, "fit_full": False}),
    Preset("pes2019", "Pes (2019, section 3.3): ensembles of B = 50 bootstraps of each "
           "training set (evaluate_thresholds; m is the largest threshold's count)",
           {"n_bootstraps": 50, "fit_full": False}),
    Preset("salman2022", "Salman (2022, sections 3.3 and 4.3.2), reduced: information "
           "gain, b = 50 (Salman: 1,000), m = p // 4 (compare_aggregations)",
           {"selector": "ig", "n_bootstraps": 50, "fit_full": False,
            "n_features": DataDefault(0, _quarter, "p // 4, a quarter of the features",
                                      shown="p // 4")}),
    Preset("study", "modelmine's studies that refit a run many times (evaluate_outcome, "
           "grouping_effect, leave_one_group_out): b = 50, m = 20 for their cost",
           {"n_bootstraps": 50, "n_features": 20}),
    Preset("marker-panels", "modelmine's single-cell panels (issue 29): Wilcoxon, b = 50 "
           "subsamples of 80 % with at most 500 cells of a cluster, m = 10 genes per panel "
           "(singlecell.marker_panels)",
           {"selector": "wilcoxon", "n_bootstraps": 50, "n_features": 10,
            "resampling": "subsample", "sample_fraction": 0.8, "stratify": True,
            "max_per_class": 500, "fit_full": False}),
)}


_SEED_TYPES = ("None, a non-negative integer, a numpy.random.SeedSequence, a "
               "numpy.random.RandomState or a numpy.random.Generator")


def resolve_seed(random_state: Any, func: str = "RunSpec") -> int:
    """The run's seed as one non-negative integer, from anything scikit-learn users pass.

    - None: fresh entropy (a 128-bit integer), recorded so the run can be reproduced;
    - a non-negative integer: itself;
    - a ``numpy.random.SeedSequence``: its entropy when it is a root sequence, else a
      128-bit integer drawn from its state (either way the recorded integer reproduces
      the run);
    - a ``numpy.random.RandomState`` or ``numpy.random.Generator``: a 63-bit integer drawn
      from it (the generator advances, as scikit-learn's ``check_random_state`` users
      expect).

    Every random draw of the run then comes from ``numpy.random.SeedSequence(seed)``
    (children spawned per bootstrap), so results never depend on the number of workers.
    """
    if random_state is None:
        entropy = np.random.SeedSequence().entropy
        assert isinstance(entropy, int)
        return entropy
    if isinstance(random_state, bool | np.bool_):
        raise param_error("random_state", func, _SEED_TYPES, random_state, exc=TypeError)
    if isinstance(random_state, numbers.Integral):
        if int(random_state) < 0:
            raise param_error("random_state", func, _SEED_TYPES, random_state)
        return int(random_state)
    if isinstance(random_state, np.random.SeedSequence):
        entropy = random_state.entropy
        if isinstance(entropy, int) and not random_state.spawn_key:
            return entropy
        state = random_state.generate_state(2, np.uint64)
        return (int(state[0]) << 64) | int(state[1])
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, np.iinfo(np.int64).max, dtype=np.int64))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, np.iinfo(np.int64).max))
    raise param_error("random_state", func, _SEED_TYPES, random_state, exc=TypeError)


def capped(value: int, limit: int, *, name: str, func: str, why: str) -> int:
    """The one policy for a size above what the data allow: cap it, with a warning.

    Used for m above p (:func:`modelmine.run`, :func:`modelmine.bootstrap`,
    :func:`modelmine.evaluate`, :class:`modelmine.ModelMiningSelector`), a signature size
    above p, and, in :func:`modelmine.aggregate`, k above the alternatives an operator can
    return (KDD 2012, section 2.2: at most the distinct base models) and m above the
    features an operator can return; ``aggregate`` also records the request and the cap in
    the signature's provenance.

    Parameters
    ----------
    value, limit : int
        The size asked for and the most the data allow.
    name : str
        The parameter's name (``"n_features"``, ``"n_signatures"``, ...).
    func : str
        The public function that was called.
    why : str
        What the limit is, completing "is above ...", for example ``"the 30 features of
        X"``.

    Warns
    -----
    SizeCappedWarning
        A ``UserWarning``: ``"n_features=50 is above the 30 features of X: run uses
        n_features=30."``
    """
    if value <= limit:
        return value
    warnings.warn(f"{name}={value} is above {why}: {func} uses {name}={limit}.",
                  SizeCappedWarning, stacklevel=3)
    return limit


def spec_alone(spec: Any, given: Mapping[str, Any], defaults: Mapping[str, Any],
               func: str) -> None:
    """Refuse a ``spec=`` given together with settings keywords (which one would win?).

    ``given`` holds the door's settings keywords as called, ``defaults`` their defaults.
    """
    if not isinstance(spec, RunSpec):
        raise param_error("spec", func, "a modelmine.RunSpec", type(spec).__name__,
                          exc=TypeError, show=False)
    both = [k for k, v in given.items() if k in defaults and not _unchanged(v, defaults[k])]
    if both:
        raise param_error("spec", func, "given alone, without the settings it holds",
                          f"spec and {', '.join(both)}", exc=TypeError, show=False)


_ABSENT = object()


def _unchanged(value: Any, default: Any) -> bool:
    return value is default or (type(value) is type(default) and value == default)


def _params_from_record(names: Sequence[Any], params: Any) -> Any:
    """The stored ``selector_params`` of the selectors ``names`` (a mapping name ->
    parameters) as they are meant (:func:`modelmine.selectors.params_from_record`: a
    record from before a default changed keeps its meaning); anything else as it is, for
    the specification to refuse."""
    from .selectors import params_from_record

    if params is None:
        params = {}
    if not isinstance(params, Mapping) or not all(
            isinstance(params.get(n) or {}, Mapping) for n in names if isinstance(n, str)):
        return params
    out = dict(params)
    for n in names:
        if isinstance(n, str):
            meant = params_from_record(n, params.get(n))
            if meant or n in out:
                out[n] = meant
    return out


def _frozen_params(value: Any, name: str, func: str, *, nested: bool) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise param_error(name, func, "a mapping" + (" of operator names to mappings of "
                          "parameters" if nested else " of parameter names to values"),
                          value, exc=TypeError)
    out: dict[str, Any] = {}
    for key, inner in value.items():
        if not isinstance(key, str):
            raise param_error(name, func, "a mapping with string keys", value, exc=TypeError)
        if nested:
            if not isinstance(inner, Mapping):
                raise param_error(name, func, "a mapping of operator names to mappings of "
                                  "parameters", f"{type(inner).__name__} for {key!r}",
                                  exc=TypeError, show=False)
            inner = dict(inner)
        out[key] = inner
    return out


_DEFAULTS = defaults()


def _takes_declared(cls: type) -> type:
    """Let :class:`RunSpec` take every setting of :data:`SETTINGS`, also one declared
    there without a field of its own (checked by its constraint, stored, read back)."""
    init = cls.__dict__["__init__"]
    own = {f.name for f in fields(cls)}

    @functools.wraps(init)
    def __init__(self: Any, **kwargs: Any) -> None:
        declared = {s.name for s in SETTINGS}
        unknown = sorted(set(kwargs) - declared - own - {"func", "recorded_kinds"})
        if unknown:
            raise TypeError(f"RunSpec() got an unexpected keyword argument {unknown[0]!r}")
        extra = {k: kwargs.pop(k) for k in list(kwargs) if k in declared - own}
        object.__setattr__(self, "_extra", extra)
        init(self, **kwargs)

    setattr(cls, "__init__", __init__)  # noqa: B010 (the generated one, wrapped)
    return cls


@_takes_declared
@dataclass(frozen=True)
class RunSpec:
    """Every setting of a model-mining run, validated once (KDD 2012, sections 2-3).

    Made by each door (:func:`modelmine.run`, :func:`modelmine.bootstrap`,
    :func:`modelmine.evaluate`, the studies, :class:`modelmine.ModelMiningSelector`, the
    CLI) and passed down; stored in ``run.json`` (:meth:`to_settings`). Frozen: derive
    another with :meth:`replace`. Its keywords, their defaults and the entries below come
    from :data:`SETTINGS`, one row per setting; every row's constraint is applied, then
    the rules between settings.

    Parameters
    ----------
    **settings
    func : str, default="RunSpec"
        The public function the user called, named in error messages (not stored).

    Examples
    --------
    >>> import modelmine as mm
    >>> spec = mm.RunSpec(selector="anova", n_bootstraps=20, n_features=10)
    >>> spec.random_state, spec.sample_fraction
    (0, 1.0)
    """

    # The defaults are those of SETTINGS (stated once; tests/test_settings.py checks it).
    selector: Any = _DEFAULTS["selector"]
    selector_params: Mapping[str, Any] = _DEFAULTS["selector_params"]
    n_bootstraps: int = _DEFAULTS["n_bootstraps"]
    n_features: int | None = _DEFAULTS["n_features"]
    n_signatures: int = _DEFAULTS["n_signatures"]
    signature_size: int | None = _DEFAULTS["signature_size"]
    resampling: str = _DEFAULTS["resampling"]
    sample_fraction: float | None = _DEFAULTS["sample_fraction"]
    stratify: bool = _DEFAULTS["stratify"]
    scale: str = _DEFAULTS["scale"]
    artificial_features: str | None = _DEFAULTS["artificial_features"]
    weighted_resampling: bool = _DEFAULTS["weighted_resampling"]
    per_class: bool = _DEFAULTS["per_class"]
    outcome: str = _DEFAULTS["outcome"]
    max_per_class: int | None = _DEFAULTS["max_per_class"]
    covariates: Sequence[str] = _DEFAULTS["covariates"]
    operators: Sequence[str] = _DEFAULTS["operators"]
    operator_params: Mapping[str, Mapping[str, Any]] = _DEFAULTS["operator_params"]
    min_support: float = _DEFAULTS["min_support"]
    random_state: Any = _DEFAULTS["random_state"]
    fit_full: bool = _DEFAULTS["fit_full"]
    feature_map: Any = _DEFAULTS["feature_map"]
    feature_map_columns: Sequence[str] | None = _DEFAULTS["feature_map_columns"]
    collapse: str = _DEFAULTS["collapse"]
    unmapped: str = _DEFAULTS["unmapped"]
    func: InitVar[str] = "RunSpec"
    # the kinds of operators a stored run names that are not registered here (a plugin
    # not installed): from_settings gives them, so that a loaded run keeps its spec
    recorded_kinds: InitVar[Mapping[str, str] | None] = None

    def __post_init__(self, func: str, recorded_kinds: Mapping[str, str] | None) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        object.__setattr__(self, "_recorded_kinds", dict(recorded_kinds or {}))

        own = {f.name for f in fields(self)}
        extra = self._extra
        # Every setting's constraint in the table, always, fields and others alike: the
        # rules below add to it and never replace it (issue 48: a field's own check once
        # replaced the table's).
        for one in SETTINGS:
            value = (getattr(self, one.name) if one.name in own
                     else extra.get(one.name, one.default))
            if not isinstance(value, DataDefault):  # the data decide that one (for_data)
                value = one.constraint.check(value, one.name, func)
            if one.name in own:
                put(one.name, value)
            else:
                extra[one.name] = value
        # The rules between settings.
        b, method = self.n_bootstraps, self.resampling
        if method == "complementary-pairs":
            if b % 2:
                raise param_error("n_bootstraps", func, "an even number for complementary "
                                  "pairs (b/2 splits, both halves used)", b)
            if self.sample_fraction is not None and self.sample_fraction != 0.5:
                raise param_error("sample_fraction", func, "None or 0.5 for complementary "
                                  "pairs (two halves of floor(n/2))", self.sample_fraction)
            if self.weighted_resampling:
                raise param_error("weighted_resampling", func, "False for complementary "
                                  "pairs (two halves of the samples draw nothing to "
                                  "weight)", True)
            if self.max_per_class is not None:
                raise param_error("max_per_class", func, "None for complementary pairs "
                                  "(two halves of every class)", self.max_per_class)
        if self.sample_fraction is None:
            put("sample_fraction", float(DEFAULT_FRACTIONS[method]))
        if self.selector is None:
            put("selector", self.outcome_kind.default_selector)
        if self.per_class and not self.outcome_kind.classes:
            raise param_error("per_class", func, "False unless outcome='classification' "
                              "(per-class panels need classes)", True)
        gene_map = self.feature_map
        if gene_map is not None and not isinstance(gene_map, Mapping):
            # a file or a table: read once, here, and held (and stored) as the mapping, so
            # that a resumed run maps its data again without the file
            from ._utils import frozen
            from .datasets._genemap import read_feature_map

            put("feature_map", frozen(read_feature_map(gene_map, self.feature_map_columns,
                                                       func=func)))
        check_fraction_or_count(self.min_support, "min_support", func, total=b)
        self._check_selectors(func)
        self._check_operators(func)

    # ------------------------------------------------------------------ checks
    def _record_defaults(self, built: list[Any], own: list[dict[str, Any] | None],
                         func: str) -> None:
        """State in :attr:`selector_params` the parameters each selector given by name
        records even at their default (``Selector.always_recorded``: ReliefF's
        ``variant``), so that ``run.json`` says what ran whatever the default becomes."""
        filled = False
        for sel, params in zip(built, own):
            if params is None:
                continue
            recorded = sel.get_params()
            for key in type(sel).always_recorded:
                if key not in params and key in recorded:
                    params[key], filled = recorded[key], True
        if not filled:
            return
        if isinstance(self.selector, tuple):
            value: dict[str, Any] = dict(self.selector_params)
            value.update({sel.name: params for sel, params in zip(built, own)
                          if params is not None and (params or sel.name in value)})
        else:
            value = dict(own[0] or {})
        object.__setattr__(self, "selector_params", _frozen_params(
            value, "selector_params", func, nested=False))

    def _check_selectors(self, func: str) -> None:
        from .selectors import default_registry, get_selector

        heterogeneous = isinstance(self.selector, list | tuple)
        object.__setattr__(self, "selector_params", _frozen_params(
            self.selector_params, "selector_params", func, nested=False))
        if heterogeneous:
            specs = list(self.selector)
            if not specs:
                raise param_error("selector", func, "a non-empty list of selectors",
                                  self.selector)
            object.__setattr__(self, "selector", tuple(specs))
            built = []
            own: list[dict[str, Any] | None] = []  # the parameters given by name
            for one in specs:
                if isinstance(one, str):
                    if one not in default_registry():
                        listed = ", ".join(repr(s) for s in default_registry().names())
                        raise default_registry().unknown(one, func, "selector",
                                                         f"one of {listed}")
                    params = self.selector_params.get(one, {})
                    if not isinstance(params, Mapping):
                        raise param_error("selector_params", func, "a mapping from selector "
                                          "names of the list to parameters",
                                          self.selector_params, exc=TypeError)
                    built.append(get_selector(one, dict(params), func=func))
                    own.append(dict(params))
                else:
                    built.append(get_selector(one, None, func=func))
                    own.append(None)
            names = [s.name for s in built]
            dupes = sorted({n for n in names if names.count(n) > 1})
            if dupes:
                raise param_error("selector", func, "a list of distinct selectors",
                                  f"{names} (repeated: {', '.join(repr(d) for d in dupes)})",
                                  show=False)
            unknown = sorted(set(self.selector_params) - set(names))
            if unknown:
                raise param_error("selector_params", func, "a mapping from selector names of "
                                  f"the list ({', '.join(map(repr, names))}) to parameters",
                                  dict(self.selector_params), hint=f"Unknown: {unknown}.")
        else:
            built = [get_selector(self.selector, dict(self.selector_params) or None,
                                  func=func)]
            own = [dict(self.selector_params) if isinstance(self.selector, str) else None]
        self._record_defaults(built, own, func)
        for sel in built:
            if not self.outcome_kind.fits(sel):
                from .selectors import selectors_for

                fits = " or ".join(repr(o) for o in sel.outcomes)
                raise param_error(
                    "selector", func, f"a selector for outcome={self.outcome!r} (selectors "
                    f"for it: {', '.join(selectors_for(self.outcome))})",
                    f"{sel.name!r}, which fits {fits} only", show=False,
                    # the outcome left at its default: the selector's says what to pass
                    hint=None if self.outcome != DEFAULT_OUTCOME else
                    f"For {sel.name!r}, pass outcome={sel.outcomes[0]!r} (modelmine run "
                    f"--outcome {sel.outcomes[0]}).")
        built = [sel.for_outcome(self.outcome, func) for sel in built]
        if self.scale != "none":
            from .selectors._scaling import _SVMScaled, scaled

            # The run's scale replaces the SVM selectors' own [0, 1] scaling, unless the
            # user set that explicitly (then both apply, in that order).
            for sel, params in zip(built, own):
                if isinstance(sel, _SVMScaled) and params is not None and "scale" not in params:
                    sel.scale = "none"
            built = [scaled(sel, self.scale) for sel in built]
        if self.n_features is None:
            ranking = [s.name for s in built if s.kind != "subset"]
            if ranking:
                raise param_error("n_features", func, "an integer >= 1 for the ranking "
                                  f"selector {ranking[0]!r} (None is only for subset "
                                  "selectors)", None)
        elif not isinstance(self.n_features, DataDefault):  # the data decide that one
            object.__setattr__(self, "n_features",
                               check_int(self.n_features, "n_features", func, min_value=1))
        object.__setattr__(self, "_built", tuple(built))

    def _check_operators(self, func: str) -> None:
        if not self.operators and isinstance(self.operators, tuple | list):
            # bootstrap() and the estimator's fits mine no operators of their own.
            object.__setattr__(self, "operators", ())
            object.__setattr__(self, "_kinds", {})
            object.__setattr__(self, "operator_params", _frozen_params(
                self.operator_params, "operator_params", func, nested=True))
            return
        if isinstance(self.operators, str):
            raise param_error("operators", func, "a sequence of operator names",
                              self.operators, exc=TypeError,
                              hint=f"Use [{self.operators!r}] for one operator.")
        # the operators' registry, found without importing the operators (which sit above)
        operators = default_of("operator")
        recorded = self._recorded_kinds
        absent = set(self.operators) - set(operators.names())
        if absent and absent <= set(recorded):
            # a stored run's operators, some of a plugin not installed here
            kinds = {n: (operators.entry(n).kind if n in operators else recorded[n])
                     for n in self.operators}
            object.__setattr__(self, "operators", tuple(kinds))
            object.__setattr__(self, "_kinds", dict(kinds))
            object.__setattr__(self, "operator_params", _frozen_params(
                self.operator_params, "operator_params", func, nested=True))
            return
        kinds = operators.kinds(list(self.operators), param="operators", func=func)
        object.__setattr__(self, "operators", tuple(kinds))
        object.__setattr__(self, "_kinds", dict(kinds))
        params = _frozen_params(self.operator_params, "operator_params", func, nested=True)
        unknown = sorted(set(params) - set(kinds))
        if unknown:
            raise param_error("operator_params", func, "a mapping from the run's operators "
                              f"({', '.join(map(repr, kinds))}) to their parameters",
                              params, hint=f"Not among the operators: {unknown}.")
        for name, given in params.items():
            accepted = operators.entry(name).params
            wrong = sorted(set(given) - set(accepted))
            if wrong:  # found now, not after the bootstraps, when the operator runs
                raise param_error("operator_params", func, f"parameters that {name!r} takes "
                                  f"({', '.join(sorted(accepted)) or 'none'})",
                                  f"{wrong} for {name!r}", show=False)
        object.__setattr__(self, "operator_params", params)
        for name in kinds:
            self._check_needs(name, getattr(operators.entry(name), "requires", ()),
                              params.get(name, {}), func)

    def _check_needs(self, name: str, requires: Sequence[str], params: Mapping[str, Any],
                     func: str) -> None:
        """Refuse an operator whose needs (its registered ``requires``) these settings
        cannot meet, naming the setting that works, before the first fit (issue 39 item 5):
        ``"error-control"`` needs resamples an error bound covers (:func:`error_bounds_for`),
        ``"artificial-features"`` needs ``artificial_features``."""
        if "error-control" in requires:
            covered = error_bounds_for(self.resampling, float(self.sample_fraction or 1.0))
            bound = params.get("bound", "auto")
            every = error_bounds_for("complementary-pairs", 0.5)
            wanted = covered if bound not in every else (bound,)
            if not covered or not set(wanted) <= set(covered):
                needs = ("'complementary-pairs'" if bound in every and bound != "mb" else
                         "'complementary-pairs', or 'subsample' with sample_fraction=0.5")
                raise param_error(
                    "resampling", func, f"{needs}, for operator {name!r}"
                    + (f" with bound={bound!r}" if bound != "auto" else "")
                    + " (its error bound holds only for those: Meinshausen and Buehlmann "
                    "2010, Shah and Samworth 2013)", f"{self.resampling!r} with "
                    f"sample_fraction={float(self.sample_fraction or 1.0):g}", show=False,
                    hint=f"Or leave {name!r} out of the operators.")
        if "artificial-features" in requires and self.artificial_features is None:
            raise param_error("artificial_features", func, "'permutation' or 'knockoff' "
                              f"for operator {name!r} (it compares the real features "
                              "with artificial ones)", None,
                              hint=f"Or leave {name!r} out of the operators.")

    # ------------------------------------------------------------------ views
    @property
    def outcome_kind(self) -> OutcomeKind:
        """What :attr:`outcome` names: its :class:`~modelmine.outcomes.OutcomeKind` (the
        target's check, the default selector, the evaluation's models, ...)."""
        return outcome_kind(self.outcome)

    @property
    def heterogeneous(self) -> bool:
        """Whether the selector is a list (a heterogeneous ensemble, Salman 2022)."""
        return isinstance(self.selector, tuple)

    @property
    def selectors(self) -> tuple[Any, ...]:
        """The selectors, built (:class:`modelmine.selectors.Selector`), scaled as asked."""
        return self._built

    @property
    def operator_kinds(self) -> dict[str, str]:
        """Each operator's kind ("single" or "multi"), in the order of ``operators``."""
        return dict(self._kinds)

    @property
    def selector_name(self) -> str | None:
        """The selector's registered name, or None for a custom object (which a resumed
        run must be given again)."""
        return self.selector if isinstance(self.selector, str) else None

    def __getattr__(self, name: str) -> Any:
        # A setting declared in SETTINGS without a field of its own (see _takes_declared).
        extra = self.__dict__.get("_extra", {})
        if name in extra:
            return extra[name]
        raise AttributeError(f"'RunSpec' object has no attribute {name!r}")

    def replace(self, func: str = "RunSpec", **changes: Any) -> RunSpec:
        """A copy with some settings changed, validated (``func`` names the caller).

        The way every workflow that refits derives its settings from a run's
        (``run.spec.replace(resampling="complementary-pairs", ...)``)."""
        declared = {f.name for f in fields(self)} | {s.name for s in SETTINGS}
        unknown = sorted(set(changes) - declared)
        if unknown:
            raise param_error(unknown[0], "RunSpec.replace", "a setting of RunSpec",
                              "an unknown setting", exc=TypeError, show=False)
        extra = {k: v for k, v in self._extra.items()
                 if k not in changes}
        return replace(self, func=func, recorded_kinds=self._recorded_kinds, **extra,
                       **changes)

    def for_data(self, p: int, func: str = "RunSpec") -> RunSpec:
        """The settings for data of ``p`` features: each default that the data decide
        (:class:`DataDefault`, today m: 20, or round(p / 3) below 60 features) replaced by
        its value for p. Every door calls it once it knows p
        (:func:`modelmine.base_models.check_run_data`), so the defaults are equal at every
        door; a stored spec holds the resolved value."""
        m = self.n_features
        if isinstance(m, DataDefault):
            return self.replace(func, n_features=int(m.rule(int(p))))
        return self

    def settings(self) -> dict[str, Any]:
        """Every setting by name (those of :data:`SETTINGS`), as the record holds them."""
        return {one.name: getattr(self, one.name) for one in SETTINGS}

    # ------------------------------------------------------------------ records
    def _stored_value(self, name: str) -> Any:
        value = getattr(self, name)
        if name == "selector":
            return (self.selector_name if not self.heterogeneous else
                    "+".join(str(s) for s in self.selector))
        if name == "random_state":
            return str(value)
        if name in ("operators", "covariates"):
            return list(value)
        if name == "operator_params":
            return {k: dict(v) for k, v in value.items()}
        if isinstance(value, Mapping):
            return dict(value)
        return value

    def to_settings(self) -> dict[str, Any]:
        """The record ``run.json`` and ``checkpoint.json`` store (format version 2), keyed
        as :data:`SETTINGS` says (a setting at its default that is not ``always_stored`` is
        left out, as files written before it existed).

        Names of custom selectors are not stored (None): a resumed run is given the
        object again.
        """
        settings: dict[str, Any] = {}
        for one in SETTINGS:
            value = getattr(self, one.name)
            if not one.always_stored and _unchanged(value, one.default):
                continue
            *path, key = one.stored.split(".")
            node = settings
            for part in path:
                node = node.setdefault(part, {})
            node[key] = self._stored_value(one.name)
        return settings

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], *, selector: Any = None,
                      record: Mapping[str, Any] | None = None,
                      kinds: Mapping[str, str] | None = None,
                      func: str = "resume") -> RunSpec:
        """The specification of a stored run (``run.json``, ``checkpoint.json``, a
        BaseModels file's settings).

        Parameters
        ----------
        settings : mapping
            What :meth:`to_settings` wrote (a key absent: the setting's default).
        selector : optional
            The custom selector of a run whose selector is not registered (recorded as
            None).
        record : mapping, optional
            The stored description of the selector (``BaseModels.selector``): a selector
            this specification cannot rebuild (a custom object not given again, a plugin
            not installed) is then held as a
            :class:`~modelmine.selectors.RecordedSelector` of it, which describes itself
            as stored and refuses to be fitted; without it, such a selector is refused.
        kinds : mapping, optional
            The kind of each stored operator ("single" or "multi"): an operator not
            registered here (a plugin not installed) is then kept with it.
        func : str, default="resume"
        """
        given: dict[str, Any] = {}
        for one in SETTINGS:
            node: Any = settings
            for part in one.stored.split("."):
                node = node.get(part, _ABSENT) if isinstance(node, Mapping) else _ABSENT
            if node is not _ABSENT:
                given[one.name] = node
        if selector is not None:
            given["selector"] = selector
        elif record is not None and not _rebuildable(given.get("selector")):
            from .selectors import RecordedSelector

            given["selector"] = RecordedSelector(record)
            given["selector_params"] = None
        if given.get("selector") is None:
            raise param_error("selector", func, "the custom selector the run used", None)
        name, params = given["selector"], given.get("selector_params")
        if isinstance(name, str) and "+" in name:  # a heterogeneous ensemble, as stored
            given["selector"] = name.split("+")
            if isinstance(params, Mapping) and "selectors" in params:  # run.json's records
                params = {str(r["name"]): dict(r.get("params") or {})
                          for r in params["selectors"]}
            given["selector_params"] = _params_from_record(given["selector"], params)
        elif isinstance(name, str):
            given["selector_params"] = _params_from_record([name], {name: params})[name]
        if given.get("scale") is None:
            given.pop("scale", None)  # runs from before it: None stands for "none"
        seed = given.get("random_state")
        given["random_state"] = None if seed is None else int(seed)
        for name in ("operators",):
            if name in given:
                given[name] = list(given[name])
        return cls(**given, func=func, recorded_kinds=kinds)


def _rebuildable(name: Any) -> bool:
    """Whether a stored selector name builds here: registered (each of an ensemble's)."""
    from .selectors import default_registry

    return isinstance(name, str) and all(n in default_registry() for n in name.split("+"))


# ------------------------------------------------------------ the table's readers
#: What is derived from :data:`SETTINGS` and made once (signatures, docstrings): each
#: function here makes it again, from the table as it is now (:func:`on_table_change`).
_READERS: list[Any] = []


def on_table_change(refresh: Any) -> Any:
    """Register ``refresh`` (no argument) to remake what it derives from
    :data:`SETTINGS`, call it now, and again whenever the module's ``SETTINGS`` is set
    (a test that declares a made-up setting sets it; docs/DEVELOPING.md, "Add a
    setting"). Returns ``refresh`` (a decorator)."""
    _READERS.append(refresh)
    refresh()
    return refresh


class _TableModule(types.ModuleType):
    """This module, whose ``SETTINGS`` remakes the derived signatures and docstrings when
    it is set from outside (module code assigns its globals directly)."""

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "SETTINGS":
            for refresh in list(_READERS):
                refresh()


sys.modules[__name__].__class__ = _TableModule


_RUNSPEC_DOC = RunSpec.__doc__


@on_table_change
def _describe_runspec() -> None:
    """RunSpec's signature (every setting, keyword-only, then ``func``) and docstring
    entries, from the table."""
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)]
    params += [inspect.Parameter(one.name, inspect.Parameter.KEYWORD_ONLY,
                                 default=one.default) for one in SETTINGS]
    params.append(inspect.Parameter("func", inspect.Parameter.KEYWORD_ONLY,
                                    default="RunSpec"))
    RunSpec.__init__.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    RunSpec.__doc__ = fill_settings(_RUNSPEC_DOC, [one.name for one in SETTINGS])
