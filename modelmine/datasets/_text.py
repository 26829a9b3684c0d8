"""Text tables as labs write them: the (decompressed) bytes, the encoding (UTF-8, or
UTF-16 by its byte order mark) and numbers written with decimal commas. Shared by the data
reader (:mod:`._readers`) and the sample sheet's (:mod:`._biodata`)."""

from __future__ import annotations

import lzma
import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pandas as pd

from ..exceptions import DataError

__all__ = ["DECIMAL_COMMA", "THOUSANDS", "comma_example", "decimal_comma_columns",
           "open_text", "text_encoding"]


def open_text(path: Path) -> Any:
    """The (decompressed) byte stream of a text table, by its extension."""
    suffix = path.suffix.lower()
    if suffix == ".gz":
        import gzip

        return gzip.open(path, "rb")
    if suffix == ".bz2":
        import bz2

        return bz2.open(path, "rb")
    if suffix == ".xz":
        return lzma.open(path, "rb")
    if suffix == ".zip":
        archive = zipfile.ZipFile(path)
        names = archive.namelist()
        if len(names) != 1:
            archive.close()
            raise DataError(f"{str(path)!r} must hold exactly one table; it holds "
                            f"{len(names)} files.")
        return archive.open(names[0])
    return open(path, "rb")


def text_encoding(path: Path) -> str:
    """The text encoding of a table: UTF-8, or UTF-16 when the file starts with its byte
    order mark (Excel's "Unicode text"); a UTF-8 byte order mark is skipped."""
    try:
        with open_text(path) as fh:
            head = fh.read(4)
    except (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile, DataError):
        return "utf-8"  # damaged: pandas says how
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    return "utf-8-sig" if head.startswith(b"\xef\xbb\xbf") else "utf-8"


#: A number written with a decimal comma (``1,5``, ``-0,25``, ``3,2e-5``), or an integer.
DECIMAL_COMMA = re.compile(r"^\s*[-+]?(?:\d+(?:,\d*)?|,\d+)(?:[eE][-+]?\d+)?\s*$")
#: What could as well be a thousands separator: ``1,234`` or ``12,345,678``.
THOUSANDS = re.compile(r"^\s*[-+]?[1-9]\d{0,2}(?:,\d{3})+\s*$")


def decimal_comma_columns(frame: pd.DataFrame) -> tuple[list[str], list[str]]:
    """The text columns of a table that hold numbers with decimal commas, and those of
    them whose every comma could be a thousands separator (ambiguous)."""
    found, ambiguous = [], []
    for column in frame.columns:
        values = frame[column]
        if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        text = values.dropna().astype(str)
        if not len(text) or not text.str.contains(",", regex=False).any():
            continue
        if not text.map(lambda v: bool(DECIMAL_COMMA.match(v))).all():
            continue
        found.append(str(column))
        commas = text[text.str.contains(",", regex=False)]
        if commas.map(lambda v: bool(THOUSANDS.match(v))).all():
            ambiguous.append(str(column))
    return found, ambiguous


def comma_example(values: pd.Series) -> str:
    """A value of ``values`` holding a comma (else the first), for a message."""
    text = values.dropna().astype(str)
    commas = text[text.str.contains(",", regex=False)]
    return str(commas.iloc[0] if len(commas) else text.iloc[0])
