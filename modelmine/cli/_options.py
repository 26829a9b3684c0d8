"""Where ``modelmine run`` keeps each run setting's value in its parsed arguments: shared
by the parser (``_main``) and the commands (``_commands``), which import it, not each other."""

from __future__ import annotations

__all__ = ["setting_dest"]

#: The settings whose option keeps its value under another name (an option that is
#: repeated, named in the singular).
_DESTS = {"operators": "operator", "selector_params": "selector_param"}


def setting_dest(name: str) -> str:
    """The argparse ``dest`` of a run setting's option (``modelmine run``)."""
    return _DESTS.get(name, name)
