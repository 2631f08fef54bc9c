"""What the sidebar panel costs a cell: the push after each cell, against the bare loop.

A real IPython shell with ``%load_ext devicelens`` and one panel open; the panel is a fake comm
that serialises each message as the kernel session does (JSON, UTF-8), so its cost and sizes are
those of the wire. The push is timed directly (``Hub.flush``, what runs after each cell).
Targets (issue 39): after a cell that changes nothing, <= 1.0x the bare loop at 10k objects and
<= 0.5 ms at 100; after a cell that rebinds k names, <= the no-op push + 10 us per changed row
(+ 30 us per new finding), the no-op push measured in the same round. Also the README workload
(a model with Adam state): a cell that changes nothing, and a training step, <= 1.5x the no-op
push (paired, round by round); and
a cell that changes nothing among 60 models of five kinds with their optimizers, and among 10k
loose tensors and nothing else; and a cell that rebinds one name among 10k objects of which
1,000 mismatch the models (their findings stand from cell to cell). Also the first push when a
panel first opens in the kernel (no frame kept from an earlier panel).
CPU time: ms is the best of interleaved runs, a ratio (x) the median over rounds of each
round's ratio (``paired_ratio``, see _workload). The no-op pushes are timed after
:data:`WARM` untimed ones: the first pushes after a panel opens cost more (at 100 objects
the first no-op push took 1.0–1.2 ms, the next few 0.4–0.6 ms, later ones 0.3–0.5 ms: the
watches settle and Python's specialising interpreter adapts to the code that runs), and a panel
stays open for many cells.
Run: .venv/bin/python benchmarks/bench_push.py
"""

from __future__ import annotations

import json
import time
from typing import Any

import torch
from _workload import bare_loop, cpu_time, loose, namespace, objects, paired_ratio, rounds, zoo
from IPython.core.interactiveshell import InteractiveShell

from devicelens.jupyter import _push
from devicelens.jupyter import comm as dl_comm
from devicelens.jupyter._protocol import COMM_TARGET, PROTOCOL_VERSION


class WireComm:
    """A panel at the end of a wire: records the serialised size of every message."""

    def __init__(self) -> None:
        self.sizes: list[int] = []

    def send(self, data: Any = None, **_: Any) -> None:
        self.sizes.append(len(json.dumps(data, ensure_ascii=False).encode()))

    def on_msg(self, cb: Any) -> None:
        pass

    def on_close(self, cb: Any) -> None:
        self.close_cb = cb

    def close(self) -> None:
        pass


def open_panel() -> WireComm:
    import comm

    fake = WireComm()
    comm.get_comm_manager().targets[COMM_TARGET](
        fake, {"content": {"data": {"protocol": PROTOCOL_VERSION}}})
    return fake


def record(ns: dict[str, Any], source: str) -> None:
    """A cell's source, kept as IPython's history keeps it (``HistoryManager.store_inputs``):
    appended to ``In``, rotated through ``_i``/``_ii``/``_iii``, and bound to ``_iN``, a new
    name each cell. NB: so the namespace's keys change after every cell, as in a kernel."""
    ns["In"].append(source)
    ns["_iii"], ns["_ii"], ns["_i"] = ns.get("_ii", ""), ns.get("_i", ""), source
    ns[f"_i{len(ns['In']) - 1}"] = source


def rebind(ns: dict[str, Any], names: list[str]) -> None:
    """A cell that rebinds ``names``: each tensor flips dtype, so every row really changes;
    its source is recorded as a kernel's would be."""
    for k in names:
        t = ns[k]
        ns[k] = t.double() if t.dtype == torch.float32 else t.float()
    record(ns, f"{names[0]} = {names[0]}.double()  # and {len(names) - 1} more")


def noop(ns: dict[str, Any], hub: Any) -> None:
    """A cell that changes nothing: only its source is new (``In``, ``_iN``), then the push."""
    record(ns, "pass")
    hub.flush()


WARM = 10  # untimed no-op pushes before the timed ones (see the module docstring)


def warm(ns: dict[str, Any], hub: Any) -> None:
    for _ in range(WARM):
        noop(ns, hub)


def first_open() -> tuple[WireComm, float]:
    """A panel opened where none was open before in the kernel (a first frame), and the best
    CPU time of three such opens."""
    opens = []
    for _ in range(3):
        _push._FRAMES.clear()
        t0 = time.process_time()
        fake = open_panel()
        opens.append(time.process_time() - t0)
        if len(opens) < 3:
            fake.close_cb({})
    return fake, min(opens)


