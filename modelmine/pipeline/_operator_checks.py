"""What a run's operators require of its base models, checked against the settings
before the first fit (issue 39 item 5).

A run whose operators cannot apply to its resamples (``stabilitySelection`` on bootstrap
resamples, ``stabl`` without artificial features) used to fail after all b fits, and its
``--resume`` failed the same way. A check of the settings alone (``RunSpec``), kept in its
own module so that it can move into the specification as it stands. (Not in
``base_models._checks``: the base models stage does not import the operators.)
"""

from __future__ import annotations

from types import SimpleNamespace

from ..exceptions import NotApplicableError
from ..operators import bound_for, get_operator
from ..spec import RunSpec
from ..validation import param_error

__all__ = ["check_operators_fit_resampling"]


def check_operators_fit_resampling(spec: RunSpec, func: str) -> None:
    """Refuse operators that cannot apply to the base models the settings will build:
    ``"error-control"`` (:func:`modelmine.operators.bound_for`: subsamples of n/2 or
    complementary pairs) and ``"artificial-features"`` (``artificial_features`` set),
    naming the option that works."""
    for name in spec.operators:
        try:
            requires = get_operator(name).requires
        except (KeyError, ValueError):  # unknown names are refused by RunSpec
            continue
        if "error-control" in requires:
            planned = SimpleNamespace(
                resampling={"method": spec.resampling,
                            "fraction": float(spec.sample_fraction or 1.0)},
                n_models=spec.n_bootstraps)
            bound = dict(spec.operator_params.get(name, {})).get("bound", "auto")
            try:
                bound_for(planned, bound, func=func)  # type: ignore[arg-type]
            except NotApplicableError as exc:
                raise param_error(
                    "resampling", func, "'complementary-pairs', or 'subsample' with "
                    f"sample_fraction=0.5, for operator {name!r} (its error bound holds "
                    "only for those: Meinshausen and Buehlmann 2010, Shah and Samworth "
                    "2013)", f"{spec.resampling!r} with sample_fraction="
                    f"{float(spec.sample_fraction or 1.0):g}", show=False,
                    hint=f"Or leave {name!r} out of the operators.") from exc
        if "artificial-features" in requires and spec.artificial_features is None:
            raise param_error("artificial_features", func, "'permutation' or 'knockoff' "
                              f"for operator {name!r} (it compares the real features "
                              "with artificial ones)", None,
                              hint=f"Or leave {name!r} out of the operators.")
