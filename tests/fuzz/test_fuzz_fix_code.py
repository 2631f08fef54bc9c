"""Every fix devicelens prints is code that does only what it says, whatever the names are.

A namespace name set through ``globals()[...]`` and an attribute set through ``setattr`` may be
any string: quotes, semicolons, newlines, ``__import__`` calls. Generated names go through the
snapshot, the findings and the post-mortem's culprit fix; each printed fix must compile, run in
the namespace it was made for, and leave no trace of the payloads it carries (a canary file).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import pytest
import torch
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from torch import nn

from devicelens import diagnose, snapshot
from devicelens.guard.diagnosis._blame import Named, Operand
from devicelens.guard.diagnosis._mismatch import fix_for
from devicelens.inspect._tree import code_for, step

from .checks import SCALE

# NB: ``make fuzz`` runs 20x longer than the suite's per-test timeout
pytestmark = [pytest.mark.timeout(300 * SCALE)]

PAYLOADS = ["m;open(CANARY,'w');m", "x\"); open(CANARY,'w'); (\"", "a'\nopen(CANARY,'w')\n'",
            "__import__('os').system('touch ' + CANARY)", "pos-emb", "class", "a.b", "ü-name",
            "豈", "²"]
NAMES = st.one_of(st.sampled_from(PAYLOADS),
                  st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12))


def _run(fix: str, ns: dict[str, Any]) -> None:
    compile(fix, "<fix>", "exec")  # NB: a SyntaxError here is the bug this file looks for
    with contextlib.suppress(KeyError, TypeError):  # NB: torch refuses "a.b" and "" as names
        exec(fix, ns)


@settings(max_examples=60 * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES, attr=NAMES)
def test_a_trap_fix_runs_only_itself(name: str, attr: str, tmp_path: Path) -> None:
    m = nn.Linear(2, 2).to("meta")
    # NB: a method's or the module's own table's name is taken (register_buffer says so)
    assume(not hasattr(nn.Linear, attr) and attr not in vars(m))
    canary = str(tmp_path / f"canary-{abs(hash((name, attr)))}")
    m.__dict__[attr] = torch.zeros(2)
    ns: dict[str, Any] = {name: m, "torch": torch, "CANARY": canary}
    fixes = [f.fix for f in diagnose(snapshot({name: m})) if f.kind == "trap_attribute"]
    if name.startswith("_"):  # NB: a private name is never read
        assert fixes == []
        return
    assert len(fixes) == 1, (name, attr)
    _run(fixes[0], ns)
    assert not os.path.exists(canary)
    if "." not in attr and attr:
        assert attr in m._buffers and m._buffers[attr].device.type == "meta"
        assert attr not in m.__dict__


@settings(max_examples=60 * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES, attr=NAMES)
def test_a_culprit_fix_names_the_object_and_nothing_else(name: str, attr: str,
                                                         tmp_path: Path) -> None:
    holder = type("Holder", (), {})()
    assume(not hasattr(type(holder), attr))  # NB: `__dict__`, `__class__` are the class's own
    canary = str(tmp_path / f"canary-{abs(hash((name, attr)))}")
    holder.__dict__[attr] = torch.zeros(2, dtype=torch.float64)
    ns: dict[str, Any] = {name: holder, "torch": torch, "CANARY": canary}
    code = code_for((step("name", name), step("attr", attr)))
    named = Named(code, code, "attribute", code)
    fix = fix_for(Operand("", named, "cpu", "float64", (2,)), "dtype", "float32")
    _run(fix, ns)
    assert not os.path.exists(canary)
    assert holder.__dict__[attr].dtype == torch.float32
