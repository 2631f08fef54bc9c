"""The panel's frames, each built from the last (:class:`devicelens.jupyter._push.Frames`).

The first frame is a plain snapshot; the live one starts at the second (so the tests below
build two before the cells they play). A training step gives the model's and the optimizer's
records new grad storages and nothing else: their rows, which carry no storage, are kept
without being encoded again, and their findings stand (no rule reads a grad's storage), so no
rule runs again; a cell that steps and changes anything else is judged afresh. A frame that
fails half-way leaves no memory behind: the next one is built afresh, never diffed against a
frame the live snapshot has moved past.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from devicelens import analysis
from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.jupyter import _push, _window
from devicelens.jupyter._protocol import finding_to_wire, object_to_wire, row_to_wire

from .test_inspect_regrad import namespace, step


def fresh_rows(ns: dict[str, Any]) -> dict[str, Any]:
    return {o.name: row_to_wire(o) for o in take_snapshot(ns).objects}


def fresh_findings(ns: dict[str, Any]) -> list[Any]:
    return [finding_to_wire(f) for f in diagnose(take_snapshot(ns))]


def rows_of(frame: _push.Frame, cache: dict[str, Any] | None = None) -> dict[str, Any]:
    """The rows a panel's default window shows of ``frame`` (every row, in these tests)."""
    assert frame.snapshot is not None
    spec = _window.Spec()
    ordered = _window.order(frame.snapshot, frame.findings, spec)
    rows, window = _window.page(frame.snapshot, ordered, spec, {} if cache is None else cache,
                                frame.regraded)
    assert window["matched"] == window["total"] == len(rows)
    return rows


def _encoded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    names: list[str] = []
    real = _window.row_to_wire

    def counted(o: Any, **kw: Any) -> Any:
        names.append(o.name)
        return real(o, **kw)

    monkeypatch.setattr(_window, "row_to_wire", counted)
    return names


def test_the_first_frame_is_a_plain_snapshot_and_the_live_one_follows() -> None:
    ns = namespace()
    frames = _push.Frames()
    first = frames.build(ns)
    assert first.snapshot == take_snapshot(ns) and first.changed is None
    assert frames.live.snap is None  # NB: nothing kept per tensor but the snapshot
    ns["x"] = ns["x"].double()
    second = frames.build(ns)
    assert second.changed is None and frames.live.snap is second.snapshot
    assert rows_of(second) == fresh_rows(ns) and second.findings == fresh_findings(ns)


def test_a_frame_keeps_the_snapshot_before_it_only_weakly() -> None:
    """A frame knows which snapshot its ``changed`` compares with, but keeps it no longer than
    whoever compares with it (a panel's last frame): a strong reference kept a second whole
    snapshot alive after every cell, a third of what a big namespace's panel kept."""
    import gc
    import weakref

    ns = {f"t{i}": torch.zeros(2) for i in range(50)}
    frames = _push.Frames()
    first = frames.build(ns)
    frames.build(ns)  # NB: the live snapshot starts
    ns["t3"] = torch.zeros(3)
    before = frames.last
    assert before is not None and before.snapshot is not None
    after = frames.build(ns)
    assert after.follows(before.snapshot) and not after.follows(first.snapshot)
    assert after.changed == {"t3"}
    gone = weakref.ref(before.snapshot)
    del before, first
    gc.collect()
    assert gone() is None and not after.follows(None)


def test_a_row_never_reads_a_storage() -> None:
    """What the shortcut rests on: the records before and after a training step differ (their
    grads' storages), their rows, every tensor's included, do not."""
    ns = namespace()
    before = take_snapshot(ns)
    step(ns)
    after = take_snapshot(ns)
    for name in ("model", "opt"):
        assert before[name] != after[name]
        assert (object_to_wire(before[name], children=True)
                == object_to_wire(after[name], children=True))


