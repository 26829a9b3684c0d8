"""docs/cli.md against the selector registry: its table lists every built-in selector, with
the outcomes it fits, its kind and the first sentence of its docstring (issue 52: the page
listed 9 of them).

Run as a script to regenerate the table::

    python tests/cli/test_cli_docs.py --write
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

from modelmine.selectors import available_selectors, get_selector, selectors_for

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "cli.md"
BEGIN = ("<!-- the built-in selectors, generated from the registry by "
         "`python tests/cli/test_cli_docs.py --write` -->")
END = "<!-- end of the generated selectors -->"
OUTCOMES = ("classification", "regression", "survival")


def _markdown(text: str) -> str:
    """A docstring sentence as Markdown in a table cell: reST roles and literals become
    code spans, a pipe is escaped."""
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text)
    text = text.replace("``", "`")
    return text.replace("|", "\\|")


def _first_sentence(obj: object) -> str:
    paragraph = " ".join((inspect.getdoc(obj) or "").split("\n\n")[0].split())
    return re.split(r"(?<=\.)\s+(?=[A-Z])", paragraph)[0]


def selector_table() -> str:
    """The Markdown table of the built-in selectors, from the registry."""
    listing = available_selectors()
    fits = {outcome: set(selectors_for(outcome)) for outcome in OUTCOMES}
    lines = [BEGIN, "| selector | outcome | kind | what it selects by |", "|---|---|---|---|"]
    for row in listing.itertuples():
        if row.origin != "built-in":
            continue  # a plugin's selectors are listed by the installation that has it
        outcomes = ", ".join(o for o in OUTCOMES if row.name in fits[o])
        what = _markdown(_first_sentence(type(get_selector(row.name))))
        lines.append(f"| `{row.name}` | {outcomes} | {row.kind} | {what} |")
    return "\n".join([*lines, END])


def _documented(page: str) -> str:
    start, stop = page.index(BEGIN), page.index(END) + len(END)
    return page[start:stop]


def test_the_cli_page_lists_every_built_in_selector():
    page = PAGE.read_text(encoding="utf-8")
    documented = _documented(page)
    assert documented == selector_table(), (
        "docs/cli.md's selector table is not the registry's: run "
        "`python tests/cli/test_cli_docs.py --write`")
    names = re.findall(r"^\| `([\w-]+)` \|", documented, flags=re.M)
    built_in = available_selectors().query("origin == 'built-in'")["name"].tolist()
    assert names == built_in and len(names) >= 25
    # the --selector row of the options points to the table rather than naming a few
    row = next(line for line in page.splitlines() if line.startswith("| `--selector/-s`"))
    assert "Selectors" in row


if __name__ == "__main__":
    if "--write" in sys.argv:
        text = PAGE.read_text(encoding="utf-8")
        PAGE.write_text(text.replace(_documented(text), selector_table()), encoding="utf-8")
        print(f"wrote the selector table of {PAGE.relative_to(ROOT)}")
    else:
        print(selector_table())
