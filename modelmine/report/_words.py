"""A run's settings and data in words, said once: the report's tables, ``run.json``'s
descriptions (``data.values``, ``data.scaling``) and the summary read these.

- :func:`scaling_statement`: how the selector sees the values (the run's ``scale``, or an
  SVM selector's own per-resample scaling), the same sentence in the data and settings.
- :func:`resampling_statement`: what each resample draws (samples or whole groups, how
  many, stratified, weighted, capped per class).
- :func:`range_text`: a range of values with the same significant figures at both ends.
- :func:`shareable`: a value as a shared page may show it (a local path as its file name).
- :func:`unset_text`: a recorded None in words, by what it stood for.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path, PureWindowsPath
from typing import Any

__all__ = ["range_text", "resampling_statement", "scaling_statement", "shareable",
           "unset_text"]

#: Significant figures of the values the data descriptions quote.
FIGURES = 3


def _figure(value: float, figures: int = FIGURES) -> str:
    rounded = float(f"{value:.{figures}g}")
    if rounded == 0:
        return "0"
    decimals = max(0, figures - 1 - math.floor(math.log10(abs(rounded))))
    return f"{rounded:,.{decimals}f}"


def range_text(low: float, high: float, figures: int = FIGURES) -> str:
    """``"low to high"`` for people: whole numbers as they are (``-2 to 2``, ``0 to
    41,523``), else both ends with ``figures`` significant figures (``-3.55 to 4.16``, not
    ``-3.5488 to 4.15807``)."""
    if float(low).is_integer() and float(high).is_integer():
        return f"{int(low):,} to {int(high):,}"
    return f"{_figure(low, figures)} to {_figure(high, figures)}"


def scaling_statement(spec: Any) -> str:
    """How the selector sees the values, in words: the run's ``scale`` (a
    :class:`~modelmine.RunSpec` setting) or, when it is ``"none"``, the SVM selectors' own
    per-resample [0, 1] scaling (WEKA's SMO normalisation, their default)."""
    if spec.scale != "none":
        return {"standard": "each feature z-scored (zero mean, unit variance) inside each "
                            "resample (scale='standard')",
                "minmax": "each feature scaled to [0, 1] inside each resample "
                          "(scale='minmax')"}[spec.scale]
    own = [s.name for s in spec.selectors if getattr(s, "scale", "none") == "minmax"]
    if own:
        return (f"each feature scaled to [0, 1] inside each resample by {', '.join(own)} "
                "(its default, as WEKA's SMO)")
    return ("none: the selector sees the values as given (scale='standard' or 'minmax' "
            "scales them inside each resample)")


def resampling_statement(record: Mapping[str, Any]) -> str:
    """What each resample draws, from the base models' ``resampling`` record: the scheme,
    of samples or of whole groups (``groups``: their number), how many, stratified or
    not, capped per class, drawn by weight."""
    method = str(record.get("method", "bootstrap"))
    what = {"bootstrap": "with replacement",
            "complementary-pairs": "two disjoint halves per split"}.get(
                method, "without replacement")
    groups = record.get("groups")
    fraction = record.get("fraction")
    unit = (f"of the {int(groups)} groups, each drawn group with all its samples"
            if groups else "of the samples")
    parts = [f"{method} ({what})" if not groups else
             f"{method} of whole groups ({what})"]
    if fraction is not None:
        parts.append(f"{float(fraction):.0%} {unit}")
    parts.append("stratified by class" if record.get("stratify") else "not stratified")
    if record.get("max_per_class") is not None:
        parts.append(f"at most {int(record['max_per_class'])} samples of each class")
    weighting = record.get("sample_weight")
    if weighting == "resampling":
        parts.append("drawn in proportion to the sample weights")
    elif weighting == "selector":
        parts.append("the sample weights given to the selector")
    return ", ".join(parts)


def _is_local_path(text: str) -> bool:
    return (os.path.isabs(text) or PureWindowsPath(text).is_absolute()
            or text.startswith("~"))


def shareable(value: Any) -> Any:
    """``value`` as a page meant to be shared shows it: an absolute (or ``~``) path as
    its file name, in a mapping or a sequence too; anything else as it is."""
    if isinstance(value, str):
        return Path(value.replace("\\", "/")).name if _is_local_path(value) else value
    if isinstance(value, Mapping):
        return {k: shareable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [shareable(v) for v in value]
    return value


#: What a recorded None stood for, by the record's key (the default: "not given").
_UNSET = {"cut": "none (no itemset was cut)",
          "min_support_requested": "not given (the support of the m-th most frequent feature)",
          "n_features": "the selector's own subset size"}


def unset_text(key: str) -> str:
    """A recorded None in words, by what ``key`` stood for (never "None")."""
    return _UNSET.get(key, "not given")
