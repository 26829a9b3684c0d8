"""The evaluation command a report suggests (``Not run for this report``) evaluates the
selector as it ran: its parameters (ReliefF's variant, whose default changed in issue 37),
the operators' parameters and the seed, not the library defaults."""

from __future__ import annotations

import html
import re

import numpy as np

import modelmine as mm


def test_the_suggested_evaluation_runs_the_selector_the_run_used(tmp_path, monkeypatch,
                                                                 page_left_out):
    X, y = mm.datasets.load_colon()
    X = X[:, :150]
    run = mm.run(X, y, selector=mm.selectors.get_selector("relieff", {"variant": "skrebate"}),
                 operators=["closedApr"], operator_params={"closedApr": {"strategy": "area"}},
                 n_bootstraps=4, n_signatures=2, random_state=7, progress=False)
    page = tmp_path / "report.html"
    run.report(page)
    snippet = html.unescape(re.search(r"<pre>(result = mm\.evaluate.*?)</pre>",
                                      page.read_text(), flags=re.S).group(1))
    assert "'variant': 'skrebate'" in snippet and "random_state=7" in snippet
    monkeypatch.chdir(tmp_path)
    space = {"mm": mm, "X": X, "y": y, "run": run}
    with page_left_out():  # the snippet's own report of the result: its page is not read
        exec(snippet.replace("n_bootstraps=4", "n_bootstraps=4, n_folds=3, progress=False"),
             space)
    ours = space["result"].folds
    kwargs = dict(operators=["closedApr"], n_bootstraps=4, n_signatures=2, n_folds=3,
                  random_state=7, progress=False,
                  operator_params={"closedApr": {"strategy": "area"}})
    skrebate = mm.evaluate(X, y, selectors={"relieff": mm.selectors.get_selector(
        "relieff", {"variant": "skrebate"})}, **kwargs).folds
    weka = mm.evaluate(X, y, selectors=["relieff"], **kwargs).folds
    assert list(ours.features) == list(skrebate.features)
    np.testing.assert_array_equal(ours.error, skrebate.error)
    assert list(ours.features) != list(weka.features)  # the default would differ
