"""The ``modelmine`` command: argument parsing, exit codes and error reporting.

Exit codes: 0 success; 2 bad usage or bad input (a one-line message on stderr, no
traceback unless ``--debug``); 1 an unexpected internal error or a feature not available
in this installation; 130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
import textwrap
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

# Nothing of the scientific stack at import: `modelmine --help` and `--version` answer
# from the top-level parser alone (issue 52); a subcommand imports what it needs.
from ..constants import (
    DEFAULT_MIN_SUPPORT,
    DEFAULT_N_BOOTSTRAPS,
    DEFAULT_N_FEATURES,
    DEFAULT_N_SIGNATURES,
)
from ._options import setting_dest

__all__ = ["build_parser", "main"]

_MAIN_EPILOG = """\
worked examples:
  modelmine run embedded:colon --out colon-run          the quick start on the embedded data
  modelmine run data.csv --target diagnosis -b 150 -m 20 --operator closedApr --out run1
  modelmine operators                                   list the operators and their origin
  modelmine lattice run1 --min-support 0.3 --format svg
  modelmine report run1                                 rebuild run1/report.html
  modelmine datasets export leukemia leukemia.csv

Each subcommand has its own --help with more examples (it lists the selectors and operators
installed, plugins included, so it loads them: a few seconds). Global options (--quiet,
--verbose, --debug, --seed, --jobs) go before or after the subcommand.
"""

_RUN_EPILOG = """\
DATA is a .csv, .tsv, .parquet file (name the label column with --target, or give the
labels in a separate file with --labels), an AnnData .h5ad file (--target obs:COLUMN), a
MATLAB .mat file with X and Y keys (dense or sparse X, as the scikit-feature datasets), or
embedded:NAME for a dataset shipped with modelmine (see `modelmine datasets`).

DIR receives: base_models.npz, frequencies.csv, signatures.json, signatures/OPERATOR.csv,
signatures.gmt (gene sets for GSEA and enrichment tools), expression.csv.gz (the signature
genes, for the report), itemsets.csv, diagnostics.csv/.json, run.json and report.html; with
--annotate also annotated.h5ad, with --evaluate also evaluation.csv. It is written atomically:
nothing appears under DIR unless the run succeeds; the extra outputs (--annotate, --evaluate,
--pfer/--fdr, --null, --figures) are added once DIR is complete, and one that fails leaves
the run there (`modelmine run --resume DIR --evaluate` adds it later).

worked examples:
  modelmine run embedded:colon --out colon-run
  modelmine run expr.csv --target class --selector relieff -b 150 -m 20 --out run1
  modelmine run ALLAML.mat --operator closedApr --operator allMed -k 10 --seed 7 --out leuk
  modelmine run glioma.h5ad --target obs:subtype --layer log1p --annotate --out glioma
  modelmine run expr.tsv --labels samples.tsv --labels-column diagnosis --scale standard \
      --resampling subsample --stratify -m 50 --signature-size 20 --out geo
  modelmine run genes_by_samples.csv --transpose --labels labels.csv --out t
  modelmine run expr.csv -t class --selector-param C=0.1 --evaluate --out run3
  modelmine run counts.parquet --target label --selector ig --jobs 2 --quiet --out run2
  modelmine run --resume run2                 continue run2 after a crash or a kill
  modelmine run big.parquet -t label -b 5000 --scheduler tcp://host:8786 --out big
  modelmine run embedded:colon -s anova -b 100 --pfer 1 --fdr 0.2 --null 100 --out colon-ec

While it runs, the finished bootstraps are checkpointed in .DIR.partial/ beside DIR (removed
once DIR is complete): `--resume DIR` continues from there, bit-identical to an
uninterrupted run.

Error control (docs/error_control.md): --pfer checks the run's genes with stabilitySelection
(that bound on the expected number of false selections), --fdr with stabl (decoy features,
FDP+), both fitted beside the run on complementary pairs: the run itself is as asked.
--null N reruns the selector on N label permutations of the run's own resamples: null.csv,
and each gene's p- and q-value in the tables and the report.
"""

_OPERATORS_EPILOG = """\
worked examples:
  modelmine operators
  modelmine operators --kind multi
  modelmine operators --format csv > operators.csv
"""

_MARKERS_EPILOG = """\
Stable marker panels for every cluster of a single-cell .h5ad (docs/singlecell.md): each
cluster against each other cluster (or the rest) on capped resamples, the panels' genes
with their selection frequency, log fold change, AUROC and Wilcoxon q-values, and the
genes selected together.

outputs in DIR (the tables are written first): markers.csv, combinations.csv,
panels.gmt, annotations.h5ad, report.html (the panels, a dot plot, each cluster's genes,
the combinations). annotations.h5ad holds the cells' obs, the reported genes (var, one
panel column per cluster) with their values as read, and uns['modelmine_markers'] in
scanpy's rank_genes_groups layout, so that it plots as it is:
  adata = sc.read_h5ad('DIR/annotations.h5ad')
  sc.pl.rank_genes_groups_dotplot(adata, key='modelmine_markers')
DIR is locked while it is written; an existing DIR is replaced only with --force.