def row(shell: InteractiveShell, n: int) -> None:
    ns = shell.user_ns
    for k in [k for k in ns if k.startswith("obj")]:
        del ns[k]
    ns.update(objects(n))
    hub = dl_comm._HUBS[id(shell)]
    fake, opened = first_open()
    first_msgs, first_kb = len(fake.sizes) - 1, sum(fake.sizes[1:]) / 1e3
    repeat = 9 if n <= 1_000 else 5
    warm(ns, hub)
    r = rounds({"bare": lambda: bare_loop(ns), "noop": lambda: noop(ns, hub)}, repeat)
    cells = [f"{n:>8,}", f"{min(r['bare']) * 1e3:>9.2f}", f"{min(r['noop']) * 1e3:>10.2f}",
             f"{paired_ratio(r['noop'], r['bare']):>7.2f}"]
    tensors = [k for k in ns if k.startswith("obj") and type(ns[k]) is torch.Tensor]
    for k in (1, 100, 1000):
        if k > len(tensors):
            cells.append(f"{'':>{WIDE}}")
            continue
        cells.append(f"{rebound(ns, hub, tensors[:k], repeat):>{WIDE}}")
    cells += [f"{opened * 1e3:>8.1f}", f"{first_msgs:>5}", f"{first_kb:>9.1f}"]
    print("  ".join(cells))
    fake.close_cb({})


WIDE = 22


ROW_S, FINDING_S = 10e-6, 30e-6  # NB: what issue 39 allows a changed row and a new finding


def rebound(ns: dict[str, Any], hub: Any, names: list[str], repeat: int) -> str:
    """Pushes after cells that rebind ``names``, two per round: to float64 (each such tensor
    then also gains a finding: the models are float32) and back (the findings go): best ms of
    each, and the ratio of each to its allowance (median of the rounds): the no-op push of the
    same round + ``ROW_S`` a changed row (+ ``FINDING_S`` a new finding)."""
    got: dict[str, tuple[list[float], list[float]]] = {"back": ([], []), "there": ([], [])}
    k = len(names)
    for _ in range(repeat):  # NB: the allowance's no-op push interleaved with the pushes
        base = cpu_time(lambda: noop(ns, hub))
        for kind in ("there", "back"):
            rebind(ns, names)
            times, allowed = got[kind]
            times.append(cpu_time(hub.flush))
            allowed.append(base + k * ROW_S + (k * FINDING_S if kind == "there" else 0.0))
    (back, a_back), (there, a_there) = got["back"], got["there"]
    return (f"{min(back) * 1e3:.1f}/{min(there) * 1e3:.1f} "
            f"({paired_ratio(back, a_back):.2f}/{paired_ratio(there, a_there):.2f})")


def training(shell: InteractiveShell) -> None:
    """The README workload (10k loose tensors + a 2k-parameter model + Adam state): a cell that
    changes nothing, and a training step (every grad a new tensor, the state updated in place;
    against the no-op push of the same round, target <= 1.5x)."""
    ns = shell.user_ns
    for k in [k for k in ns if k.startswith("obj")]:
        del ns[k]
    ns.update(namespace())
    hub = dl_comm._HUBS[id(shell)]
    fake, opened = first_open()
    model, opt = ns["model"], ns["opt"]
    warm(ns, hub)

    def step() -> None:
        opt.zero_grad()  # NB: set_to_none: backward then makes every grad anew
        for p in model.parameters():
            p.grad = torch.zeros_like(p)
        opt.step()
        record(ns, "opt.zero_grad(); loss.backward(); opt.step()")

    times: list[float] = []

    def trained() -> None:
        step()
        times.append(cpu_time(hub.flush))

    r = rounds({"bare": lambda: bare_loop(ns), "noop": lambda: noop(ns, hub), "step": trained},
               7)
    print(f"\nREADME workload (10k loose tensors + 2k-parameter model + Adam): first open "
          f"{opened * 1e3:.1f} ms; bare {min(r['bare']) * 1e3:.2f} ms; no-op push "
          f"{min(r['noop']) * 1e3:.2f} ms ({paired_ratio(r['noop'], r['bare']):.2f}x); push "
          f"after a training step {min(times) * 1e3:.2f} ms "
          f"({paired_ratio(times, r['noop']):.2f}x the no-op push)")
    fake.close_cb({})


def models(shell: InteractiveShell) -> None:
    """The ``%devices`` benchmark's namespace (60 models of five kinds: MLPs, convolutions with
    batch norm, transformer encoders, LSTMs, deep stacks; 30 Adam optimizers with state): a
    cell that changes nothing. Real layers hold None in their tables (``bias=False``,
    attention's unused projections), which the README workload's plain Linears do not."""
    noop_line(shell, zoo(), "60 models of five kinds + 30 Adam optimizers", 7)


