"""The API reference, generated from the code at every build (issue 52, item 1).

The public surface is each public module's ``__all__`` (tests/test_public_surface.py states
the rule: one home per name). When the builder starts, this extension writes
``reference/index.rst`` and one page per public module, ``reference/<module>.rst``: the
module's docstring, then its classes, exceptions and functions in autosummary tables (each
with a page of its own, ``reference/generated/<module>.<name>.rst``, made by autosummary
from ``_templates/autosummary/``: signature, parameters, returns, examples, the gallery
examples that use it) and its constants (``autodata``: value and ``#:`` comment). The
package's own page lists its subpackages and the main entry points (``mm.run`` ...), each
linked to its one home. Nothing is typed by hand: a name added to an ``__all__`` gets its
page at the next build, a name removed loses it.

References. ``:func:`modelmine.run``` names an entry point by the path users type, which is
not the path of its page (``modelmine.pipeline.run``): the ``missing-reference`` handler
below resolves any modelmine name re-exported elsewhere to its home. A reference to another
library cannot be linked offline (no intersphinx) and is shown as code, as is a reference
to a private modelmine object (``_x`` modules: no page documents them); the build counts
those. A reference to a name that does not exist stays a warning, hence an error.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import pkgutil
import types
import warnings
import zlib
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import PycodeError
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.inspect import object_description
from sphinx.util.nodes import make_refnode

logger = logging.getLogger(__name__)

PACKAGE = "modelmine"
REFERENCE = "reference"


def public_modules() -> list[str]:
    """``modelmine`` and its public submodules, sorted (as tests/test_public_surface.py)."""
    package = importlib.import_module(PACKAGE)
    names = [f"{PACKAGE}.{m.name}" for m in pkgutil.iter_modules(package.__path__)
             if not m.name.startswith("_")]
    return [PACKAGE, *sorted(names)]


def surface() -> dict[str, dict[str, Any]]:
    """``{module: {name: object}}`` over every public ``__all__``."""
    out = {}
    for name in public_modules():
        module = importlib.import_module(name)
        out[name] = {n: getattr(module, n) for n in module.__all__}
    return out


def _has_identity(obj: object) -> bool:
    return not isinstance(obj, (bool, int, float, str, bytes, tuple, frozenset, type(None)))


def homes(names: dict[str, dict[str, Any]]) -> dict[int, str]:
    """``id(object) -> "module.name"``: where each public object is documented."""
    out: dict[int, str] = {}
    for module, exported in names.items():
        for name, obj in exported.items():
            if isinstance(obj, types.ModuleType):
                out.setdefault(id(obj), obj.__name__)
            elif module != PACKAGE and _has_identity(obj):
                out.setdefault(id(obj), f"{module}.{name}")
    return out


def kind(obj: object) -> str:
    """How a public name is documented: module, exception, class, function or data."""
    if isinstance(obj, types.ModuleType):
        return "module"
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj):
        return "function"
    return "data"


_HEADINGS = {"class": "Classes", "exception": "Exceptions and warnings",
             "function": "Functions"}


def _title(text: str, char: str = "=") -> str:
    return f"{text}\n{char * len(text)}\n"


def module_page(module: str, exported: dict[str, Any], where: dict[int, str]) -> str:
    """The reST of one module's page."""
    lines = [f".. _api-{module}:", "", _title(f"``{module}``"),
             f".. automodule:: {module}", "   :no-members:", "",
             f".. currentmodule:: {module}", ""]
    by_kind: dict[str, list[str]] = {}
    for name, obj in exported.items():
        by_kind.setdefault(kind(obj), []).append(name)
    if module == PACKAGE:
        lines += [_title("Subpackages", "-"),
                  "Each subpackage is a stage of the flow (docs/DEVELOPING.md).", "",
                  ".. list-table::", "   :widths: 30 70", ""]
        for name in by_kind.get("module", []):
            doc = inspect.getdoc(exported[name]) or ""
            first = doc.strip().splitlines()[0] if doc.strip() else ""
            lines += [f"   * - :mod:`{PACKAGE}.{name}`", f"     - {first}"]
        lines += ["", _title("Entry points", "-"),
                  "The main entry points, also reached as ``modelmine.NAME`` (``mm.run``, "
                  "``mm.bootstrap`` ...); each is documented in its home module.", "",
                  ".. currentmodule:: None", "", ".. autosummary::", ""]
        for name in by_kind.get("function", []) + by_kind.get("class", []) \
                + by_kind.get("exception", []):
            lines.append(f"   ~{where[id(exported[name])]}")
        lines += ["", _title("Version", "-"),
                  "``modelmine.__version__``: the installed version, "
                  f"``{exported.get('__version__', '')}``.",
                  ""]
        return "\n".join(lines)
    for group in ("class", "exception", "function"):
        names = by_kind.get(group, [])
        if not names:
            continue
        lines += [_title(_HEADINGS[group], "-"), ".. autosummary::", "   :toctree: generated/",
                  "   :nosignatures:", ""]
        lines += [f"   {name}" for name in names]
        lines.append("")
    data = by_kind.get("data", [])
    if data:
        lines += [_title("Constants and settings", "-")]
        comments = attribute_comments(module)
        for name in data:
            value = object_description(exported[name])
            if len(value) > 300:
                value = value[:297] + "..."
            lines += [f".. py:data:: {name}", f"   :value: {value}", ""]
            doc = comments.get(name)
            if doc:
                lines += [f"   {line}" if line else "" for line in doc]
            lines.append("")
    return "\n".join(lines)


