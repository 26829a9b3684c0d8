"""Every timing, speed ratio and memory figure in README.md and docs/*.md cites its source.

Issue 39.

The project rule: a published number comes from a committed CSV or log under
``benchmarks/results/`` (or ``results/``, or ``docs/kdd12/`` for the committed KDD'12 run,
whose ``run.log`` names its commit and command) that names the commit and the command that
made it.
This test enforces the checkable half: a prose or table line with a timing (``0.6 s``,
``25 ms``, ``13 min``), a speed ratio (``3x``, ``1.3-2x``, ``115×``) or a memory figure
(``40 MiB``, ``2 GB``) must have a path ``benchmarks/results/FILE`` or ``results/FILE`` that
exists within ``WINDOW`` lines of it (of a table's first line, for a table row). Code
(fenced or indented blocks, inline `code` spans, where settings such as ``timeout="10s"``
live) is not prose.

Every page is under the rule: one line without a source fails its page. (The pages written
before the rule were brought under it by issue 39, item 7: each figure sourced, re-measured
with its output committed, or withdrawn.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
WINDOW = 12

_NUM = r"(?<![\w.])\d+(?:[.,]\d+)?(?:[-–]\d+(?:[.,]\d+)?)?"
FIGURE = re.compile(
    _NUM + r"\s?(?:ms|s|min|us|µs|MiB|GiB|MB|GB)\b(?![-'])"   # timings and memory
    + r"|" + _NUM + r"[x×](?!\w)"                             # speed ratios, no space: 3x
)
_CODE_SPAN = re.compile(r"`[^`]*`")
# A table header cell naming a time, ratio or memory unit ("ours (s)", "WEKA s", "x", "ratio"):
# the table's rows then hold bare numbers, so the header line counts as the figure.
_UNIT_CELL = re.compile(
    r"^(?:.*\s)?\(?(?:s|ms|min|seconds|MiB|GiB|MB|GB)\)?$|^(?:x|×|ratio|speed-?up)$", re.I)
SOURCE = re.compile(r"(?<![\w/])(?:benchmarks/results|results|docs/kdd12)/[\w./+{},-]*[\w+}-]")
_BRACE = re.compile(r"\{([^{}]*)\}")


def expand(ref: str) -> list[str]:
    """The paths a shell brace pattern names: ``a.{log,csv}`` -> ``a.log``, ``a.csv``."""
    match = _BRACE.search(ref)
    if match is None:
        return [ref]
    return [path for part in match.group(1).split(",")
            for path in expand(ref[:match.start()] + part + ref[match.end():])]

def unsourced(text: str, window: int = WINDOW) -> list[int]:
    """1-based numbers of the prose lines with a figure and no existing source nearby."""
    lines = text.splitlines()
    prose = []
    fenced = False
    for line in lines:
        if line.lstrip().startswith("```"):
            fenced = not fenced
            prose.append(False)
            continue
        prose.append(not fenced and not line.startswith("    "))
    out = []
    start = 0  # a table row is as near its source as the table's first line
    for i, line in enumerate(lines):
        if not (line.lstrip().startswith("|") and i and lines[i - 1].lstrip().startswith("|")):
            start = i
        plain = _CODE_SPAN.sub("", line)
        header = (plain.lstrip().startswith("|") and i + 1 < len(lines)
                  and re.match(r"^\s*\|[\s:|-]+$", lines[i + 1]) is not None
                  and any(_UNIT_CELL.match(c.strip()) for c in plain.strip().strip("|").split("|")))
        if not prose[i] or not (FIGURE.search(plain) or header):
            continue
        near = lines[max(0, start - window): i + window + 1]
        refs = [path for w in near for ref in SOURCE.findall(w) for path in expand(ref)]
        if not any((ROOT / ref).is_file() for ref in refs):
            out.append(i + 1)
    return out


def test_the_figure_reader_sees_timings_ratios_and_sources(tmp_path):
    text = "\n".join([
        "Jaccard 0.6–0.75 s and Kuncheva 0.05 s.",      # 1: timings
        "about 3x faster than pyfim",                     # 2: ratio
        "a 4 x 4 case of 10^10 cells; `timeout=\"10s\"`",  # 3: none (dims, code span)
        "```", "t = 10 s", "```",                         # 4-6: code
        "    indented 5 ms",                              # 7: code
        "peak 40 MiB",                                    # 8: memory
        "| data | n x p | ours (s) | x |", "|---|---|---|---|",  # 9: a timed table's header
        "| colon | 62 x 2000 | 0.01 | 74 |",
        "| data | n x p | top-20 |", "|---|---|---|",      # 12: untimed table
    ])
    assert unsourced(text, window=0) == [1, 2, 8, 9]
    cited = "25 ms (benchmarks/results/overhead.log)\n" + "x\n" * 3 + "115x"
    assert unsourced(cited, window=4) == []
    assert unsourced(cited, window=3) == [5]
    assert unsourced("25 ms (benchmarks/results/no_such_file.csv)", window=0) == [1]
    assert expand("results/a{,_b}.{csv,log}") == ["results/a.csv", "results/a.log",
                                                    "results/a_b.csv", "results/a_b.log"]
    assert unsourced("25 ms in `benchmarks/results/overhead.{log,csv}`", window=0) == []
    table = "benchmarks/results/overhead.log\n| a | x |\n|---|---|\n| b | 3x |\n| c | 5x |"
    assert unsourced(table, window=1) == []
    assert unsourced(table.replace("|\n| c", "|\n\n| c"), window=1) == [6]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_figure_of_the_page_cites_a_committed_result(page):
    name = page.relative_to(ROOT).as_posix()
    bad = unsourced(page.read_text(encoding="utf-8"))
    assert bad == [], (
        f"{name}: lines {bad} give a timing, ratio or memory figure without a path to an "
        "existing benchmarks/results/, results/ or docs/kdd12/ (the committed KDD'12 run) "
        f"file within {WINDOW} lines")