worked examples:
  modelmine markers cells.h5ad --groupby obs:leiden --out leiden-markers
  modelmine markers cells.h5ad --groupby obs:leiden --layer counts --groups obs:donor \\
      -b 50 --n-features 8 --max-per-class 300 --out leiden-markers
  modelmine markers cells.h5ad --groupby obs:leiden --reference rest --out leiden-rest
      # each cluster against the rest of the cells, as scanpy's rank_genes_groups
  modelmine markers pbmc68k_reduced.h5ad --groupby louvain --use-raw --out pbmc
      # .X scaled, the log-normalised values in .raw (scanpy's layout)
"""

_LATTICE_EPILOG = """\
The source is a run directory (its base_models.npz is reused) or a data file (base models
are computed first, with --target, --selector, -b, -m as for `modelmine run`).

worked examples:
  modelmine lattice run1                                  run1/lattice.graphml
  modelmine lattice run1 --format html                    run1/lattice.html, the explorer
  modelmine lattice run1 --min-support 0.3 --format png   a drawing of the lattice
  modelmine lattice embedded:colon -b 50 --format gexf --out colon.gexf
"""

_EVALUATE_EPILOG = """\
The KDD 2012 protocol (section 3): stratified folds; in each, the base models of every
selector on the training part only, every operator, every classifier tested on the test
part. DIR receives folds.csv (per selector x operator x classifier x fold), points.csv
and table2.csv (McNemar / paired t-test points for error and stability), stability.csv,
table4.csv (agreement, error and similarity of the alternatives), robustness.csv (Saeys
et al. 2008) and evaluation.csv (for `modelmine report RUN --evaluation`).

worked examples:
  modelmine evaluate embedded:colon --selector svm-rfe --operator closedApr \\
      --operator avgRank --operator allMed --folds 10 --out colon-eval
  modelmine evaluate ALLAML.mat -s ig -s relieff -b 150 -m 20 -k 10 --jobs 2 \\
      --cache leuk-cache --out leuk-eval
  modelmine report colon-run --evaluation colon-eval/evaluation.csv
"""

_REPORT_EPILOG = """\
worked examples:
  modelmine report run1                     rewrite run1/report.html
  modelmine report run1 --out share.html    write it elsewhere, to send to a collaborator
"""

_DATASETS_EPILOG = """\
worked examples:
  modelmine datasets                                 list the embedded datasets
  modelmine datasets export colon colon.csv          features + a 'class' column
  modelmine datasets export basehock basehock.mat    sparse data keeps its sparsity
"""


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line and exit with code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32, width=92)


def _add_common(parser: argparse.ArgumentParser, *, top: bool, seed: int | None = None) -> None:
    """--quiet, --verbose, --debug, --seed, --jobs, accepted before and after the
    subcommand (``seed``: the default of --random-state, on the top-level parser)."""
    default: dict[str, Any] = {} if top else {"default": argparse.SUPPRESS}
    g = parser.add_argument_group("global options")
    g.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bars, no phase lines, no summary table (warnings and "
                   "errors still go to stderr): mm.settings.verbosity 'warning'",
                   **({"default": False} if top else default))
    g.add_argument("-v", "--verbose", action="store_true",
                   help="also a line as each operator starts: "
                   "mm.settings.verbosity 'debug' (default: 'info', a line as each phase "
                   "starts)", **({"default": False} if top else default))
    g.add_argument("--debug", action="store_true",
                   help="show the full traceback on errors",
                   **({"default": False} if top else default))
    g.add_argument("--random-state", "--seed", dest="random_state", type=_nonneg_int,
                   metavar="INT",
                   help="seed of every random draw (default: 0, so the same command gives "
                   "the same result; recorded in the output; --seed is the same option)",
                   **({"default": seed} if top else default))
    g.add_argument("--n-jobs", "--jobs", dest="n_jobs", type=_jobs, metavar="N",
                   help="parallel workers for the bootstrap (-1 = all cores; results do "
                   "not depend on it)", **({"default": None} if top else default))
    g.add_argument("--executor", "--scheduler", dest="executor", metavar="ADDRESS",
                   help="run the bootstraps on a Dask cluster, e.g. tcp://host:8786 "
                   "(see docs/scaling.md; results do not depend on it)",
                   **({"default": None} if top else default))


def _int_arg(expected: str, ok: Callable[[int], bool]) -> Callable[[str], int]:
    """An argparse type: an integer that satisfies ``ok``, else "expected <expected>"."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not ok(value):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value

    return parse


_nonneg_int = _int_arg("a non-negative integer", lambda v: v >= 0)
_pos_int = _int_arg("a positive integer", lambda v: v >= 1)
_jobs = _int_arg("a non-zero integer (-1 = all cores)", lambda v: v != 0)
# Two folds give one pair of signatures: too few for the paired tests of the protocol.
_folds = _int_arg("an integer >= 3 (the paired tests need two or more pairs of folds)",
                  lambda v: v >= 3)


