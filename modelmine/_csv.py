"""CSV files a spreadsheet will open: cells that would run as formulas are neutralised.

OWASP's advice on CSV injection: a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return is taken by Excel, LibreOffice and Google Sheets for a formula (and a
formula can run commands or send data away). Feature names, labels and operator names are
data a user did not necessarily write (a downloaded dataset, a plugin), so the text cells
of the CSV files modelmine writes for people (``frequencies.csv``, ``signatures/*.csv``,
``diagnostics.csv``, ``itemsets.csv``, the ``--null`` and ``--evaluate`` tables, the
report's and the lattice explorer's downloads) get a leading apostrophe, which spreadsheets
show as text and do not display. Numbers are never changed (``-0.5`` stays a number).
:func:`restore_cell` undoes it where modelmine reads such a table back
(``evaluation.csv``). Files read back as data are written exactly: ``expression.csv.gz``,
``modelmine datasets export``. ``MiningRun.save(..., spreadsheet_safe=False)`` writes
every cell as it is (``mm.MiningRun.load(DIR).save(NEW, spreadsheet_safe=False)`` for a
directory ``modelmine run`` wrote).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["FORMULA_START", "restore_cell", "safe_cell", "safe_frame"]

#: What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A text cell with a leading apostrophe when it would start a formula; anything
    else (numbers, missing values) unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def restore_cell(value: Any) -> Any:
    """The inverse of :func:`safe_cell` on what it wrote."""
    if isinstance(value, str) and len(value) > 1 and value[0] == "'" \
            and value[1:].startswith(FORMULA_START):
        return value[1:]
    return value


def safe_frame(frame: pd.DataFrame, enabled: bool = True) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells, column names and index labels are safe to open
    in a spreadsheet (:func:`safe_cell`); the frame itself when ``enabled`` is False."""
    if not enabled:
        return frame
    out = frame.copy()
    for i in range(out.shape[1]):  # by position: column names may repeat
        column = out.iloc[:, i]
        if column.dtype == object or pd.api.types.is_string_dtype(column):
            out.isetitem(i, column.map(safe_cell).to_numpy())
    out.columns = [safe_cell(c) for c in out.columns]
    if out.index.dtype == object:
        out.index = pd.Index([safe_cell(i) for i in out.index], name=safe_cell(out.index.name))
    return out
