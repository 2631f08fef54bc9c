"""Fuzz: text the UTF-8 wire cannot carry (issue 38, item 11). Request ids, params and namespace
names with lone UTF-16 surrogates among any other characters: every request gets exactly one
reply, every message the kernel sends encodes, and pushes never stop."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devicelens.jupyter._protocol import PROTOCOL_VERSION
from devicelens.jupyter.comm import Bridge
from tests._comm_fake import FakeComm

from .checks import SCALE

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"),
              pytest.mark.timeout(300 * SCALE)]

#: any text, lone surrogates included and likely (NB: ``st.text`` never draws a surrogate)
surrogate = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"])
wild = st.lists(st.one_of(surrogate, st.characters()), min_size=1, max_size=12).map("".join)

PARAMS = {"refresh": lambda s: {}, "expand": lambda s: {"name": s},
          "move_all": lambda s: {"device": s, "dry_run": True},
          "apply_fix": lambda s: {"finding_id": s, "dry_run": True},
          "cancel": lambda s: {"request_id": s}}


@settings(max_examples=200 * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
          suppress_health_check=list(HealthCheck))
@given(names=st.lists(wild, min_size=1, max_size=3, unique=True),
       requests=st.lists(st.tuples(st.sampled_from(sorted(PARAMS)), wild, wild), max_size=4))
def test_text_the_wire_cannot_carry_never_silences_the_kernel(
        names: list[str], requests: list[tuple[str, str, str]]) -> None:
    ns: dict[str, Any] = {"x": torch.ones(2)}
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns)
    assert bridge.open({"protocol": PROTOCOL_VERSION})
    comm.take()
    for i, name in enumerate(names):
        ns[name] = torch.ones(i + 1)
    bridge.push()
    assert [m["type"] for m in comm.take()] == ["snapshot"]
    for method, rid, text in requests:
        sent = comm.request(method, PARAMS[method](text), rid=rid)
        final = [m for m in sent if m["type"] in ("snapshot", "result", "error")]
        assert len(final) == 1, (method, rid, text, sent)
        assert final[0]["request_id"] in (rid, None)
        assert final[0]["request_id"] == rid or final[0]["error"] == "bad_request"
    for name in names:
        del ns[name]
    ns["y"] = torch.zeros(1)
    bridge.push()
    (snap,) = comm.take()
    assert snap["type"] == "snapshot" and [o["name"] for o in snap["snapshot"]["objects"]] == ["y"]
