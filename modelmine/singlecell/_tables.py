"""The marker tables of the previous release, read in today's vocabulary (issue 38).

:func:`marker_panels` (and ``modelmine markers``, in ``markers.csv`` / ``combinations.csv``)
wrote its tables in scanpy's column names (``group``, ``names``, ``pvals_adj``, ``scores`` a
copy of ``frequency``); they now use the tidy marker vocabulary of
:func:`modelmine.diagnostics.marker_table` (``class``, ``feature``, ``q_value``, ...).
scanpy's layout stays where scanpy reads it, in ``adata.uns``.
"""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from ..exceptions import DataError

#: Old column -> today's column, for the panels table and the combinations table.
OLD_COLUMNS = {"group": "class", "names": "feature", "logfoldchanges": "log2_fold_change",
               "pvals": "p_value", "pvals_adj": "q_value", "genes": "features"}


def tidy_marker_table(table: pd.DataFrame | str | os.PathLike[str]) -> pd.DataFrame:
    """A marker table of :func:`marker_panels`, old or new, in today's columns.

    Parameters
    ----------
    table : DataFrame or path
        ``MarkerPanels.table`` / ``MarkerPanels.combinations``, or the ``markers.csv`` /
        ``combinations.csv`` of ``modelmine markers``, written by this release or the
        previous one.

    Returns
    -------
    pandas.DataFrame
        The same rows, with the old column names renamed (``group`` -> ``class``,
        ``names`` -> ``feature``, ``logfoldchanges`` -> ``log2_fold_change``, ``pvals``
        -> ``p_value``, ``pvals_adj`` -> ``q_value``, ``genes`` -> ``features``) and the old
        ``scores`` column (a copy of ``frequency``) dropped. A table in today's columns
        comes back unchanged. A CSV's ``class`` column is read as text.
    """
    frame: Any = table
    if not isinstance(table, pd.DataFrame):
        try:
            frame = pd.read_csv(table, dtype={"group": str, "class": str})
        except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError,
                UnicodeDecodeError) as exc:
            raise DataError(f"Cannot read the marker table {str(table)!r}: {exc}") from None
    old = [c for c in OLD_COLUMNS if c in frame.columns]
    if not old and "scores" not in frame.columns:
        return frame
    if "scores" in frame.columns and "frequency" in frame.columns:
        frame = frame.drop(columns="scores")
    return frame.rename(columns={c: OLD_COLUMNS[c] for c in old})
