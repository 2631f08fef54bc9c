"""What the panel shows after every cell equals a fresh snapshot + diagnose of the namespace.

The cells of :mod:`tests.test_inspect_live` are played against a bridge with a recording comm;
after each one the bridge pushes (as after a cell), a model of the panel applies the messages
(full replace, or upserts and removals), and its rows, totals and findings must equal the wire
form of ``take_snapshot`` + ``diagnose``, its window's order the panel's order (flagged rows
first, then by name, case-insensitively) written out here. Diffs are forced (no full replace
for small namespaces), so a stale row cannot hide behind a full push.
"""

from __future__ import annotations

from typing import Any, ClassVar

from hypothesis import HealthCheck, settings
from hypothesis.stateful import invariant

from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.jupyter._protocol import (
    PROTOCOL_VERSION,
    finding_to_wire,
    row_to_wire,
    snapshot_to_wire,
)
from devicelens.jupyter.comm import Bridge

from ._comm_fake import FakeComm
from .test_inspect_live import Cells, ModelCells


class Panel:
    """What the panel holds after applying the kernel's snapshot messages."""

    def __init__(self) -> None:
        self.rows: dict[str, Any] = {}
        self.base: dict[str, Any] = {}
        self.findings: list[Any] = []
        self.window: dict[str, Any] = {}
        self.seq = 0

    def apply(self, msgs: list[dict[str, Any]]) -> None:
        for m in msgs:
            assert m["type"] == "snapshot", m
            assert m["seq"] == self.seq + 1  # NB: a gap would make the panel ask for refresh
            self.seq = m["seq"]
            objects = {o["name"]: o for o in m["snapshot"]["objects"]}
            if m["changed"] is None:
                self.rows = objects
            else:
                assert set(objects) == set(m["changed"])
                self.rows.update(objects)
                for name in m["removed"]:
                    del self.rows[name]
            self.base = {k: v for k, v in m["snapshot"].items() if k != "objects"}
            self.findings = m["findings"]
            self.window = m["window"]
        assert sorted(self.rows) == sorted(self.window["names"])


RANK = {"error": 0, "warning": 1, "info": 2}


def fresh_order(names: list[str], findings: list[Any]) -> list[str]:
    """By name, case-insensitively (ties: as written), rows flagged by an error first, then by
    a warning, then by info: a finding is drawn under the first of its objects with a row."""
    rank: dict[str, int] = {}
    for f in findings:
        at = next((n for n in f["objects"] if n in names), None)
        if at is not None:
            rank[at] = min(rank.get(at, 3), RANK[f["severity"]])
    return sorted(names, key=lambda n: (rank.get(n, 3), n.lower(), n))


def fresh(ns: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    snap = take_snapshot(ns)
    base = dict(snapshot_to_wire(snap, objects=False))
    del base["objects"]
    rows = {o.name: row_to_wire(o) for o in snap.objects}
    return rows, base, [finding_to_wire(f) for f in diagnose(snap)]


class PanelCells(Cells):
    WINDOW: ClassVar[dict[str, Any]] = {}  # the window the panel asks for on open

    def __init__(self) -> None:
        super().__init__()
        self.comm = FakeComm()
        self.bridge = Bridge(self.comm, lambda: self.ns)
        self.bridge.open({"protocol": PROTOCOL_VERSION, "window": self.WINDOW})
        self.panel = Panel()
        self.panel.apply(self.comm.take()[1:])

    def order(self, rows: dict[str, Any], findings: list[Any]) -> list[str]:
        return fresh_order(list(rows), findings)

    @invariant()
    def live_equals_fresh(self) -> None:
        self.bridge.push()  # NB: what the hub does after each cell
        self.panel.apply(self.comm.take())
        rows, base, findings = fresh(self.ns)
        want = self.order(rows, findings)
        assert self.panel.rows == {n: rows[n] for n in want}
        assert self.panel.base == base
        assert self.panel.findings == findings
        assert self.panel.window["names"] == want
        assert self.panel.window["matched"] == len(want)
        assert self.panel.window["total"] == len(rows)


# NB: the same examples on every run, so `make test` is reproducible on a fresh clone
PanelCells.TestCase.settings = settings(max_examples=40, stateful_step_count=25, deadline=None,
                                        derandomize=True, database=None,
                                        suppress_health_check=[HealthCheck.too_slow])


class TestPanelEqualsFresh(PanelCells.TestCase):  # type: ignore[name-defined,misc]
    pass


class ModelPanelCells(PanelCells, ModelCells):
    """The same, in a namespace that starts with models and optimizers (one with state): the
    pushes then go through the module and optimizer watches, training steps included."""


ModelPanelCells.TestCase.settings = settings(PanelCells.TestCase.settings, max_examples=25)


class TestPanelWithModelsEqualsFresh(ModelPanelCells.TestCase):  # type: ignore[name-defined,misc]
    pass


class SortedFilteredPanelCells(ModelPanelCells):
    """The same, the panel's window sorted by memory (largest first) and filtered to what
    shows ``float32`` (in a row or a row under it): the kernel keeps an order from frame to
    frame only while it holds, so every push is compared with one computed afresh here."""

    WINDOW: ClassVar[dict[str, Any]] = {"sort": "bytes", "ascending": False,
                                        "filter": "float32"}

    def order(self, rows: dict[str, Any], findings: list[Any]) -> list[str]:
        snap = take_snapshot(self.ns)

        def shows(name: str) -> bool:  # NB: a module's rows show no grad
            o = snap[name]
            return ("float32" in name or "float32" in rows[name]["dtypes"]
                    or any("float32" in m.dtypes for m in o.modules)
                    or any(t.dtype == "float32" for t in o.tensors
                           if not (t.role == "grad" and o.kind == "module")))

        keep = [n for n in rows if shows(n)]
        return sorted(sorted(keep), key=lambda n: -rows[n]["bytes"])


SortedFilteredPanelCells.TestCase.settings = settings(PanelCells.TestCase.settings,
                                                      max_examples=15)


class TestSortedFilteredPanel(SortedFilteredPanelCells.TestCase):  # type: ignore[name-defined,misc]
    pass
