"""Error control that checks the user's run instead of replacing it.

Stability selection with the Shah-Samworth bound (Shah and Samworth, JRSS-B 2013) needs
complementary pairs of half-samples, and Stabl's FDP+ (Hedou et al., Nature Biotechnology
2024) needs artificial features; a run with the bootstrap of KDD 2012 (section 3) has
neither. :func:`check_error_control` leaves the run as it is and fits, beside it, the same
selector with the same settings on complementary pairs (with permuted decoys for the FDR
target), then says, gene by gene, which genes of the run's signatures the error-controlled
operators keep. ``modelmine run --pfer V --fdr Q`` writes it as ``error_control.csv`` and
the ``error_control/`` run directory; the run's own signatures never change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..validation import check_real, param_error

__all__ = ["ErrorControlCheck", "check_error_control"]


@dataclass(frozen=True)
class ErrorControlCheck:
    """The error-controlled selections beside a run, gene by gene.

    Attributes
    ----------
    run : MiningRun
        The complementary-pairs run (the run's selector and settings; permuted decoys when
        an FDR target was given) with the operators ``stabilitySelection`` and / or
        ``stabl``.
    table : pandas.DataFrame
        One row per gene of the checked run's signatures or of the error-controlled
        selections: ``feature``, ``signatures`` (the run's operators whose signature holds
        it, space-separated), ``pairs_frequency`` (its selection frequency over the
        complementary-pairs models) and one boolean column per error-controlled operator.
    statements : tuple of str
        In words, for each of the run's consensus signatures and each error-controlled
        operator: how many of its genes pass, at which threshold and error level.
    """

    run: Any
    table: pd.DataFrame
    statements: tuple[str, ...]


def _check_covariates_given(run: Any, X: Any, func: str) -> None:
    """A run adjusted for covariates is checked adjusted: X must hold their columns (as
    the run read them), else the error names X and the columns, not the run's door."""
    names = tuple(run.spec.covariates)
    if not names:
        return
    from ..datasets import LoadedData

    if isinstance(X, LoadedData):
        have = [] if X.covariates is None else [str(c) for c in X.covariates.columns]
        have += [str(f) for f in X.feature_names]
    else:
        have = [str(c) for c in getattr(X, "columns", [])]
    missing = [c for c in names if c not in have]
    if missing:
        raise param_error(
            "X", func, "the run's data with the columns of its covariates "
            f"({', '.join(map(repr, names))}): the run was adjusted for them, and so is "
            "its check", f"data without {', '.join(map(repr, missing))}" + (
                "" if hasattr(X, "columns") or isinstance(X, LoadedData) else
                " (an array has no column names: pass the DataFrame the run was given)"),
            show=False)


