"""The source of library classes whose own code decides where a plain tensor attribute goes.

The analysis reads what a class's code does with ``self.<attr>`` (moves it where it reads it,
remakes it at each call, never reads it) from the text of the classes the cells define. A class
imported from a library (transformers' LayoutLMv3 keeps ``self.visual_bbox`` as a plain tensor
and moves it in ``calculate_visual_bbox``) has its text in a file instead: for each module that
holds a plain tensor attribute (or tensors in a plain container) and whose class the cells do
not define, that class's source and its bases' (never torch's own) are read from their files
and handed to the analysis beside the cells, marked with :data:`MARK`; so are the classes of
the modules holding a weight in another floating dtype than the rest, and of those above them
(whose code may cast it where it is read).

The same for what the cells call (:func:`called_sources`): a library function the cells hand
data to (``get_grounding_output(model, image, ...)`` moves ``image`` itself) and the class of a
library object whose method they call (SAM 2's ``predictor.propagate_in_video(state)`` moves
each offloaded frame where it reads it), read as the cells' own functions and classes are.

NB: source text only (``inspect.getsource`` reads the file; no class code runs), cached per
class (function) with it kept alive beside it; the objects are found through their records'
refs (``_tree.resolve``: ``__dict__``s and torch's own tables, no user code) or as names the
cells call, read off the namespace dict.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
import types
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from operator import attrgetter
from typing import Any

from . import _types
from ._tree import resolve
from .records import ObjectRecord

MARK = "# devicelens: the source of a class the cells do not define\n"
MAX_CHARS = 50_000  # NB: as a cell: a longer class is not read
#: a class read because the cells call a method of its object is read up to this size: the
#: analysis reads a new set of library sources once (about 10 ms per thousand characters on a
#: loaded 2-core machine), and a method call is a weaker sign than a plain tensor attribute
MAX_CALLED_CLASS_CHARS = 12_000
_TRAP_ROLES = frozenset({"attribute", "trapped"})
_ROLE = attrgetter("role")
_FLOATS = frozenset({"float16", "bfloat16", "float32", "float64"})
_WEIGHTS = frozenset({"parameter", "buffer"})
_CACHE: dict[int, tuple[Any, str]] = {}  # NB: id -> (the class, kept alive; MARK + its text)
#: packages whose code is never read: torch's own and NumPy's (what they do with data is known),
#: and the standard library's (it makes no tensor)
_NOT_READ = frozenset({"torch", "numpy"})
_CACHE_MAX = 4_096


def class_sources(namespace: dict[str, Any], objects: Iterable[ObjectRecord]) -> tuple[str, ...]:
    """The marked sources of the classes (and their bases) of the modules of ``objects`` whose
    code the analysis reads (:func:`_owners`), where the cells do not define them; sorted, so a
    snapshot taken anew and one kept up to date give the same."""
    out: set[str] = set()
    for o in objects:
        out.update(_of(namespace, o))
    return tuple(sorted(out))


def _owners(o: ObjectRecord) -> set[str]:
    """The modules whose classes' code the analysis reads for ``o``: those holding a plain
    tensor attribute (and their children), those holding a weight of a floating dtype the
    record's other weights do not have, with every module above them (a class casts what its
    submodule gives: ESMFold's stem, NequIP's float64 scales), and the root of a model over
    several devices."""
    owners: set[str] = set()
    if not _TRAP_ROLES.isdisjoint(map(_ROLE, o.tensors)):  # NB: C speed: most records hold none
        owners = {t.owner for t in o.tensors if t.role in _TRAP_ROLES}
        # NB: and their children, whose ``forward`` may move what the owner hands them
        # (BasicTS's Chebyshev layer: ``gso = gso.to(x.device)``)
        owners |= {m.path for m in o.modules
                   if m.path.rpartition(".")[0] in owners}
    if len(o.devices) > 1 and o.modules:
        # NB: a model over several devices: its own class says whether its ``forward`` reads
        # the strays at all (Real-Time-Voice-Cloning's speaker encoder keeps its loss's scale
        # on the cpu, read only by its ``loss``)
        owners.add(o.modules[0].path)
    if len(_FLOATS.intersection(o.dtypes)) > 1:
        weights = [t for t in o.tensors if t.role in _WEIGHTS and t.dtype in _FLOATS]
        if weights:
            common = Counter(t.dtype for t in weights).most_common(1)[0][0]
            for t in weights:
                if t.dtype != common:
                    parts = t.owner.split(".")
                    owners.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return owners


def _of(namespace: dict[str, Any], o: ObjectRecord) -> list[str]:
    owners = _owners(o)
    if not owners:
        return []
    out: list[str] = []
    for ref in [m.ref for m in o.modules if m.path in owners]:  # NB: the root's too
        try:
            module = resolve(namespace, ref)
        except Exception:  # NB: a shortcut never costs the snapshot (gone, or hostile)
            continue
        for klass in _types.type_mro(type(module)):
            text = _source(klass)
            if text:
                out.append(text)
    return out


def library_sources(*parts: tuple[str, ...]) -> tuple[str, ...]:
    """The sources to hand the analysis after the cells: each once, sorted (a snapshot taken
    anew and one kept up to date give the same)."""
    return tuple(sorted(set().union(*parts)))


def called_sources(namespace: dict[str, Any], cells: Iterable[str]) -> tuple[str, ...]:
    """The marked sources of the library functions the cells call by a namespace name, and of
    the classes (and bases) of the library objects whose methods they call; sorted."""
    out: set[str] = set()
    for cell in cells:
        for name in _called_names(cell):
            value = dict.get(namespace, name)
            kind = type(value)  # NB: never ``isinstance``: it may read a hostile ``__class__``
            if value is None or issubclass(kind, type) or kind is types.ModuleType:
                continue  # NB: a class called builds an object; a module's functions are not
                # the user's
            if kind is types.FunctionType:
                text = _source(value)
                if text:
                    out.add(text)
                continue
            for klass in _types.type_mro(kind):
                text = _source(klass)
                if text and len(text) <= MAX_CALLED_CLASS_CHARS:
                    out.add(text)
    return tuple(sorted(out))


MAX_CELL_CHARS = 50_000  # NB: a longer cell is not read (a pasted data dump)


@lru_cache(maxsize=256)
def parse_cell(src: str) -> ast.Module | None:
    """A cell's tree, or None (too long, magics, another language). NB: cached and shared with
    the analysis (which reads the same cells at every snapshot); trees are only read."""
    if len(src) > MAX_CELL_CHARS:
        return None
    try:
        return ast.parse(src)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


@lru_cache(maxsize=256)
def _called_names(cell: str) -> tuple[str, ...]:
    """The names a cell calls (``f(...)``) or calls a method of (``obj.m(...)``)."""
    tree = parse_cell(cell)
    if tree is None:
        return ()
    names: dict[str, None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                func = func.value
            if isinstance(func, ast.Name):
                names[func.id] = None
    return tuple(names)


def _source(obj: type | types.FunctionType) -> str:
    """MARK + the dedented source of class (function) ``obj``; '' for torch's and builtins',
    the cells' own (``__main__``), and one whose file cannot be read."""
    entry = _CACHE.get(id(obj))
    if entry is not None and entry[0] is obj:
        return entry[1]
    module = _types._TDICT(obj).get("__module__") if isinstance(obj, type) \
        else obj.__module__
    text = ""
    if type(module) is str and module not in ("__main__", "builtins") \
            and module.split(".", 1)[0] not in _NOT_READ \
            and module.split(".", 1)[0] not in sys.stdlib_module_names:
        try:
            text = textwrap.dedent(inspect.getsource(obj))
        except Exception:  # NB: no file, a loader that cannot give it, or a text that fails
            text = ""
    text = MARK + text if text and len(text) <= MAX_CHARS else ""
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[id(obj)] = (obj, text)
    return text