def _real_arg(expected: str, ok: Callable[[float], bool]) -> Callable[[str], float]:
    """An argparse type: a real number that satisfies ``ok``, else "expected <expected>"."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not ok(value):  # NaN fails every comparison
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value

    return parse


_pos_real = _real_arg("a positive number", lambda v: 0.0 < v < float("inf"))
_open_fraction = _real_arg("a number in (0, 1)", lambda v: 0.0 < v < 1.0)
_permutations = _int_arg("an integer >= 10", lambda v: v >= 10)


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1], got {text!r}"
                                         ) from None
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1], got {text!r}")
    return value


def _classification_selectors() -> str:
    """The selectors `modelmine markers` can use (classification: each cluster against
    the rest), for its help."""
    from ..outcomes import DEFAULT_OUTCOME
    from ..selectors import selectors_for

    return ", ".join(selectors_for(DEFAULT_OUTCOME))


def _registered(what: str) -> str:
    """The names of a registry, for the help (read when the parser is built, so plugins'
    selectors and operators are listed too)."""
    if what == "selectors":
        from ..selectors import available_selectors as listing
    elif what == "operators":
        from ..operators import available_operators as listing
    else:
        from ..evaluation import available_classifiers as listing
    table = listing()
    names = table["name"] if "name" in table.columns else table.index
    return ", ".join(str(n) for n in names)


def _outcome_selectors() -> str:
    """The default selector of each outcome, for the help (from the outcome kinds'
    ``default_selector``, read when the parser is built, so that no help restates it)."""
    from ..outcomes import DEFAULT_OUTCOME, default_registry, outcome_kind

    first = outcome_kind(DEFAULT_OUTCOME)
    others = [outcome_kind(name) for name in default_registry().names()
              if name != DEFAULT_OUTCOME]
    return f"{first.default_selector}; " + ", ".join(
        f"{kind.default_selector} with --outcome {kind.name}" for kind in others)


def _add_model_options(p: argparse.ArgumentParser, *, several_selectors: bool = False) -> None:
    p.add_argument("--target", "-t", metavar="COLUMN",
                   help="label column of a table, obs:COLUMN for an .h5ad file (the Y key of "
                   "a .mat file; ignored for embedded data)")
    selectors = _registered("selectors")
    if several_selectors:
        p.add_argument("--selector", "-s", action="append", metavar="NAME",
                       help=f"feature selector, repeatable: {selectors} (default: ig, "
                       "relieff, svm-rfe and svm, as KDD 2012)")
    else:
        p.add_argument("--selector", "-s", default=None,
                       help=f"feature selector of the base models: {selectors} (default: "
                       f"{_outcome_selectors()})")
    add_setting_option(p, "n_bootstraps", help="number of bootstrap samples / base models "
                       f"(default: {DEFAULT_N_BOOTSTRAPS})")
    add_setting_option(p, "n_features", help="m, features per base model and per signature "
                       f"(default: {DEFAULT_N_FEATURES})")


def _add_input_options(p: argparse.ArgumentParser) -> None:
    """How to read DATA: labels in another file, sample IDs, orientation, AnnData layer."""
    g = p.add_argument_group("input (see docs/cli.md, 'Data as you have it')")
    g.add_argument("--labels", metavar="FILE", default=None,
                   help="labels in a separate file (sample IDs in its first column), joined "
                   "to DATA by sample ID; samples without a label are left out, with a note")
    g.add_argument("--labels-column", metavar="NAME", default=None,
                   help="the label column of --labels (default: its only other column)")
    g.add_argument("--index-col", metavar="NAME", default=None,
                   help="the sample-ID column of a table (with --transpose: the feature-ID "
                   "column); default: a first column that is text and unique, with a note")
    g.add_argument("--transpose", action="store_true",
                   help="DATA is genes by samples: one row per feature, one column per sample")
    g.add_argument("--drop", metavar="COL", action="append", default=None,
                   help="leave this column of a table out (metadata such as sex or batch); "
                   "repeatable")
    g.add_argument("--keep-columns", metavar="PATTERN", action="append", default=None,
                   help="keep only the feature columns of a table matching this glob "
                   "pattern (e.g. 'ENSG*'); repeatable; the label, ID, groups and weights "
                   "columns are kept")
    g.add_argument("--groups", metavar="COL", default=None,
                   help="the column naming each sample's group (patient, donor, batch; "
                   "obs:COL for .h5ad): resampling and folds keep groups whole "
                   "(docs/groups.md)")
    g.add_argument("--covariate", dest="covariates", metavar="COL", action="append",
                   default=None,
                   help="a clinical covariate column (age, sex, stage, batch; text is "
                   "one-hot encoded), repeatable: taken out of the features and adjusted "
                   "for in every selector's fits (a selector that cannot take it is "
                   "named), the markers' effects, --null and --evaluate "
                   "(docs/outcomes.md)")
    g.add_argument("--sample-weight", dest="weights", metavar="COL", default=None,
                   help="the column of each sample's weight (obs:COL for .h5ad), given to "
                   "the selector (or drawing the resamples with --weighted-resampling)")
    add_old_spelling(g, ["--weights"], "--sample-weight", dest="weights", metavar="COL")
    add_setting_option(
        g, "outcome", help="what --target holds: class labels (default), a continuous value "
                   "(regression), or survival times with --time and --event "
                   "(docs/outcomes.md)")
    g.add_argument("--time", metavar="COL", default=None,
                   help="with --outcome survival: the column of the times (obs:COL for "
                   ".h5ad), instead of --target")
    g.add_argument("--event", metavar="COL", default=None,
                   help="with --outcome survival: the column of the event indicator, 0/1 "
                   "or true/false (1: the event happened, 0: censored)")
    g.add_argument("--modality", dest="modalities", metavar="NAME=FILE", action="append",
                   default=None,
                   help="multi-omic data as one table per omic, repeatable and without "
                   "DATA: each FILE (a table or .h5ad, rows = samples) read as DATA would be, "
                   "its features named NAME:FEATURE, joined by sample ID, the labels from "
                   "--labels; with an .h5mu DATA, --modality NAME chooses its modalities "
                   "(docs/biology.md)")
    g.add_argument("--intersect", action="store_true",
                   help="multi-omic data whose modalities hold different samples: keep the "
                   "samples common to all (default: an error naming the counts)")
    g.add_argument("--layer", metavar="NAME", default=None,
                   help="for .h5ad (and every modality of an .h5mu): the layer to read "
                   "instead of .X")
    g.add_argument("--backed", action="store_true",
                   help="for .h5ad: open the file in backed mode, reading only the chosen "
                   "matrix into memory (not the other layers, obsm, uns)")
    g.add_argument("--use-raw", action="store_true",
                   help="for .h5ad: read .raw (its matrix and genes) instead of .X, as "
                   "scanpy's use_raw=True: where scanpy's files keep the log-normalised "
                   "values when .X is scaled (a scaled matrix gets a warning)")


def _selector_param(text: str) -> tuple[str, Any]:
    """An argparse type: KEY=VALUE, the value read as JSON (numbers, true, null) or text."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    import json

    try:
        value = json.loads(raw)
    except ValueError:
        value = {"True": True, "False": False, "None": None}.get(raw, raw)
    return key.strip(), value