def check_error_control(
    run: Any, X: Any, y: Any = None, *, pfer: float | None = None,
    fdr: float | None = None, groups: Any = None, sample_weight: Any = None,
    n_jobs: int | None = None, executor: Any = None, progress: bool | None = None,
) -> ErrorControlCheck:
    """Check a run's signatures against stability selection (PFER) and Stabl (FDR).

    Fits the run's selector with the run's settings (m, scaling, selector parameters,
    stratification, groups, seed) on complementary pairs of half-samples (Shah and
    Samworth 2013; b is the run's, made even), with permuted artificial features when
    ``fdr`` is given, and aggregates them with ``stabilitySelection`` (``pfer``: at most
    that many expected false selections, the Shah-Samworth unimodal bound) and ``stabl``
    (``fdr``: Stabl's FDP+ target). The run itself is not changed: its genes are checked.

    Parameters
    ----------
    run : MiningRun
    X, y : the run's data (or a LoadedData as ``X``). For a run adjusted for covariates,
        X holds their columns as the run was given them, or X is the data without them
        and the run's own values (``run.covariates``) are taken.
    pfer : float, optional
        The expected number of false selections allowed (stabilitySelection).
    fdr : float in (0, 1), optional
        The false discovery proportion targeted (stabl). At least one of the two.
    groups, sample_weight : optional
        The run's groups and weights, when it had them.
    n_jobs, executor, progress : optional
        As in :func:`modelmine.run`.

    Returns
    -------
    ErrorControlCheck
    """
    from ..operators import Signature
    from ..pipeline import run as mine

    func = "check_error_control"
    if pfer is None and fdr is None:
        raise param_error("pfer", func, "a positive number, or fdr given", None)
    from ..datasets import LoadedData
    from ._adjustment import holds_columns

    covariates, named = None, tuple(run.spec.covariates)
    if (named and run.covariates is not None and not isinstance(X, LoadedData)
            and not holds_columns(X, named, None)):
        covariates = run.covariates  # the run's own values (X: its data without them)
    else:
        _check_covariates_given(run, X, func)
    operators, params = [], {}
    if pfer is not None:
        operators.append("stabilitySelection")
        params["stabilitySelection"] = {"pfer": check_real(pfer, "pfer", func, low=0.0,
                                                           closed="neither")}
    if fdr is not None:
        operators.append("stabl")
        params["stabl"] = {"fdr": check_real(fdr, "fdr", func, low=0.0, high=1.0,
                                             closed="neither")}
    b = run.spec.n_bootstraps
    # The run's own settings, on complementary pairs (which draw nothing to weight or cap).
    spec = run.spec.replace(
        func, n_bootstraps=b + (b % 2), resampling="complementary-pairs",
        sample_fraction=None, weighted_resampling=False, max_per_class=None, per_class=False,
        artificial_features="permutation" if fdr is not None else None,
        operators=operators, operator_params=params)
    # the weights go to the selector as in the run's base models (where they drew the
    # run's resamples, complementary pairs draw nothing to weight)
    weights = (sample_weight if run.base_models.design.get("sample_weight") == "selector"
               else None)
    names = [str(f) for f in run.base_models.feature_names]
    checked = mine(X, y, spec=spec, n_jobs=n_jobs, executor=executor, progress=progress,
                   groups=groups, sample_weight=weights, covariates=covariates,
                   feature_names=None if isinstance(X, LoadedData) else names)
    chosen: dict[str, list[str]] = {}
    for op, result in run.signatures.items():
        sigs = [result] if isinstance(result, Signature) else list(result)
        for sig in sigs:
            for g in sig.names:
                chosen.setdefault(str(g), [])
                if op not in chosen[str(g)]:
                    chosen[str(g)].append(op)
    single = {op: checked.signatures[op] for op in operators}
    passed = {op: {str(g) for g in sig.names} for op, sig in single.items()
              if isinstance(sig, Signature)}
    genes = list(chosen) + sorted({g for s in passed.values() for g in s} - set(chosen))
    freq = checked.base_models.subsets.mean(axis=0)
    index = {n: j for j, n in enumerate(names)}
    table = pd.DataFrame({
        "feature": genes,
        "signatures": [" ".join(chosen.get(g, [])) for g in genes],
        "pairs_frequency": [float(freq[index[g]]) for g in genes]})
    for op in operators:
        table[op] = [g in passed[op] for g in genes]
    statements = []
    for op_name, result in run.signatures.items():
        if not isinstance(result, Signature) or op_name in operators:
            continue
        mine_genes = {str(g) for g in result.names}
        for op in operators:
            prov = checked.signatures[op].provenance
            if op == "stabilitySelection":
                level = (f"selection frequency at least {prov.get('threshold'):.2f} over "
                         f"{spec.n_bootstraps} complementary half-samples, at most "
                         f"{prov.get('pfer_bound'):.2g} expected false selections")
            else:
                level = (f"frequency above {prov.get('threshold'):.2f} with permuted decoys, "
                         f"estimated FDP+ {prov.get('fdp_plus'):.2g} (target {fdr})")
            kept = len(mine_genes & passed[op])
            statements.append(f"{kept} of the {len(mine_genes)} genes of {op_name} pass "
                              f"{op} ({level})"
                              + ("." if kept == len(mine_genes) else
                                 f"; the other {len(mine_genes) - kept} are not "
                                 "distinguishable from noise at that error level."))
    return ErrorControlCheck(run=checked, table=table, statements=tuple(statements))
