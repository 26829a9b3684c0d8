"""The architecture of docs/DEVELOPING.md, checked on the source (issue 23).

- No import cycle inside a package: the import graph of each package's modules, built with
  ``ast`` from every import statement (at module level and inside functions: a lazy import
  is still a dependency), except those under ``if TYPE_CHECKING:``, has no cycle.
- Imports point down the flow: the stages named in DEVELOPING.md never import a later
  stage at module level.
- ``mm.run`` without a report never imports matplotlib.
"""

from __future__ import annotations

import ast
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

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _nested

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


#: The stages of the flow (docs/DEVELOPING.md), each listing the later ones it must never
#: import at module level.
_LATER = {
    "modelmine.selectors": ["base_models", "patterns", "operators", "diagnostics",
                            "evaluation", "report", "pipeline", "cli", "estimator"],
    "modelmine.base_models": ["patterns", "operators", "evaluation", "report", "pipeline",
                              "cli", "estimator"],
    "modelmine.patterns": ["operators", "evaluation", "report", "pipeline", "cli",
                           "estimator"],
    "modelmine.operators": ["evaluation", "report", "pipeline", "cli", "estimator"],
    "modelmine.report": ["pipeline", "cli", "evaluation"],
    "modelmine.pipeline": ["cli", "evaluation"],
}


@pytest.mark.parametrize("stage", sorted(_LATER))
def test_imports_point_down_the_flow(stage):
    graph = _graph(module_level_only=True)
    later = tuple(f"modelmine.{s}" for s in _LATER[stage])
    wrong = sorted((m, d) for m, deps in graph.items()
                   if m == stage or m.startswith(stage + ".")
                   for d in deps if d.startswith(later))
    assert wrong == []


def test_a_run_without_report_does_not_import_matplotlib():
    code = ("import sys, modelmine as mm\n"
            "X, y = mm.datasets.load_colon()\n"
            "r = mm.run(X[:, :100], y, selector='anova', n_bootstraps=4, n_features=5,\n"
            "           n_signatures=2)\n"
            "assert r.signatures and r.diagnostics is not None\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]", out.stdout
