"""The run report's page left out of the tests that never read it.

A small ``modelmine run`` (or ``MiningRun.save``, a resumed ``run_dir``) spends about 3 of
its 3.5 CPU-s building the report's sections and figures. The tests here of run
directories, outputs, refusals, resumes and printed lines that never open report.html ask
for ``report_page_left_out`` (one test) or ``page_left_out`` (a context manager, for a
module's fixture or one call): report.html is then a one-line page, written by every writer
through the same atomic write. The pages themselves are checked by the tests that read them
(here and in tests/report, tests/test_report_words.py). The same device as
tests/reliability's ``report_page_left_out``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

#: What report.html holds when its page is left out.
STUB_PAGE = "<!DOCTYPE html>\n<title>report page left out by this test</title>\n"


def _leave_out(patch: pytest.MonkeyPatch) -> None:
    from modelmine.report import _html

    patch.setattr(_html, "render", lambda page, figures_dir=None: STUB_PAGE)


@contextlib.contextmanager
def _page_left_out() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        _leave_out(patch)
        yield


@pytest.fixture
def report_page_left_out(monkeypatch):
    """For one test: the report's page is :data:`STUB_PAGE` (its sections and figures are
    not built)."""
    _leave_out(monkeypatch)


@pytest.fixture(scope="session")
def page_left_out():
    """A context manager: inside it, the report's page is :data:`STUB_PAGE` (for a module's
    fixture, or for one call of a test that reads another run's page)."""
    return _page_left_out
