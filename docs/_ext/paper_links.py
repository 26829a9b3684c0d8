"""Links from the docstrings' citations to the papers' sections (issue 52, item 1).

The docstrings cite the papers in the text, as the project's style asks: "(KDD 2012,
section 2.1)", "Pes (2019, Section 3.1)", "Nogueira et al. (JMLR 2018)". On the site each
citation becomes a link to the paper's entry in ``references.md``, to the section cited
when the page has it (``(paper-kdd2012-2.1)=``), else to the nearest enclosing section
(2.1.3 -> 2.1 -> 2) or the paper. The labels are read from ``references.md`` itself, the one
list of the papers and their sections. A citation of a section the paper does not have
(its enclosing top-level section missing too) is counted and named at the end of the build.

Only plain text is rewritten: not a code span, a literal block, a doctest or a role.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: How a paper is cited in the docstrings -> its key in references.md (``paper-KEY``).
PAPERS = [
    (r"(?:ECML\s)?PKDD[\s']?(?:20)?08", "saeys2008"),
    (r"KDD(?:\s?2012|'12)", "kdd2012"),
    (r"ECML(?:\sPKDD)?\s2016|Nogueira\sand\sBrown\s\(?2016", "nogueira2016"),
    (r"JMLR\s2018", "nogueira2018"),
    (r"Pes\s\(?2019", "pes2019"),
    (r"Salman\s\(?2022", "salman2022"),
    (r"Meinshausen\sand\sB(?:ue|ü)hlmann\s\(?2010", "meinshausen2010"),
    (r"Shah\sand\sSamworth\s\(?2013", "shah2013"),
    (r"Hedou\set\sal\.\s\(?2024", "hedou2024"),
]
_SECTION = (r"(?:,\s*|\s+)(?:[Ss]ections?|[Ss]ect?\.|[Cc]hapter)\s*(?P<number>\d+(?:\.\d+)*)"
            r"|,\s*(?P<bare>\d+\.\d+(?:\.\d+)*)")
CITATION = re.compile(
    "(?<![`\\w])(?P<paper>" + "|".join(f"(?P<p{i}>{pattern})"
                                         for i, (pattern, _) in enumerate(PAPERS))
    + f")(?:{_SECTION})?")
_LABEL = re.compile(r"^\((paper-[\w.-]+)\)=\s*$", re.M)


def labels(srcdir: Path) -> set[str]:
    """The labels of references.md (``paper-kdd2012``, ``paper-kdd2012-2.1`` ...)."""
    page = srcdir / "references.md"
    return set(_LABEL.findall(page.read_text(encoding="utf-8"))) if page.exists() else set()


def target(key: str, number: str | None, known: set[str]) -> tuple[str, bool]:
    """The label of the section cited (or of its nearest enclosing one, or of the paper),
    and whether the paper's page has the top-level section cited at all."""
    paper = f"paper-{key}"
    if not number:
        return paper, True
    parts = number.split(".")
    for depth in range(len(parts), 0, -1):
        label = f"{paper}-{'.'.join(parts[:depth])}"
        if label in known:
            return label, True
    return paper, False


def _code_spans(line: str) -> list[tuple[int, int]]:
    """Where the inline literals and roles of a line are (text not to touch)."""
    return [m.span() for m in re.finditer(r"``.+?``|:\w+:`[^`]*`|`[^`]*`_{0,2}", line)]


def link_line(line: str, known: set[str], missing: dict[str, int]) -> str:
    """``line`` with each citation of a paper made a ``:ref:`` to its section."""
    spans = _code_spans(line)

    def replace(match: re.Match[str]) -> str:
        if any(a <= match.start() < b for a, b in spans):
            return match.group(0)
        key = next(key for i, (_, key) in enumerate(PAPERS) if match.group(f"p{i}"))
        if f"paper-{key}" not in known:
            return match.group(0)  # a paper references.md does not list: left as text
        number = match.group("number") or match.group("bare")
        label, found = target(key, number, known)
        if not found:
            missing[f"{key} {number}"] = missing.get(f"{key} {number}", 0) + 1
        # "sec." spelled out: autosummary cuts a summary line at a period and a space
        text = re.sub(r"\b([Ss])ect?\.\s*", lambda m: "Section " if m.group(1) == "S"
                      else "section ", match.group(0)).replace("<", r"\<")
        return f":ref:`{text} <{label}>`"

    return CITATION.sub(replace, line)


def link_docstring(lines: list[str], known: set[str], missing: dict[str, int]) -> None:
    """Rewrite the citations of a docstring in place, outside literal blocks and doctests."""
    literal_indent: int | None = None
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if literal_indent is not None:
            if stripped and indent <= literal_indent:
                literal_indent = None
            else:
                continue
        if stripped.startswith((">>>", "...")):
            continue
        lines[i] = link_line(line, known, missing)
        if line.rstrip().endswith("::"):
            literal_indent = indent


def process(app: Sphinx, what: str, name: str, obj: Any, options: Any,
            lines: list[str]) -> None:
    env = app.env
    if not hasattr(env, "paper_labels"):
        env.paper_labels = labels(Path(app.srcdir))  # type: ignore[attr-defined]
    missing = getattr(env, "paper_sections_missing", None)
    if missing is None:
        missing = env.paper_sections_missing = {}  # type: ignore[attr-defined]
    link_docstring(lines, env.paper_labels, missing)  # type: ignore[attr-defined]


def report(app: Sphinx, exception: Exception | None) -> None:
    missing = getattr(app.env, "paper_sections_missing", {})
    if missing and exception is None:
        logger.info("citations of sections the papers' page does not have (linked to the "
                    "paper): %s", ", ".join(f"{k} ({n})" for k, n in sorted(missing.items())))


def setup(app: Sphinx) -> dict[str, Any]:
    # after numpydoc (priority 500) has parsed the sections, before autodoc renders them
    app.connect("autodoc-process-docstring", process, priority=600)
    app.connect("build-finished", report)
    # the pages this extension shapes are read again when its code changes
    return {"parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": zlib.crc32(Path(__file__).read_bytes())}
