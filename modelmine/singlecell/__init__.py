"""Single-cell scale: stable marker panels for every cluster (issue 29).

:func:`marker_panels` runs the per-cluster selection on an AnnData and writes the panels
where scanpy reads them (``adata.uns`` in ``rank_genes_groups``' layout, ``adata.var``).
"""

from ._panels import MarkerPanels, marker_panels, panel_memory, wilcoxon_by_group
from ._tables import tidy_marker_table

__all__ = ["MarkerPanels", "marker_panels", "panel_memory", "tidy_marker_table",
           "wilcoxon_by_group"]
