"""The building blocks of the report's HTML: escaped text, numbers for people, tables with
their CSV downloads, figures with their SVG and PDF, provenance in words.

Every section of the run report (:mod:`._sections`) and the single-cell marker report
(:mod:`._singlecell`) writes its HTML with these, so that a number, a p-value or a table
looks the same everywhere on a page.
"""

from __future__ import annotations

import base64
import contextvars
import html
import io
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._plots import png_data_uri
from ._words import unset_text

CSS = """
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:#222;
background:#fafafa;line-height:1.45}
main{max-width:1100px;margin:0 auto;padding:24px 28px 60px;background:#fff}
h1{font-size:1.7em;margin:0 0 4px}h2{border-bottom:2px solid #c2185b;padding-bottom:3px;
margin-top:36px}h3{margin-bottom:6px}
table{border-collapse:collapse;margin:8px 0 14px;font-size:0.9em}
th,td{border:1px solid #ddd;padding:3px 9px;text-align:left}
th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums}
img{max-width:100%;height:auto;display:block;margin:10px 0;border:1px solid #eee}
.warning{background:#fdf3e7;border-left:4px solid #c0392b;padding:6px 12px;margin:8px 0}
.note{background:#f6f8fb;border-left:4px solid #4c72b0;padding:6px 12px;margin:8px 0;
font-size:0.92em}.muted{color:#666;font-size:0.9em}
details{margin:6px 0}summary{cursor:pointer;font-weight:600}
nav a{margin-right:14px}
pre,code{background:#f4f4f4;font-size:0.9em}pre{padding:8px 10px;white-space:pre-wrap}
p.dl{margin:-8px 0 12px;font-size:0.85em}a.csv{color:#4c72b0}
.summary{border:1px solid #e3e3e3;padding:4px 16px 8px;margin:14px 0;background:#fcfcfd}
.summary h2{margin-top:10px}.summary ul{margin:6px 0;padding-left:20px}
.thumbs{display:flex;flex-wrap:wrap;gap:10px;align-items:flex-start;margin:8px 0}
.thumbs img{width:auto;max-width:100%;margin:0}
@media print{.summary{page-break-after:always}}
"""


def e(value: Any) -> str:
    """``value`` as HTML text (escaped, quotes included)."""
    return html.escape(str(value), quote=True)


def fmt(v: Any, digits: int = 3) -> str:
    """A single value: floats with ``digits`` decimals, whole ones (ranks) as integers."""
    if v is None:
        return ""
    if isinstance(v, bool | np.bool_):
        return "yes" if v else "no"
    if isinstance(v, float | np.floating):
        if not np.isfinite(v):
            return ""
        if float(v).is_integer() and abs(float(v)) < 1e15:
            return str(int(v))
        return f"{float(v):.{digits}f}"
    return str(v)


#: Formats of the signature tables' columns.
SIGNATURE_FORMATS = {"frequency": "{:.2f}", "mean rank": "{:.1f}"}


def csv_link(frame: pd.DataFrame, name: str) -> str:
    """A link that downloads ``frame`` as ``name`` (a data: URL; the page stays offline)."""
    from .._csv import safe_frame

    data = base64.b64encode(safe_frame(frame).to_csv(index=False).encode("utf-8")).decode(
        "ascii")
    return (f'<a class="csv" download="{e(name)}" '
            f'href="data:text/csv;charset=utf-8;base64,{data}">download {e(name)}</a>')


def p_text(v: Any) -> str:
    """A p- or q-value for people: three decimals, "< 0.001" below that (never "0.000",
    which reads as impossible), "" when missing."""
    if v is None or not np.isfinite(float(v)):
        return ""
    v = float(v)
    return "< 0.001" if v < 0.001 else f"{v:.3f}"


def _is_p_column(name: Any) -> bool:
    text = str(name).replace("_", " ").lower()
    return text in ("p value", "q value", "p", "q") or text.endswith((" p value",
                                                                     " q value"))


def _column_formats(shown: pd.DataFrame, formats: Mapping[str, str] | None) -> list[Any]:
    """Each column's format: given, p-values as :func:`p_text`, whole floats as integers."""
    out: list[Any] = []
    for col in shown.columns:
        values = shown[col]
        form: Any = (formats or {}).get(str(col))
        if form is None and _is_p_column(col):
            out.append(p_text)
            continue
        if form is None and pd.api.types.is_float_dtype(values):
            finite = values.to_numpy(dtype=np.float64)
            finite = finite[np.isfinite(finite)]
            if finite.size and np.all(finite == np.round(finite)):
                form = "{:.0f}"
        out.append(form)
    return out


def _cell(v: Any, form: Any, digits: int) -> str:
    numeric = isinstance(v, int | float | np.integer | np.floating) and not isinstance(
        v, bool | np.bool_)
    cls = ' class="num"' if numeric else ""
    text = (form(v) if callable(form) and numeric else
            form.format(v) if form and numeric and np.isfinite(v)
            else fmt(v, digits))
    return f"<td{cls}>{e(text)}</td>"


