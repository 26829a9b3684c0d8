"""Benchmark: error control of stabilitySelection and stabl for regression and survival.

The simulation design of Meinshausen and Buhlmann (2010, "Stability selection", JRSS B 72,
section 4) and of Shah and Samworth (2013, "Variable selection with error control: another
look at stability selection", JRSS B 75, section 5): the predictors are a real microarray
(``mm.datasets.load_colon()``, 62 x 2000, and ``load_leukemia()``, 72 x 7129, with
``--datasets``), each column standardised; the truth is a set S of ``--signal`` (10)
features drawn at random for every seed, so the noise features keep the real correlation
structure (which the theory's exchangeability assumption ignores) and a "false positive"
is any selected feature outside S, however correlated with S it is.

Outcomes, per seed (``numpy.random.default_rng(seed)``):

- ``regression``: ``y = X_S beta + e`` with ``beta_j = +-1`` (random signs; ``--signs
  positive`` for all +1) and Gaussian noise whose variance makes the sample
  ``R^2 = var(X_S beta) / var(y)`` equal ``--r2`` (0.8) in expectation. Selector: ``lasso``
  (the order of entry on the LARS lasso path, subset = the first m to enter: stabs'
  ``lars.lasso``, the base learner of both papers).
- ``survival``: Cox model times ``T = -log(U) / (lambda exp(X_S beta))`` (Bender, Augustin
  and Blettner 2005) with ``lambda = 1``, ``|beta_j| ~ U(0.5, 1)`` (signs as above), and
  independent exponential censoring times C whose rate solves
  ``mean_i mu / (mu + lambda exp(eta_i)) = --censoring`` (0.3: the expected censored
  fraction given the linear predictors eta); ``event = T <= C``, ``time = min(T, C)``
  (``sksurv.util.Surv.from_arrays``). Selector: ``coxnet`` (order of entry on the
  elastic-net Cox path, stabs' ``glmnet.lasso`` for survival; ``cox-score`` with
  ``--survival-selector``; ``boosted-cox`` takes about 80 times as long).

For each outcome and seed, two ``mm.run`` calls with ``resampling="complementary-pairs"``
(b = ``--b`` halves, i.e. b/2 pairs; m = ``--m`` features per base model, so q = m):

1. ``stabilitySelection`` with ``pfer=1`` (bound "auto": Shah and Samworth's unimodal bound
   for complementary pairs), without artificial features: realised false positives V
   against the bound E[V] <= 1;
2. ``stabl`` with ``fdr=0.2`` on base models built with ``artificial_features=
   "permutation"`` (Hedou et al. 2024, Nature Biotechnology): the false discovery
   proportion (FDP = V / max(1, selected)) against 0.2. ``stabl`` is the signature of the
   run (capped at the m most frequent features, as ``mm.run`` passes m);
   ``stabl-uncapped`` is ``mm.aggregate(run.base_models, "stabl", fdr=0.2)`` on the same
   base models, every feature that passes Stabl's threshold.

Power is |selected & S| / |S|. Per outcome the table gives, over seeds, the mean of V and
of the FDP with a 95 % t interval, the standard error, the fraction of seeds above the
bound, and the excess over the bound that a one-sided 5 % t test on these seeds would
detect with 80 % power (``(z_0.95 + z_0.8) SE``): the power of the comparison. The claims
are about expectations (E[V] <= 1, FDR = E[FDP] <= 0.2), so the means are compared, not
single seeds.

Run: ``.venv/bin/python benchmarks/bench_outcomes_error_control.py`` (writes
``benchmarks/results/outcomes_error_control.csv`` and ``.log``: the command, the commit,
a hash of the package's sources and the printed tables); ``--quick`` (3 seeds, b = 20,
colon only) tests the script and writes files only with ``--out``.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from scipy.optimize import brentq

import modelmine as mm
from modelmine.report import markdown_table

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = "benchmarks/results/outcomes_error_control.csv"
COLUMNS = ["dataset", "outcome", "selector", "operator", "seed", "n_selected",
           "false_positives", "fdp", "power", "bound", "seconds", "threshold", "n_passing"]


def load_predictors(name: str) -> np.ndarray:
    """The standardised predictors of an embedded microarray data set.

    Parameters
    ----------
    name : str
        ``"colon"`` or ``"leukemia"`` (``mm.datasets.available()``).

    Returns
    -------
    ndarray of shape (n_samples, p)
        Every column centred and scaled to unit (population) variance; constant columns
        are dropped.
    """
    X, _ = getattr(mm.datasets, f"load_{name}")()
    X = np.asarray(X, dtype=np.float64)
    sd = X.std(axis=0)
    X = X[:, sd > 0]
    return (X - X.mean(axis=0)) / X.std(axis=0)


def draw_truth(rng: np.random.Generator, p: int, s: int, low: float, high: float,
               signs: str) -> tuple[np.ndarray, np.ndarray]:
    """The active set S and its coefficients.

    Parameters
    ----------
    rng : numpy.random.Generator
    p : int
        Number of features.
    s : int
        Size of S.
    low, high : float
        ``|beta_j|`` is uniform on [low, high] (equal bounds: a constant).
    signs : {"random", "positive"}
        Random signs (+-1 with probability 1/2) or all positive.

    Returns
    -------
    S : ndarray of shape (s,)
        Indices of the active features (sorted).
    beta : ndarray of shape (s,)
    """
    S = np.sort(rng.choice(p, size=s, replace=False))
    beta = rng.uniform(low, high, size=s) if high > low else np.full(s, float(low))
    if signs == "random":
        beta = beta * rng.choice([-1.0, 1.0], size=s)
    return S, beta


def simulate_regression(X: np.ndarray, rng: np.random.Generator, *, s: int, r2: float,
                        signs: str) -> tuple[np.ndarray, np.ndarray]:
    """A linear-model outcome with a given signal-to-noise ratio.

    Parameters
    ----------
    X : ndarray of shape (n, p)
        Standardised predictors.
    rng : numpy.random.Generator
    s : int
        Size of the active set.
    r2 : float in (0, 1)
        Target population R^2 given X: the noise variance is
        ``var(X_S beta) (1 - r2) / r2``.
    signs : {"random", "positive"}

    Returns
    -------
    y : ndarray of shape (n,)
    S : ndarray of shape (s,)
    """
    S, beta = draw_truth(rng, X.shape[1], s, 1.0, 1.0, signs)
    signal = X[:, S] @ beta
    sigma = np.sqrt(signal.var() * (1.0 - r2) / r2)
    return signal + rng.normal(0.0, sigma, size=X.shape[0]), S


def simulate_survival(X: np.ndarray, rng: np.random.Generator, *, s: int, censoring: float,
                      signs: str, hazard: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Cox proportional-hazards times with independent exponential censoring.

    Parameters
    ----------
    X : ndarray of shape (n, p)
        Standardised predictors.
    rng : numpy.random.Generator
    s : int
        Size of the active set; ``|beta_j| ~ U(0.5, 1)``.
    censoring : float in (0, 1)
        Expected fraction of censored records: the censoring rate mu solves
        ``mean_i mu / (mu + hazard exp(eta_i)) = censoring``.
    signs : {"random", "positive"}
    hazard : float, default=1.0
        The constant baseline hazard lambda (exponential event times).

    Returns
    -------
    y : structured ndarray of shape (n,)
        ``sksurv.util.Surv.from_arrays(event, time)``.
    S : ndarray of shape (s,)
    """
    from sksurv.util import Surv

    S, beta = draw_truth(rng, X.shape[1], s, 0.5, 1.0, signs)
    rate = hazard * np.exp(X[:, S] @ beta)
    T = -np.log(rng.uniform(size=X.shape[0])) / rate
    log_rate = np.log(rate)
    log_mu = brentq(lambda a: np.mean(1.0 / (1.0 + np.exp(log_rate - a))) - censoring,
                    log_rate.min() - 50.0, log_rate.max() + 50.0)
    mu = np.exp(log_mu)
    C = rng.exponential(1.0 / mu, size=X.shape[0])
    return Surv.from_arrays(event=T <= C, time=np.minimum(T, C)), S


