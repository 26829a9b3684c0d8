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


@contextlib.contextmanager
def _first_page_left_out() -> Iterator[None]:
    from modelmine.report import _html

    real = _html.render
    calls = []

    def render(page, figures_dir=None):
        calls.append(1)
        return STUB_PAGE if len(calls) == 1 else real(page, figures_dir)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_html, "render", render)
        yield
    assert len(calls) >= 2, "no page replaced the first one: the test would read a stub"


@pytest.fixture(scope="session")
def first_page_left_out():
    """A context manager for one ``modelmine run`` with extras (--evaluate, --null,
    --pfer/--fdr): the finished run's page, which the extras' step writes again before any
    check reads it, is :data:`STUB_PAGE`; the pages after it are built. It fails when no
    second page was written."""
    return _first_page_left_out
