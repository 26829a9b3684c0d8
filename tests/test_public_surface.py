"""The public surface: each public module's ``__all__`` is its boundary (issue 38, item 6).

The rule, checked here:

- *Public modules* are ``modelmine`` and every ``modelmine.<name>`` whose name does not start
  with ``_``; each defines ``__all__``, and every name in it resolves.
- *One home.* An object (a function, a class, any value but a plain number, string or None)
  is in the ``__all__`` of one public subpackage only. ``modelmine`` itself lists, besides
  its subpackages and ``__version__``, only the main entry points of :data:`ENTRY_POINTS`,
  each of which has exactly one home in a subpackage.
- *No alias.* A function or class of modelmine is exported under its own ``__name__``, and no
  two names of one ``__all__`` are the same object (``available = available_operators``).
- *No helper.* Constants (upper-case names) belong to ``modelmine.constants``; another module
  exports one only if it is a setting a user reads or sets (:data:`PUBLIC_SETTINGS`), never
  an entry-point group name or a list of internal choices. Each function and class has a
  docstring, whose first line is its entry in ``docs/api.md``: the page lists every public
  name and nothing else, so adding a name to the surface is a visible, reviewed change.
- *Tests of behaviour use public names.* A module under ``tests/`` reaches past the surface
  (a ``_`` module or name, or a name outside an ``__all__``) only if it is declared below,
  with why: :data:`KERNEL_TESTS` check an internal kernel against an independent oracle
  (most live in ``tests/kernels/``), :data:`WHITE_BOX_TESTS` inject a fault at an internal
  seam, forge a record, extend a declaration table or shrink a size limit.

Run as a script to print the number of public names per module (and, with ``--write``,
regenerate ``docs/api.md``)::

    python tests/test_public_surface.py [--write]

(it also lists the test modules that reach past the surface and are not declared).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import sys
import textwrap
import types
import warnings
from pathlib import Path

import pytest

import modelmine

ROOT = Path(__file__).resolve().parent.parent
API_PAGE = ROOT / "docs" / "api.md"

#: ``mm.<name>``: the main entry points, each also exported from its one home.
ENTRY_POINTS = frozenset({
    "BaseModels", "ItemsetLattice", "MiningRun", "ModelMiningSelector", "ModelmineError",
    "RunSpec", "Signature", "SignatureSet", "aggregate", "bootstrap", "evaluate",
    "mine_itemsets", "resume", "run", "settings",
})

#: Upper-case names a module other than ``constants`` may export: settings a user reads or
#: changes (the protocols of Pes and Salman read them; survival targets use the dtype).
PUBLIC_SETTINGS = frozenset({
    "modelmine.evaluation.PES_SELECTORS", "modelmine.evaluation.PES_SELECTOR_PARAMS",
    "modelmine.evaluation.PES_THRESHOLDS", "modelmine.evaluation.SALMAN_AGGREGATIONS",
    "modelmine.outcomes.SURVIVAL_DTYPE", "modelmine.spec.DEFAULT_SELECTORS",
    # the KDD'12 protocol's selectors and the recorded seed derivation of each protocol
    "modelmine.evaluation.KDD12_SELECTORS", "modelmine.evaluation.SEED_DERIVATIONS",
    # the published protocols' defaults, by name (issue 48): spec=PRESETS[...].spec()
    "modelmine.spec.PRESETS",
})

#: Test modules that test an internal kernel against an independent oracle: which kernel,
#: which oracle (issue 38 item 6). The behaviour the kernel serves is tested elsewhere
#: through public names.
KERNEL_TESTS = {
    "tests/kernels/test_relieff_weka_shared.py":
        "WEKA's ReliefF on a fold's resamples (WekaReliefFFold, its tiles and sort) equals "
        "select on the resample and the route before issue 37 bit for bit, and the WEKA jar",
    "tests/kernels/test_class_models.py":
        "the per-class base models (check_run_data, fit_class_models) share the pooled "
        "resamples and equal scikit-learn's f_classif (or the selector fitted alone) on "
        "each resample's one-vs-rest labels",
    "tests/kernels/test_firth.py":
        "Firth's logistic regression against logistf's published values and firthlogist; "
        "adjusted_class_effects (what markers() reports) on a separating gene",
    "tests/kernels/test_class_covariates.py":
        "the classification selectors' covariate adjustment (CLASS_ADJUSTMENT, "
        "ancova_scores, CovariateAdjustedSelector on residualise) against statsmodels OLS "
        "and Logit.fit_regularized, and by simulation with a known truth",
    "tests/kernels/test_covariate_adjustment.py":
        "cox_adjusted_scores against statsmodels PHReg's score and Hessian; "
        "CovariateAdjustedSelector against it on each resample's rows",
    "tests/kernels/test_fold_engine.py":
        "seed_plan against numpy's SeedSequence, derivation by derivation; make_folds "
        "against scikit-learn's StratifiedKFold and StratifiedShuffleSplit, groups whole",
    "tests/kernels/test_kmedoids_swap.py":
        "swap_descent (PAM's SWAP) against every single swap, by brute force",
    "tests/kernels/test_mining_kernels.py":
        "canonical_order against a plain Python sort; closed_mask against the closed "
        "itemsets mined",
    "tests/kernels/test_minmax_scale.py":
        "_minmax_scale (load(scale='minmax')) against scikit-learn's MinMaxScaler, dense "
        "and sparse",
    "tests/kernels/test_r_concave_tail.py":
        "_tail_d, the largest r-concave tail of pfer_bound's 'ss-r-concave', against "
        "binomial tails (log-concave, so covered)",
    "tests/kernels/test_range_scaler.py":
        "RangeScaler, in front of the 'svm' and '1nn' classifiers, against MinMaxScaler",
    "tests/kernels/test_report_helpers.py":
        "the report's helpers (number format, dot-plot genes, cluster order, co-selection "
        "sentence, the explorer's cap shrunk, stability by size, membership plot, heat "
        "map, names with control characters drawn) against worked values, Nogueira by "
        "hand, planted co-selection and matplotlib's warnings",
    "tests/kernels/test_resampling_kernels.py":
        "resample_indices, complementary_pair, check_design, permuted_labels and "
        "add_artificial_features against counts per group, numpy's own draws, expected "
        "frequencies and the knockoffs' covariance",
    "tests/kernels/test_scaled_selector.py":
        "ScaledSelector against the plain selector on the resample scaled by "
        "scikit-learn's StandardScaler and MinMaxScaler",
    "tests/kernels/test_productive_swap_kernels.py":
        "the swap method of self_sufficient_itemsets: its Fisher tails against scipy, "
        "Tarone's fewest count against exact binomials, the pruned search against every "
        "itemset enumerated, the stratified chain against every matrix of its margins, "
        "the minima searched only as deep as needed against a full search",
    "tests/kernels/test_self_sufficient_kernels.py":
        "the stratified exact tail of self_sufficient_itemsets against every placement of "
        "one part's models inside each stratum, enumerated; the strata of model size",
    "tests/kernels/test_significance_kernels.py":
        "curveball and global_curveball against every matrix of the margins, enumerated "
        "(uniform, chi-square); bh_qvalues against a worked example",
    "tests/kernels/test_subset_overlaps.py":
        "the blocked overlap products (_subsets._BLOCK_ROWS shrunk, pairwise_similarity, "
        "intersection_counts) against double loops over pairs of sets and S @ S.T",
    "tests/operators/test_rra_stuart.py":
        "rra_scores and stuart_scores (_log_tail_bounds) against exact rationals, mpmath "
        "recursions and the RRA issue's values; the operators' pruning against the full "
        "computation",
    "tests/selectors/test_cfs.py":
        "cfs_search against a hand-worked merit; the rare-code SU route (_RareCodes, "
        "su_matrix_row) against the dense joint counts",
    "tests/selectors/test_information.py":
        "the MDL cuts and entropies (_mdl_cuts_block, the integer-count entropies, "
        "SortedColumns, resample_scores, blocks shrunk, the compiled search _mdl.c and its "
        "numpy fallback) against WEKA's worked values and its scalar port, the float "
        "formulas and the per-resample route",
    "tests/selectors/test_relieff_shared.py":
        "the shared ReliefF route (ReliefFFold, resample_relieff_scores, the neighbour "
        "search, blocks shrunk) against per-resample relieff_scores and exact rationals",
    "tests/selectors/test_selector_contract.py":
        "a selector's output made a base model (model_from_output, ranks_from_scores) "
        "against scipy's ordinal ranks and worked ties; the estimator and callable "
        "wrappers and chi2_contingency_scores against scikit-learn and scipy; bootstrap "
        "against select on the same resamples (resample_indices, seed_sequence)",
    "tests/selectors/test_singlecell_selectors.py":
        "the single-cell statistics (rank_entries, wilcoxon_z, welch_t, SEPARATED_SCORE, "
        "the resample ranking, column_value_order) against scanpy's rank_genes_groups "
        "and scipy",
    "tests/selectors/test_studies_selectors.py":
        "JavaRandom and weka_cv_folds against the JDK's sequence and a stratified "
        "partition; the scalar ReliefF oracle orders ties with _weka_sort",
    "tests/selectors/test_svm_rfe.py":
        "the SVM-RFE kernels (down-dated kernel, interior-point solver, distinct rows, "
        "shared row kernel, merged rows, the warm-started C SMO) against scikit-learn's "
        "RFE and SVC, libsvm and the dual's optimality conditions",
    "tests/selectors/test_shared_counting_routes.py":
        "the resample's MDL codes from the sorted columns (resample_codes) against "
        "discretize on the resample; bootstrap against select on the same resamples "
        "(resample_indices, seed_sequence, model_from_output); OneR's compiled rules "
        "against its numpy passes (_mdl_kernel switched off)",
    "tests/selectors/test_mdl_sanitizers.py":
        "the compiled MDL search and OneR rules (_mdl.c) built with AddressSanitizer and "
        "UBSan, against the numpy search and passes, numpy.add.at and bincount",
    "tests/test_published_svm_tolerance.py":
        "skipped without the C SMO (modelmine.selectors._smo), whose solver='warm' routes "
        "the committed benchmarks/results/svm_tolerance*.csv recompute",
    "tests/selectors/test_weka_relieff.py":
        "_weka_sort against weka.core.Utils.sort run in the WEKA jar",
    "tests/test_published_stuart.py":
        "stuart_scores against the committed benchmarks/results/stuart.csv",
}

#: Test modules that reach inside on purpose: a fault injected at an internal seam, a record
#: forged, a declaration table extended, a size limit shrunk (issue 38 item 6). What each
#: reaches, and why no public name reaches it.
WHITE_BOX_TESTS = {
    "tests/base_models/test_shared_memory.py":
        "a machine with 1 MiB available (_bootstrap.available_memory, read from "
        "/proc/meminfo; no public name sets it) to put the shared work over the budget",
    "tests/cli/test_cli_finished_runs.py":
        "an unreachable scheduler refused after one second, not the ten of "
        "_executors.CONNECT_TIMEOUT that no public name sets",
    "tests/base_models/test_groups.py":
        "a full disk mid-run (_rundir._atomic_write) to kill a grouped run and resume it",
    "tests/base_models/test_heterogeneous.py":
        "records forged with a valid checksum (_base_models._checksum) to reach the "
        "semantic checks; a spy on _bootstrap._fit_selector shows that no fit starts",
    "tests/base_models/test_runs_and_executors.py":
        "a full disk mid-run (_rundir._atomic_write); a child stopped after its second "
        "chunk (RunDirectory.write_chunk) to be killed at a known moment",
    "tests/cli/test_cli.py":
        "a report that fails (report._html.render), the run's itemset guard made "
        "tiny (_run.mine_itemsets), a child stopped after a chunk to be killed",
    "tests/cli/test_cli_groups.py":
        "a child stopped after a chunk (RunDirectory.write_chunk) to be killed",
    "tests/cli/conftest.py":
        "the report's page left out (report._html.render) of the tests that never read "
        "it, as tests/reliability does",
    "tests/cli/test_cli_figures.py":
        "the run's own page built, not drawn (report._html.render wrapped), before its "
        "--figures step replaces it with a drawn one",
    "tests/patterns/test_mining_guard.py":
        "backends made missing (_mining._installed), the LCM memory budget shrunk "
        "(LCM_STORE_BYTES) and the C miner spied (_lcm.mine)",
    "tests/pipeline/test_covariates.py":
        "a run killed after its bootstraps (_run.apply_operators); the null's bootstrap "
        "removed (_null.bootstrap) to show the refusal comes before any fit",
    "tests/pipeline/test_run.py":
        "a run killed after its bootstraps (_run.apply_operators), then resumed",
    "tests/pipeline/conftest.py":
        "the report's page left out (report._html.render) of the tests that never read "
        "it, as tests/reliability does",
    "tests/reliability/conftest.py":
        "interrupted_run: a run killed after its bootstraps (_run.apply_operators)",
    "tests/reliability/reliability_helpers.py":
        "rewrite_npz forges base models with a valid checksum (_base_models._checksum)",
    "tests/reliability/test_biodata_records.py":
        "a run killed after its bootstraps (_run.apply_operators), its checkpoint read "
        "with _store.read_checkpoint",
    "tests/reliability/test_cli_sweep.py":
        "bad values for every option, derived from the parser's type functions "
        "(cli._main) and the settings' constraints (spec.SETTINGS)",
    "tests/reliability/test_fuzz_files.py":
        "fuzzed checkpoints read with _store.read_checkpoint",
    "tests/reliability/test_reliability_defects.py":
        "faults injected (a broken built-in selector, a run killed after its bootstraps, "
        "a full disk, no fit allowed, too little memory, a spy on the workers), the run "
        "lock held (directory_lock), bootstrap checkpoints resumed (base_models.resume)",
    "tests/reliability/test_reliability_round3.py":
        "the run lock (directory_lock) on symbolic links and FIFOs, the spreadsheet "
        "cells (_csv), manifests read with RunDirectory.read_manifest",
    "tests/test_report_sections.py":
        "the report's list of sections (report._sections.SECTIONS) extended with the "
        "section of docs/DEVELOPING.md's recipe, as a maintainer adds one",
    "tests/reliability/test_reliability_round4.py":
        "the chunking's memory bounds (_bootstrap._chunks, chunk_ids), a spy on "
        "_fit_chunk, a run killed after its bootstraps, model_from_output as an oracle",
    "tests/reliability/test_reliability_round5.py":
        "a child stopped after its third chunk (RunDirectory.write_chunk) to be killed at "
        "a known moment; the exact k-medoids bound and CLARA's sample shrunk "
        "(patterns._model_clusters); too little memory (_checks.available_memory, and its "
        "estimates operators_nbytes / estimate_memory as the oracle of the b it names); no "
        "fit allowed (a broken built-in selector)",
    "tests/singlecell/test_marker_panels.py":
        "too little memory (_checks.available_memory), Wilcoxon blocks shrunk "
        "(_wilcoxon._BLOCK_NNZ), the dot-plot data (report.panel_dot_data) against "
        "scanpy's DotPlot, value_kind's three kinds",
    "tests/singlecell/test_marker_panels_users.py":
        "a running markers run played by holding its lock (directory_lock); the caution "
        "threshold (LOW_PANEL_STABILITY)",
    "tests/test_docs.py":
        "the docs' examples register into a fresh default operator registry "
        "(operators._registry._DEFAULT)",
    "tests/test_docstrings.py":
        "the docstring fragments (fill_doc, DOC_FRAGMENTS) and internal functions' "
        "Parameters sections",
    "tests/test_registries.py":
        "fresh default registries swapped in (evaluation._classifiers, "
        "selectors._builtin); the listing's columns (_registry.AVAILABLE_COLUMNS)",
    "tests/test_renamed_names.py":
        "a made-up setting added to the declaration table (spec.SETTINGS) to show that "
        "its old flag is derived",
    "tests/test_settings.py":
        "the one declaration table of the settings (spec.SETTINGS, its schema, the "
        "parser's options) extended with a made-up setting to show it reaches every door",
}


def public_modules() -> list[str]:
    """``modelmine`` and its public submodules and subpackages, sorted."""
    names = [f"modelmine.{m.name}" for m in pkgutil.iter_modules(modelmine.__path__)
             if not m.name.startswith("_")]
    return ["modelmine", *sorted(names)]


def surface() -> dict[str, dict[str, object]]:
    """``{module: {name: object}}`` over the ``__all__`` of every public module."""
    out = {}
    for name in public_modules():
        module = importlib.import_module(name)
        out[name] = {n: getattr(module, n) for n in module.__all__}
    return out


def _has_identity(obj: object) -> bool:
    return not isinstance(obj, (bool, int, float, str, type(None)))


def _is_constant(name: str) -> bool:
    return name.isupper() and not name.startswith("__")


def _first_line(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.strip().splitlines()[0].strip() if doc.strip() else ""


def violations(names: dict[str, dict[str, object]]) -> list[str]:
    """Every breach of the rule of the module docstring, one line each."""
    out = []
    homes: dict[int, list[str]] = {}
    for module, exported in names.items():
        seen: dict[int, str] = {}
        for name, obj in exported.items():
            where = f"{module}.{name}"
            if isinstance(obj, types.ModuleType):
                continue
            if module == "modelmine":
                if name != "__version__" and name not in ENTRY_POINTS:
                    out.append(f"{where}: not a main entry point (ENTRY_POINTS)")
                continue
            if _has_identity(obj):
                homes.setdefault(id(obj), []).append(where)
                if id(obj) in seen:
                    out.append(f"{where}: alias of {module}.{seen[id(obj)]}")
                seen[id(obj)] = name
            own = getattr(obj, "__module__", "") or ""
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and own.startswith("modelmine"):
                if obj.__name__ != name:
                    out.append(f"{where}: exported under another name than its own "
                               f"({obj.__name__})")
                if not _first_line(obj):
                    out.append(f"{where}: no docstring")
            if _is_constant(name) and module != "modelmine.constants" \
                    and where not in PUBLIC_SETTINGS:
                out.append(f"{where}: a constant outside modelmine.constants "
                           "(not in PUBLIC_SETTINGS)")
    for places in homes.values():
        if len(places) > 1:
            out.append(f"exported twice: {', '.join(places)}")
    for name in ENTRY_POINTS:
        obj = names["modelmine"].get(name)
        found = [m for m, exported in names.items() if m != "modelmine"
                 and any(o is obj for o in exported.values())]
        if len(found) != 1:
            out.append(f"modelmine.{name}: {len(found)} homes in subpackages, expected 1")
    return out


def api_page(names: dict[str, dict[str, object]]) -> str:
    """The text of ``docs/api.md``: every public name, by module, with its one line."""
    lines = ["# The public API", "",
             "Every public name of modelmine, by module: what each module's `__all__` holds, "
             "nothing else (issue 38).", "Generated by `python tests/test_public_surface.py "
             "--write`; `tests/test_public_surface.py` fails when it is out of date, and "
             "states the rule (one home per name, no aliases, no helpers).",
             "The documentation site's API reference (`make docs`, then open "
             "`docs/_build/html/reference/index.html`) is generated from the same `__all__`, "
             "with a page per function and class: signature, parameters, returns, examples.",
             ""]
    for module, exported in names.items():
        lines += [f"## `{module}` ({len(exported)})", ""]
        for name, obj in exported.items():
            if isinstance(obj, types.ModuleType):
                line = "module"
            elif _is_constant(name) or not (callable(obj) or inspect.isclass(obj)):
                line = "constant"
            else:
                line = _first_line(obj)
            if module == "modelmine" and name in ENTRY_POINTS:
                line = "entry point, see its home below"
            lines.append(f"- `{name}`: {line}")
        lines.append("")
    return "\n".join(lines)


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _reaches_public(module: types.ModuleType, name: str) -> bool:
    """Whether ``module.name`` is on the public surface: in ``__all__``, a public submodule,
    or a name that left the surface and warns (deprecated on purpose, for one release)."""
    if _is_dunder(name):
        return True
    if name.startswith("_") or any(p.startswith("_") for p in module.__name__.split(".")):
        return False
    if name in getattr(module, "__all__", ()):
        return True
    try:
        importlib.import_module(f"{module.__name__}.{name}")
        return True
    except ImportError:
        pass
    if name in vars(module):
        return False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            getattr(module, name)
        except AttributeError:
            return False
    return any(issubclass(w.category, FutureWarning) for w in caught)


def _module(dotted: str) -> types.ModuleType | None:
    try:
        return importlib.import_module(dotted)
    except ImportError:
        return None


def _path_names(dotted: str, line: int) -> list[str]:
    """``import a.b.c`` or the string target ``"a.b.c"``: each step must be public."""
    parts = dotted.split(".")
    for i in range(1, len(parts)):
        parent = _module(".".join(parts[:i]))
        if parent is None or not _reaches_public(parent, parts[i]):
            return [f"{line}: {dotted}"]
    return []


def private_names(path: Path) -> list[str]:
    """Where a module under ``tests/`` reaches a modelmine name outside the public surface:
    one ``line: name`` each. Imports (``import``, ``from ... import``, also inside the code
    strings a test runs in a child process), attribute chains from a name bound to a
    modelmine module (``mm.selectors._svm_rfe``) and dotted strings (``"modelmine._x.y"``,
    monkeypatch targets) count; dunders and deprecated names (they warn) do not."""
    return sorted(set(_private_in(ast.parse(path.read_text(encoding="utf-8")))),
                  key=lambda s: (int(s.split(":")[0]), s))


def _private_in(tree: ast.AST) -> list[str]:
    found: list[str] = []
    bound: dict[str, str] = {}  # local name -> the modelmine module it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "modelmine":
                    found += _path_names(alias.name, node.lineno)
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        bound["modelmine"] = "modelmine"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "modelmine":
            through = _path_names(node.module, node.lineno)
            module = _module(node.module)
            for alias in node.names:
                if through or module is None or not _reaches_public(module, alias.name):
                    found.append(f"{node.lineno}: {node.module}.{alias.name}")
                elif isinstance(getattr(module, alias.name, None), types.ModuleType):
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if re.fullmatch(r"modelmine(\.\w+)+", text) and any(
                    p.startswith("_") and not _is_dunder(p) for p in text.split(".")):
                found.append(f"{node.lineno}: {text}")
            elif "modelmine" in text and "import" in text:
                try:
                    inner = ast.parse(textwrap.dedent(text))
                except SyntaxError:
                    continue
                for hit in _private_in(inner):
                    name = hit.split(": ", 1)[1].removesuffix(" (in a code string)")
                    found.append(f"{node.lineno}: {name} (in a code string)")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        chain: list[str] = []
        base: ast.expr = node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in bound:
            continue
        obj: object = _module(bound[base.id])
        for name in reversed(chain):
            if not isinstance(obj, types.ModuleType):
                break
            if not _reaches_public(obj, name):
                found.append(f"{node.lineno}: {obj.__name__}.{name}")
                break
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a deprecated name: the test asks for it
                obj = getattr(obj, name, None)
    return found


def private_importers(root: Path = ROOT / "tests") -> list[Path]:
    """Modules under ``tests/`` that reach a modelmine name outside the public surface
    (this module aside: it holds the rule, and a probe that breaks it on purpose)."""
    return sorted(p for p in root.rglob("*.py")
                  if p.resolve() != Path(__file__).resolve() and private_names(p))


def test_the_public_surface_keeps_the_rule():
    assert violations(surface()) == []


def test_the_rule_catches_a_second_home_an_alias_and_a_helper_constant():
    names = surface()
    names["modelmine.patterns"] = {**names["modelmine.patterns"],
                                   "aggregate": modelmine.aggregate,
                                   "kmedoids_again": names["modelmine.patterns"]["kmedoids"],
                                   "ENTRY_POINT_GROUP": "modelmine.patterns"}
    found = "\n".join(violations(names))
    assert "exported twice: modelmine.operators.aggregate, modelmine.patterns.aggregate" in found
    assert "modelmine.patterns.kmedoids_again: alias of modelmine.patterns.kmedoids" in found
    assert "modelmine.patterns.ENTRY_POINT_GROUP: a constant outside" in found


def test_only_the_declared_test_modules_reach_past_the_public_surface():
    assert not set(KERNEL_TESTS) & set(WHITE_BOX_TESTS)
    declared = {**KERNEL_TESTS, **WHITE_BOX_TESTS}
    found = {p.relative_to(ROOT).as_posix(): private_names(p) for p in private_importers()}
    undeclared = {name: hits for name, hits in found.items() if name not in declared}
    assert not undeclared, (
        "tests of behaviour import public names (docs/api.md); test an internal kernel "
        "against an oracle in tests/kernels/ and declare it in KERNEL_TESTS, or say in "
        f"WHITE_BOX_TESTS why no public name reaches it: {undeclared}")
    stale = sorted(set(declared) - set(found))
    assert not stale, f"declared but importing public names only: remove {stale}"


def test_the_detector_sees_every_way_past_the_surface(tmp_path):
    probe = tmp_path / "test_probe.py"
    probe.write_text(textwrap.dedent('''
        import modelmine as mm
        import modelmine.selectors._svm_rfe as svm_rfe
        from modelmine import datasets
        from modelmine.base_models import resample_indices
        from modelmine.patterns import (
            kmedoids,
            _kmedoids,
        )
        from modelmine.pipeline import resume

        CHILD = """
        from modelmine.base_models import _rundir
        """


        def test_it(monkeypatch):
            mm.selectors._builtin.AnovaSelector
            datasets.SHARED_FILES
            mm.evaluation.DEFAULT_SELECTORS  # a deprecated name, on purpose: it warns
            mm.__version__, mm.patterns.mine_itemsets, kmedoids, resume, svm_rfe
            monkeypatch.setattr("modelmine.pipeline._run.apply_operators", None)
    '''), encoding="utf-8")
    assert [hit.split(": ", 1)[1] for hit in private_names(probe)] == [
        "modelmine.selectors._svm_rfe", "modelmine.base_models.resample_indices",
        "modelmine.patterns._kmedoids", "modelmine.base_models._rundir (in a code string)",
        "modelmine.selectors._builtin", "modelmine.datasets.SHARED_FILES",
        "modelmine.pipeline._run.apply_operators"]
    public = tmp_path / "test_public.py"
    public.write_text("import modelmine as mm\nfrom modelmine.pipeline import resume\n"
                      "mm.datasets.load_colon, mm.testing, resume\n", encoding="utf-8")
    assert private_names(public) == []
    assert private_importers(tmp_path) == [probe]


def test_the_api_page_lists_the_public_names():
    assert API_PAGE.read_text(encoding="utf-8") == api_page(surface()), (
        "docs/api.md is out of date: python tests/test_public_surface.py --write")


@pytest.mark.parametrize("module, name, home", [
    ("modelmine", "register_operator", "modelmine.operators"),
    ("modelmine", "compare_aggregations", "modelmine.evaluation"),
    ("modelmine.operators", "available", "modelmine.operators"),
    ("modelmine.diagnostics", "pfer_bound", "modelmine.operators"),
    ("modelmine.diagnostics", "bh_qvalues", None),
])
def test_a_name_that_left_the_surface_warns_for_one_release(module, name, home):
    with pytest.warns(FutureWarning, match=rf"{re.escape(module)}\.{name} left the public API"):
        value = getattr(importlib.import_module(module), name)
    assert callable(value)
    assert name not in importlib.import_module(module).__all__
    if home is not None:
        assert any(value is obj for obj in surface()[home].values())


if __name__ == "__main__":
    names = surface()
    for module, exported in names.items():
        print(f"{module:28s} {len(exported):4d}")
    print(f"{'total':28s} {sum(map(len, names.values())):4d} in {len(names)} modules")
    tests = [p.relative_to(ROOT).as_posix() for p in private_importers()]
    print(f"test modules reaching past the public surface: {len(tests)} of "
          f"{len(list((ROOT / 'tests').rglob('*.py')))} (kernel tests "
          f"{len(KERNEL_TESTS)}, white-box tests {len(WHITE_BOX_TESTS)})")
    for name in tests:
        if name not in KERNEL_TESTS and name not in WHITE_BOX_TESTS:
            print(f"  not declared: {name}")
    if "--write" in sys.argv:
        API_PAGE.write_text(api_page(names), encoding="utf-8")
        print(f"wrote {API_PAGE.relative_to(ROOT)}")
    problems = violations(names)
    print("\n".join(problems) or "the rule holds")
    sys.exit(1 if problems else 0)
