"""The progress bar of long runs (bootstraps, the evaluation protocol)."""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["progress_bar"]


def progress_bar(total: int, desc: str, unit: str, show: bool | None) -> Any:
    """A tqdm bar on stderr; ``show=None`` shows it only when stderr is a terminal."""
    from tqdm.auto import tqdm

    visible = sys.stderr.isatty() if show is None else bool(show)
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False,
                disable=not visible)
