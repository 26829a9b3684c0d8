"""The pages' names as links on the site (issue 52, item 1).

The markdown pages and the docstrings name another page as code, ``docs/groups.md``, which
reads well in a repository and in a terminal. On the site such a name becomes a link to the
page, when the site has it (``docs/api.md``, the plain list of the public names, becomes the
API reference generated from the same ``__all__``). Nothing else changes: the text stays the
same code span, inside the link.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

PAGE = re.compile(r"docs/([\w./-]+)\.md")
#: Pages of the repository that the site shows elsewhere.
INSTEAD = {"api": "reference/index"}


def link_pages(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """At writing, when every page is known: each ``docs/NAME.md`` code span that names a
    page of the site becomes a link to it (the code span kept inside)."""
    if app.builder.format != "html":
        return
    for node in list(doctree.findall(nodes.literal)):
        if isinstance(node.parent, nodes.reference):
            continue
        match = PAGE.fullmatch(node.astext())
        if match is None:
            continue
        target = INSTEAD.get(match.group(1), match.group(1))
        if target not in app.env.found_docs or target == docname:
            continue
        ref = nodes.reference("", "", internal=True,
                              refuri=app.builder.get_relative_uri(docname, target))
        ref += node.deepcopy()
        node.replace_self(ref)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("doctree-resolved", link_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": zlib.crc32(Path(__file__).read_bytes())}
