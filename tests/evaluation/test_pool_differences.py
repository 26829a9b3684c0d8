"""``pool_differences``: pooled paired error differences and their power, checked by
simulation under a known truth (over seeds) and on the rows of a real evaluation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import modelmine as mm

#: The shapes of the KDD'12 study: six datasets' sizes, seven selectors.
SIZES = (62, 72, 102, 1993, 1943, 2600)
N_SELECTORS = 7


def simulated_table(rng: np.random.Generator, delta: float, *, shared: float = 0.6,
                    discordant: float = 0.12) -> pd.DataFrame:
    """Per-sample paired differences in {-1, 0, 1} with mean ``delta`` on every dataset,
    correlated across the selectors of a dataset (they share a sample's draw with
    probability ``shared``), summarised as ``paired_differences`` does (mean, normal
    95 % interval)."""
    up, down = discordant / 2 + delta / 2, discordant / 2 - delta / 2
    means, halves = [], []
    for n in SIZES:
        common = rng.random(n)
        draws = rng.random((N_SELECTORS, 2, n))  # per selector: whether it shares, its own
        u = np.where(draws[:, 0] < shared, common, draws[:, 1])
        d = np.where(u < up, 1.0, np.where(u < up + down, -1.0, 0.0))
        means.append(d.mean(axis=1))
        halves.append(1.959963984540054 * d.std(axis=1, ddof=1) / np.sqrt(n))
    mean, half = np.concatenate(means), np.concatenate(halves)
    return pd.DataFrame({"dataset": np.repeat([f"d{ds}" for ds in range(len(SIZES))],
                                              N_SELECTORS),
                         "selector": np.tile([f"s{sel}" for sel in range(N_SELECTORS)],
                                             len(SIZES)),
                         "operator": "closedApr", "baseline": "mostFreq",
                         "error_difference": mean,
                         "ci_low": mean - half, "ci_high": mean + half})


def test_pooled_interval_covers_and_power_is_a_lower_bound_by_simulation():
    """Over 400 seeds: the pooled 95 % interval covers the true difference at least as
    often as stated, the test rejects a true null at most at alpha, and a true difference
    of ``effect`` is detected at least as often as the reported (lower-bound) power."""
    rng = np.random.default_rng(20261126)
    seeds = 400
    mc = 3 * np.sqrt(0.05 * 0.95 / seeds)  # three Monte Carlo standard errors

    def simulations(delta: float, effect: float) -> pd.DataFrame:
        # one call pools every seed's table: each is a comparison of its own (``strategy``)
        tables = [simulated_table(rng, delta).assign(strategy=f"seed{i}")
                  for i in range(seeds)]
        out = mm.evaluation.pool_differences(pd.concat(tables, ignore_index=True),
                                             effect=effect)
        assert list(out.strategy) == [f"seed{i}" for i in range(seeds)]
        assert (out.n_datasets == len(SIZES)).all()
        return out

    out = simulations(0.0, 0.01)
    covered = ((out.ci_low <= 0.0) & (out.ci_high >= 0.0)).sum()
    rejected_null = (out.p_value < 0.05).sum()
    assert covered / seeds >= 0.95 - mc
    assert rejected_null / seeds <= 0.05 + mc
    effect = 0.015
    out = simulations(effect, effect)
    detected = ((out.p_value < 0.05) & (out.error_difference > 0)).sum()
    power = float(out.power_at_effect.mean())
    assert 0.2 < power < 0.95  # the simulation sits where power is informative
    assert detected / seeds >= power - 3 * np.sqrt(power * (1 - power) / seeds)


def test_detectable_is_the_effect_with_the_stated_power():
    rng = np.random.default_rng(7)
    out = mm.evaluation.pool_differences(simulated_table(rng, 0.0), power=0.8)
    again = mm.evaluation.pool_differences(simulated_table(np.random.default_rng(7), 0.0),
                                           effect=float(out.detectable[0]))
    # 0.8 from the near tail, plus the far tail (about 1e-6)
    assert again.power_at_effect[0] == pytest.approx(0.8, abs=1e-5)


def test_one_dataset_one_selector_is_the_row_itself():
    row = pd.DataFrame([{"dataset": "colon", "selector": "ig", "operator": "maxApr",
                         "baseline": "nobagg", "error_difference": 0.02,
                         "ci_low": -0.01, "ci_high": 0.05}])
    out = mm.evaluation.pool_differences(row)
    assert out.ci_low[0] == pytest.approx(-0.01) and out.ci_high[0] == pytest.approx(0.05)
    se = 0.03 / norm.ppf(0.975)
    assert out.p_value[0] == pytest.approx(2 * norm.sf(0.02 / se))


def test_identical_signatures_have_nothing_to_test():
    rows = pd.DataFrame([{"dataset": "colon", "selector": s, "operator": "closedApr",
                          "strategy": "literal", "baseline": "mostFreq",
                          "error_difference": 0.0, "ci_low": 0.0, "ci_high": 0.0}
                         for s in ("ig", "su")])
    out = mm.evaluation.pool_differences(rows)
    assert out.p_value[0] == 1.0 and np.isnan(out.power_at_effect[0])
    assert out.detectable[0] == 0.0


def test_on_the_rows_of_a_real_evaluation(colon_raw):
    """On an evaluation of colon, pooling per dataset averages the selectors' rows."""
    X, y = colon_raw[:2]
    res = mm.evaluate(X, y, selectors=["ig", "anova"], operators=["mostFreq", "closedApr"],
                      n_folds=3, n_bootstraps=5, random_state=0, n_jobs=1, progress=False)
    table = res.paired_differences(classifier="svm")
    table.insert(0, "dataset", "colon")
    out = mm.evaluation.pool_differences(table, by=("operator", "baseline"))
    for _, row in out.iterrows():
        part = table[(table.operator == row.operator) & (table.baseline == row.baseline)]
        assert row.error_difference == pytest.approx(part.error_difference.mean())
        assert row.n_selectors == 2 and row.n_datasets == 1