def score(selected, truth: np.ndarray) -> dict:
    """False positives, false discovery proportion and power of a selection.

    Parameters
    ----------
    selected : iterable of int
        The selected feature indices.
    truth : ndarray of int
        The active set S.

    Returns
    -------
    dict
        ``n_selected``, ``false_positives`` (selected, not in S), ``fdp`` (false positives
        over max(1, selected): 0 for an empty selection) and ``power`` (|selected & S| /
        |S|).
    """
    sel = {int(f) for f in selected}
    S = {int(f) for f in truth}
    fp = len(sel - S)
    return {"n_selected": len(sel), "false_positives": fp, "fdp": fp / max(1, len(sel)),
            "power": len(sel & S) / len(S)}


def one_seed(X: np.ndarray, outcome: str, seed: int, args) -> list[dict]:
    """Simulate one outcome and run both error-controlled operators on it.

    Parameters
    ----------
    X : ndarray of shape (n, p)
    outcome : {"regression", "survival"}
    seed : int
        Seed of the simulation and of both ``mm.run`` calls.
    args : argparse.Namespace
        ``signal``, ``r2``, ``censoring``, ``signs``, ``b``, ``m``, ``pfer``, ``fdr``,
        ``jobs``, ``survival_selector``.

    Returns
    -------
    list of dict
        One row per operator (``stabilitySelection``, ``stabl``, ``stabl-uncapped``).
    """
    rng = np.random.default_rng(seed)
    if outcome == "regression":
        y, S = simulate_regression(X, rng, s=args.signal, r2=args.r2, signs=args.signs)
        selector = "lasso"
    else:
        y, S = simulate_survival(X, rng, s=args.signal, censoring=args.censoring,
                                 signs=args.signs)
        selector = args.survival_selector
    common = dict(outcome=outcome, selector=selector, n_bootstraps=args.b,
                  n_features=args.m, resampling="complementary-pairs", random_state=seed,
                  progress=False, n_jobs=args.jobs)
    rows = []
    base = {"outcome": outcome, "selector": selector, "seed": seed}

    t0 = time.perf_counter()
    run = mm.run(X, y, operators=["stabilitySelection"],
                 operator_params={"stabilitySelection": {"pfer": args.pfer}}, **common)
    sig = run.signatures["stabilitySelection"]
    rows.append({**base, "operator": "stabilitySelection", **score(sig.features, S),
                 "bound": args.pfer, "seconds": time.perf_counter() - t0,
                 "threshold": sig.provenance.get("threshold"),
                 "n_passing": sig.provenance.get("n_passing")})

    t0 = time.perf_counter()
    run = mm.run(X, y, operators=["stabl"], operator_params={"stabl": {"fdr": args.fdr}},
                 artificial_features=args.artificial, **common)
    seconds = time.perf_counter() - t0
    sig = run.signatures["stabl"]
    rows.append({**base, "operator": "stabl", **score(sig.features, S), "bound": args.fdr,
                 "seconds": seconds, "threshold": sig.provenance.get("threshold"),
                 "n_passing": sig.provenance.get("n_passing")})
    t1 = time.perf_counter()
    full = mm.aggregate(run.base_models, "stabl", fdr=args.fdr)
    rows.append({**base, "operator": "stabl-uncapped", **score(full.features, S),
                 "bound": args.fdr, "seconds": seconds + time.perf_counter() - t1,
                 "threshold": full.provenance.get("threshold"),
                 "n_passing": full.provenance.get("n_passing")})
    return rows


