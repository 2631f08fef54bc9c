"""The records culprit tracing works with, and the face the tracer shows to the code checks.

:mod:`._origin` follows a culprit back through the user's code; :mod:`._code_bugs` judges single
lines on the way. Both speak in these types, so neither imports the other's internals.
"""

from __future__ import annotations

import ast
import types
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ._edits import Edit
from ._source import Code, Source

if TYPE_CHECKING:
    from ._blame import Namer
from ..running._frames import Frame


class Want(NamedTuple):
    """The culprit being traced, and what it should have been."""

    kind: str  # device | dtype | index_dtype
    device: str
    dtype: str
    expected: str  # the device or dtype it should have
    fix: str  # the message table's ``want`` ("", "int64", "bool", "float", ...)


class Origin(NamedTuple):
    name: str  # user name path, or the owner of the faulty code (``head``, ``create_masks``)
    code: str  # expression to reassign in a namespace fix ('' when the fix is an edit)
    obj: Any  # the namespace tensor named (None for code)
    role: str  # the Named role, or "code"
    edit: Edit | None = None
    detail: str = ""  # for code: what the line does wrong
    own: bool = False  # for code: ``name`` is the culprit's own (``hidden.cover_label``), not
    #                   the owner of the code (``hidden``)
    local: str = ""  # for code: the local the edited line binds (``indices_equal``)


class Scope(NamedTuple):
    """Names as one piece of code sees them: a live frame, or a function read statically with
    its parameters bound to what its caller passed."""

    code: Code
    values: dict[str, Any]
    globals: dict[str, Any]
    line: int
    frame: int  # position in the traceback's frames, -1 when not running
    caller: Scope | None = None
    call: ast.Call | None = None

    @property
    def self_obj(self) -> Any:
        return self.values.get("self")


def namespace_scope(ns: dict[str, Any]) -> Scope:
    """The namespace as a scope of no code: where a path the user could write (``a.b['c']``)
    is read with :meth:`Tracer.live`."""
    return Scope(Code(Source("", [], ast.Module([], [])), None, ""), {}, ns, 0, -1)


class TracerLike(Protocol):
    """What a code check may ask of the tracer that called it."""

    frames: list[Frame]
    namer: Namer
    want: Want
    item_key: str

    def live(self, sc: Scope, node: ast.expr) -> Any: ...

    def argument(self, sc: Scope, name: str) -> tuple[Scope, ast.expr] | None: ...

    def call_site(self, sc: Scope) -> tuple[Scope, ast.Call] | None: ...

    def user_function(self, sc: Scope, node: ast.Call) -> Any: ...

    def matches(self, t: Any) -> bool: ...


def is_torch_namespace(sc: Scope, node: ast.expr) -> bool:
    """``torch`` / ``F`` / ``torch.nn.functional``: calls on them are torch functions."""
    root = node
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    mod = sc.values.get(root.id, sc.globals.get(root.id))
    return type(mod) is types.ModuleType and str(getattr(mod, "__name__", "")).startswith("torch")


def torch_function_name(sc: Scope, func: ast.expr) -> str:
    """The name of the torch function a call's ``func`` is: ``torch.tensor`` and
    ``F.pad`` by their attribute on a torch namespace, and a bare name bound to torch's own
    function (kornia's ``from torch import tensor``; ``from torch import zeros as z``) by
    what it is bound to; '' for anything else. NB: only builtin and plain functions are asked
    their ``__name__``, then compared by identity with torch's attribute of that name."""
    if isinstance(func, ast.Attribute):
        return func.attr if is_torch_namespace(sc, func.value) else ""
    if not isinstance(func, ast.Name):
        return ""
    obj: Any = sc.values.get(func.id, sc.globals.get(func.id))
    if type(obj) not in (types.BuiltinFunctionType, types.FunctionType):
        return ""
    name = obj.__name__
    import torch

    return name if type(name) is str and getattr(torch, name, None) is obj else ""
