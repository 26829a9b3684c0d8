"""The gallery's order and the command line each example runs with (docs/conf.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

#: The gallery's examples in the order a new user reads them; the other scripts of
#: examples/ are not in the gallery (:func:`ignore_pattern`).
ORDER: list[str] = [
    "quickstart.py",
    "alternative_signatures.py",
    "lattice.py",
    "lattice_explorer.py",
    "error_control.py",
    "per_class_markers.py",
    "biology.py",
    "survival.py",
    "singlecell_panels.py",
    "multiomic.py",
    "plugin_operator.py",
    "custom_operator.py",
    "sklearn_pipeline.py",
    "kdd12_tables.py",
]

#: Where the examples write their files during the build (beside the site, not in it).
OUT = Path(__file__).resolve().parents[1] / "_build" / "gallery-out"


def ignore_pattern() -> str:
    """sphinx-gallery's ``ignore_pattern``: every script but those of :data:`ORDER`."""
    names = "|".join(Path(name).stem for name in ORDER) or "(?!)"
    return rf"^(?!(?:.*[\\/])?(?:{names})\.py$)"  # a file name, or a path


class ExampleOrder:
    """sphinx-gallery's ``within_subsection_order``: the order of :data:`ORDER`."""

    def __init__(self, src_dir: str) -> None:
        self.src_dir = src_dir

    def __repr__(self) -> str:
        return "<ExampleOrder>"

    def __call__(self, filename: str) -> tuple[int, str]:
        name = Path(filename).name
        return (ORDER.index(name), name)


def fast_argv(gallery_conf: dict, script_vars: dict) -> list[str]:
    """sphinx-gallery's ``reset_argv``: ``--fast --out DIR``, the command the test suite
    runs every example with (tests/examples/test_examples.py), in an empty DIR."""
    out = OUT / Path(script_vars["src_file"]).stem
    shutil.rmtree(out, ignore_errors=True)
    # relative to the example's folder, where sphinx-gallery runs it: the pages then show
    # no path of the machine that built them
    return ["--fast", "--out", os.path.relpath(out, Path(script_vars["src_file"]).parent)]
