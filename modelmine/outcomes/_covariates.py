"""Clinical covariates (age, sex, stage, batch): checked at the door, adjusted for in the
selectors' fits where the model allows, and in the markers' effects.

A covariate is a column the study must account for but does not select: the genes are
judged given the covariates, as in an adjusted analysis. Where it enters:

- survival, ``cox-score``: the score test of each gene in the Cox model of the gene and the
  covariates, at the covariates' maximum partial likelihood estimate under the null (the
  efficient score test, Cox and Hinkley 1974, section 9.3; Breslow ties);
- survival, ``coxnet``: the covariates are unpenalised (``penalty_factor`` 0 in
  scikit-survival's ``CoxnetSurvivalAnalysis``), so they are in every model of the path;
- regression, every selector: y and each gene are replaced by their residuals on the
  covariates (with an intercept) inside each resample. By Frisch-Waugh-Lovell the
  least-squares (and the lasso's, the covariates unpenalised) coefficient of a gene is
  then the one it has in the model with the covariates;
- classification: the selectors do not take them (the run says so); the markers report
  each gene's effect adjusted for them (logistic regression of the class on the gene and
  the covariates).

The covariates travel with the rows: a resample's selector sees the covariates of its own
rows (:class:`modelmine.selectors._covariates.CovariateAdjustedSelector`, through
``select_rows``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..validation import param_error
from ._kinds import outcome_kind

__all__ = ["Covariates", "check_covariates",
           "check_not_explained", "cox_fit", "logistic_fit", "residualise",
           "take_covariates"]

@dataclass(frozen=True, eq=False)
class Covariates:
    """Covariates of a run's n samples, checked and encoded (:func:`check_covariates`).

    Attributes
    ----------
    values : ndarray of float64, shape (n, q)
        Numeric columns as given; a categorical column as indicators of its levels but the
        first (sorted), the reference.
    columns : tuple of str
        The q encoded columns (``"sex=male"`` for a level).
    sources : tuple of str
        The covariates as named by the user, one per given column.
    """

    values: np.ndarray
    columns: tuple[str, ...]
    sources: tuple[str, ...]

    def take(self, rows: np.ndarray) -> np.ndarray:
        return self.values[rows]

    def subset(self, rows: np.ndarray) -> Covariates:
        """The covariates of ``rows`` (a fold's training part), as a Covariates."""
        return Covariates(values=self.values[rows], columns=self.columns,
                          sources=self.sources)

    def checksums(self) -> dict[str, str]:
        """Per covariate as named by the user, a sha256 of its encoded columns' names and
        values: what a checkpoint records, so that a resume names the covariate whose
        values changed."""
        out = {}
        for source in self.sources:
            idx = [j for j, c in enumerate(self.columns)
                   if c == source or c.startswith(f"{source}=")]
            h = hashlib.sha256("\n".join(self.columns[j] for j in idx).encode())
            h.update(np.ascontiguousarray(self.values[:, idx]).tobytes())
            out[source] = h.hexdigest()
        return out

    def describe(self) -> dict[str, Any]:
        """What ``run.json`` records: the columns, their encoding, and a checksum."""
        h = hashlib.sha256(np.ascontiguousarray(self.values).tobytes())
        return {"columns": list(self.sources), "encoded": list(self.columns),
                "sha256": h.hexdigest()}


def check_covariates(covariates: Any, n: int, *, func: str,
                     option: str = "covariates") -> Covariates:
    """Check and encode the covariates of n samples.

    Parameters
    ----------
    covariates : DataFrame, mapping of name to array-like, or 2-D array-like
        One row (value) per sample. Numeric columns are used as they are; text or
        categorical columns become indicators of their levels (the first level, sorted,
        the reference). Missing values are refused, naming the column.
    n : int
    func, option : str
        The public function and its parameter, named in messages.

    Returns
    -------
    Covariates
        Given a Covariates (checked already), itself, once its rows are checked.
    """
    if isinstance(covariates, Covariates):
        if covariates.values.shape[0] != n:
            raise param_error(option, func, f"one row per sample ({n})",
                              f"{covariates.values.shape[0]} rows", show=False)
        return covariates
    if isinstance(covariates, pd.DataFrame):
        frame = covariates
    elif isinstance(covariates, Mapping):
        frame = pd.DataFrame({str(k): list(np.asarray(v)) if np.ndim(v) else v
                              for k, v in covariates.items()})
    else:
        arr = np.asarray(covariates)
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.ndim != 2:
            raise param_error(option, func, "a DataFrame (one column per covariate, one row "
                              "per sample)", f"an array of shape {arr.shape}", show=False)
        frame = pd.DataFrame(arr, columns=[f"covariate{j}" for j in range(arr.shape[1])])
    if frame.shape[1] == 0:
        raise param_error(option, func, "at least one covariate column", "none",
                          show=False)
    if frame.shape[0] != n:
        raise param_error(option, func, f"one row per sample ({n})",
                          f"{frame.shape[0]} rows", show=False)
    blocks, names = [], []
    for col in frame.columns:
        series = frame[col]
        name = str(col)
        missing = series.isna().to_numpy()
        if missing.any():
            raise param_error(option, func, "covariates without missing values (impute or "
                              "drop the samples first)", f"{int(missing.sum())} missing "
                              f"value(s) in {name!r}, the first at sample "
                              f"{int(np.flatnonzero(missing)[0])}", show=False)
        if pd.api.types.is_bool_dtype(series) or pd.api.types.is_numeric_dtype(series):
            values = series.to_numpy(dtype=np.float64)
            if not np.isfinite(values).all():
                raise param_error(option, func, "finite covariates", f"infinite values in "
                                  f"{name!r}", show=False)
            if np.ptp(values) == 0:
                raise param_error(option, func, "covariates that vary", f"{name!r}, "
                                  f"constant at {values[0]:g}", show=False)
            blocks.append(values[:, None])
            names.append(name)
            continue
        text = series.astype(str).to_numpy()
        levels = np.unique(text)
        if levels.size < 2:
            raise param_error(option, func, "covariates that vary", f"{name!r}, always "
                              f"{levels[0]!r}", show=False)
        if levels.size > max(20, n // 2):
            raise param_error(option, func, "a categorical covariate of at most "
                              f"{max(20, n // 2)} levels (an ID column is not a covariate: "
                              "pass it as groups)", f"{name!r} with {levels.size} levels",
                              show=False)
        for level in levels[1:]:
            blocks.append((text == level).astype(np.float64)[:, None])
            names.append(f"{name}={level}")
    values = np.hstack(blocks)
    return Covariates(values=values, columns=tuple(names),
                      sources=tuple(str(c) for c in frame.columns))


#: The largest linear programme :func:`check_not_explained` solves (its constraint
#: matrix's cells); beyond, the check is skipped (an atlas of cells, a cohort of thousands).
LP_CELLS = 50_000_000

#: A residual sum of squares below this fraction of y's total is rounding noise: y is
#: then a linear function of the covariates (float64 rounding leaves about 1e-30 of it).
EXPLAINED_RSS = 1e-12


def take_covariates(X: Any, covariates: Any, names: Sequence[str], feature_names: Any,
                    *, read: pd.DataFrame | None = None, func: str) -> tuple[Any, Any, Any]:
    """The covariates of a run or a study, checked and encoded, and X without them.

    ``covariates`` is a DataFrame / mapping / 2-D array of values, or names of columns: of
    X when it is a DataFrame (any dtype), else of its features (``feature_names``); None
    takes the names the settings record (``names``: :attr:`modelmine.RunSpec.covariates`),
    from ``read`` (the covariates data were read with: ``read_data(covariates=...)``,
    ``--covariate``) when given, else from X.

    Returns
    -------
    X, feature_names, Covariates or None
    """
    if covariates is None and read is not None:  # read_data(covariates=...), --covariate
        wanted = list(names) or list(read.columns)
        missing = [c for c in wanted if c not in read.columns]
        if missing:
            raise param_error("covariates", func, "columns the data were read with "
                              f"({', '.join(map(repr, read.columns))})", missing[0])
        return X, feature_names, check_covariates(read[wanted], X.shape[0], func=func)
    if covariates is None and names:
        covariates = list(names)
    if covariates is None:
        return X, feature_names, None
    if isinstance(covariates, str):
        covariates = [covariates]
    n = X.shape[0]
    if isinstance(covariates, list | tuple) and all(isinstance(c, str) for c in covariates):
        wanted = list(covariates)
        if isinstance(X, pd.DataFrame):
            columns = [str(c) for c in X.columns]
        else:
            columns = ([str(f) for f in feature_names] if feature_names is not None
                       else [])
        missing = [c for c in wanted if c not in columns]
        if missing:
            where = ("the columns of X" if isinstance(X, pd.DataFrame) else
                     "the features of the data" if columns else "columns of X (X has no "
                     "column names: pass the covariates' values as a DataFrame)")
            raise param_error("covariates", func, f"names among {where}", missing[0],
                              hint=None if not columns else
                              f"First columns: {', '.join(map(repr, columns[:6]))}.")
        if isinstance(X, pd.DataFrame):
            frame = X[wanted]
            X = X.drop(columns=wanted)
            if feature_names is not None:
                feature_names = [f for f in feature_names if str(f) not in wanted]
        else:
            index = {c: j for j, c in enumerate(columns)}
            cols = [index[c] for c in wanted]
            rest = np.asarray([j for j in range(len(columns)) if j not in set(cols)])
            block = X[:, cols]
            block = block.toarray() if sp.issparse(block) else np.asarray(block)
            frame = pd.DataFrame(block, columns=wanted)
            X = X[:, rest]
            feature_names = [columns[j] for j in rest]
        covariates = frame
    covs = check_covariates(covariates, n, func=func)
    return X, feature_names, covs


def check_not_explained(Z: np.ndarray, y: Any, outcome: Any, *, func: str) -> None:
    """Refuse an outcome the covariates explain exactly: nothing is left for the genes,
    whose selection would then follow rounding noise.

    - regression: the residual sum of squares of y on ``[1, Z]`` is at most
      :data:`EXPLAINED_RSS` of its total sum of squares (R2 = 1 to rounding);
    - classification: a linear function of the covariates classifies every sample
      correctly (the classes are linearly separable in the covariates: the maximum
      likelihood coefficients of the covariates are infinite; a linear programme decides
      it, scores ``w_k . [1, z_i] >= w_l . [1, z_i] + 1`` for every sample i of class k
      and every other class l);
    - survival: a linear function of the covariates ranks every event above every sample
      still at risk after it (the Cox partial likelihood reaches its supremum 0 at
      infinity; the same linear programme over those pairs).

    The linear programmes are skipped beyond :data:`LP_CELLS` cells.

    Parameters
    ----------
    Z : ndarray of shape (n, q)
        Encoded covariates.
    y : ndarray
        Class codes, values, or the structured array of event and time.
    outcome : str or OutcomeKind
        The run's outcome (:func:`modelmine.outcomes.outcome_kind`): its values are class
        labels, numbers or censored times.
    func : str
        The public function, named in the message.
    """
    kind = outcome_kind(outcome, func=func)
    Z = np.asarray(Z, dtype=np.float64)
    sd = Z.std(axis=0)
    Zs = (Z[:, sd > 0] - Z[:, sd > 0].mean(axis=0)) / sd[sd > 0]
    if not kind.classes and not kind.censored:
        v = np.asarray(y, dtype=np.float64)
        total = float(((v - v.mean()) ** 2).sum())
        rss = float((residualise(v, Zs).ravel() ** 2).sum())
        if total > 0 and rss <= EXPLAINED_RSS * total:
            raise param_error(
                "covariates", func, "covariates that leave part of y unexplained (the "
                "genes are selected on what the covariates do not explain)", "covariates "
                f"that explain y exactly (residual sum of squares {rss:.3g} of a total "
                f"{total:.3g}, R2 = 1 to rounding): the selection would follow rounding "
                "noise", show=False)
        return
    design = np.column_stack([np.ones(Z.shape[0]), Zs])
    if kind.classes:
        codes = np.unique(np.asarray(y), return_inverse=True)[1].ravel()
        k = int(codes.max()) + 1
        r = design.shape[1]
        if codes.size * (k - 1) * k * r > LP_CELLS:  # an atlas: a perfect linear
            return  # classification by a few covariates of so many cells is not checked
        blocks = []
        for other in range(k):
            rows = np.flatnonzero(codes != other)
            # w_other . d_i - w_own . d_i <= -1 for every sample i not of class `other`
            block = np.zeros((rows.size, k * r))
            at = np.arange(rows.size)[:, None]
            block[at, codes[rows][:, None] * r + np.arange(r)] = -design[rows]
            block[:, other * r:(other + 1) * r] = design[rows]
            blocks.append(block)
        A = np.vstack(blocks)
        what = "classify every sample correctly (the classes are linearly separable in them)"
    else:
        event = np.asarray(y["event"], dtype=bool)
        time = np.asarray(y["time"], dtype=np.float64)
        if int(event.sum()) * event.size * max(Zs.shape[1], 1) > LP_CELLS:
            return  # too many pairs to check (a cohort of thousands)
        first, later = np.nonzero(event[:, None] & (time[None, :] > time[:, None]))
        # w . (z_later - z_event) <= -1: the event's risk above everyone after it
        A = Zs[later] - Zs[first]
        what = "rank every event above every sample still at risk after it"
        if A.shape[0] == 0 or A.shape[1] == 0:
            return
    from scipy.optimize import linprog

    result = linprog(np.zeros(A.shape[1]), A_ub=A, b_ub=-np.ones(A.shape[0]),
                     bounds=(None, None), method="highs")
    if result.status == 0:
        raise param_error(
            "covariates", func, "covariates that leave part of the outcome unexplained "
            "(the genes are selected on what the covariates do not explain)", "covariates "
            f"that explain it exactly: a linear function of them can {what}, so their "
            "coefficients are infinite and the selection would follow rounding noise",
            show=False)


def residualise(A: Any, Z: np.ndarray) -> np.ndarray:
    """The residuals of each column of A (or of a vector) on ``[1, Z]`` by least squares
    (a rank-deficient Z, as a level missing from a resample, is handled by the
    pseudo-inverse)."""
    dense = A.toarray() if sp.issparse(A) else np.asarray(A, dtype=np.float64)
    design = np.column_stack([np.ones(Z.shape[0]), Z])
    coef = np.linalg.lstsq(design, dense, rcond=None)[0]
    return np.asarray(dense - design @ coef)


def _risk_sets(event: np.ndarray, time: np.ndarray) -> tuple[np.ndarray, ...]:
    """Samples sorted by decreasing time, the last position of each distinct time (its
    risk set is everything up to there), each sample's distinct time, the events per
    distinct time and which distinct times have an event (Breslow ties)."""
    order = np.argsort(-np.asarray(time, dtype=np.float64), kind="stable")
    ts = np.asarray(time, dtype=np.float64)[order]
    es = np.asarray(event, dtype=bool)[order]
    last = np.r_[np.flatnonzero(ts[1:] != ts[:-1]), ts.size - 1]
    group = np.searchsorted(last, np.arange(ts.size))
    d = np.bincount(group, weights=es.astype(np.float64), minlength=last.size)
    return order, es, last, group, d, d > 0


def cox_fit(M: np.ndarray, event: np.ndarray, time: np.ndarray, *, max_iter: int = 100,
            tol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """The Cox model of the columns of M (Breslow ties) by Newton-Raphson with step
    halving: the coefficients and their covariance (the inverse observed information).

    Parameters
    ----------
    M : ndarray of shape (n, r)
    event, time : ndarray of shape (n,)

    Returns
    -------
    beta : ndarray of shape (r,)
    covariance : ndarray of shape (r, r)
        ``inf`` on the diagonal when the information is singular (a column that never
        varies within a risk set).
    """
    M = np.asarray(M, dtype=np.float64)
    if M.ndim == 1:
        M = M[:, None]
    order, es, last, group, d, keep = _risk_sets(event, time)
    Ms = M[order]
    r = Ms.shape[1]
    sum_ev = np.zeros((last.size, r))
    np.add.at(sum_ev, group[es], Ms[es])
    sum_ev, dk = sum_ev[keep], d[keep]

    def parts(b: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        eta = Ms @ b
        shift = float(eta.max())
        w = np.exp(eta - shift)
        s0 = np.cumsum(w)[last][keep]
        s1 = np.cumsum(w[:, None] * Ms, axis=0)[last][keep]
        s2 = np.cumsum(w[:, None, None] * Ms[:, :, None] * Ms[:, None, :],
                       axis=0)[last][keep]
        mean = s1 / s0[:, None]
        loglik = float((sum_ev @ b).sum() - (dk * (np.log(s0) + shift)).sum())
        grad = (sum_ev - dk[:, None] * mean).sum(axis=0)
        info = (dk[:, None, None] * (s2 / s0[:, None, None]
                                     - mean[:, :, None] * mean[:, None, :])).sum(axis=0)
        return loglik, grad, info

    b = np.zeros(r)
    loglik, grad, info = parts(b)
    for _ in range(max_iter):
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(info, grad, rcond=None)[0]
        new = b + step
        new_ll, new_grad, new_info = parts(new)
        halvings = 0
        while (not np.isfinite(new_ll) or new_ll < loglik - 1e-12) and halvings < 30:
            step = step / 2
            new = b + step
            new_ll, new_grad, new_info = parts(new)
            halvings += 1
        done = float(np.max(np.abs(new - b))) < tol * max(1.0, float(np.max(np.abs(b))))
        b, loglik, grad, info = new, new_ll, new_grad, new_info
        if done:
            break
    try:
        cov = np.linalg.inv(info)
        if not np.all(np.isfinite(cov)) or np.any(np.diag(cov) <= 0):
            raise np.linalg.LinAlgError
    except np.linalg.LinAlgError:
        cov = np.full((r, r), np.inf)
    return b, cov


def cox_adjusted_scores(X: Any, event: np.ndarray, time: np.ndarray, Z: np.ndarray,
                        *, block: int = 256) -> tuple[np.ndarray, np.ndarray]:
    """The score test of each column x of X in the Cox model of x and the covariates Z,
    at ``beta_x = 0`` and the covariates' estimate without x (Breslow ties).

    With w the weights ``exp(Z gamma)`` of the null model's fit, and weighted risk-set
    means, ``U = sum over events (x_i - mean of x over R_t)``; the information of x is
    ``I_xx - I_xZ I_ZZ^-1 I_Zx`` (the efficient information, the covariates estimated);
    the statistic ``U^2 / I`` is chi-square with one degree of freedom. Without
    covariates it is :func:`modelmine.outcomes.cox_score_statistics`.

    Returns
    -------
    statistic, U : ndarray of shape (p,)
    """
    Z = np.asarray(Z, dtype=np.float64)
    gamma, _ = cox_fit(Z, event, time)
    order, es, last, group, d, keep = _risk_sets(event, time)
    Zs = Z[order]
    eta = Zs @ gamma
    w = np.exp(eta - eta.max())
    s0 = np.cumsum(w)[last][keep]
    dk = d[keep]
    zbar = np.cumsum(w[:, None] * Zs, axis=0)[last][keep] / s0[:, None]
    szz = np.cumsum(w[:, None, None] * Zs[:, :, None] * Zs[:, None, :], axis=0)[last][keep]
    i_zz = (dk[:, None, None] * (szz / s0[:, None, None]
                                 - zbar[:, :, None] * zbar[:, None, :])).sum(axis=0)
    i_zz_inv = np.linalg.pinv(i_zz)
    p = X.shape[1]
    U = np.empty(p)
    info = np.empty(p)
    for a in range(0, p, block):
        b = min(a + block, p)
        part = X[:, a:b]
        part = part.toarray() if sp.issparse(part) else np.asarray(part, np.float64)
        xs = part[order]
        wx = w[:, None] * xs
        xbar = np.cumsum(wx, axis=0)[last][keep] / s0[:, None]
        sxx = np.cumsum(wx * xs, axis=0)[last][keep] / s0[:, None]
        sxz = np.cumsum(wx[:, :, None] * Zs[:, None, :], axis=0)[last][keep] / s0[:, None,
                                                                                   None]
        ev = np.zeros((last.size, b - a))
        np.add.at(ev, group[es], xs[es])
        U[a:b] = (ev[keep] - dk[:, None] * xbar).sum(axis=0)
        i_xx = (dk[:, None] * (sxx - xbar * xbar)).sum(axis=0)
        i_xz = (dk[:, None, None] * (sxz - xbar[:, :, None] * zbar[:, None, :])).sum(axis=0)
        info[a:b] = i_xx - np.einsum("jk,kl,jl->j", i_xz, i_zz_inv, i_xz)
    with np.errstate(divide="ignore", invalid="ignore"):
        stat = np.where(info > 1e-12 * np.maximum(1.0, np.abs(U)), U * U / info, 0.0)
    return stat, U


def logistic_fit(M: np.ndarray, y: np.ndarray, *, max_iter: int = 100,
                 tol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """Logistic regression of a 0/1 outcome on ``[1, M]`` by Newton-Raphson (IRLS) with
    step halving: the coefficients (intercept first) and their covariance (the inverse
    Fisher information). Under complete separation the estimate stops after
    ``max_iter`` steps with a large standard error."""
    design = np.column_stack([np.ones(len(y)), np.asarray(M, dtype=np.float64)])
    y = np.asarray(y, dtype=np.float64)
    beta = np.zeros(design.shape[1])

    def loglik(b: np.ndarray) -> float:
        eta = design @ b
        return float((y * eta - np.logaddexp(0.0, eta)).sum())

    current = loglik(beta)
    info = np.eye(design.shape[1])
    for _ in range(max_iter):
        mu = 1.0 / (1.0 + np.exp(-(design @ beta)))
        grad = design.T @ (y - mu)
        info = (design * (mu * (1 - mu))[:, None]).T @ design
        step = np.linalg.lstsq(info, grad, rcond=None)[0]
        new, halvings = beta + step, 0
        value = loglik(new)
        while value < current - 1e-12 and halvings < 30:
            step, halvings = step / 2, halvings + 1
            new = beta + step
            value = loglik(new)
        done = float(np.max(np.abs(new - beta))) < tol * max(1.0, float(np.max(np.abs(
            beta))))
        beta, current = new, value
        if done:
            break
    mu = 1.0 / (1.0 + np.exp(-(design @ beta)))
    info = (design * (mu * (1 - mu))[:, None]).T @ design
    try:
        cov = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        cov = np.full(info.shape, np.inf)
    return beta, cov
