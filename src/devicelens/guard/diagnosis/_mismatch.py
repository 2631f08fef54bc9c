"""One mismatch, explained: culprits by name, where it happened, and the fix as code.

The guard raises it (inside :class:`~devicelens.guard.DeviceMismatchError`) and the post-mortem
handler appends it to a traceback, so both speak with one voice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...inspect._tree import assign_code
from ._blame import Named, Operand
from ._edits import Edit

Kind = Literal["device", "dtype", "index_dtype"]

_CASTS = {"float32": "float()", "float64": "double()", "float16": "half()",
          "bfloat16": "bfloat16()", "int64": "long()"}


@dataclass(frozen=True)
class MismatchReport:
    kind: Kind
    op: str  # linear, cross_entropy, Tensor.add, or '' when unknown (post-mortem)
    expected: str  # the device or dtype the culprits should have
    operands: tuple[Operand, ...]
    culprits: tuple[Operand, ...]
    module: str = ""  # "model.decoder.layers.2 (TransformerDecoderLayer)"
    lines: tuple[str, ...] = ()  # "cell line 4: out = model(x)", innermost first
    fixes: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    edits: tuple[Edit, ...] = ()
    title: str = ""  # the headline, when the message's family says more than "different ..."
    verdict: str = ""  # "verified: ..." or "not verified: why" once the fix was rehearsed

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.named.name for c in self.culprits)

    def headline(self) -> str:
        if self.title:
            return f"{self.op}(): {self.title}" if self.op else self.title
        what = "devices" if self.kind == "device" else "dtypes"
        # NB: a 0-dim cpu tensor counts where it is a culprit (one an op writes into)
        seen = {getattr(o, "device" if self.kind == "device" else "dtype")
                for o in (*self.operands, *self.culprits)
                if not (self.kind == "device" and o.scalar_cpu and o not in self.culprits)}
        if self.culprits and self.expected and self.kind != "index_dtype":
            seen.add(self.expected)  # NB: the other side may be a temporary, no operand
        found = sorted(seen - {"", "?"})
        if self.kind == "index_dtype":
            op = f"{self.op}() got" if self.op else "an op got"
            return f"{op} a floating-point tensor where integer indices are needed"
        subject = f"{self.op}() got tensors" if self.op else "tensors"
        return f"{subject} on different {what}" + (f": {', '.join(found)}" if found else "")

    def body(self) -> str:
        lines = []
        for c in self.culprits:
            exp = f"; expected {self.expected}" if self.expected else ""
            lines.append(f"  culprit: {c.describe()}{exp}")
        if self.module:
            lines.append(f"  inside: {self.module}")
        for i, where in enumerate(self.lines):
            lines.append(f"  {'at' if i == 0 else 'from'}: {where}")
        lines += [f"  note: {n}" for n in self.notes]
        if self.fixes:
            lines.append("  fix:")
            lines += ["      " + ln for fix in self.fixes for ln in fix.splitlines()]
        for e in self.edits:
            lines += ["  " + ln for ln in e.lines()]
        if self.verdict:
            lines.append(f"  {self.verdict}")
        return "\n".join(lines)

    def text(self) -> str:
        return f"{self.headline()}\n{self.body()}"


def is_float(dtype: str) -> bool:
    return dtype.startswith(("float", "bfloat", "complex"))


def lossy_cast(dtype: str, report: MismatchReport) -> bool:
    """Whether casting data of ``dtype`` to what ``report`` wants loses its values: floats to
    an integer (or bool). A rehearsal proves the cell runs, not that the values survive, and a
    cell can run *because* they did not (retinanet's scores cast to long are all 0: nothing
    passes the threshold, and the failing line is never reached)."""
    if report.kind == "device":
        return False
    target = "int64" if report.kind == "index_dtype" else report.expected
    return is_float(dtype) and not is_float(target)


def anchor_for(operands: tuple[Operand, ...] | list[Operand], expected: str) -> Named | None:
    """A correctly placed namespace tensor whose ``.device`` the fix can point at."""
    for o in operands:
        n = o.named
        if o.device == expected and n.role == "tensor" and n.code and n.code == n.root:
            return n
    return None


def fix_for(c: Operand, kind: Kind, expected: str, anchor: Named | None = None,
            hint: str = "") -> str:
    """The code that puts culprit ``c`` where it belongs, in user names."""
    n = c.named
    if kind == "device":
        use_anchor = anchor is not None and n.role == "tensor"
        target = f"{anchor.code}.device" if use_anchor and anchor else f'"{expected}"'
        call = f"to({target})"
    elif kind == "index_dtype":
        call = "long()"
    else:
        call = _CASTS.get(expected, f"to(torch.{expected})")
    dev_or_dtype = f'"{expected}"' if kind == "device" else f"torch.{expected}"
    if n.role in ("parameter", "buffer") and n.root:
        return f"{n.root}.to({dev_or_dtype})"
    if n.role == "state" and n.root:
        return optimizer_fix(n.root, kind, step=n.name.endswith("['step']"))
    if n.role in ("attribute", "trapped") and n.code:
        return (f"{assign_code(n.code, f'{n.code}.{call}')}\n"
                f"# better: register it in __init__ with self.register_buffer(...) so "
                f"{n.root}.to() moves it")
    if n.role in ("tensor", "grad") and n.code:
        return assign_code(n.code, f"{n.code}.{call}")
    if hint:
        return hint
    return f"# pass {n.name} through .{call} before this call"


def optimizer_fix(opt: str, kind: str = "device", step: bool = False) -> str:
    """Every state tensor of ``opt`` put on its parameter's device; for a dtype failure, a
    floating one in its parameter's dtype too (what a fresh optimizer would make: a momentum
    restored in float32 for bfloat16 weights fails ``lerp_``); with ``step``, an integer
    ``step`` made a float32 one, as torch's optimizers keep it."""
    to = ("_v.to(device=_p.device, dtype=_p.dtype if _v.is_floating_point() else _v.dtype)"
          if kind != "device" else "_v.to(_p.device)")
    fix = (f"for _p, _s in {opt}.state.items():\n    for _k, _v in _s.items():\n"
           f"        if torch.is_tensor(_v) and _k != \"step\":\n"
           f"            _s[_k] = {to}")
    if step:
        fix += ("\n        elif torch.is_tensor(_v) and not _v.is_floating_point():\n"
                "            _s[_k] = _v.float()")
    return fix


def fixes_for(culprits: list[Operand], kind: Kind, expected: str, operands: list[Operand],
              hints: dict[str, str] | None = None) -> tuple[str, ...]:
    anchor = anchor_for(operands, expected) if kind == "device" else None
    out = [fix_for(c, kind, expected, anchor, (hints or {}).get(c.named.name, ""))
           for c in culprits]
    return tuple(dict.fromkeys(out))
