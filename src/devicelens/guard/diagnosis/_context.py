"""What one diagnosis works on: the failure, the operands, the frames and names (:class:`Ctx`),
and the culprit lines with their fixes (:class:`Blame`) that every step hands on.
"""

from __future__ import annotations

import ast
import os
import sysconfig
from typing import Any, NamedTuple

from ..running._frames import CellFiles, Frame, held_modules, module_stack
from . import _source
from ._blame import Namer, Operand, namespace_data_devices, namespace_param_device
from ._edits import Edit
from ._messages import Rule
from ._mismatch import Kind
from ._origin import Tracer
from ._trace import Want, namespace_scope


class Failure(NamedTuple):
    kind: Kind
    rule: Rule | None  # the message's table row; None when the guard caught the mix itself
    op: str
    hint: str = ""  # a device the message itself names as the one needed
    devices: tuple[str, ...] = ()  # devices the message names
    text: str = ""  # the error message ('' when the guard caught the mix itself)


class Op(NamedTuple):
    operand: Operand
    tensor: Any


class Ctx:
    """What one diagnosis reads: frames, names, the module stack, the failing user statement."""

    def __init__(self, frames: list[Frame], ns: dict[str, Any], is_cell: CellFiles) -> None:
        import torch

        self.frames, self.ns, self.is_cell = frames, ns, is_cell
        self.namer = Namer(ns, frames, is_cell)
        self.stack = module_stack(frames, torch.nn.Module)
        self.held = held_modules(frames, torch.nn.Module)  # ``self.model`` of a plain object
        self.user = next((i for i, fr in enumerate(frames)
                          if is_user(fr.frame.f_code.co_filename, is_cell)), -1)
        self.cell = next((i for i in range(len(frames) - 1, -1, -1)
                          if is_cell(frames[i].frame.f_code.co_filename)
                          and "run_cell_magic(" not in _line(frames[i])), -1)
        self.anchor = ""

    def is_user(self, filename: str) -> bool:
        return is_user(filename, self.is_cell)

    def tracer(self, want: Want) -> Tracer:
        return Tracer(self.frames, self.namer, self.is_user, want)

    def statement(self, i: int) -> tuple[Any, ast.stmt | None]:
        if i < 0:
            return None, None
        sc = self.tracer(Want("device", "", "", "", "")).scope(i)
        if sc is None:
            return None, None
        return sc, _source.statement_at(sc.code, sc.line)

    def resolve(self, code: str) -> Any:
        """The namespace object a code path (``a.b['c']``) names now; no user code runs."""
        try:
            node = ast.parse(code, mode="eval").body
        except SyntaxError:
            return None
        if isinstance(node, ast.Name):
            return self.ns.get(node.id)
        return self.tracer(Want("", "", "", "", "")).live(namespace_scope(self.ns), node)


def _line(fr: Frame) -> str:
    import linecache

    return linecache.getline(fr.frame.f_code.co_filename, fr.lineno)


_LIBS = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "purelib", "platlib")})
# NB: devicelens/, three folders up from guard/diagnosis/_context.py
_HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def is_user(filename: str, is_cell: CellFiles) -> bool:
    """A cell, or a file of the user's own (not Python's, an installed package's or ours)."""
    if is_cell(filename):
        return True
    return not (filename.startswith(("<", _HERE)) or filename.startswith(_LIBS)
                or "site-packages" in filename)


class Blame(NamedTuple):
    operand: Operand | None  # None: a fix with no culprit line of its own
    fixes: tuple[str, ...] = ()
    edits: tuple[Edit, ...] = ()
    notes: tuple[str, ...] = ()


def ns_device(ctx: Ctx) -> str | None:
    """The device most of the namespace's parameters are on."""
    return namespace_param_device(ctx.namer)


def ns_data(ctx: Ctx) -> dict[str, int]:
    """How many of the namespace's tensors are on each device."""
    return namespace_data_devices(ctx.namer)
