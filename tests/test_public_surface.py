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

Run as a script to print the number of public names per module (and, with ``--write``,
regenerate ``docs/api.md``)::

    python tests/test_public_surface.py [--write]
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
import types
from pathlib import Path

import pytest

import modelmine

ROOT = Path(__file__).resolve().parent.parent
API_PAGE = ROOT / "docs" / "api.md"

#: ``mm.<name>``: the main entry points, each also exported from its one home.
ENTRY_POINTS = frozenset({
    "BaseModels", "ItemsetLattice", "MiningRun", "ModelMiningSelector", "ModelmineError",
    "RunSpec", "Signature", "SignatureSet", "aggregate", "bootstrap", "evaluate",
    "mine_itemsets", "resume", "run",
})

#: Upper-case names a module other than ``constants`` may export: settings a user reads or
#: changes (the protocols of Pes and Salman read them; survival targets use the dtype).
PUBLIC_SETTINGS = frozenset({
    "modelmine.evaluation.PES_SELECTORS", "modelmine.evaluation.PES_SELECTOR_PARAMS",
    "modelmine.evaluation.PES_THRESHOLDS", "modelmine.evaluation.SALMAN_AGGREGATIONS",
    "modelmine.outcomes.SURVIVAL_DTYPE", "modelmine.spec.DEFAULT_SELECTORS",
    # the KDD'12 protocol's selectors and the recorded seed derivation of each protocol
    "modelmine.evaluation.KDD12_SELECTORS", "modelmine.evaluation.SEED_DERIVATIONS",
})


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
    for where in homes.values():
        if len(where) > 1:
            out.append(f"exported twice: {', '.join(where)}")
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
             "states the rule (one home per name, no aliases, no helpers).", ""]
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


def private_importers(root: Path = ROOT / "tests") -> list[Path]:
    """Test modules that import a private name of modelmine (a ``_`` module or name)."""
    pattern = re.compile(r"^\s*(from\s+modelmine[.\w]*\._\w+\s+import|import\s+modelmine[.\w]*"
                         r"\._\w+|from\s+modelmine[.\w]*\s+import\s+\(?[^)\n]*\b_\w+)", re.M)
    return sorted(p for p in root.rglob("test_*.py") if pattern.search(p.read_text()))


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
    tests = private_importers()
    print(f"test modules importing private names: {len(tests)} of "
          f"{len(list((ROOT / 'tests').rglob('test_*.py')))}")
    if "--write" in sys.argv:
        API_PAGE.write_text(api_page(names), encoding="utf-8")
        print(f"wrote {API_PAGE.relative_to(ROOT)}")
    problems = violations(names)
    print("\n".join(problems) or "the rule holds")
    sys.exit(1 if problems else 0)
