"""Pool paired error differences over datasets and selectors, with the power of the test.

KDD 2012 (section 3) counts McNemar points per dataset and selector and averages them;
a tie there can mean "no difference" or "too few samples to see one". The per-sample
paired differences of :meth:`EvaluationResult.paired_differences` give each comparison's
size with its interval; :func:`pool_differences` combines them into one estimate per
comparison, with the power it had to see a given effect and the smallest effect it could
see, so that a finding can be called reproduced, refuted at a stated power, or untestable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..validation import check_real, param_error

__all__ = ["pool_differences"]

def pool_differences(
    table: Any, *, by: Sequence[str] = ("operator", "strategy", "baseline"),
    effect: float = 0.01, alpha: float = 0.05, power: float = 0.8,
    confidence_level: float = 0.95, value: str = "error_difference",
) -> pd.DataFrame:
    """One estimate per comparison from per-(dataset, selector) paired error differences.

    For each group of ``by`` (a comparison such as closedApr - mostFreq in one reading):

    - within a dataset, the selectors' differences are averaged. They are measured on the
      same samples, so they are correlated; the standard error of their mean is bounded
      by the mean of their standard errors (perfect correlation, Cauchy-Schwarz), and
      that bound is used: the interval is conservative, the power a lower bound;
    - over datasets, which are independent, the datasets' means are averaged with equal
      weights (KDD 2012 averages its points over datasets and selectors the same way), so
      ``se = sqrt(sum se_d^2) / D``.

    The test is the two-sided z test of a zero mean difference at level ``alpha``;
    ``power_at_effect`` is its power against a true difference of ``effect`` in either
    direction, ``detectable`` the smallest difference it detects with probability
    ``power`` (``(z_{1-alpha/2} + z_power) se``, from the observed ``se``). A difference of
    0.01 is one percentage point of cross-validated error.

    The power is computed under the alternative, not from the observed spread alone: a
    per-sample error difference (values -1, 0, 1) whose true mean is ``effect`` has a
    variance of at least ``effect - effect^2`` (at least that fraction of the samples
    disagree), so with an ``n_samples`` column each row's standard error is floored at
    ``sqrt((effect - effect^2) / n_samples)`` for the power (issue 49: two operators that
    never disagreed on 62 samples must not give a power of 1). Without ``n_samples``, or
    for another ``value``, the observed standard errors are used; where every difference
    of a comparison is then exactly 0 (the two operators chose the same signatures in
    every fold, as closedApr in the paper's reading does with mostFreq up to ties) ``se``
    is 0 and the power is NaN: there is nothing to test.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows of :meth:`EvaluationResult.paired_differences` with a ``dataset`` column (as
        in the ``paired_differences.csv`` of ``examples/reproduce_kdd12.py``): ``dataset``,
        ``selector``, ``error_difference``, ``ci_low``, ``ci_high`` and the ``by`` columns;
        ``n_samples`` (optional) floors the power's standard errors (above).
    by : sequence of str, default=("operator", "strategy", "baseline")
        The columns that name a comparison (those absent from ``table`` are ignored).
        Add ``"dataset"`` for one row per dataset.
    effect : float, default=0.01
        The true difference (in error rate) whose power is reported.
    alpha : float, default=0.05
    power : float, default=0.8
        The power at which ``detectable`` is computed.
    confidence_level : float, default=0.95
        The level of the intervals in ``table`` (that of ``paired_differences``), from
        which each row's standard error is recovered.
    value : str, default="error_difference"
        The column of the differences; any paired difference with a normal interval
        (``ci_low``, ``ci_high``) pools the same way, a difference of stabilities for
        instance.

    Returns
    -------
    pandas.DataFrame
        One row per comparison: the ``by`` columns, ``n_datasets``, ``n_selectors`` (per
        dataset, at most), ``value`` (``error_difference``), ``se``, ``ci_low``, ``ci_high`` (at
        ``1 - alpha``), ``p_value``, ``power_at_effect`` and ``detectable``.

    Raises
    ------
    ValueError
        ``table`` lacks a needed column, or a row's interval is not around its estimate.

    References
    ----------
    Woznica, Nguyen and Kalousis, "Model mining for robust feature selection", KDD 2012,
    section 3 (the comparison protocol whose points these estimates complement).
    """
    from scipy.stats import norm

    func = "pool_differences"
    if not isinstance(table, pd.DataFrame):
        raise param_error("table", func, "a pandas DataFrame of paired differences",
                          type(table).__name__, exc=TypeError, show=False)
    if not isinstance(value, str):
        raise param_error("value", func, "a column name", value, exc=TypeError)
    needed = ("dataset", "selector", value, "ci_low", "ci_high")
    missing = [c for c in needed if c not in table.columns]
    if missing:
        raise param_error("table", func, f"the columns {', '.join(needed)}",
                          f"a table without {', '.join(missing)}", show=False)
    effect = check_real(effect, "effect", func, low=0.0, closed="neither")
    alpha = check_real(alpha, "alpha", func, low=0.0, high=1.0, closed="neither")
    power = check_real(power, "power", func, low=0.0, high=1.0, closed="neither")
    level = check_real(confidence_level, "confidence_level", func, low=0.0, high=1.0,
                       closed="neither")
    keys = [c for c in by if c in table.columns and c != "selector"]
    df = table.copy()
    if keys:
        df[keys] = df[keys].fillna("")
    half = (df.ci_high - df.ci_low) / 2
    centre = (df.ci_high + df.ci_low) / 2
    if (half < -1e-12).any() or not np.allclose(centre, df[value], atol=1e-9):
        raise param_error("table", func, f"intervals ci_low <= {value} <= ci_high "
                          "centred on the estimate (normal intervals)",
                          f"a row whose interval is not around its {value}", show=False)
    df["_se"] = half.clip(lower=0) / float(norm.ppf(0.5 + level / 2))
    df["_se_alt"] = df["_se"]
    if value == "error_difference" and "n_samples" in df.columns:
        n_rows = df["n_samples"].astype(float)
        df["_se_alt"] = np.sqrt(np.maximum(df["_se"] ** 2, (effect - effect ** 2) / n_rows))
    per_dataset = (df.groupby(list(dict.fromkeys([*keys, "dataset"])), sort=False)
                   .agg(diff=(value, "mean"), se=("_se", "mean"), se_alt=("_se_alt", "mean"),
                        n_selectors=("selector", "nunique"))
                   .reset_index())
    z_test = float(norm.ppf(1 - alpha / 2))
    z_power = float(norm.ppf(power))
    rows = []
    groups = per_dataset.groupby(keys, sort=False) if keys else [((), per_dataset)]
    for key, part in groups:
        n = len(part)
        est = float(part["diff"].mean())
        se = float(np.sqrt((part.se ** 2).sum()) / n)
        se_alt = float(np.sqrt((part.se_alt ** 2).sum()) / n)
        # every difference exactly 0 (identical signatures) or constant: no test
        p = float(2 * norm.sf(abs(est) / se)) if se > 0 else (1.0 if est == 0 else 0.0)
        pw = (float(norm.sf(z_test - effect / se_alt) + norm.cdf(-z_test - effect / se_alt))
              if se_alt > 0 else float("nan"))
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(keys, key, strict=True)), "n_datasets": n,
                     "n_selectors": int(part.n_selectors.max()), value: est,
                     "se": se, "ci_low": est - z_test * se, "ci_high": est + z_test * se,
                     "p_value": p, "power_at_effect": pw,
                     "detectable": (z_test + z_power) * se})
    return pd.DataFrame(rows, columns=[*keys, "n_datasets", "n_selectors", value, "se",
                                       "ci_low", "ci_high", "p_value", "power_at_effect",
                                       "detectable"])