#: How the command line gives the settings that are not one plain value (their ``dest``
#: and argparse action); every other option of a setting is built from its declaration.
_SETTING_ACTIONS: dict[str, dict[str, Any]] = {
    "operators": {"dest": setting_dest("operators"), "action": "append", "default": None},
    "selector_params": {"dest": setting_dest("selector_params"), "action": "append",
                        "default": [], "type": _selector_param},
}



def _setting_type(one: Any) -> Callable[[str], Any]:
    """An argparse type from a setting's constraint: its conversion, then its own check
    (so a usage error says what the setting accepts, as the API does)."""
    def parse(text: str) -> Any:
        try:
            value = one.constraint.parse(text)
            return one.constraint.check(value, one.name, "modelmine run")
        except (TypeError, ValueError):
            raise argparse.ArgumentTypeError(
                f"expected {one.constraint.describe().removesuffix(' or None')}, got {text!r}"
            ) from None

    return parse


_TABLE = object()


def add_setting_option(p: Any, name: str, *, default: Any = _TABLE, **overrides: Any) -> None:
    """The option of the run setting ``name``, from its declaration in
    ``modelmine.spec.SETTINGS`` (flags, default, help, and the constraint's conversion and
    check); ``default`` replaces the table's (a door's or a preset's, shown in the help),
    ``overrides`` replace argparse keywords (a longer help)."""
    from ..spec import Boolean, setting

    one = setting(name)
    if default is _TABLE:
        default = one.default
    kwargs: dict[str, Any] = {"dest": one.name, "default": default}
    choices = one.constraint.choices()
    if isinstance(one.constraint, Boolean):
        # store_true for a False default; --X / --no-X when the door's default is True
        kwargs["action"] = "store_true" if default is False else argparse.BooleanOptionalAction
    elif choices is not None:
        kwargs["choices"] = choices
    else:
        kwargs["type"] = _setting_type(one)
        kwargs["metavar"] = one.metavar or one.name.upper()
    kwargs.update(_SETTING_ACTIONS.get(name, {}))
    shown = (f" (default: {default})" if default not in (None, False, (), [])
             and not isinstance(default, tuple) else "")
    kwargs["help"] = one.doc + shown
    if "help" in overrides and "default" not in overrides["help"]:
        overrides = {**overrides, "help": overrides["help"] + shown}
    kwargs.update(overrides)
    current = [f for f in one.flags if f not in one.deprecated]
    p.add_argument(*current, **kwargs)
    if one.deprecated:
        new = next(f for f in current if f.startswith("--"))
        add_old_spelling(p, list(one.deprecated), new, **kwargs)


def add_door_options(p: Any, door: Any, *, helps: dict[str, str] | None = None,
                     title: str | None = None) -> None:
    """The options of every setting ``door`` takes (:class:`modelmine._doors.Door`) that
    has command-line flags and no option yet in ``p`` (a shared one, added by
    _add_model_options, _add_input_options or _add_common), with the door's defaults (a
    study's preset): a new setting with flags appears here with no other edit."""
    from ..spec import setting
    from ._options import setting_dest

    taken = {a.dest for a in p._actions}
    group = p.add_argument_group(title) if title else p
    for name in door.settings():
        one = setting(name)
        if not one.flags or setting_dest(name) in taken or name in taken:
            continue
        extra = {"help": (helps or {})[name]} if name in (helps or {}) else {}
        default = door.default(name)
        add_setting_option(group, name, **({} if default is one.default else
                                           {"default": default}), **extra)