def test_per_dataset_rows_and_another_value_column():
    """``by`` with ``dataset`` gives one row per dataset, equal to pooling that dataset
    alone; ``value`` pools any paired difference with a normal interval."""
    table = simulated_table(np.random.default_rng(3), 0.01).rename(
        columns={"error_difference": "stability_difference"})
    per = mm.evaluation.pool_differences(table, by=("dataset", "operator"),
                                         value="stability_difference")
    assert list(per.dataset) == [f"d{i}" for i in range(len(SIZES))]
    alone = mm.evaluation.pool_differences(table[table.dataset == "d4"],
                                           value="stability_difference")
    row = per.set_index("dataset").loc["d4"]
    assert row.stability_difference == pytest.approx(alone.stability_difference[0])
    assert row.se == pytest.approx(alone.se[0])


@pytest.mark.parametrize("bad, message", [
    ("not a table", "table"),
    (pd.DataFrame({"dataset": ["a"], "selector": ["s"]}), "error_difference"),
])
def test_bad_tables_are_named(bad, message):
    with pytest.raises((TypeError, ValueError), match=message):
        mm.evaluation.pool_differences(bad)


def test_an_interval_not_around_its_estimate_is_refused():
    row = pd.DataFrame([{"dataset": "a", "selector": "s", "error_difference": 0.5,
                         "ci_low": -0.1, "ci_high": 0.1}])
    with pytest.raises(ValueError, match=r"table.*centred"):
        mm.evaluation.pool_differences(row)


def test_operators_that_never_disagree_do_not_give_full_power():
    """Issue 49: closedApr and mostFreq chose the same signatures in 20 of 21 microarray
    cells (every per-sample difference 0); with ``n_samples`` the power is that of the
    alternative (at least ``effect`` of the samples disagree), small on 62-102 samples, and
    not the plug-in power of a zero standard error. The power is the z test's at the
    floored standard errors."""
    sizes = {"colon": 62, "leukemia": 72, "prostate": 102}
    rows = [{"dataset": ds, "selector": s, "operator": "closedApr", "baseline": "mostFreq",
             "n_samples": n, "error_difference": 0.0, "ci_low": 0.0, "ci_high": 0.0}
            for ds, n in sizes.items()
            for s in ("ig", "chi2", "su", "relieff", "svm", "svm-rfe", "cfs")]
    rows[0].update(error_difference=1 / 62, ci_low=1 / 62 - 0.0311, ci_high=1 / 62 + 0.0311)
    table = pd.DataFrame(rows)
    out = mm.evaluation.pool_differences(table, effect=0.01)
    floor = {ds: np.sqrt((0.01 - 0.01 ** 2) / n) for ds, n in sizes.items()}
    colon = (max(0.0311 / norm.ppf(0.975), floor["colon"]) + 6 * floor["colon"]) / 7
    se_alt = np.sqrt(colon ** 2 + floor["leukemia"] ** 2 + floor["prostate"] ** 2) / 3
    z = norm.ppf(0.975)
    expected = norm.sf(z - 0.01 / se_alt) + norm.cdf(-z - 0.01 / se_alt)
    assert out.power_at_effect[0] == pytest.approx(expected)
    assert out.power_at_effect[0] < 0.5
    without = mm.evaluation.pool_differences(table.drop(columns="n_samples"), effect=0.01)
    assert without.power_at_effect[0] > 0.99  # the plug-in figure the floor replaces
