"""The report is a list of sections (issue 48, item 5): adding one is one function plus one
list entry, as docs/DEVELOPING.md's recipe "Add a report section" says, and no report
function is long.

Oracles: the recipe's own text (run as written), the distinct rows of each resample counted
from ``BaseModels.sample_indices`` by hand, and the source's syntax tree.
"""

from __future__ import annotations

import ast
import base64
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.report import _sections

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "modelmine" / "report"
#: The longest a report function may be (issue 48: ``_build`` was 261 lines).
MAX_LINES = 120
#: The most branches a report function may take (``_build`` had 72).
MAX_COMPLEXITY = 30


def _recipe() -> tuple[str, str]:
    """The recipe's function (its ```python block) and list entry (its ```text block)."""
    text = (ROOT / "docs" / "DEVELOPING.md").read_text(encoding="utf-8")
    recipe = text[text.index("### Add a report section"):]
    recipe = recipe[:recipe.index("\n## ", 1)] if "\n## " in recipe[1:] else recipe
    code = re.search(r"```python\n(.*?)```", recipe, re.S).group(1)
    entry = re.search(r"```text\n(.*?)```", recipe, re.S).group(1)
    return code, entry.strip().rstrip(",")


@pytest.fixture(scope="module")
def run():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 12))
    y = np.repeat(["a", "b"], 15)
    X[y == "a", :2] += 1.5
    return mm.run(X, y, selector="anova", n_bootstraps=5, n_features=4, n_signatures=2,
                  operators=["mostFreq"], random_state=3, progress=False)


@pytest.fixture(scope="module")
def recipe_page(run, tmp_path_factory):
    """The recipe's section, added as it says, and the run's report with it."""
    code, entry = _recipe()
    space: dict = {}
    exec(compile(code, "DEVELOPING.md", "exec"), space)
    section = eval(entry, {**vars(_sections), **space})
    assert isinstance(section, _sections.Section)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_sections, "SECTIONS", [*_sections.SECTIONS, section])
        path = run.report(tmp_path_factory.mktemp("recipe") / "report.html")
    return section, path.read_text(encoding="utf-8")


def test_a_section_added_as_the_recipe_says_is_on_the_page(run, recipe_page):
    section, page = recipe_page
    assert f'<a href="#{section.anchor}">{section.name}</a>' in page
    assert page.index(f'id="{section.anchor}"') > page.index('id="diagnostics"')
    link = re.search(r'download="resample-sizes\.csv" href="data:text/csv;charset=utf-8;'
                     r'base64,([^"]+)"', page)
    shown = pd.read_csv(io.BytesIO(base64.b64decode(link.group(1))))
    rows = run.base_models.sample_indices
    truth = [len(set(int(i) for i in row if i >= 0)) for row in rows]
    assert shown["distinct samples"].tolist() == truth
    assert shown["resample"].tolist() == list(range(1, len(truth) + 1))


def test_a_section_with_nothing_to_show_leaves_the_page_and_its_navigation(recipe_page):
    section, page = recipe_page  # a run without an error-control check nor gene sets
    for absent in ("error-control", "enrichment"):
        assert f'id="{absent}"' not in page and f'href="#{absent}"' not in page
    # the navigation bar follows the sections, in page order
    links = re.findall(r'<a href="#([a-z-]+)">', page[page.index("<nav>"):
                                                      page.index("</nav>")])
    assert links == ["summary"] + [s.anchor for s in _sections.SECTIONS if s.anchor not in (
        "error-control", "enrichment")] + [section.anchor]
    assert [page.index(f'id="{a}"') for a in links] == sorted(
        page.index(f'id="{a}"') for a in links)


def _complexity(func: ast.AST) -> int:
    """McCabe's count: 1 + the branches (if, loops, handlers, with, boolean operators,
    conditional expressions, comprehension clauses)."""
    count = 1
    for node in ast.walk(func):
        if isinstance(node, ast.If | ast.IfExp | ast.For | ast.While | ast.ExceptHandler
                      | ast.With | ast.Assert):
            count += 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
    return count


def test_the_complexity_counter_counts_a_known_function():
    tree = ast.parse("def f(a, b):\n    if a and b:\n        return [x for x in a if x]\n"
                     "    return 1 if b else 2\n")
    assert _complexity(tree.body[0]) == 1 + 1 + 1 + 2 + 1


def test_no_report_function_is_long_or_tangled():
    found = []
    for path in sorted(REPORT.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_LINES or _complexity(node) > MAX_COMPLEXITY:
                    found.append(f"{path.name}:{node.name}: {lines} lines, complexity "
                                 f"{_complexity(node)}")
    assert found == []