def attribute_comments(module: str) -> dict[str, list[str]]:
    """The ``#:`` comment of each module-level name of ``module`` and of its private
    submodules, where a re-exported constant is defined (autodoc reads only the module it
    documents)."""
    package = importlib.import_module(module)
    modules = [module]
    if hasattr(package, "__path__"):
        modules += [info.name for info in pkgutil.walk_packages(package.__path__, module + ".")]
    out: dict[str, list[str]] = {}
    for name in modules:
        try:
            found = ModuleAnalyzer.for_module(name).find_attr_docs()
        except PycodeError:
            continue
        for (scope, attr), lines in found.items():
            if scope == "":
                out.setdefault(attr, [line for line in lines])
    return out


def index_page(names: dict[str, dict[str, Any]]) -> str:
    """The reST of the API reference's front page."""
    lines = [".. _api-reference:", "", _title("API reference"),
             "Every public name of modelmine, by module: what each module's ``__all__`` "
             "holds, generated from the code at every build. A page per function and class "
             "gives its signature, parameters, returns, examples, the papers' sections it "
             "follows (:doc:`../references`) and the gallery examples that use it. The same "
             "list as plain text is ``docs/api.md`` in the repository "
             "(``tests/test_public_surface.py`` keeps it equal to the code).", "",
             ".. toctree::", "   :maxdepth: 1", "   :hidden:", ""]
    lines += [f"   {module}" for module in names]
    lines += ["", ".. list-table::", "   :header-rows: 1", "   :widths: 30 10 60", "",
              "   * - module", "     - names", "     - what it holds"]
    for module, exported in names.items():
        doc = inspect.getdoc(importlib.import_module(module)) or ""
        first = doc.strip().splitlines()[0] if doc.strip() else ""
        lines += [f"   * - :doc:`{module}`", f"     - {len(exported)}", f"     - {first}"]
    lines.append("")
    return "\n".join(lines)


def aliases() -> dict[str, list[str]]:
    """``home -> [other public paths]`` of each object exported twice (the entry points
    of ``modelmine``): the gallery's backreferences know them by the path used."""
    names = surface()
    where = homes(names)
    out: dict[str, list[str]] = {}
    for module, exported in names.items():
        for name, obj in exported.items():
            home = where.get(id(obj))
            if home and home != f"{module}.{name}":
                out.setdefault(home, []).append(f"{module}.{name}")
    return out


def _write_if_changed(path: Path, text: str) -> None:
    """Rewrite only what changed, so that Sphinx re-reads only what changed."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def generate(app: Sphinx, config: Any) -> None:
    names = surface()
    folder = Path(app.srcdir) / REFERENCE
    wanted = {folder / "index.rst": index_page(names)}
    for module, exported in names.items():
        wanted[folder / f"{module}.rst"] = module_page(module, exported, homes(names))
    for path, text in wanted.items():
        _write_if_changed(path, text)
    for stale in folder.glob("*.rst"):
        if stale not in wanted:
            stale.unlink()
    generated = folder / "generated"
    if generated.is_dir():  # pages of names that left the surface
        current = {f"{m}.{n}" for m, exported in names.items() for n in exported}
        for page in generated.glob("*.rst"):
            if page.stem not in current:
                page.unlink()


def start(app: Sphinx) -> None:
    # A page generate() added since the last build is not yet among the documents of a
    # pickled environment, where autosummary (next, at builder-inited) looks for them.
    app.env.find_files(app.config, app.builder)
    app.env.modelmine_homes = homes(surface())  # type: ignore[attr-defined]
    app.env.modelmine_unlinked = {}  # type: ignore[attr-defined]


# -- resolving references ---------------------------------------------------------------

def _locate(dotted: str) -> list[Any] | None:
    """The objects along ``a.b.c`` (module, then attributes), or None when it names
    nothing. A dataclass field (no class attribute) is the class itself."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except Exception:
            continue
        chain = [obj] * i
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a deprecated name warns: it still resolves
            for part in parts[i:]:
                try:
                    obj = getattr(obj, part)
                except AttributeError:
                    if inspect.isclass(obj) and _instance_attribute(obj, part):
                        chain.append(obj)
                        continue
                    return None
                chain.append(obj)
        return chain
    if len(parts) == 1 and hasattr(builtins, dotted):
        return [getattr(builtins, dotted)]
    return None


