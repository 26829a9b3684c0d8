"""The self-contained HTML report of a model-mining run, and its matplotlib figures.

Woznica, Nguyen and Kalousis (KDD 2012): signatures, selection frequencies, the itemset
lattice and the diagnostics of a run, in one HTML file with embedded plots.
"""

from ._diagnostics import NOTES, run_diagnostics
from ._html import (
    build_report,
    write_report,
)
from ._outputs import annotate_anndata, signature_sets, signatures_gmt
from ._plots import (
    figure_to_png,
    plot_error_vs_stability,
    plot_lattice_top,
    plot_selection_frequency,
    plot_signature_overlap,
    plot_stability,
    plot_stability_path,
    plot_support_distribution,
)
from ._records import (
    OperatorResult,
    markdown_table,
    operator_result,
    signature_table,
)
from ._trust import POOR_STABILITY, trust_warnings

__all__ = [
    "NOTES",
    "POOR_STABILITY",
    "OperatorResult",
    "annotate_anndata",
    "build_report",
    "figure_to_png",
    "markdown_table",
    "operator_result",
    "plot_error_vs_stability",
    "plot_lattice_top",
    "plot_selection_frequency",
    "plot_signature_overlap",
    "plot_stability",
    "plot_stability_path",
    "plot_support_distribution",
    "run_diagnostics",
    "signature_sets",
    "signature_table",
    "signatures_gmt",
    "trust_warnings",
    "write_report",
]
