"""
The interactive lattice explorer
================================

``ItemsetLattice.to_html`` writes the closed itemsets of a run and their Hasse diagram into
one offline page: search a gene, click an itemset for its support and the base models that
hold it, compare two signatures (docs/lattice.md). This example makes the run on leukemia
(72 x 7129) with the "chi2" selector, closedApr (one consensus signature) and allMed (k = 5
alternatives) (Woznica, Nguyen and Kalousis, KDD 2012, sections 2 and 4), writes the page,
and shows it below as a notebook does.

Run it::

    python examples/lattice_explorer.py [--fast] [--out DIR] [--screenshots DIR]

``--screenshots DIR`` drives headless Chromium (as the tests do) through the page's controls
and saves the PNGs of docs/lattice.md there.
"""

# sphinx_gallery_thumbnail_path = "lattice/explorer.png"

import argparse
import sys
import tempfile
from pathlib import Path

import modelmine as mm

parser = argparse.ArgumentParser(description="Write the interactive lattice explorer of a "
                                 "leukemia run, and (optionally) its screenshots.")
parser.add_argument("--fast", action="store_true", help="b = 40 instead of 150")
parser.add_argument("--out", type=Path, default=None, help="output directory")
parser.add_argument("--screenshots", type=Path, default=None,
                    help="save screenshots of the page here (needs Chromium)")
args = parser.parse_args()
out = args.out or Path(tempfile.mkdtemp(prefix="modelmine-explorer-"))
out.mkdir(parents=True, exist_ok=True)

# %%
# The run
# -------
X, y, names = mm.datasets.load_leukemia(return_names=True)
run = mm.run(X, y, selector="chi2", n_bootstraps=40 if args.fast else 150, n_features=20,
             n_signatures=5, operators=["closedApr", "allMed"], feature_names=names,
             random_state=0, progress=False)

# %%
# The page
# --------
# The closed itemsets at support 0.15, with the run's signatures to compare.
lattice = run.lattice(min_support=0.15)  # carries the run's signatures
page_path = lattice.to_html(out / "leukemia_lattice.html",
                            title="modelmine lattice explorer: leukemia, chi2, b = 150")
print(f"{lattice}: wrote {page_path.name}")

# %%
# In a notebook, the lattice shows itself: the same explorer, inline (search a gene, click
# an itemset, pick two signatures to compare).
lattice


# %%
# Screenshots
# -----------
# What docs/lattice.md shows, taken in headless Chromium through the page's own controls
# (only with ``--screenshots DIR``).
def screenshots(page_path: Path, lattice, run, folder: Path) -> None:
    sys.path.insert(0, str(Path(sys.argv[0]).resolve().parents[1] / "tests" / "report"))
    from browser_session import BrowserPage

    folder.mkdir(parents=True, exist_ok=True)
    # a gene in many itemsets but not in nearly all of them (those are in every base model)
    names = run.base_models.feature_names
    in_itemsets = {}
    for node in lattice.graph:
        for name in lattice.graph.nodes[node]["names"]:
            in_itemsets[name] = in_itemsets.get(name, 0) + 1
    gene = max(
        (n for n in sorted(in_itemsets) if in_itemsets[n] < 0.3 * len(lattice)),
        key=lambda n: in_itemsets[n],
    )
    assert gene in set(names)
    hits = lattice.containing(gene)
    node = max(
        hits, key=lambda n: (lattice.graph.nodes[n]["size"], lattice.graph.nodes[n]["count"])
    )
    key = ",".join(lattice.graph.nodes[node]["names"])
    with BrowserPage(width=1400, height=860) as page:
        page.open(page_path)
        page.wait_for("document.getElementById('lattice').dataset.ready === '1'")
        page.settle()
        page.screenshot(folder / "explorer.png")
        page.type("#lattice-search", gene)
        page.settle()
        page.click(f'#lattice circle[data-itemset="{key}"]')
        page.settle()
        page.screenshot(folder / "search-and-details.png")
        page.type("#lattice-search", "")
        page.evaluate(
            "(() => { for (const [id, v] of [['lattice-compare-a', '0'], "
            "['lattice-compare-b', '1']]) { const s = document.getElementById(id);"
            " s.value = v; s.dispatchEvent(new Event('change')); } })()"
        )
        page.settle()
        page.screenshot(folder / "compare.png")
        assert page.errors() == [], page.errors()
    from PIL import Image  # matplotlib's dependency: 256-colour PNGs, a third of the size

    for png in folder.glob("*.png"):
        Image.open(png).convert("RGB").quantize(256).save(png, optimize=True)
    print(f"screenshots in {folder}")


if args.screenshots is not None:
    screenshots(page_path, lattice, run, args.screenshots)