def _mean_ci(x: np.ndarray) -> tuple[float, float, float, float]:
    """Mean, its standard error and the 95 % t interval over seeds."""
    n = x.size
    mean = float(x.mean())
    se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    half = float(stats.t.ppf(0.975, n - 1) * se) if n > 1 else float("nan")
    return mean, se, mean - half, mean + half


def summarise(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """One table per outcome: the error measure against its bound, and power.

    Parameters
    ----------
    df : DataFrame
        The per-seed rows (:data:`COLUMNS`).

    Returns
    -------
    dict of str to DataFrame
        Per outcome, one row per data set and operator: seeds, mean selected, the error
        measure (V for stabilitySelection, FDP for stabl) with its mean, 95 % t interval,
        standard error, the fraction of seeds above the bound, the one-sided t test's
        p-value for "mean above the bound", the excess detectable with 80 % power at
        5 %, and mean power.
    """
    detect = stats.norm.ppf(0.95) + stats.norm.ppf(0.80)
    tables = {}
    for outcome, part in df.groupby("outcome", sort=False):
        out = []
        for (dataset, selector, operator), g in part.groupby(
                ["dataset", "selector", "operator"], sort=False):
            bound = float(g["bound"].iloc[0])
            measure = "V" if operator == "stabilitySelection" else "FDP"
            x = g["false_positives" if measure == "V" else "fdp"].to_numpy(dtype=float)
            mean, se, lo, hi = _mean_ci(x)
            if x.size > 1 and se > 0:
                p_above = float(stats.t.sf((mean - bound) / se, x.size - 1))
            else:
                p_above = float("nan") if x.size < 2 else float(mean > bound)
            pw = _mean_ci(g["power"].to_numpy(dtype=float))
            out.append({
                "data": dataset, "selector": selector, "operator": operator,
                "seeds": len(g), "selected": f"{g['n_selected'].mean():.1f}",
                "measure": measure, "bound": f"{bound:g}",
                "mean": f"{mean:.3f}", "95% CI": f"[{lo:.3f}, {hi:.3f}]",
                "SE": f"{se:.3f}", "p (mean > bound)": f"{p_above:.3f}",
                "seeds > bound": f"{(x > bound).mean():.2f}",
                "detectable excess": f"{detect * se:.3f}",
                "power": f"{pw[0]:.3f}", "power 95% CI": f"[{pw[2]:.3f}, {pw[3]:.3f}]",
                "s/seed": f"{g['seconds'].mean():.1f}",
            })
        tables[str(outcome)] = pd.DataFrame(out)
    return tables


def source_hash() -> str:
    """SHA-256 (first 12 hex digits) of the package's Python sources.

    The commit alone does not say what ran when the work tree has uncommitted changes;
    this hash does.
    """
    h = hashlib.sha256()
    for path in sorted((ROOT / "modelmine").rglob("*.py")):
        h.update(path.relative_to(ROOT).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def head_commit() -> str:
    """The short hash of the checked-out commit of the repository (read-only)."""
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring).

    Parameters
    ----------
    argv : list of str, optional
        Defaults to ``sys.argv[1:]``.

    Returns
    -------
    argparse.Namespace
    """
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="3 seeds, b = 20, colon only; files only with --out")
    ap.add_argument("--seeds", type=int, default=None, help="default 20 (3 with --quick)")
    ap.add_argument("--b", type=int, default=None,
                    help="complementary-pairs halves (even; default 100, 20 with --quick)")
    ap.add_argument("--m", type=int, default=15, help="features per base model (q)")
    ap.add_argument("--datasets", nargs="+", default=None, choices=["colon", "leukemia"],
                    help="default colon and leukemia (colon with --quick)")
    ap.add_argument("--outcomes", nargs="+", default=["regression", "survival"],
                    choices=["regression", "survival"])
    ap.add_argument("--survival-selector", default="coxnet",
                    choices=["coxnet", "cox-score", "boosted-cox"])
    ap.add_argument("--signal", type=int, default=10, help="|S|")
    ap.add_argument("--r2", type=float, default=0.8, help="regression R^2")
    ap.add_argument("--censoring", type=float, default=0.3,
                    help="expected censored fraction")
    ap.add_argument("--signs", default="random", choices=["random", "positive"])
    ap.add_argument("--pfer", type=float, default=1.0)
    ap.add_argument("--fdr", type=float, default=0.2)
    ap.add_argument("--artificial", default="permutation",
                    choices=["permutation", "knockoff"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None,
                    help=f"CSV path (default {DEFAULT_OUT}; none with --quick); the log "
                    "goes next to it with the suffix .log")
    args = ap.parse_args(argv)
    if args.seeds is None:
        args.seeds = 3 if args.quick else 20
    if args.b is None:
        args.b = 20 if args.quick else 100
    if args.datasets is None:
        args.datasets = ["colon"] if args.quick else ["colon", "leukemia"]
    if args.out is None and not args.quick:
        args.out = DEFAULT_OUT
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the simulation, print the tables and write the CSV and the log.

    Parameters
    ----------
    argv : list of str, optional
        Defaults to ``sys.argv[1:]``.
    """
    args = parse_args(argv)
    command = " ".join([".venv/bin/python",
                        Path(sys.argv[0]).resolve().relative_to(ROOT).as_posix()
                        if Path(sys.argv[0]).resolve().is_relative_to(ROOT)
                        else sys.argv[0], *sys.argv[1:]])
    commit, src = head_commit(), source_hash()
    rows = []
    t_start = time.perf_counter()
    n_warn = 0
    for dataset in args.datasets:
        X = load_predictors(dataset)
        for outcome in args.outcomes:
            for seed in range(args.seeds):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    new = one_seed(X, outcome, seed, args)
                n_warn += len(caught)
                rows += [{"dataset": dataset, **r} for r in new]
                v = new[0]["false_positives"]
                print(f"{dataset} {outcome} seed {seed}: V = {v}, stabl FDP = "
                      f"{new[1]['fdp']:.2f} ({new[2]['n_selected']} uncapped), "
                      f"{time.perf_counter() - t_start:.0f} s", file=sys.stderr, flush=True)
    wall = time.perf_counter() - t_start
    df = pd.DataFrame(rows)[COLUMNS]

    lines = [f"# command: {command}",
             f"# commit {commit}; modelmine sources sha256 {src} (hash of modelmine/**/*.py "
             "when the run started; the work tree may differ from the commit)",
             f"# design: {', '.join(args.datasets)} predictors (standardised), |S| = "
             f"{args.signal} random per seed, signs {args.signs}; regression: lasso, beta = "
             f"+-1, R^2 = {args.r2}; survival: {args.survival_selector}, Cox exponential "
             f"times, |beta| ~ U(0.5, 1), {args.censoring:.0%} expected censoring; "
             f"complementary pairs b = {args.b} ({args.b // 2} pairs), m = q = {args.m}; "
             f"stabilitySelection pfer = {args.pfer} (bound auto), stabl fdr = {args.fdr} "
             f"({args.artificial} artificial features); {args.seeds} seeds; n_jobs = "
             f"{args.jobs}",
             f"# wall time {wall:.0f} s; {n_warn} warning(s) raised during the runs", ""]
    for outcome, table in summarise(df).items():
        lines += [f"## {outcome}", "", markdown_table(table), ""]
    lines += ["Columns: measure = V (false positives, stabilitySelection) or FDP (stabl); "
              "mean, 95% CI (t interval over seeds), SE = standard error of the mean; "
              "p (mean > bound) = one-sided t-test p-value of H0: E[measure] <= bound "
              "(small = the bound is exceeded); seeds > bound = fraction of seeds whose "
              "own V or FDP exceeds the bound; detectable excess = (z_0.95 + z_0.80) SE, the "
              "excess over the bound a 5 % one-sided test detects with 80 % power; power = "
              "mean |selected & S| / |S|; s/seed = seconds of the mm.run call.", ""]
    capped = df[(df["operator"] == "stabilitySelection")
                & (df["n_passing"] > df["n_selected"])]
    lines.append(f"stabilitySelection capped at m in {len(capped)} of "
                 f"{(df['operator'] == 'stabilitySelection').sum()} runs.")
    for (dataset, outcome), g in df[df["operator"] == "stabl-uncapped"].groupby(
            ["dataset", "outcome"], sort=False):
        lines.append(f"stabl-uncapped, {dataset} {outcome}: threshold median "
                     f"{g['threshold'].median():.2f} (range {g['threshold'].min():.2f}-"
                     f"{g['threshold'].max():.2f}), selected median "
                     f"{g['n_selected'].median():.0f}")
    text = "\n".join(lines)
    print(text)
    if args.out:
        out = ROOT / args.out if not Path(args.out).is_absolute() else Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        df.to_csv(out, index=False)
        out.with_suffix(".log").write_text(text + "\n")
        print(f"# wrote {out} and {out.with_suffix('.log')}", file=sys.stderr)


if __name__ == "__main__":
    main()