def table(frame: pd.DataFrame, *, digits: int = 3, max_rows: int | None = None,
          csv: str | None = None, formats: Mapping[str, str] | None = None) -> str:
    """An HTML table; a float column whose values are all whole numbers (ranks, counts)
    shows them as integers, ``formats`` gives a column its own format (``"{:.1f}"``);
    p- and q-values below 0.001 show as "< 0.001" (:func:`p_text`)."""
    shown = frame if max_rows is None else frame.head(max_rows)
    head = "".join(f"<th>{e(str(c).replace('_', ' '))}</th>" for c in shown.columns)
    forms = _column_formats(shown, formats)
    body = ["<tr>" + "".join(_cell(v, form, digits) for v, form in zip(row, forms))
            + "</tr>" for row in shown.itertuples(index=False)]
    more = ""
    if max_rows is not None and len(frame) > max_rows:
        more = (f'<p class="muted">{len(frame) - max_rows} more rows in the CSV'
                f"{' below' if csv else ' files'}.</p>")
    link = f'<p class="dl">{csv_link(frame, csv)}</p>' if csv else ""
    return (f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f"{more}{link}")


def kv_table(items: Mapping[str, Any], *, csv: str | None = None) -> str:
    """A two-column table of names and values (the data, the settings)."""
    rows = "".join(f"<tr><th>{e(k)}</th><td>{e(fmt(v))}</td></tr>"
                   for k, v in items.items())
    link = ""
    if csv:
        frame = pd.DataFrame({"name": list(items), "value": [fmt(v) for v in items.values()]})
        link = f'<p class="dl">{csv_link(frame, csv)}</p>'
    return f"<table>{rows}</table>{link}"


#: Where :func:`build_report` writes its figures for a paper (``figures_dir=``), and the
#: names used so far: set for the duration of one call.
FIGURES: contextvars.ContextVar[tuple[Path, set[str]] | None] = contextvars.ContextVar(
    "modelmine_report_figures", default=None)

#: The resolution of the PNG files ``figures_dir`` receives (print quality).
FIGURE_DPI = 300


def img(fig: Any, alt: str, *, anchor: str | None = None) -> str:
    """The figure as a PNG ``<img>`` (with the id ``anchor``, for the summary's links), with
    its SVG and PDF as downloads (vector, for a paper); with ``figures_dir`` also written
    there as SVG, PDF and 300-dpi PNG."""
    uri = png_data_uri(fig)
    name = slug(alt)[:60] or "figure"
    links = []
    for form, mime in (("svg", "image/svg+xml"), ("pdf", "application/pdf")):
        buf = io.BytesIO()
        fig.savefig(buf, format=form, bbox_inches="tight", facecolor="white")
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        links.append(f'<a class="csv" download="{name}.{form}" href="data:{mime};base64,'
                     f'{data}">{form.upper()}</a>')
    target = FIGURES.get()
    if target is not None:
        directory, used = target
        unique, i = name, 2
        while unique in used:
            unique, i = f"{name}-{i}", i + 1
        used.add(unique)
        for form in ("svg", "pdf"):
            fig.savefig(directory / f"{unique}.{form}", format=form, bbox_inches="tight",
                        facecolor="white")
        fig.savefig(directory / f"{unique}.png", format="png", dpi=FIGURE_DPI,
                    bbox_inches="tight", facecolor="white")
    where = f' id="{e(anchor)}"' if anchor else ""
    return (f'<img src="{uri}" alt="{e(alt)}"{where}>'
            f'<p class="dl">download: {" ".join(links)}</p>')


def slug(text: str) -> str:
    """``text`` as a file name (letters, digits, ``_.-``)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "table"


def readable(value: Any, names: Sequence[str], key: str = "") -> str:
    """A provenance value in words: feature indices as gene names, lists shortened."""
    if isinstance(value, Mapping):
        return "; ".join(f"{k} = {readable(v, names, str(k))}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if key in _FEATURE_KEYS and all(isinstance(v, int) for v in value):
            items = [names[v] if 0 <= v < len(names) else str(v) for v in value]
        else:
            items = [readable(v, names, key) for v in value]
        if not items:
            return "none"
        return ", ".join(items[:12]) + (f", ... ({len(items)} in all)" if len(items) > 12
                                        else "")
    if isinstance(value, float):
        return f"{value:.4g}"
    if value is None:
        return unset_text(key)
    return str(value)


#: Provenance keys whose lists hold feature indices (shown as feature names).
_FEATURE_KEYS = {"items", "added", "features", "filled_by_frequency", "cut"}
#: Provenance keys the settings table already shows.
_PROVENANCE_SKIP = {"operator", "kind", "base_models", "origin"}


def provenance(prov: Mapping[str, Any], names: Sequence[str], csv: str) -> str:
    """Provenance as small tables: the scalar facts, then each list of records (itemsets)."""
    if not prov:
        return ""
    facts: dict[str, str] = {}
    parts: list[str] = []
    for key, value in prov.items():
        if key in _PROVENANCE_SKIP:
            continue
        if key == "params" and isinstance(value, Mapping):
            facts["parameters"] = ", ".join(f"{k} = {readable(v, names)}"
                                            for k, v in value.items()) or "defaults"
        elif (isinstance(value, list) and value
              and all(isinstance(v, Mapping) for v in value)):
            frame = pd.DataFrame([{k: readable(v, names, str(k)) if isinstance(v, list)
                                   else v for k, v in rec.items()} for rec in value])
            parts.append(f"<p><b>{e(key.replace('_', ' '))}</b></p>"
                         + table(frame, csv=f"{csv}-{slug(key)}.csv"))
        else:
            facts[key.replace("_", " ")] = readable(value, names, key)
    head = "<details><summary>How this signature was made</summary>"
    return head + kv_table(facts) + "".join(parts) + "</details>"


def command_text(command: Sequence[str]) -> str:
    """A command line as a shell would read it back."""
    return " ".join(shlex.quote(str(c)) for c in command)