def add_old_spelling(p: Any, flags: list[str], new: str, **kwargs: Any) -> None:
    """An old spelling of the option ``new`` (added with the same ``kwargs``), hidden from
    the help, still accepted for one release with a note on stderr naming ``new`` (issue
    38: one name per thing)."""
    from .._deprecation import renamed_option_note

    base = kwargs.pop("action", "store")
    cls = p._registry_get("action", base, base) if isinstance(base, str) else base

    class Renamed(cls):  # type: ignore[misc, valid-type]
        def __call__(self, parser: Any, namespace: Any, values: Any,
                     option_string: str | None = None) -> None:
            print(renamed_option_note(option_string or flags[0], new), file=sys.stderr)
            super().__call__(parser, namespace, values, option_string)

    kwargs.update(action=Renamed, help=argparse.SUPPRESS, default=argparse.SUPPRESS)
    p.add_argument(*flags, **kwargs)


#: The longer help of the options of `modelmine run` (and of the other subcommands that
#: take the same settings).
_HELPS = {
    "n_signatures": f"k, alternative signatures of multi-model operators (default: "
                    f"{DEFAULT_N_SIGNATURES})",
    "min_support": "minimum support of the itemsets shown in the report (default: "
                   f"{DEFAULT_MIN_SUPPORT})",
    "resampling": "with replacement (bootstrap, KDD 2012), without (subsample), or "
                  "complementary-pairs (two disjoint halves per pair, Shah and Samworth "
                  "2013; -b even)",
    "sample_fraction": "size of each resample as a fraction of the samples (default: "
                       "1.0 for bootstrap, 0.9 for subsample)",
    "per_class": "also select each class against the rest (three or more classes), on "
                 "the same resamples: per-class panels in markers.csv / markers.gmt and "
                 "the report (docs/markers.md)",
    "weighted_resampling": "with --sample-weight: draw the resamples with probability "
                           "proportional to the weights, and fit the selector "
                           "unweighted",
    "selector_params": "a parameter of the selector, repeatable, e.g. --selector-param "
                       "C=0.1 for svm-rfe (checked against the selector)",
    "scale": "scale the features inside each resample before selecting: standard "
             "(z-scores) or minmax ([0, 1])",
    "signature_size": "features per signature, when it should differ from -m (the base "
                      "models' size); default: -m",
}


def _add_run_options(p: argparse.ArgumentParser) -> None:
    """The options of the run's settings (``modelmine.spec.SETTINGS``) that no other
    subcommand shares, each built from its declaration: a new setting with ``flags``
    appears here with no other edit."""
    from .._doors import door_of

    helps = {**_HELPS, "operators": f"operator to apply, repeatable: "
             f"{_registered('operators')} (default: closedApr and allMed; `modelmine "
             "operators` describes them)"}
    add_door_options(p, door_of("run"), helps=helps, title="settings of the run (as the "
                     "parameters of mm.run; docs/DEVELOPING.md, 'Run settings')")


#: The subcommands, in the order of the help: their one line and their epilog.
_COMMANDS = {
    "run": ("bootstrap a selector, mine the base models, write signatures, diagnostics and "
            "an HTML report", _RUN_EPILOG),
    "operators": ("list the operators: kind, origin (built-in or plugin) and description",
                  _OPERATORS_EPILOG),
    "markers": ("stable marker panels for every cluster of a single-cell .h5ad",
                _MARKERS_EPILOG),
    "lattice": ("export the closed-itemset lattice of the base models", _LATTICE_EPILOG),
    "evaluate": ("cross-validated error, stability and agreement of operators (the KDD 2012 "
                 "protocol)", _EVALUATE_EPILOG),
    "report": ("rebuild the HTML report of a run directory", _REPORT_EPILOG),
    "datasets": ("list or export the embedded datasets", _DATASETS_EPILOG),
}


