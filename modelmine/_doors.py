"""The doors: every public entrance that takes the run's settings, derived from the table.

A door is a public function (or the estimator) whose keywords include the settings of a
run, declared once in :data:`modelmine.spec.SETTINGS`: :func:`modelmine.run`,
:func:`modelmine.bootstrap`, :func:`modelmine.evaluate`, the studies of
:mod:`modelmine.evaluation`, :func:`modelmine.singlecell.marker_panels` and
:class:`modelmine.ModelMiningSelector`. Its body is written with its own parameters only
and receives one validated :class:`~modelmine.RunSpec`; :func:`door` derives the rest from
the table, as scikit-learn's ``validate_params`` derives its checks and messages from
``_parameter_constraints`` (``sklearn/utils/_param_validation.py``):

- the signature (``inspect.signature`` shows every setting the door takes, with its
  default: the door's own, else its protocol's :class:`~modelmine.spec.Preset`, else the
  table's) and the numpydoc entries of the docstring, at the body's ``**settings`` entry;
- the call: the settings keywords become one ``RunSpec`` (validated once, messages naming
  the door), or ``spec=`` is taken as it is (it was validated when made), or, for a study,
  ``run=`` gives the run's spec. A door called inside another is handed the spec: nothing
  is checked twice. Settings keywords beside ``spec=`` / ``run=`` are refused (which would
  win?).

A door takes the settings of its ``stage`` ("models": those that shape base models;
"mining": every one) except those it names in ``without``, and a body parameter of a
setting's name takes it as the body's own (``mm.run``'s ``covariates`` are values or
names). A new row of the table reaches every door that takes its stage, with no other edit
(``tests/test_settings.py`` adds one in a fixture); when the module's ``SETTINGS`` is set,
the signatures and docstrings are made again (:func:`modelmine.spec.on_table_change`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from . import spec as _spec
from .spec import Preset, RunSpec, fill_settings, on_table_change, setting
from .validation import param_error

__all__ = ["DOORS", "Door", "door", "door_of", "estimator_door"]

R = TypeVar("R")

_RUN_ENTRY = """run : MiningRun, optional
    A run to study: its settings (``run.spec``), selector and operators, instead of the
    settings keywords (which must then be left out); the study adds only its own
    parameters."""

_SPEC_ENTRY = """spec : RunSpec, optional
    All the settings at once (:class:`modelmine.RunSpec`), instead of their keywords
    (which must then be left out): the same as giving each of them."""


#: The settings' stages each door stage takes: a door fitting base models takes those
#: that shape them; one that mines them, the mining settings too; a run, also those of
#: the data's columns (the gene map).
_STAGES = {"models": ("models",), "mining": ("models", "mining"),
           "run": ("models", "mining", "data")}

#: Every door by its name, as each registers itself when its module is imported (the
#: command line finds its doors here, not through the functions a test may replace).
DOORS: dict[str, Door] = {}


@dataclass(frozen=True, eq=False)
class Door:
    """One door: which settings it takes and their defaults, derived from the table when
    asked (so that a row added to :data:`modelmine.spec.SETTINGS` is taken at once).

    Attributes
    ----------
    name : str
        The public name the messages give (``"run"``, ``"ModelMiningSelector"``).
    body : callable
        The door's code: its own parameters, and ``spec`` (and ``run`` for a study;
        ``record``, when it declares it: the run's spec when ``run=`` was given, whose
        selector and operators a study of the run takes; else None).
    stage : {"models", "mining", "run"}
        The settings it takes: those that shape base models; those and the mining ones;
        or every one (a run: the data's columns too).
    without : frozenset of str
        Settings of its stage it does not take (each with its reason, at the door).
    preset : Preset or None
        The published protocol whose values are its defaults (a study).
    defaults : mapping
        Defaults the door states on purpose, over the preset's and the table's.
    notes : mapping
        A sentence per setting, added to the docstring's entry at this door.
    positional : tuple of str
        Settings that may be given by position, after the body's positional parameters
        (``bootstrap(X, y, "anova")``).
    study : bool
        Whether it takes ``run=`` (a :class:`~modelmine.MiningRun` whose spec it reuses).
    fixed : mapping
        Values of settings it does not take, given to every spec it makes
        (``bootstrap``: ``operators=()``).
    """

    name: str
    body: Callable[..., Any]
    stage: str = "run"
    without: frozenset[str] = frozenset()
    preset: Preset | None = None
    defaults: Mapping[str, Any] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)
    positional: tuple[str, ...] = ()
    study: bool = False
    fixed: Mapping[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ the table, read now
    def own(self) -> list[inspect.Parameter]:
        """The body's own parameters (without ``self``, ``spec`` and ``run``)."""
        return [p for p in inspect.signature(self.body).parameters.values()
                if p.name not in ("self", "spec", "run", "record")]

    def settings(self) -> list[str]:
        """The settings the door takes, in the order of its signature (its positional
        ones first, then the table's order)."""
        own = {p.name for p in self.own()}
        stages = _STAGES[self.stage]
        taken = [one.name for one in _spec.SETTINGS
                 if one.stage in stages and one.name not in self.without
                 and one.name not in own]
        first = [n for n in self.positional if n in taken]
        return first + [n for n in taken if n not in first]

    def default(self, name: str) -> Any:
        """The default of a setting at this door: its own, else the preset's, else the
        table's."""
        if name in self.defaults:
            return self.defaults[name]
        if self.preset is not None and name in self.preset.values:
            return self.preset.values[name]
        return setting(name).default

    def signature(self) -> inspect.Signature:
        """The public signature: the body's positional parameters, the positional
        settings, the settings as keywords, the body's keywords, ``run`` (a study) and
        ``spec``."""
        own = self.own()
        head = [p for p in own if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        tail = [p for p in own if p.kind == p.KEYWORD_ONLY]
        var = [p for p in own if p.kind == p.VAR_KEYWORD]  # old names, still accepted
        names = self.settings()
        params = ([inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
                  if "self" in inspect.signature(self.body).parameters else [])
        params += head
        params += [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                     default=self.default(n))
                   for n in names if n in self.positional]
        params += [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY,
                                     default=self.default(n))
                   for n in names if n not in self.positional]
        params += tail
        if self.study:
            params.append(inspect.Parameter("run", inspect.Parameter.KEYWORD_ONLY,
                                            default=None))
        if "spec" in inspect.signature(self.body).parameters:
            params.append(inspect.Parameter("spec", inspect.Parameter.KEYWORD_ONLY,
                                            default=None))
        params += var
        ret = inspect.signature(self.body).return_annotation
        return inspect.Signature(params, return_annotation=ret)

    def doc(self) -> str | None:
        """The body's docstring with the settings' entries at ``**settings`` and the
        entries of ``run`` and ``spec`` at the end of its Parameters."""
        after = ([_RUN_ENTRY] if self.study else [])
        if "spec" in inspect.signature(self.body).parameters:
            after.append(_SPEC_ENTRY)
        names = self.settings()
        return fill_settings(self.body.__doc__, names, {n: self.default(n) for n in names},
                             notes=self.notes, after=after)

    # ------------------------------------------------------------------ a call
    def spec(self, given: Mapping[str, Any], spec: Any = None, run: Any = None) -> RunSpec:
        """The call's :class:`~modelmine.RunSpec`: ``spec`` as it is, the ``run``'s, or one
        made from the settings ``given`` and the door's defaults (validated here, once)."""
        if run is not None:
            if spec is not None:
                raise param_error("spec", self.name, "given alone, without run= (whose spec "
                                  "the study takes)", "spec and run", exc=TypeError,
                                  show=False)
            spec = getattr(run, "spec", None)
            if not isinstance(spec, RunSpec):
                raise param_error("run", self.name, "a modelmine.MiningRun",
                                  type(run).__name__, exc=TypeError, show=False)
            which = "run"
        else:
            which = "spec"
        if spec is not None:
            if not isinstance(spec, RunSpec):
                raise param_error("spec", self.name, "a modelmine.RunSpec",
                                  type(spec).__name__, exc=TypeError, show=False)
            if given:
                raise param_error(which, self.name, "given alone, without the settings it "
                                  "holds", f"{which} and {', '.join(given)}", exc=TypeError,
                                  show=False)
            return spec
        values = {n: self.default(n) for n in self.settings()}
        values.update(given)  # the estimator also gives settings it states itself
        fixed = {k: v for k, v in self.fixed.items() if k not in values}
        if self.preset is not None:  # the preset's values of settings the door does not take
            fixed.update({k: v for k, v in self.preset.values.items()
                          if k not in values and k not in fixed})
        return RunSpec(**fixed, **values, func=self.name)

    def call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        try:
            bound = self.signature().bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{self.name}() {exc}") from None
        given = dict(bound.arguments)
        spec, run = given.pop("spec", None), given.pop("run", None)
        for p in self.own():
            if p.kind == p.VAR_KEYWORD:  # the body's **old_names, as they came
                given.update(given.pop(p.name, {}))
        names = set(self.settings())
        settings = {k: given.pop(k) for k in list(given) if k in names}
        made = self.spec(settings, spec, run)
        extra: dict[str, Any] = {"run": run} if self.study else {}
        if "record" in inspect.signature(self.body).parameters:
            # the run's spec: a study of a run takes its selector and operators too
            extra["record"] = made if run is not None else None
        return self.body(**given, spec=made, **extra)


def door(name: str | None = None, *, stage: str = "run", without: Iterable[str] = (),
         preset: Preset | None = None, defaults: Mapping[str, Any] | None = None,
         notes: Mapping[str, str] | None = None, positional: Iterable[str] = (),
         study: bool = False, fixed: Mapping[str, Any] | None = None
         ) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Make a function a door (see the module's docstring and :class:`Door`).

    The decorated function (the body) declares its own parameters and a keyword-only
    ``spec`` (and ``run`` for a study); its docstring has a Parameters entry
    ``**settings`` where the settings' entries go. The returned function has the door's
    signature and docstring, remade from the table whenever it changes (typed as taking
    any keywords: what it takes is the table's, read when it is called).
    """

    def decorate(body: Callable[..., R]) -> Callable[..., R]:
        one = Door(name or body.__name__, body, stage=stage, without=frozenset(without),
                   preset=preset, defaults=dict(defaults or {}), notes=dict(notes or {}),
                   positional=tuple(positional), study=study, fixed=dict(fixed or {}))

        @functools.wraps(body)
        def wrapper(*args: Any, **kwargs: Any) -> R:
            return one.call(args, kwargs)

        wrapper.__door__ = one  # type: ignore[attr-defined]
        DOORS[one.name] = one

        def describe() -> None:
            wrapper.__signature__ = one.signature()  # type: ignore[attr-defined]
            wrapper.__doc__ = one.doc()

        on_table_change(describe)
        return wrapper

    return decorate


C = TypeVar("C", bound=type)


def estimator_door(name: str, *, without: Iterable[str] = (),
                   defaults: Mapping[str, Any] | None = None,
                   notes: Mapping[str, str] | None = None) -> Callable[[C], C]:
    """Make a scikit-learn estimator class a door: its ``__init__`` (which stores its own
    parameters) also takes and stores every setting it takes, as plain attributes, and
    ``inspect.signature`` shows them, so that ``get_params``, ``set_params`` and
    ``clone`` know them; the class's docstring gets their entries at ``**settings``.
    :meth:`Door.spec` makes the fit's spec from the attributes."""

    def decorate(cls: C) -> C:
        own_init = cls.__init__  # type: ignore[misc]
        one = Door(name, own_init, stage="mining", without=frozenset(without),
                   defaults=dict(defaults or {}), notes=dict(notes or {}))
        class_doc = cls.__doc__

        @functools.wraps(own_init)
        def __init__(self: Any, **kwargs: Any) -> None:
            names = one.settings()
            unknown = sorted(set(kwargs) - set(names) - {p.name for p in one.own()})
            if unknown:
                raise TypeError(f"{name}.__init__() got an unexpected keyword argument "
                                f"{unknown[0]!r}")
            for n in names:  # scikit-learn: __init__ stores the parameters as given
                setattr(self, n, kwargs.pop(n, one.default(n)))
            own_init(self, **kwargs)

        cls.__init__ = __init__  # type: ignore[misc]
        cls.__door__ = one  # type: ignore[attr-defined]
        DOORS[one.name] = one

        def describe() -> None:
            __init__.__signature__ = one.signature()  # type: ignore[attr-defined]
            cls.__doc__ = fill_settings(class_doc, one.settings(),
                                        {n: one.default(n) for n in one.settings()},
                                        notes=one.notes)

        on_table_change(describe)
        return cls

    return decorate


def door_of(obj: Any) -> Door:
    """The :class:`Door` of a door function or estimator class, or of its name (the door
    must have been imported)."""
    if isinstance(obj, str):
        return DOORS[obj]
    return obj.__door__
