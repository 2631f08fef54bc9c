"""Renderers, checked as exact strings: what users read must not drift by accident."""

from __future__ import annotations

import torch
from torch import nn

from devicelens.analysis import diagnose
from devicelens.inspect import human_bytes, take_snapshot
from devicelens.moves import Move, MoveReport
from devicelens.render import DevicesView, report_mimebundle
from devicelens.render._fold import MAX_ROWS
from devicelens.render._report import headline, plural
from devicelens.render._rows import MAX_FINDINGS, device_colour, shape_str
from devicelens.render.html import esc


class Tiny(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.enc = nn.Linear(4, 8)
        self.dec = nn.Linear(8, 2)


def view(ns, **kw):
    snap = take_snapshot(ns)
    return DevicesView(snap, diagnose(snap), **kw)


def test_text_table_and_findings_exact():
    model = Tiny()
    model.enc.to("meta")
    ns = {"model": model, "x": torch.zeros(2, 4)}
    assert repr(view(ns)) == """\
devicelens — 2 objects · cpu: 2 objects, 104 B · meta: 1 object, 160 B
name           kind    device     dtype    shape   memory
model !        Tiny    cpu, meta  float32          232 B
  model.enc    Linear  meta       float32          160 B
  model.dec !  Linear  cpu        float32          72 B
x              Tensor  cpu        float32  (2, 4)  32 B

1 finding:
✖ error: model is partly moved
  model is split across cpu, meta: 2 of its tensors (model.dec) are not on meta, so its \
forward pass will fail.
  fix:
    model.to("meta")"""


def test_text_all_lists_every_tensor():
    text = repr(view({"m": nn.Linear(2, 3)}, show_all=True))
    assert text.splitlines()[1:5] == [
        "name        kind       device  dtype    shape   memory",
        "m           Linear     cpu     float32          36 B",
        "  m.weight  parameter  cpu     float32  (3, 2)  24 B",
        "  m.bias    parameter  cpu     float32  (3,)    12 B",
    ]


def test_text_no_problems():
    assert repr(view({"x": torch.ones(1)})).endswith("No device or dtype problems found.")


def test_html_colours_text_and_escaping():
    model = Tiny()
    model.enc.to("meta")
    ns = {"model": model, "batch": {"<script>": torch.ones(1)}}
    html = view(ns)._repr_mimebundle_()["text/html"]
    assert ('<span class="dl-chip" style="background:#A58AFF" title="meta">meta</span>'
            in html)
    assert '<tr class="dl-bad"><td><code>model</code></td>' in html
    assert "<pre><code>model.to(&quot;meta&quot;)</code></pre>" in html
    assert "<script>" not in html and "batch[&#x27;&lt;script&gt;&#x27;]" in html


def test_palette_is_fixed_and_distinct():
    assert device_colour("cpu") == "#6F6F6F" and device_colour("cuda:0") == "#0072B2"
    assert device_colour("cuda:1") == "#E69F00" and device_colour("cuda:9") == "#E69F00"
    assert len({device_colour(f"cuda:{i}") for i in range(8)} | {device_colour("cpu")}) == 9


def test_units_and_shapes():
    assert [human_bytes(n) for n in (0, 1023, 1024, 1536, 5 * 2**20, 3 * 2**30)] == [
        "0 B", "1023 B", "1.0 KiB", "1.5 KiB", "5.0 MiB", "3.0 GiB"]
    assert [shape_str(s) for s in ((), (3,), (2, 5))] == ["()", "(3,)", "(2, 5)"]
    assert esc('a<"b">') == "a&lt;&quot;b&quot;&gt;"


def test_report_text_and_html():
    r = MoveReport(True, False, "meta", (Move("x", "cpu", "meta", 2048),),
                   (("model", "dispatched by accelerate"),), {"meta": 2048})
    bundle = report_mimebundle(r)
    assert bundle["text/plain"] == (
        "Moved 1 tensor to meta (1 object, 2.0 KiB).\n  x: cpu → meta (1 tensor, 2.0 KiB)\n"
        "Refused:\n  model: dispatched by accelerate")
    assert "<code>x</code>" in bundle["text/html"]
    failed = MoveReport(False, False, "cuda:0", error="out of memory on cuda:0 (need 2.0 GiB)")
    assert report_mimebundle(failed)["text/plain"] == (
        "Nothing was changed: out of memory on cuda:0 (need 2.0 GiB)")


def test_report_headlines_count_tensors_objects_and_casts():
    def report(*moved: Move, dry: bool = False, target: str = "meta") -> str:
        return headline(MoveReport(True, dry, target, moved))

    model = Move("model", "cpu", "meta", 70_000, 28, "meta", None)
    opt = Move("opt", "cpu", "meta", 140_000, 32, "meta", None)
    assert report(model, opt) == "Moved 60 tensors to meta (2 objects, 205.1 KiB)."
    assert report(model, dry=True) == "Would move 28 tensors to meta (1 object, 68.4 KiB)."
    batch = [Move("batch['x']", "cpu float64", "meta float32", 4096, 1, "meta", "float32"),
             Move("batch['y']", "cpu", "meta", 64, 1, "meta", None)]
    assert report(*batch, target="") == (
        "Moved 2 tensors to meta and cast 1 tensor to float32 (1 object, 4.1 KiB).")
    cast = Move("w", "float64", "float32", 16, 1, None, "float32")
    assert report(cast, target="") == "Cast 1 tensor to float32 (1 object, 16 B)."
    assert report(cast, dry=True, target="") == "Would cast 1 tensor to float32 (1 object, 16 B)."
    assert report(target="") == "Nothing to fix: no automatic fix has anything to do here."
    assert report() == "Nothing to move: everything in scope is already on meta."
    assert [plural(n, "object") for n in (0, 1, 2)] == ["0 objects", "1 object", "2 objects"]


def test_nothing_to_fix_is_said_plainly_and_never_drawn_as_a_device():
    bundle = report_mimebundle(MoveReport(True, False, ""))
    assert bundle["text/plain"] == "Nothing to fix: no automatic fix has anything to do here."
    assert 'class="dl-chip"' not in bundle["text/html"]
    assert "Nothing to fix: no automatic fix has anything to do here." in bundle["text/html"]


def test_html_table_keeps_names_left_aligned_in_jupyterlab():
    """JupyterLab right-aligns output table cells with a selector stronger than a class."""
    html = view({"x": torch.ones(2), "m": nn.Linear(2, 2)})._repr_mimebundle_()["text/html"]
    assert ".dl-t td,.dl-t th{padding:2px 8px;text-align:left!important}" in html
    assert '<td class="dl-num">8 B</td>' in html  # memory alone to the right
    assert "devicelens</b> — 2 objects" in html


def test_optimizer_state_collapses_to_one_row_per_kind_and_place():
    model = nn.Linear(2, 2)
    opt = torch.optim.Adam(model.parameters())
    model(torch.ones(1, 2)).sum().backward()
    opt.step()
    state = opt.state[model.weight]
    state["exp_avg"] = state["exp_avg"].to("meta")  # one tensor left elsewhere
    lines = repr(view({"model": model, "opt": opt})).splitlines()
    assert lines[3:8] == [
        "opt !                         Adam      cpu, meta  float32         48 B",
        "  opt.state[…]['step']        state ×2  cpu        float32         8 B",
        "  opt.state[…]['exp_avg'] !   state ×1  meta       float32         16 B",
        "  opt.state[…]['exp_avg_sq']  state ×2  cpu        float32         24 B",
        "  opt.state[…]['exp_avg']     state ×1  cpu        float32         8 B",
    ]
    assert "1 state tensor of opt is on meta while" in "\n".join(lines)


def test_a_submodule_is_marked_only_when_a_flagged_path_lies_under_it():
    from devicelens.render._fold import rows

    # NB: layers of two sizes in turn, so no run of alike siblings folds them into one row
    m = nn.Sequential(*[nn.Linear(2, 2 + i % 2, device="cpu" if i == 10 else "meta")
                        for i in range(11)])
    snap = take_snapshot({"m": m})
    marked = {r.name: r.flagged for r in rows(snap, diagnose(snap)) if r.name.count(".") == 1}
    assert marked["m.10"] is True and marked["m.1"] is False  # NB: "m.1" prefixes "m.10."
    assert sum(marked.values()) == 1 and len(marked) == 11



def test_numbered_siblings_alike_fold_into_one_row_as_torch_prints_a_module_list():
    m = nn.Sequential(*[nn.Linear(2, 2) for _ in range(6)], nn.Linear(2, 3), nn.ReLU(),
                      nn.ReLU(), nn.Sequential(*[nn.Linear(2, 2) for _ in range(3)]))
    m[2].double()  # cast alone: it breaks the run and shows by itself
    m[9][2].double()  # m.9 is mixed: it opens below, where its alike children fold too
    lines = repr(view({"m": m})).splitlines()
    assert lines[1:13] == [
        "name         kind        device  dtype             shape      memory",
        "m !          Sequential  cpu     float32, float64             300 B",
        "  m.0-1      Linear ×2   cpu     float32           4 tensors  48 B",
        "  m.2 !      Linear      cpu     float64                      48 B",
        "  m.3-5      Linear ×3   cpu     float32           6 tensors  72 B",
        "  m.6        Linear      cpu     float32                      36 B",
        "  m.7-8      ReLU ×2                                          0 B",
        "  m.9 !      Sequential  cpu     float32, float64             96 B",
        "    m.9.0-1  Linear ×2   cpu     float32           4 tensors  48 B",
        "    m.9.2 !  Linear      cpu     float64                      48 B",
        "",
        "1 finding:",
    ]
    everything = repr(view({"m": m}, show_all=True))  # NB: --all: every tensor, nothing folds
    assert "0-1" not in everything and "  m.1.weight " in everything


def test_flagged_siblings_fold_only_with_flagged_ones():
    m = nn.Sequential(*[nn.Linear(2, 2) for _ in range(4)])
    m[2].to("meta")
    assert repr(view({"m": m})).splitlines()[1:6] == [
        "name       kind        device     dtype    shape      memory",
        "m !        Sequential  cpu, meta  float32             96 B",
        "  m.0-1 !  Linear ×2   cpu        float32  4 tensors  48 B",
        "  m.2      Linear      meta       float32             24 B",
        "  m.3 !    Linear      cpu        float32             24 B",
    ]


def test_only_consecutive_indices_under_one_parent_fold():
    from devicelens.render._fold import rows

    # NB: "04", the non-ASCII digits and 5,000 digits (more than int() reads) are names, not
    # indices torch makes
    huge = "9" * 5000
    d = nn.ModuleDict({k: nn.Linear(2, 2)
                       for k in ("0", "2", "3", "04", "5", "²", "٣", "a", huge, "7")})
    snap = take_snapshot({"d": d})
    assert [(r.name, r.kind, r.nbytes) for r in rows(snap, diagnose(snap))] == [
        ("d", "ModuleDict", 240), ("d.0", "Linear", 24), ("d.2-3", "Linear ×2", 48),
        ("d.04", "Linear", 24), ("d.5", "Linear", 24), ("d.²", "Linear", 24),
        ("d.٣", "Linear", 24), ("d.a", "Linear", 24), (f"d.{huge}", "Linear", 24),
        ("d.7", "Linear", 24)]


def test_a_run_needs_siblings_alike_in_every_row_below_them():
    from devicelens.render._fold import rows

    def block(relu_first: bool) -> nn.Sequential:
        lin = nn.Linear(4, 2, bias=False)
        return nn.Sequential(nn.ReLU(), lin) if relu_first else nn.Sequential(lin, nn.ReLU())

    # NB: m.2 agrees with its neighbours in every column of its own row, not below it
    m = nn.Sequential(*(block(i == 2) for i in range(6)))
    m[5][0].to("meta")
    snap = take_snapshot({"m": m})
    assert [(r.name, r.kind, r.shape, r.nbytes, r.flagged) for r in rows(snap, diagnose(snap))
            ] == [("m", "Sequential", "", 192, True),
                  ("m.0-1", "Sequential ×2", "2 tensors", 64, True),
                  ("m.0-1.0", "Linear ×2", "2 tensors", 64, True),  # NB: the path to a flag
                  ("m.0-1.1", "ReLU ×2", "", 0, False),
                  ("m.2", "Sequential", "", 32, True),
                  ("m.2.0", "ReLU", "", 0, False),
                  ("m.2.1", "Linear", "", 32, True),
                  ("m.3-4", "Sequential ×2", "2 tensors", 64, True),
                  ("m.3-4.0", "Linear ×2", "2 tensors", 64, True),
                  ("m.3-4.1", "ReLU ×2", "", 0, False),
                  ("m.5", "Sequential", "", 32, False),
                  ("m.5.0", "Linear", "", 32, False),  # NB: room left: a uniform one opens too
                  ("m.5.1", "ReLU", "", 0, False)]


def test_a_model_dispatched_across_devices_reads_as_one_run_per_device():
    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.attn, self.mlp = nn.Linear(4, 4), nn.Linear(4, 4)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(10, 4)
            self.layers = nn.ModuleList([Block() for _ in range(12)])
            self.head = nn.Linear(4, 2)

    model = Net()
    for block in model.layers[6:]:
        block.to("meta")
    model.head.to("meta")
    model.hf_device_map = {"embed": 0, "layers.0": 0, "layers.6": 1, "head": 1}  # NB: accelerate
    assert repr(view({"model": model})).splitlines()[1:12] == [
        "name                          kind        device     dtype    shape       memory",
        "model                         Net         cpu, meta  float32              2.1 KiB",
        "  model.embed                 Embedding   cpu        float32              160 B",
        "  model.layers                ModuleList  cpu, meta  float32              1.9 KiB",
        "    model.layers.0-5          Block ×6    cpu        float32  24 tensors  960 B",
        "      model.layers.0-5.attn   Linear ×6   cpu        float32  12 tensors  480 B",
        "      model.layers.0-5.mlp    Linear ×6   cpu        float32  12 tensors  480 B",
        "    model.layers.6-11         Block ×6    meta       float32  24 tensors  960 B",
        "      model.layers.6-11.attn  Linear ×6   meta       float32  12 tensors  480 B",
        "      model.layers.6-11.mlp   Linear ×6   meta       float32  12 tensors  480 B",
        "  model.head                  Linear      meta       float32              40 B",
    ]


def long_namespace() -> dict[str, object]:
    """150 names: a float32 model, 148 small tensors (one float64: flagged; one int64 deep in
    the tail) and a list holding an int8 tensor, last."""
    ns: dict[str, object] = {"model": nn.Linear(2, 2)}
    for i in range(148):
        ns[f"t{i}"] = torch.zeros(i % 3 + 1)
    ns["t140"] = torch.zeros(4, dtype=torch.float64)
    ns["t130"] = torch.zeros(5, dtype=torch.int64)
    ns["lst"] = [torch.zeros(6, dtype=torch.int8)]
    return ns


def test_a_long_namespace_folds_runs_of_alike_tensors_and_keeps_the_flagged_one_apart():
    ns = long_namespace()
    snap = take_snapshot(ns)
    found = diagnose(snap)
    assert [f.objects for f in found] == [("t140",)]
    lines = repr(DevicesView(snap, found)).splitlines()
    run = 4 * sum(i % 3 + 1 for i in range(130))
    assert lines[1:12] == [
        "name         kind         device  dtype    shape     memory",
        "model        Linear       cpu     float32            24 B",
        "t0 … t129    Tensor ×130  cpu     float32  3 shapes  " + human_bytes(run),
        "t130         Tensor       cpu     int64    (5,)      40 B",
        "t131 … t139  Tensor ×9    cpu     float32  3 shapes  72 B",
        "t140 !       Tensor       cpu     float64  (4,)      32 B",
        "t141 … t147  Tensor ×7    cpu     float32  3 shapes  52 B",
        "lst          list         cpu     int8               6 B",
        "  lst[0]     tensor       cpu     int8     (6,)      6 B",
        "(folded to 8 rows from 153: alike rows as one, errors and warnings open; %devices "
        "--all shows every row.)",
        "",
    ]
    assert run + 40 + 72 + 32 + 52 + 6 + 24 == sum(o.nbytes for o in snap.objects)
    html = DevicesView(snap, found)._repr_mimebundle_()["text/html"]
    assert html.count("<tr") == 1 + 8 and "<code>t0 … t129</code>" in html
    assert '<tr class="dl-bad"><td><code>t140</code>' in html
    assert "folded to 8 rows from 153" in html


def test_every_name_with_all_and_none_folded_at_the_limit():
    ns = long_namespace()
    text = repr(view(ns, show_all=True))
    assert [line.split()[0] for line in text.splitlines()[2:]
            if line[:1] not in (" ", "")][:150] == list(ns)
    assert "…" not in text and "folded" not in text
    at_limit = dict(list(ns.items())[:MAX_ROWS])
    lines = repr(view(at_limit)).splitlines()
    assert [line.split()[0] for line in lines[2:2 + MAX_ROWS]] == list(at_limit)
    assert lines[2 + MAX_ROWS].startswith(f"(folded to {MAX_ROWS} rows from {MAX_ROWS + 2}:")


def test_past_the_limit_the_flagged_names_show_first_and_one_row_stands_for_the_rest():
    ns: dict[str, object] = {"model": nn.Linear(2, 2)}
    # NB: float32 and float64 in turn: no run of alike tensors to fold
    ns.update({f"d{i}": torch.zeros(2, dtype=torch.float64 if i % 2 else torch.float32)
               for i in range(100)})
    snap = take_snapshot(ns)
    view_ = DevicesView(snap, diagnose(snap))
    lines = repr(view_).splitlines()
    assert [line.split()[0] for line in lines[2:1 + MAX_ROWS]] == [
        f"d{i}" for i in range(1, 2 * MAX_ROWS - 1, 2)]
    assert all(line.split()[1] == "!" for line in lines[2:1 + MAX_ROWS])
    rest = 101 - (MAX_ROWS - 1)
    assert lines[1 + MAX_ROWS].split() == [
        "…", str(rest), "more", "names", "!", "cpu", "float32,", "float64",
        *human_bytes(24 + 8 * 50 + 16 * (50 - (MAX_ROWS - 1))).split()]
    assert lines[2 + MAX_ROWS] == (
        f"(folded to {MAX_ROWS} rows from 103: alike rows as one, errors and warnings open; "
        "%devices --all shows every row, %devices NAME … only those names.)")
    assert f'<tr class="dl-bad"><td><code>… {rest} more names' in (
        view_._repr_mimebundle_()["text/html"])


def test_many_findings_show_the_first_and_count_the_rest():
    ns: dict[str, object] = {"model": nn.Linear(2, 2)}
    ns.update({f"d{i}": torch.zeros(2, dtype=torch.float64) for i in range(MAX_FINDINGS + 5)})
    text = repr(view(ns))
    assert f"{MAX_FINDINGS + 5} findings:" in text
    assert text.count("▲ warning: d") == MAX_FINDINGS
    assert text.endswith("… and 5 more findings (5 warnings): %devices --all lists every one.")
    assert f"▲ warning: d{MAX_FINDINGS - 1} is float64" in text
    assert f"d{MAX_FINDINGS} is float64" not in text
    html = view(ns)._repr_mimebundle_()["text/html"]
    assert html.count('<div class="dl-f"') == MAX_FINDINGS
    assert "… and 5 more findings (5 warnings)" in html
    every = repr(view(ns, show_all=True))
    assert every.count("▲ warning: d") == MAX_FINDINGS + 5 and "more findings" not in every
    assert view(ns, show_all=True)._repr_mimebundle_()["text/html"].count(
        '<div class="dl-f"') == MAX_FINDINGS + 5