def loose_only(shell: InteractiveShell, n: int = 10_000) -> None:
    """A cell that changes nothing among ``n`` loose tensors and nothing else. NB: the rows
    above hold one small module in ten, whose bare loop (``.parameters()``) costs more per
    tensor than a loose tensor's: against loose tensors alone the push reads higher."""
    noop_line(shell, loose(n), f"{n:,} loose tensors only", 9)


def replace_workload(shell: InteractiveShell, fresh: dict[str, Any]) -> dict[str, Any]:
    """The shell's namespace with the last benchmark's objects gone and ``fresh`` bound."""
    ns = shell.user_ns
    for k in [k for k in ns if k.startswith(("obj", "t", "model", "opt")) and k != "torch"]:
        del ns[k]
    ns.update(fresh)
    return ns


def noop_line(shell: InteractiveShell, fresh: dict[str, Any], label: str, repeat: int) -> None:
    """One panel open on ``fresh``: the push after a cell that changes nothing, printed."""
    ns = replace_workload(shell, fresh)
    hub = dl_comm._HUBS[id(shell)]
    fake = open_panel()
    warm(ns, hub)
    r = rounds({"bare": lambda: bare_loop(ns), "noop": lambda: noop(ns, hub)}, repeat)
    print(f"{label}: bare {min(r['bare']) * 1e3:.2f} ms; no-op push "
          f"{min(r['noop']) * 1e3:.2f} ms ({paired_ratio(r['noop'], r['bare']):.2f}x)")
    fake.close_cb({})


def standing(shell: InteractiveShell, n: int = 10_000, wrong: int = 1_000) -> None:
    """``n`` objects of which ``wrong`` tensors are float64 beside the float32 models (a finding
    each, standing from cell to cell): the push after a cell that rebinds one other name, to
    its allowance. NB: those findings are the last frame's, not judged again."""
    ns = replace_workload(shell, objects(n))
    tensors = [k for k in ns if k.startswith("obj") and type(ns[k]) is torch.Tensor]
    for k in tensors[:wrong]:
        ns[k] = ns[k].double()
    hub = dl_comm._HUBS[id(shell)]
    fake = open_panel()
    warm(ns, hub)
    name = tensors[-1]
    times, allowed = [], []
    for _ in range(9):
        base = cpu_time(lambda: noop(ns, hub))
        ns[name] = torch.zeros(4, 8)
        record(ns, f"{name} = torch.zeros(4, 8)")
        times.append(cpu_time(hub.flush))
        allowed.append(base + ROW_S)
    print(f"{n:,} objects, {wrong:,} of them float64 (a finding each): push after a cell "
          f"rebinding one other name {min(times) * 1e3:.2f} ms "
          f"({paired_ratio(times, allowed):.2f}x its allowance)")
    fake.close_cb({})


def main() -> None:
    shell = InteractiveShell.instance()
    shell.user_ns["torch"] = torch
    shell.user_ns.update(objects(100))
    before = min(cpu_time(lambda: shell.run_cell("pass", store_history=False))
                 for _ in range(200))
    shell.run_line_magic("load_ext", "devicelens")
    after = min(cpu_time(lambda: shell.run_cell("pass", store_history=False))
                for _ in range(200))
    print(f"no panel open: a cell 'pass' costs {before * 1e6:.0f} us before %load_ext, "
          f"{after * 1e6:.0f} us after (no snapshot is taken)\n")
    print("one panel open; ms of CPU per push; x = ratio to the bare loop over the namespace")
    print("(k rebound: ratio to the allowance, the no-op push + 10 us a changed row + 30 us a "
          "new finding)\n")
    head = ["objects", "bare ms", "no-op ms", "x bare", "k=1 ms (x)", "k=100 ms (x)",
            "k=1000 ms (x)", "open ms", "msgs", "open kB"]
    widths = (8, 9, 10, 7, WIDE, WIDE, WIDE, 8, 5, 9)
    print("  ".join(f"{h:>{w}}" for h, w in zip(head, widths, strict=True)))
    for n in (100, 1_000, 10_000):
        row(shell, n)
    print("\nno-op: a cell that changes nothing but its history (In, _i, a new _iN: the snapshot "
          "is checked, nothing is sent);\nk rebound: k tensors cast back to float32 / to "
          "float64 (each then also gains a finding), ms and x of each.\nopen ms/msgs/open kB: "
          "the first push when a panel first opens in the kernel (messages of at most 1 MB; "
          "best of 3).")
    training(shell)
    models(shell)
    loose_only(shell)
    standing(shell)


if __name__ == "__main__":
    main()