def _instance_attribute(cls: type, name: str) -> bool:
    """Whether instances of ``cls`` have an attribute ``name`` its class does not: a
    dataclass field, an annotation, a slot, or ``self.name = ...`` in its source."""
    for klass in inspect.getmro(cls):
        if name in getattr(klass, "__dataclass_fields__", {}) \
                or name in getattr(klass, "__annotations__", {}) \
                or name in getattr(klass, "__slots__", ()):
            return True
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return False
    return f"self.{name} =" in source or f"self.{name}:" in source


def _documented_object(docname: str) -> Any:
    """The object a page of the API reference documents (None for other pages)."""
    stem = docname.rsplit("/", 1)[-1]
    if not docname.startswith(REFERENCE + "/") or not stem.startswith(PACKAGE):
        return None
    chain = _locate(stem)
    return chain[-1] if chain else None


def _candidates(target: str, node: Any, where: dict[int, str]) -> list[str]:
    """The full names a relative reference may mean, most specific first: in the current
    module (and class), in the module that defines the documented object (its private
    neighbours), as written, and a public class by its short name (``MiningRun.save``
    from a page whose module does not import MiningRun)."""
    contexts = []
    module, cls = node.get("py:module"), node.get("py:class")
    if module:
        contexts.append(module)
    documented = _documented_object(node.get("refdoc", ""))
    defining = getattr(documented, "__module__", None) or getattr(documented, "__name__", None)
    if isinstance(defining, str) and defining not in contexts:
        contexts.append(defining)
    out = []
    for context in contexts:
        if cls:
            out.append(f"{context}.{cls}.{target}")
        out.append(f"{context}.{target}")
    out.append(target)
    first, _, rest = target.partition(".")
    short = [home for home in where.values() if home.rsplit(".", 1)[-1] == first]
    if len(short) == 1:
        out.append(".".join(filter(None, [short[0], rest])))
    return out


def _home(dotted: str, chain: list[Any], where: dict[int, str]) -> str | None:
    """The documented name of what ``dotted`` reaches: the home of the longest prefix of
    the chain that has one, with the rest of the path appended."""
    parts = dotted.split(".")
    for k in range(len(chain), 0, -1):
        home = where.get(id(chain[k - 1]))
        if home is not None:
            rest = [p for p, o in zip(parts[k:], chain[k:]) if o is not chain[k - 1]]
            return ".".join([home, *rest])
    return None


def resolve(app: Sphinx, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    domain = env.get_domain("py")
    where = getattr(env, "modelmine_homes", {})
    for dotted in _candidates(target, node, where):
        chain = _locate(dotted)
        if chain is None:
            continue
        if not dotted.startswith(PACKAGE + "."):
            return contnode  # another library's: shown as code, no link offline
        home = _home(dotted, chain, where)
        entry = domain.objects.get(home) if home else None
        if entry is None and home:
            # a member of a documented class that has no entry of its own (a dataclass
            # field, an undocumented attribute): its class's page. (A module's name that
            # is not in its __all__ is not on the surface: shown as code, below.)
            owner = home.rsplit(".", 1)[0]
            entry = domain.objects.get(owner)
            if entry is not None and entry.objtype in ("class", "exception"):
                home = owner
            else:
                entry = None
        if entry is not None:
            return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id,
                                contnode, home)
        unlinked = getattr(env, "modelmine_unlinked", None)
        if unlinked is not None:
            unlinked.setdefault(dotted, node["refdoc"])
        return contnode  # private (``_x``) or outside every __all__: no page documents it
    return None


def report_unlinked(app: Sphinx, exception: Exception | None) -> None:
    unlinked = getattr(app.env, "modelmine_unlinked", {})
    if unlinked and exception is None:
        logger.info("%d references to modelmine objects off the public surface shown as "
                    "code (no page documents them), e.g. %s", len(unlinked),
                    ", ".join(sorted(unlinked)[:5]))


def skip_foreign_member(app: Sphinx, what: str, name: str, obj: Any, skip: bool,
                        options: Any) -> bool | None:
    """Leave out the members a class gets from another library (scikit-learn's
    ``set_fit_request`` ...): their docstrings are that library's, with its references."""
    module = getattr(obj, "__module__", None)
    if callable(obj) and isinstance(module, str) and not module.startswith(PACKAGE):
        return True
    return None


def setup(app: Sphinx) -> dict[str, Any]:
    # before Sphinx lists the source files, so that autosummary (at builder-inited) makes
    # the per-name pages of these module pages in the same build
    app.connect("config-inited", generate)
    app.connect("builder-inited", start)
    app.connect("missing-reference", resolve)
    app.connect("autodoc-skip-member", skip_foreign_member)
    app.connect("build-finished", report_unlinked)
    # the pages this extension shapes are read again when its code changes
    return {"parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": zlib.crc32(Path(__file__).read_bytes())}

