"""The self-contained HTML report of a model-mining run, and its matplotlib figures.

Woznica, Nguyen and Kalousis (KDD 2012): signatures, selection frequencies, the itemset
lattice and the diagnostics of a run, in one HTML file with embedded plots.
"""

from importlib import import_module
from typing import Any

#: Where each public name lives. The figures (matplotlib) and the HTML page are imported on
#: first use only, so that ``mm.run`` without a report never imports matplotlib.
_HOME = {
    "NOTES": "_diagnostics", "run_diagnostics": "_diagnostics",
    "build_report": "_html", "write_report": "_html", "write_run_report": "_html",
    "run_markers": "_context",
    "range_text": "_words", "scaling_statement": "_words",
    "annotate_anndata": "_outputs", "signature_sets": "_outputs",
    "signatures_gmt": "_outputs", "markers_gmt": "_outputs", "h5_key": "_outputs",
    "figure_to_png": "_plots", "plot_error_vs_stability": "_plots",
    "plot_lattice_top": "_plots", "plot_selection_frequency": "_plots",
    "plot_signature_overlap": "_plots", "plot_stability": "_plots",
    "plot_stability_path": "_plots", "plot_support_distribution": "_plots",
    "OperatorResult": "_records", "markdown_table": "_records",
    "operator_result": "_records", "signature_table": "_records",
    "POOR_STABILITY": "_trust", "trust_warnings": "_trust",
    "build_marker_report": "_singlecell", "write_marker_report": "_singlecell",
    "panel_dot_data": "_singlecell",
    "plot_volcano": "_biology", "volcano_data": "_biology",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        value = getattr(import_module(f".{_HOME[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


__all__ = [
    "OperatorResult",
    "annotate_anndata",
    "build_marker_report",
    "build_report",
    "markers_gmt",
    "operator_result",
    "plot_error_vs_stability",
    "plot_lattice_top",
    "plot_selection_frequency",
    "plot_signature_overlap",
    "plot_stability",
    "plot_stability_path",
    "plot_support_distribution",
    "plot_volcano",
    "run_diagnostics",
    "signature_sets",
    "signatures_gmt",
    "trust_warnings",
    "write_marker_report",
    "write_report",
]
