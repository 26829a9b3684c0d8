"""The report's tests draw their figures (tests/conftest.py's ``RENDERED``); ``not_drawn``
is for the ones that read only the page's text (see ``not_drawn.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from not_drawn import figures_not_drawn


@pytest.fixture
def not_drawn():
    """For one test: figures built, not drawn (requested after the autouse fixture of
    tests/conftest.py that draws them in this folder, so it wins)."""
    with figures_not_drawn():
        yield