def test_after_a_training_step_no_row_is_encoded_again(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    ns = namespace()
    frames = _push.Frames()
    frames.build(ns)
    frames.build(ns)
    cache: dict[str, Any] = {}
    last = rows_of(frames.build(ns), cache)
    encoded = _encoded(monkeypatch)
    step(ns)
    frame = frames.build(ns)
    rows = rows_of(frame, cache)
    assert encoded == []
    assert all(rows[n] is last[n] for n in rows) and set(frame.regraded) == {"model", "opt"}
    assert rows == fresh_rows(ns)
    assert frame.snapshot.objects == take_snapshot(ns).objects  # NB: the new storages


def test_a_step_that_changes_a_row_is_encoded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a mere regrad (a grad of another dtype): the model's row is encoded and sent."""
    ns = namespace()
    frames = _push.Frames()
    frames.build(ns)
    frames.build(ns)
    cache: dict[str, Any] = {}
    rows_of(frames.build(ns), cache)
    encoded = _encoded(monkeypatch)
    w = ns["model"][0].weight
    w.data = w.data.double()
    w.grad = torch.zeros(w.shape, dtype=torch.float64)
    frame = frames.build(ns)
    rows = rows_of(frame, cache)
    assert "model" in encoded and "model" in (frame.changed or ())
    assert rows == fresh_rows(ns)


def test_a_frame_that_fails_leaves_nothing_to_diff_against(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The live snapshot took in a change, then the diagnosis failed: the next frame must still
    show that change, though the live snapshot has nothing new to report."""
    ns = namespace()
    frames = _push.Frames()
    frames.build(ns)
    frames.build(ns)
    ns["x"] = ns["x"].double()

    def broken(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(analysis, "diagnose", broken)
    with pytest.raises(RuntimeError, match="a bug of ours"):
        frames.build(ns)
    monkeypatch.undo()
    frame = frames.build(ns)
    assert rows_of(frame) == fresh_rows(ns)
    assert rows_of(frame)["x"]["dtypes"] == ["float64"]
    assert frame.findings == fresh_findings(ns)


def _judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the modules and optimizers whose rules run."""
    from devicelens.analysis import _diagnose

    names: list[str] = []
    for rule in ("_module_rules", "_optimizer"):
        real = getattr(_diagnose, rule)

        def counted(o: Any, ctx: Any, real: Any = real) -> Any:
            names.append(o.name)
            return real(o, ctx)

        monkeypatch.setattr(_diagnose, rule, counted)
    return names


def test_training_steps_run_no_rule_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grads' storages are all a training step changes, and no rule reads them: the findings
    of the records before stand, step after step, a cell between them or not."""
    ns = namespace()
    ns["stray"] = torch.zeros(2, dtype=torch.float64)  # NB: a finding to keep
    ns["In"] = ["stray @ model[0].weight"]
    frames = _push.Frames()
    frames.build(ns)
    frames.build(ns)
    frames.build(ns)  # NB: the watches that tell a training step are set from the second on
    judged = _judged(monkeypatch)
    for cell in ("step", "step", "noop", "step"):
        if cell == "step":
            step(ns)
        ns["In"].append(cell)
        frame = frames.build(ns)
        assert judged == []
        assert frame.findings == fresh_findings(ns) != []
        judged.clear()  # NB: the fresh diagnosis runs every rule


def test_a_step_and_another_change_in_one_cell_are_judged_again() -> None:
    """The same cell steps and leaves a state tensor on another device: the optimizer's record
    changed beyond its grads, and its finding must show."""
    ns = namespace()
    frames = _push.Frames()
    frames.build(ns)
    frames.build(ns)
    step(ns)
    frames.build(ns)
    step(ns)
    state = ns["opt"].state[ns["model"][0].weight]
    state["exp_avg"] = state["exp_avg"].to("meta")
    frame = frames.build(ns)
    assert "optimizer_state" in {f["kind"] for f in frame.findings}
    assert frame.findings == fresh_findings(ns)
    assert rows_of(frame) == fresh_rows(ns)


def test_a_model_changed_between_steps_is_judged_again() -> None:
    """A step, then a cell that moves a layer (no mere regrad), then steps again: each frame's
    findings are a fresh diagnosis's."""
    ns = namespace()
    frames = _push.Frames()
    frames.build(ns)
    frames.build(ns)
    step(ns)
    frames.build(ns)
    ns["model"][2].to(torch.float64)
    assert frames.build(ns).findings == fresh_findings(ns) != []
    ns["model"][2].to(torch.float32)
    assert frames.build(ns).findings == fresh_findings(ns)
    step(ns)
    assert frames.build(ns).findings == fresh_findings(ns)


def test_standing_mismatches_are_not_judged_again_after_an_unrelated_cell(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Loose tensors that mismatch the model and stay as they are keep their findings, the very
    objects, through cells that change something else: their records are rebuilt from the
    columns at every read, so the memo keys them by value. A row that does change is judged
    again, and every frame equals a fresh diagnosis."""
    from devicelens.analysis import _rules_data

    ns: dict[str, Any] = {"model": torch.nn.Linear(2, 2), "In": ["model"]}
    ns.update({f"d{i}": torch.zeros(3, dtype=torch.float64) for i in range(40)})
    ns.update({f"x{i}": torch.zeros(3) for i in range(40)})
    frames = _push.Frames()
    frames.build(ns)
    first = frames.build(ns)
    judged: list[str] = []
    real = _rules_data._loose_object

    def counted(o: Any, ctx: Any) -> Any:
        judged.append(o.name)
        return real(o, ctx)

    monkeypatch.setattr(_rules_data, "_loose_object", counted)
    ns["x3"] = torch.zeros(5)  # NB: unrelated: a float32 tensor rebound
    ns["In"].append("x3 = torch.zeros(5)")
    second = frames.build(ns)
    assert second.changed == frozenset({"x3"})
    assert judged == []  # NB: x3 agrees with the model: not even a candidate
    assert len(second.raw_findings) == 40
    assert all(map(lambda a, b: a is b, first.raw_findings, second.raw_findings))
    assert second.findings is first.findings  # NB: nothing to encode again either
    assert second.findings == fresh_findings(ns)
    judged.clear()
    ns["d7"] = torch.zeros(3, dtype=torch.float16)  # NB: a standing one changes
    ns["In"].append("d7 = d7.half()")
    third = frames.build(ns)
    assert judged == ["d7"]
    assert third.findings == fresh_findings(ns)
    d7 = [f for f in third.raw_findings if "d7" in f.objects]
    assert [f.title for f in d7] == ["d7 is float16"]
    assert sum(f is g for f in third.raw_findings for g in second.raw_findings) == 39
    ns["In"].append("model(d5)")  # NB: the cells' usage changes: every standing one is judged
    judged.clear()
    fourth = frames.build(ns)
    assert sorted(judged) == sorted(f"d{i}" for i in range(40))
    assert fourth.findings == fresh_findings(ns) != third.findings
