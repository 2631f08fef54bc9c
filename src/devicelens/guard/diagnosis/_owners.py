"""Whose method an edit changes, in the user's names: ``model.encoder`` for a line of
``Encoder.init_hidden``, so a code fix says which of the user's objects runs the bad code.

Candidates are the objects the failure went through (each frame's ``self``) and what they hold
(submodules, attributes), found by identity; a method is theirs when their class's own function
has the edited code's file and qualified name. NB: reads ``__dict__``s only: no user code runs.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

from ...inspect import _tree
from ..running._frames import Frame, frame_locals
from ._blame import Namer
from ._edits import Edit
from ._source import unwrapped

_LIMIT = 20_000  # NB: objects looked at per diagnosis (a large model has thousands of modules)


def with_owners(edits: tuple[Edit, ...], frames: list[Frame], namer: Namer) -> tuple[Edit, ...]:
    """``edits``, each naming the user's object whose method it changes, when exactly one is
    found (a frame's ``self`` first: it is the one that ran)."""
    if not any(_is_method(e) for e in edits):
        return edits
    selves = _selves(frames)
    held: list[Any] = []
    out = []
    for e in edits:
        name = ""
        if _is_method(e) and not e.owner:
            if not held and not any(_runs(o, e) for o in selves):
                held = list(_held(selves))  # NB: walked only when no frame's self runs it
            name = _owner(e, selves, held, namer)
        out.append(e._replace(owner=name) if name else e)
    return tuple(out)


def _is_method(e: Edit) -> bool:
    parts = e.qualname.split(".")
    return bool(e.file) and len(parts) >= 2 and "<locals>" not in parts


def _owner(e: Edit, selves: list[Any], held: list[Any], namer: Namer) -> str:
    # NB: last, the namespace's own objects: a method that ran and returned before the failure
    # (outlines' model wrapper's ``__call__``) left no frame, and no frame's self holds it
    named = [v for k, v in list(dict.items(namer.ns))
             if type(k) is str and not k.startswith("_") and _object(v)]
    for group in (selves, held, named):
        names = list(dict.fromkeys(namer.owner(o) for o in group if _runs(o, e)))
        names = [n for n in names if n]
        if len(names) == 1:
            return names[0]
        if names:
            return ""  # NB: several objects of that class: which one ran is not known
    return ""


def _runs(obj: Any, e: Edit) -> bool:
    """``type(obj)`` (through its MRO) has the edited function as the method it would call."""
    fn = _tree._type_dict_lookup(type(obj), e.qualname.rsplit(".", 1)[1])
    if isinstance(fn, staticmethod | classmethod):
        fn = fn.__func__
    elif isinstance(fn, property):
        fn = fn.fget
    fn = unwrapped(fn)  # NB: under ``functools.wraps`` decorators (``@torch.no_grad()``)
    if type(fn) is not types.FunctionType:
        return False
    code = fn.__code__
    return code.co_filename == e.file and code.co_qualname == e.qualname


def _selves(frames: list[Frame]) -> list[Any]:
    out: list[Any] = []
    for fr in frames:
        me = frame_locals(fr.frame).get("self")
        if me is not None and not any(me is o for o in out):
            out.append(me)
    return out


def _held(roots: list[Any]) -> Iterator[Any]:
    """Submodules of the roots (all levels) and their plain attributes' objects (one level)."""
    seen = {id(r) for r in roots}
    todo = list(roots)
    count = 0
    while todo and count < _LIMIT:
        obj = todo.pop(0)
        count += 1
        d = _tree.instance_dict(obj)
        if d is None:
            continue
        subs = d.get("_modules")
        children = list(subs.values()) if type(subs) is dict else []
        children += [v for k, v in d.items() if not k.startswith("_") and _object(v)]
        for c in children:
            if c is not None and id(c) not in seen:
                seen.add(id(c))
                yield c
                todo.append(c)


def _object(v: Any) -> bool:
    """An instance of a user's class (not a number, string, container or tensor)."""
    tp = type(v)
    return tp.__module__ not in ("builtins", "torch") and not tp.__module__.startswith("torch.") \
        and _tree.instance_dict(v) is not None
