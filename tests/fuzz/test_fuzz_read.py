"""Fuzz: everything that only *reads* a namespace (snapshot, diagnose, every renderer, the wire
encoding, the panel's frame, dry runs of a move and of the fixes) on generated namespaces of
every tensor kind, modules, optimizers, containers and hostile objects: it never raises, never
changes anything, never runs user code, and every wire value is plain JSON."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devicelens import moves
from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.jupyter import _push, _window
from devicelens.jupyter._protocol import finding_to_wire, report_to_wire, snapshot_to_wire
from devicelens.render import DevicesView, report_mimebundle

from .checks import FIGURES, SCALE, assert_plain_json, fingerprint
from .hostile import CALLS
from .strategies import build, namespaces

# NB: ``make fuzz`` runs 20x longer than the suite's per-test timeout
pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"),
              pytest.mark.timeout(300 * SCALE)]


WINDOWS = (_window.Spec(), _window.Spec(sort="bytes", ascending=False, filter="a"),
           _window.Spec(sort="shape", limit=3), _window.Spec(sort="kind", filter="float"),
           _window.Spec(sort="device"), _window.Spec(sort="dtype", offset=2))


def read_everything(ns: dict[str, Any], target: str) -> None:
    snap = take_snapshot(ns)
    findings = diagnose(snap)
    for show_all in (False, True):
        view = DevicesView(snap, findings, show_all=show_all)
        bundle = view._repr_mimebundle_()
        assert bundle["text/plain"] == repr(view) and "<table" in bundle["text/html"]
    assert_plain_json(snapshot_to_wire(snap, all_tensors=True))
    for f in findings:
        assert_plain_json(finding_to_wire(f))
    frame = _push.build_frame(ns)
    for spec in WINDOWS:  # NB: the panel's page, ordered and filtered in the kernel
        rows, window = _window.Pager().page(frame, spec)
        assert_plain_json(list(rows.values()))
        assert_plain_json(window)
    assert_plain_json(frame.base)
    assert_plain_json(list(frame.findings))
    for report in (moves.move_all(target, ns, dry_run=True),
                   moves.apply_all_fixes(ns, dry_run=True)):
        assert type(report) is moves.MoveReport and report.dry_run
        assert_plain_json(report_to_wire(report))
        assert report_mimebundle(report)["text/plain"]


@settings(max_examples=300 * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
          suppress_health_check=list(HealthCheck))
@given(recipe=namespaces, target=st.sampled_from(["meta", "cpu", "cuda:0"]))
def test_reading_any_namespace_is_safe(recipe: dict[str, Any], target: str) -> None:
    ns = build(recipe)
    before = fingerprint(ns)
    CALLS.clear()
    started = time.perf_counter()
    FIGURES.namespaces += 1
    FIGURES.tensors += sum(1 for row in before if len(row) == 9)
    try:
        read_everything(ns, target)
    except BaseException:
        FIGURES.crashes += 1
        raise
    finally:
        FIGURES.timed(started, recipe)
    calls = list(CALLS)
    after = fingerprint(ns)
    FIGURES.user_code_calls += len(calls)
    FIGURES.state_changes += after != before
    assert calls == []
    assert after == before