def _top_parser(*, seed: int | None, light: bool = False,
                ) -> tuple[_Parser, Callable[[str], argparse.ArgumentParser]]:
    """The ``modelmine`` parser with its global options and the subcommands' names, and
    the function that adds a subcommand (``light``: all of them, without their options,
    for --help and --version: the options' help lists the registries)."""
    from .._version import __version__

    parser = _Parser(
        prog="modelmine", formatter_class=_formatter, epilog=_MAIN_EPILOG,
        description="Robust feature selection by mining the models a selector produces on "
        "bootstrap samples (Woznica, Nguyen and Kalousis, KDD 2012).")
    parser.add_argument("--version", action="version", version=f"modelmine {__version__}")
    _add_common(parser, top=True, seed=seed)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(name: str) -> argparse.ArgumentParser:
        help_, epilog = _COMMANDS[name]
        p = sub.add_parser(name, help=help_, description=help_, epilog=epilog,
                           formatter_class=_formatter, add_help=not light)
        if not light:
            _add_common(p, top=False)
        return p

    if light:
        for name in _COMMANDS:
            add(name)
    return parser, add


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``modelmine`` command (for documentation and tests)."""
    from .. import (  # noqa: F401 (the doors register themselves)
        base_models,
        evaluation,
        pipeline,
        singlecell,
    )
    from .._doors import door_of
    from ..spec import DEFAULT_RANDOM_STATE, setting

    parser, add = _top_parser(seed=DEFAULT_RANDOM_STATE)

    p = add("run")
    p.add_argument("data", metavar="DATA", nargs="?",
                   help="data file or embedded:NAME (not with --resume)")
    _add_model_options(p)
    p.add_argument("--resume", metavar="DIR", default=None,
                   help="continue the run whose --out was DIR after it was interrupted "
                   "(its data and settings are the recorded ones)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="output directory (default: modelmine-run-SEED)")
    p.add_argument("--force", action="store_true", help="replace an existing DIR")
    p.add_argument("--itemset-strategy", dest="itemset_strategy", default=None,
                   choices=["literal", "area", "fragments", "fit"],
                   help="how closedApr / maxApr combine itemsets: literal (the paper's "
                   "definition, the default; for closedApr mostFreq up to ties), or "
                   "modelmine's "
                   "structure-seeking area, fragments, fit (docs/operators.md)")
    p.add_argument("--pfer", type=_pos_real, metavar="V", default=None,
                   help="check the run's genes with stabilitySelection at most V expected "
                   "false selections, fitted beside the run on complementary pairs "
                   "(error_control.csv); the run is unchanged")
    p.add_argument("--fdr", type=_open_fraction, metavar="Q", default=None,
                   help="check the run's genes with stabl at target false discovery "
                   "proportion Q (permuted decoys beside the run; Hedou et al. 2024)")
    p.add_argument("--null", type=_permutations, metavar="N", default=None,
                   help="permutation null of the selection frequencies with N label "
                   "permutations (>= 10): null.csv and the null band in the report")
    p.add_argument("--figures", metavar="DIR", default=None,
                   help="also write every figure of the report to DIR as SVG, PDF and PNG "
                   "at 300 dpi, for a paper (a new or empty DIR, or --force)")
    p.add_argument("--annotate", action="store_true",
                   help="also write DIR/annotated.h5ad: the annotations only (obs, var, "
                   "uns; no matrix) with the selection frequency and each signature's "
                   "membership as var columns")
    p.add_argument("--annotate-full", action="store_true",
                   help="with --annotate: a full copy of the data (the matrix, and an "
                   ".h5ad's layers) instead of the annotations only")
    p.add_argument("--gene-sets", metavar="FILE.gmt", default=None,
                   help="also write DIR/enrichment.csv: the over-representation of each "
                   "gene set of FILE (GMT: MSigDB, GO) in every signature and panel, the "
                   "features tested as the universe (docs/biology.md)")
    p.add_argument("--evaluate", action="store_true",
                   help="also run the cross-validation protocol on the same selector and "
                   "operators (DIR/evaluation.csv), so the report shows error vs stability")
    p.add_argument("--n-folds", "--folds", dest="n_folds", type=_folds, default=10,
                   help="folds of --evaluate (default: 10)")
    _add_input_options(p)
    _add_run_options(p)

    p = add("operators")
    p.add_argument("--kind", choices=["single", "multi"], help="only this kind")
    p.add_argument("--format", choices=["table", "csv", "json"], default="table")

    p = add("markers")
    p.add_argument("data", metavar="DATA", help="an AnnData .h5ad file (cells x genes)")
    p.add_argument("--groupby", required=True, metavar="obs:COLUMN",
                   help="the cluster column of the AnnData's obs")
    p.add_argument("--layer", metavar="NAME", default=None,
                   help="the layer to read instead of .X (counts or log-normalised)")
    p.add_argument("--use-raw", action="store_true",
                   help="read .raw (its matrix and genes) instead of .X, as scanpy's "
                   "use_raw=True: where scanpy's files keep the log-normalised values when "
                   ".X is scaled")
    add_door_options(p, door_of("marker_panels"), helps={
        **_HELPS,
        "selector": f"feature selector, each cluster against the rest: "
                    f"{_classification_selectors()}",
        "n_bootstraps": "resamples", "n_features": "genes per panel",
        "max_per_class": "at most N cells of each cluster per resample",
        "sample_fraction": "fraction of each cluster's cells drawn before the cap",
        "stratify": "draw each cluster's own cells (without --groups)"},
        title="settings of the panels' base models (as the parameters of "
              "mm.singlecell.marker_panels)")
    add_old_spelling(p, ["--panel-size"], "--n-features", dest="n_features",
                     type=_setting_type(setting("n_features")), metavar="M")
    add_old_spelling(p, ["--max-cells-per-group"], "--max-per-class", dest="max_per_class",
                     type=_setting_type(setting("max_per_class")), metavar="N")
    p.add_argument("--direction", choices=["up", "down", "both"], default="up",
                   help="markers higher in the cluster (default), lower, or either")
    p.add_argument("--reference", choices=["each", "rest"], default=None,
                   help="compare each cluster with each other cluster, keeping the weakest "
                   "comparison (the default for wilcoxon and t-test), or with the rest of "
                   "the cells (the default for the other selectors)")
    p.add_argument("--groups", metavar="obs:COLUMN", default=None,
                   help="donor or sample column: whole donors are drawn (not stratified "
                   "by cluster: a donor holds several), then each cluster capped")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="output directory (default: modelmine-markers-SEED, or "
                   "modelmine-markers-latest without --random-state, as `modelmine run`)")
    p.add_argument("--force", action="store_true", help="replace an existing DIR")

    p = add("lattice")
    p.add_argument("source", metavar="DIR-or-DATA")
    _add_model_options(p)
    p.add_argument("--min-support", type=_fraction, default=DEFAULT_MIN_SUPPORT, metavar="S",
                   help=f"minimum support of the itemsets (default: {DEFAULT_MIN_SUPPORT})")
    p.add_argument("--format", choices=["graphml", "gexf", "json", "dot", "png", "svg", "html"],
                   default="graphml", help="html: the interactive explorer, one offline page "
                   "(docs/lattice.md); graphml / gexf / json / dot: files for Gephi, Cytoscape, "
                   "Graphviz; png / svg: a drawing of its top")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="output file (default: DIR/lattice.FORMAT, or ./lattice.FORMAT)")
    p.add_argument("--force", action="store_true", help="replace an existing FILE")
    _add_input_options(p)
    add_door_options(p, door_of("bootstrap"), helps=_HELPS, title="settings of the base "
                     "models of DATA (as the parameters of mm.bootstrap)")

    p = add("evaluate")
    p.add_argument("data", metavar="DATA", help="data file or embedded:NAME")
    _add_model_options(p, several_selectors=True)
    p.add_argument("--operator", "-o", action="append", metavar="NAME",
                   help=f"operator to compare, repeatable: {_registered('operators')} "
                   "(default: all registered)")
    p.add_argument("--classifier", "-c", action="append", metavar="NAME",
                   help=f"classifier, repeatable: {_registered('classifiers')} (default: "
                   "svm, 1nn and tree, as KDD 2012)")
    p.add_argument("--n-folds", "--folds", dest="n_folds", type=_folds, default=10,
                   help="stratified cross-validation folds (default: 10)")
    p.add_argument("--cache", metavar="DIR", default=None,
                   help="keep the base models of each (selector, fold) here, so a rerun "
                   "with more operators does not recompute them")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="output directory (default: modelmine-evaluation-SEED)")
    p.add_argument("--force", action="store_true", help="replace an existing DIR")
    _add_input_options(p)
    add_door_options(p, door_of("evaluate"), helps=_HELPS, title="settings of each fold's "
                     "base models (as the parameters of mm.evaluate)")

    p = add("report")
    p.add_argument("directory", metavar="DIR")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="where to write it (default: DIR/report.html)")
    p.add_argument("--evaluation", metavar="FILE", default=None,
                   help="evaluation.csv of `modelmine evaluate`: adds error vs stability per "
                   "operator to the report")
    p.add_argument("--figures", metavar="DIR", default=None,
                   help="also write every figure to DIR as SVG, PDF and PNG at 300 dpi (a "
                   "new or empty DIR, or --force)")
    p.add_argument("--force", action="store_true", help="replace an existing FILE")

    p = add("datasets")
    dsub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    dl = dsub.add_parser("list", help="list the datasets (the default)",
                         formatter_class=_formatter)
    _add_common(dl, top=False)
    de = dsub.add_parser("export", help="write a dataset to .csv, .tsv, .parquet or .mat",
                         formatter_class=_formatter, epilog=_DATASETS_EPILOG)
    _add_common(de, top=False)
    de.add_argument("name", metavar="NAME")
    de.add_argument("out", metavar="FILE")
    de.add_argument("--force", action="store_true", help="replace an existing FILE")
    return parser


#: The command-line option behind each parameter of the Python API that is not a run
#: setting, so that a message of the API ("The 'n_folds' parameter of evaluate must be
#: ...") names what the user typed; the run settings' options come from their
#: declarations (``modelmine.spec.SETTINGS``, :func:`option_of`).
_OPTION_OF = {"n_jobs": "--n-jobs", "executor": "--executor", "selectors": "--selector",
              "operator": "--operator", "n_folds": "--n-folds",
              "classifiers": "--classifier", "classifier": "--classifier",
              "y": "the labels, --target", "X": "the features of DATA",
              "pfer": "--pfer", "fdr": "--fdr", "n_permutations": "--null",
              "groups": "--groups", "sample_weight": "--sample-weight",
              "covariates": "--covariate", "groupby": "--groupby", "use_raw": "--use-raw",
              "layer": "--layer"}


def option_of(name: str) -> str | None:
    """The command-line option of an API parameter: a run setting's declared flags, or
    :data:`_OPTION_OF`."""
    from ..spec import SETTINGS

    for one in SETTINGS:
        if one.name == name and one.option is not None:
            return one.option
    return _OPTION_OF.get(name)


def _one_line(exc: BaseException) -> str:
    from ..exceptions import InvalidParameterError

    text = " ".join(str(exc).split())
    if isinstance(exc, KeyError):  # str(KeyError) is the repr of the key
        text = f"missing key {text}"
    if isinstance(exc, OSError) and exc.strerror and exc.filename is None:
        text = " ".join(exc.strerror.split())  # no "[Errno 28]": the text names the file
    param = exc.param if isinstance(exc, InvalidParameterError) else None
    option = None if param is None else option_of(param)
    if option is not None:  # the option the user typed, beside the API's parameter
        text = text.replace(f"The {param!r} parameter of",
                            f"The {param!r} parameter ({option}) of", 1)
    notes = " ".join(" ".join(str(n).split()) for n in getattr(exc, "__notes__", ()) or ())
    text = f"{text} {notes}".strip()
    return text or type(exc).__name__


def _given_options(parser: argparse.ArgumentParser, argv: Sequence[str]) -> set[str]:
    """The ``dest`` of every option of ``parser`` that ``argv`` gives explicitly (long
    options, their unambiguous prefixes and ``--opt=value``, short options and ``-b5``)."""
    longs: dict[str, str] = {}
    shorts: dict[str, str] = {}
    for action in parser._actions:
        for opt in action.option_strings:
            (longs if opt.startswith("--") else shorts)[opt] = action.dest
    given = set()
    for tok in argv:
        if tok == "--":
            break
        if tok.startswith("--"):
            name = tok.split("=", 1)[0]
            hits = {dest for opt, dest in longs.items() if opt == name} or {
                dest for opt, dest in longs.items() if opt.startswith(name)}
            if len(hits) == 1:
                given |= hits
        elif tok.startswith("-") and len(tok) >= 2 and tok[:2] in shorts:
            given.add(shorts[tok[:2]])
    return given


def _one_line_warnings(previous: Callable[..., None]) -> Callable[..., None]:
    """A ``warnings.showwarning`` that prints modelmine's own warnings as one line on
    stderr, as the errors are, and hands the others to ``previous``."""
    package = str(Path(__file__).resolve().parent.parent)

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:
        if str(Path(filename).resolve()).startswith(package):
            print(f"modelmine: warning: {' '.join(str(message).split())}", file=sys.stderr)
        else:
            previous(message, category, filename, lineno, file, line)

    return show


def _exit_code(exc: SystemExit) -> int:
    return int(exc.code) if isinstance(exc.code, int) else (0 if exc.code is None else 2)


@contextlib.contextmanager
def _lines_on_stderr(args: argparse.Namespace) -> Iterator[None]:
    """modelmine's log lines on stderr while a command runs, at the verbosity of -q / -v
    (``mm.settings.verbosity``: 'warning' with -q, 'debug' with -v, else 'info'); the
    logger as it was afterwards (``main`` runs in-process in tests and notebooks)."""
    from ..config import LOGGER_NAME, settings, stderr_handler

    logger = logging.getLogger(LOGGER_NAME)
    level, handler = logger.level, stderr_handler()
    settings.verbosity = "warning" if args.quiet else "debug" if args.verbose else "info"
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``modelmine`` command line; return its exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 on bad usage or bad input, 1 on an internal error or an
        unavailable feature, 130 when interrupted.
    """
    given = list(sys.argv[1:] if argv is None else argv)
    # --help, --version and no subcommand answer from the top-level parser alone, without
    # the scientific stack the subcommands' options read (the registries' listings)
    light, _ = _top_parser(seed=None, light=True)
    try:
        top, unknown = light.parse_known_args(given)
    except SystemExit as exc:  # --help, --version, usage errors of the global options
        return _exit_code(exc)
    if top.command is None:
        if unknown:  # argparse's own message
            try:
                light.error(f"unrecognized arguments: {' '.join(unknown)}")
            except SystemExit as exc:
                return _exit_code(exc)
        light.print_help()
        return 2
    parser = build_parser()
    try:
        args = parser.parse_args(given)
    except SystemExit as exc:  # a subcommand's --help, usage errors
        return _exit_code(exc)
    from ..exceptions import MissingExtraError, ModelmineError
    from . import _commands

    handler = getattr(_commands, f"cmd_{args.command}")
    # The command line as given (run.json and the report's commands record it).
    args.argv = given
    sub = parser._subparsers._group_actions[0] if parser._subparsers else None
    chosen = sub.choices.get(args.command) if isinstance(sub, argparse._SubParsersAction) \
        else None
    args.given = _given_options(chosen or parser, args.argv)
    try:
        with warnings.catch_warnings(), _lines_on_stderr(args):
            warnings.showwarning = _one_line_warnings(warnings.showwarning)
            return int(handler(args) or 0)
    except KeyboardInterrupt as exc:
        notes = " ".join(str(n) for n in getattr(exc, "__notes__", ()) or ())
        print(f"modelmine: interrupted{'. ' + notes if notes else ''}", file=sys.stderr)
        return 130
    except MissingExtraError as exc:  # not available in this installation
        print(f"modelmine {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except (ModelmineError, ValueError, TypeError, FileNotFoundError, PermissionError,
            IsADirectoryError, NotADirectoryError) as exc:
        if args.debug:
            traceback.print_exc()
        print(f"modelmine {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:  # the environment, not the input: disk full, permissions
        if args.debug:
            traceback.print_exc()
        print(f"modelmine {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except Exception as exc:
        if args.debug:
            traceback.print_exc()
        print(f"modelmine {args.command}: internal error: {type(exc).__name__}: "
              f"{textwrap.shorten(_one_line(exc), 300)} (run with --debug for the traceback)",
              file=sys.stderr)
        return 1
