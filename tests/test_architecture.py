"""The architecture of docs/DEVELOPING.md, checked on the source (issue 23).

- No import cycle inside a package: the import graph of each package's modules, built with
  ``ast`` from every import statement (at module level and inside functions: a lazy import
  is still a dependency), except those under ``if TYPE_CHECKING:``, has no cycle.
- No import cycle between the stages (the subpackages and top-level modules), on the same
  graph, lazy imports included (issue 38): a cycle fails with its path and, for each step,
  the modules that import. The one import not counted is a package's PEP 562
  ``__getattr__`` serving names that moved up the flow under their old path; each such name
  must warn (a deprecated alias is no dependency: nothing in modelmine may use it).
- Imports point down the flow: the stages named in DEVELOPING.md never import a later
  stage, not even inside a function.
- ``mm.run`` without a report never imports matplotlib (nor networkx).
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

import modelmine

ROOT = Path(modelmine.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    for stub in ROOT.rglob("*.pyi"):  # compiled extensions (patterns/_lcm)
        out.setdefault(".".join(stub.relative_to(ROOT.parent).with_suffix("").parts), stub)
    return out


MODULES = _modules()
PACKAGES = {name for name, path in MODULES.items() if path.name == "__init__.py"}


def _package_of(name: str) -> str:
    return name if name in PACKAGES else name.rsplit(".", 1)[0]


class _Imports(ast.NodeVisitor):
    """Every modelmine module a module imports (TYPE_CHECKING blocks left out)."""

    def __init__(self, name: str, module_level_only: bool) -> None:
        self.name, self.module_level_only = name, module_level_only
        self.package = _package_of(name)
        self.found: set[str] = set()
        self.aliases: list[ast.FunctionDef] = []
        self.depth = 0

    def visit_If(self, node: ast.If) -> None:
        if "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def _nested(self, node: ast.AST) -> None:
        if self.module_level_only:
            return
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_ClassDef = _nested

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name == "__getattr__" and self.depth == 0 and self.name in PACKAGES:
            self.aliases.append(node)  # deprecated aliases of moved names: not a dependency
            return
        self._nested(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.startswith("modelmine"):
                self._add(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")
            base = base[: len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        if not target.startswith("modelmine"):
            return
        subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
        if subs and len(subs) == len(node.names):
            for sub in subs:
                self._add(sub)
        else:
            self._add(target)

    def _add(self, target: str) -> None:
        while target not in MODULES and "." in target:
            target = target.rsplit(".", 1)[0]
        if target != self.name:
            self.found.add(target)


@functools.cache  # the sources do not change during a session: parsed once per worker
def _graph(module_level_only: bool) -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        if path.suffix != ".py":
            graph[name] = set()
            continue
        visitor = _Imports(name, module_level_only)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        graph[name] = visitor.found
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_planted_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_inside_a_package():
    graph = _graph(module_level_only=False)
    within = {m: {d for d in deps if _package_of(d) == _package_of(m)}
              for m, deps in graph.items()}
    assert _cycles(within) == []


def _stage(name: str) -> str:
    """The stage a module belongs to: ``modelmine.<subpackage or top-level module>``."""
    return ".".join(name.split(".")[:2])


def _stage_graph(graph: dict[str, set[str]]
                 ) -> tuple[dict[str, set[str]], dict[tuple[str, str], list[str]]]:
    stages: dict[str, set[str]] = {_stage(m): set() for m in graph}
    why: dict[tuple[str, str], list[str]] = {}
    for m, deps in graph.items():
        for d in deps:
            a, b = _stage(m), _stage(d)
            if a != b:
                stages[a].add(b)
                why.setdefault((a, b), []).append(f"{m} -> {d}")
    return stages, why


def _a_cycle(graph: dict[str, set[str]], component: list[str], start: str) -> list[str]:
    """One shortest cycle through ``start`` inside a strongly connected component."""
    inside = set(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & inside):
            if w == start:
                return paths[v] + [start]
            if w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    raise AssertionError(f"{component} is not a cycle")


def _describe(graph: dict[str, set[str]], why: dict[tuple[str, str], list[str]],
              components: list[list[str]]) -> str:
    lines, seen = [], set()
    for comp in components:
        for start in comp:  # the shortest cycle through each stage of the component
            cycle = _a_cycle(graph, comp, start)
            first = cycle.index(min(cycle[:-1]))
            key = tuple(cycle[first:-1] + cycle[:first])
            if key in seen:
                continue
            seen.add(key)
            lines.append("import cycle: " + " -> ".join(cycle))
            for a, b in itertools.pairwise(cycle):
                lines.append(f"  {a} -> {b}: " + "; ".join(sorted(set(why[(a, b)]))[:4]))
    return "\n".join(lines)


def test_the_stage_cycle_report_names_the_importing_modules():
    graph = {"modelmine.a.x": {"modelmine.b.y"}, "modelmine.b.y": {"modelmine.a.z"},
             "modelmine.a.z": set(), "modelmine.c": {"modelmine.a.x"}}
    stages, why = _stage_graph(graph)
    text = _describe(stages, why, _cycles(stages))
    assert text == ("import cycle: modelmine.a -> modelmine.b -> modelmine.a\n"
                    "  modelmine.a -> modelmine.b: modelmine.a.x -> modelmine.b.y\n"
                    "  modelmine.b -> modelmine.a: modelmine.b.y -> modelmine.a.z")


def test_no_import_cycle_between_the_stages():
    stages, why = _stage_graph(_graph(module_level_only=False))
    components = _cycles(stages)
    assert components == [], "\n" + _describe(stages, why, components)


def _deprecated_aliases() -> dict[str, list[str]]:
    """For each package, the names its module ``__getattr__`` serves for one release: the
    keys of its ``_MOVED`` mapping (``modelmine._deprecation.moved_names``), or the string
    constants of the tuple a hand-written ``__getattr__`` that imports tests with ``in``."""
    import importlib

    out: dict[str, list[str]] = {}
    for name in sorted(PACKAGES):
        moved = getattr(importlib.import_module(name), "_MOVED", None)
        if isinstance(moved, dict):
            out[name] = sorted(moved)
            continue
        visitor = _Imports(name, module_level_only=False)
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        visitor.visit(tree)
        for func in visitor.aliases:
            if not any(isinstance(n, ast.Import | ast.ImportFrom) for n in ast.walk(func)):
                continue
            tests = [n for n in ast.walk(func) if isinstance(n, ast.Compare)
                     and isinstance(n.ops[0], ast.In)]
            served: list[str] = []
            for test in tests:
                target = test.comparators[0]
                if isinstance(target, ast.Name):  # a module-level tuple
                    for stmt in tree.body:
                        if (isinstance(stmt, ast.Assign | ast.AnnAssign)
                                and target.id in ast.unparse(stmt).split("=")[0]):
                            target = stmt.value  # type: ignore[assignment]
                served += [c.value for c in ast.walk(target)
                           if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            out[name] = served
    return out


def test_every_alias_reached_through_getattr_warns_and_is_unused_inside():
    import importlib
    import warnings

    aliases = _deprecated_aliases()
    assert aliases.get("modelmine.diagnostics"), aliases  # the moved refitting workflows
    for package, names in aliases.items():
        module = importlib.import_module(package)
        for name in names:
            if package == "modelmine" and name == "report":
                continue  # the root's lazy report (matplotlib on first use), not an alias
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                getattr(module, name)
            assert any(issubclass(w.category, DeprecationWarning | FutureWarning)
                       for w in caught), (package, name)
            users = [str(p.relative_to(ROOT.parent)) for p in ROOT.rglob("*.py")
                     if re.search(rf"{re.escape(package)}\.{name}\b|from "
                                  rf"{re.escape(package)} import[^\n]*\b{name}\b",
                                  p.read_text(encoding="utf-8"))]
            assert users == [], (package, name, users)


#: The stages of the flow (docs/DEVELOPING.md), each listing the later ones it must never
#: import, lazily or not.
_LATER = {
    "modelmine.selectors": ["base_models", "patterns", "operators", "diagnostics",
                            "evaluation", "report", "pipeline", "cli", "estimator"],
    "modelmine.base_models": ["patterns", "operators", "evaluation", "report", "pipeline",
                              "cli", "estimator"],
    "modelmine.patterns": ["operators", "evaluation", "report", "pipeline", "cli",
                           "estimator"],
    "modelmine.operators": ["diagnostics", "evaluation", "report", "pipeline", "cli",
                            "estimator"],
    "modelmine.spec": ["base_models", "patterns", "operators", "diagnostics", "evaluation",
                       "report", "pipeline", "cli", "estimator"],
    "modelmine.diagnostics": ["evaluation", "report", "pipeline", "singlecell", "cli",
                              "estimator"],
    "modelmine.report": ["pipeline", "singlecell", "cli", "evaluation"],
    "modelmine.pipeline": ["cli", "evaluation"],
}


@pytest.mark.parametrize("stage", sorted(_LATER))
def test_imports_point_down_the_flow(stage):
    graph = _graph(module_level_only=False)
    later = tuple(f"modelmine.{s}" for s in _LATER[stage])
    wrong = sorted((m, d) for m, deps in graph.items()
                   if m == stage or m.startswith(stage + ".")
                   for d in deps if d.startswith(later))
    assert wrong == []


def test_a_run_without_report_does_not_import_matplotlib():
    # nor networkx, which only the lattice needs (issue 52: imported on first use)
    code = ("import sys, modelmine as mm\n"
            "X, y = mm.datasets.load_colon()\n"
            "r = mm.run(X[:, :100], y, selector='anova', n_bootstraps=4, n_features=5,\n"
            "           n_signatures=2)\n"
            "assert r.signatures and r.diagnostics is not None\n"
            "print(sorted(m for m in sys.modules\n"
            "             if m.split('.')[0] in ('matplotlib', 'networkx')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]", out.stdout
