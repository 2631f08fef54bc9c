"""Several models in one namespace: each loose tensor is judged against the model the user's
cells use it with, never against an arbitrary one, and no fix copies out of meta."""

from __future__ import annotations

from types import MethodType
from typing import Any

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import Finding, diagnose
from devicelens.analysis._usage import Usage
from devicelens.inspect import take_snapshot
from devicelens.render.text import report_text


def found(ns: dict[str, Any], *cells: str) -> list[Finding]:
    return diagnose(take_snapshot(ns), cells=cells)


def about(fs: list[Finding], name: str) -> list[tuple[str, str]]:
    return [(f.kind, f.severity) for f in fs if name in f.objects]


def run(ns: dict[str, Any], code: str) -> None:
    """NB: runs the library's own printed fix (or the user's cell) in the namespace."""
    ns.setdefault("torch", torch)
    exec(code, ns)


def three_models(x_device: str = "meta") -> dict[str, Any]:
    """``a`` on meta, an unrelated half-precision ``c`` (the biggest), ``x`` meant for ``a``."""
    torch.manual_seed(0)
    return {"a": nn.Linear(4, 4).to("meta"), "c": nn.Linear(64, 64).half(),
            "x": torch.randn(2, 4, device=x_device)}


# --- usage from the cells ------------------------------------------------------------------

def test_usage_follows_calls_outputs_and_earlier_cells() -> None:
    u = Usage(["out = model(batch['x'])\nloss = crit(out, y.view(-1))",
               "h = a(x)\nz = b(h) + w", "opt = torch.optim.AdamW(net.parameters())"],
              ["model", "crit", "a", "b", "net"])
    assert u.partners("batch") == {"model"}
    assert u.partners("y") == {"crit", "model"}  # through model's output
    assert u.partners("x") == {"a"} and u.tiers("h") == ({"b"}, {"a"})
    assert u.models_of("h") == {"b"} and u.models_of("y", ["model"]) == {"model"}
    assert u.partners("w") == {"b"} and u.partners("a") == {"b"} == u.models_of("a")
    assert u.models_of("opt") == {"net"} and u.partners("nobody") == frozenset()


def test_the_newest_cell_decides_and_cuda_safe_bodies_are_read() -> None:
    u = Usage(["a(x)", "get_ipython().run_cell_magic('cuda_safe', '', 'c(x)\\n')"], ["a", "c"])
    assert u.partners("x") == {"c"}
    assert Usage(["a(x", "def f(:"], ["a"]).partners("x") == frozenset()  # never raises


@pytest.mark.parametrize(("cell", "flagged"), [
    ("out = net(x.to('meta'))", False),
    ("out = net(x.to(device=DEVICE))", False),
    ("for b in loader:\n    out = net(b['img'].to(DEVICE))", False),
    ("def train(net, loader):\n    for batch in loader:\n        img = batch['img']\n"
     "        net(img.to(DEVICE))\ntrain(net, loader)", False),
    ("def train(net, loader):\n    for batch in loader:\n        net(batch['img'].to(DEVICE))\n"
     "class Client:\n    def fit(self):\n        train(net, loader)\nClient().fit()", False),
    ("out = net(x)", True),
    ("out = net(x.to(torch.float32))", True),  # NB: a dtype alone moves nothing
    ("out = net(x.to('meta'))\ny = net(x)", True),
    ("def train(net, loader):\n    for batch in loader:\n        net(batch['img'].to(DEVICE))\n"
     "        net(batch['img'])\ntrain(net, loader)", True),
])
def test_data_the_cells_move_to_the_device_at_each_use_is_not_in_the_wrong_place(
        cell: str, flagged: bool) -> None:
    """Flower's quickstart: batches kept on the cpu, moved to the model's device where the
    model meets them (``net(images.to(DEVICE))``), in the cell, a loop or a helper it calls:
    where they are stored fails nothing. Met once as they are, they are judged again."""
    ns = {"net": nn.Linear(3, 3).to("meta"), "x": torch.randn(2, 3), "DEVICE": "meta",
          "loader": [{"img": torch.randn(2, 3)} for _ in range(2)]}
    bad = [f for f in found(ns, cell) if f.kind == "loose_device" and f.severity != "info"]
    assert bool(bad) == flagged, [f.message for f in bad]


def test_a_moved_tensor_still_meets_the_model_in_its_dtype() -> None:
    ns = {"net": nn.Linear(3, 3).to("meta"), "x": torch.randn(2, 3, dtype=torch.float64)}
    assert about(found(ns, "out = net(x.to('meta'))"), "x") == [("loose_dtype", "warning")]


def test_a_function_s_own_names_are_not_the_cell_s_and_a_module_s_build_data_is_its_own(
        ) -> None:
    """A model's ``__init__`` passes its parameter ``train_x`` on beside ``likelihood``: that is
    the function's ``train_x``, not the cell's; and what a module is built from
    (``ExactGPModel(train_x, train_y, likelihood)``) is the module's state, which its own
    ``_apply`` may move: neither ties the cell's ``train_x`` to ``likelihood``."""
    cells = ["class GP(Base):\n    def __init__(self, train_x, likelihood):\n"
             "        super().__init__(train_x, likelihood)\n"
             "        self.scale = likelihood.noise * train_x.std()\n"
             "model = GP(train_x, likelihood)\n"]
    u = Usage(cells, {"model": "GP", "likelihood": "Gauss"})
    assert u.models_of("train_x") == frozenset()
    # NB: a plain function still ties its arguments at the call (through ``_helper``)
    u = Usage(["def step(x):\n    return likelihood(x)\nstep(train_x)\n"], {"likelihood": "G"})
    assert u.models_of("train_x") == {"likelihood"} and u.models_of("x") == frozenset()
    # NB: a call of a class no module of the namespace has still combines what it is given
    assert Usage(["e = Explainer(net, background)\n"], {"net": "Net"}).models_of(
        "background") == {"net"}


def test_a_state_loaded_from_another_models_checkpoint_does_not_tie_the_two_models() -> None:
    # NB: resuming from a CPU copy of the run (pytorch#41839): load_state_dict copies the state
    # onto the receiver's device, so the CPU model that made the checkpoint is not used with
    # the GPU one
    cells = ['ckpt = {"model": cpu_model.state_dict(), "opt": cpu_opt.state_dict()}',
             "opt = torch.optim.Adam(model.parameters())\nopt.load_state_dict(ckpt['opt'])\n"
             "model.load_state_dict(ckpt['model'])\nbuf.copy_(ckpt['model']['0.weight'])",
             "out = model(x)"]
    u = Usage(cells, ["model", "cpu_model"])
    assert u.partners("model") == frozenset() and u.partners("cpu_model") == frozenset()
    assert u.partners("ckpt") == frozenset() and u.partners("x") == {"model"}
    assert u.origins["opt"] == {"model"}  # the receiver's origin stands
    torch.manual_seed(0)
    ns = {"cpu_model": nn.Sequential(nn.Linear(4, 4)), "model": nn.Sequential(nn.Linear(4, 4)),
          "x": torch.randn(2, 4, device="meta")}
    ns["model"].to("meta")
    ns["ckpt"] = {"model": ns["cpu_model"].state_dict()}
    # NB: two models the cells never use together: a note, no warning and no fix
    assert about(found(ns, *cells), "cpu_model") == [("module_apart", "info")]


# --- issue 10, item 4 ----------------------------------------------------------------------

def test_a_tensor_used_with_a_meta_model_is_not_judged_against_an_unrelated_half_one() -> None:
    ns = three_models("meta")
    fs = found(ns, "out = a(x)")
    # before: "x is not on cpu" and "x is float32 but c is float16"
    assert about(fs, "x") == []
    assert [f.kind for f in fs if f.severity != "info"] == []
    run(ns, "out = a(x)")


def test_a_stray_is_judged_against_the_model_it_is_used_with() -> None:
    ns = three_models("cpu")
    fs = found(ns, "out = a(x)")
    assert about(fs, "x") == [("loose_device", "warning")]
    (f,) = [f for f in fs if "x" in f.objects]
    assert f.title == "x is not on meta" and "but a is on meta" in f.message
    assert f.fix == "x = x.to(next(a.parameters()).device)"
    with pytest.raises(RuntimeError):
        run(ns, "out = a(x)")
    run(ns, f.fix)
    run(ns, "out = a(x)")
    assert ns["out"].device.type == "meta" and about(found(ns, "out = a(x)"), "x") == []


def test_data_handed_to_an_object_built_with_the_model_is_a_note_not_a_warning() -> None:
    """``SetFitTrainer(model=model, eval_dataset=ds)``: the trainer's own code decides where its
    data meets the model (SetFit's evaluate compares cpu labels with predictions it moved to the
    cpu): the cpu labels are a note. Passed to the model in a later cell, a warning again; and
    the constructor still ties them (``Explainer(net, background)`` runs the model on it)."""
    ns = {"model": nn.Linear(4, 3).to("meta"), "y": torch.tensor([0, 2])}
    built = "trainer = SetFitTrainer(model=model, eval_dataset=y)"
    fs = found(ns, built)
    assert about(fs, "y") == [("loose_device", "info")]
    (f,) = [f for f in fs if "y" in f.objects]
    assert "handed it to an object built with the model" in f.message
    assert about(found(ns, built + "\nout = model(y)"), "y") == [("loose_device", "warning")]
    assert Usage([built], ["model"]).models_of("y") == {"model"}
    assert not Usage([built + "\nloss(model(x), y)"], ["model"]).handed_only("y")


def test_labels_are_judged_through_the_models_output() -> None:
    ns = {"model": nn.Linear(4, 3).to("meta"), "other": nn.Linear(32, 32).double(),
          "x": torch.randn(2, 4, device="meta"), "y": torch.tensor([0, 2])}
    fs = found(ns, "out = model(x)\nloss = nn.functional.cross_entropy(out, y)")
    (f,) = [f for f in fs if "y" in f.objects]
    assert f.kind == "loose_device" and "but model is on meta" in f.message
    assert about(fs, "x") == []


def test_without_usage_several_disagreeing_models_give_at_most_a_note(fake_cuda: Any) -> None:
    ns = three_models("cpu")
    assert about(found(ns), "x") == []  # on cpu, like c: it may well be c's
    ns["x"] = fake_cuda.randn(2, 4, device="cuda:1")
    (f,) = [f for f in found(ns) if "x" in f.objects]
    assert (f.kind, f.severity, f.action, f.fix) == ("loose_device_unknown", "info", None, "")
    assert "(c: cpu, a: meta)" in f.message
    ns["x"] = torch.randn(2, 4, dtype=torch.float64)
    (f,) = [f for f in found(ns) if "x" in f.objects]
    assert f.kind == "loose_dtype_unknown" and "(c: float16, a: float32)" in f.message


def test_one_model_or_agreeing_models_still_judge_every_loose_tensor() -> None:
    ns = {"model": nn.Linear(4, 4).to("meta"), "head": nn.Linear(2, 2).to("meta"),
          "x": torch.randn(2, 4)}
    (f,) = [f for f in found(ns) if "x" in f.objects]
    assert f.kind == "loose_device" and f.fix == "x = x.to(next(model.parameters()).device)"


def test_a_meta_input_of_a_cpu_model_moves_the_model_never_the_meta_tensor() -> None:
    ns = {"b": nn.Linear(4, 2), "x": torch.ones(3, 4, device="meta")}
    fs = found(ns, "out = b(x)")
    (f,) = [f for f in fs if "x" in f.objects]
    assert f.kind == "meta_no_data" and f.fix == 'b.to("meta")'
    assert "a meta tensor has no data to copy to cpu" in f.message
    assert f.action is not None and f.action.device == "meta"
    report = moves.apply_fix(f, ns)
    assert report.ok and ns["b"].weight.device.type == "meta"
    run(ns, "out = b(x)")


def test_two_models_used_together_get_one_fix_and_never_a_copy_out_of_meta() -> None:
    ns = {"a": nn.Linear(4, 4).to("meta"), "b": nn.Linear(4, 64),
          "x": torch.ones(2, 4, device="meta")}
    fs = found(ns, "y = b(a(x))")
    assert [(f.kind, f.objects, f.fix) for f in fs] == [
        ("module_device", ("b", "a"), 'b.to("meta")')]  # not 'a.to("cpu")'
    run(ns, fs[0].fix)
    run(ns, "y = b(a(x))")


def test_of_two_models_on_two_gpus_only_the_smaller_moves(fake_cuda: Any) -> None:
    ns = {"enc": fake_cuda.to(nn.Linear(64, 64), "cuda:0"),
          "head": fake_cuda.to(nn.Linear(64, 2), "cuda:1")}
    fs = found(ns, "out = head(enc(x))")
    assert [(f.kind, f.fix) for f in fs] == [("module_device", 'head.to("cuda:0")')]


# --- the planner refuses copies out of meta, up front ------------------------------------------

def test_dry_run_predicts_the_copy_out_of_meta_instead_of_would_move() -> None:
    ns = {"model": nn.Linear(4, 2).to("meta"), "x": torch.ones(2)}
    dry = moves.move_all("cpu", ns, dry_run=True)
    assert not dry.ok and dry.moved == ()
    text = report_text(dry)
    assert text.startswith("Would fail: model cannot be moved (see below), so nothing was moved")
    assert "model: is on meta, which holds no data, so it cannot be copied to cpu" in text
    assert "Would move" not in text
    real = moves.move_all("cpu", ns)
    assert not real.ok and real.error == dry.error and ns["x"].device.type == "cpu"


# --- through a real shell: the cells come from IPython's ``In`` ----------------------------------

def test_percent_devices_reads_the_cells_from_in(ip: Any, capsys: Any) -> None:
    ip.run_cell("import torch\nfrom torch import nn\na = nn.Linear(4, 4).to('meta')\n"
                "c = nn.Linear(64, 64).half()\nx = torch.randn(2, 4)\n", store_history=False)
    cell = "out = a(x)\n"
    history = ip.user_ns["In"]
    n = len(history)
    try:
        history.append(cell)  # NB: what run_cell(..., store_history=True) records
        assert ip.run_cell(cell, store_history=False).error_in_exec is not None
        capsys.readouterr()
        assert ip.run_line_magic("devices", "--text") is None  # NB: --text prints
        text = capsys.readouterr().out
        assert "▲ warning: x is not on meta" in text and "but a is on meta" in text
        assert "x is float32" not in text and "x is not on cpu" not in text
        assert ip.run_line_magic("devices", "--fix").ok
        history.append(cell)
        assert ip.run_cell(cell, store_history=False).error_in_exec is None
        capsys.readouterr()
        ip.run_line_magic("devices", "--text")
        assert "warning" not in capsys.readouterr().out
    finally:
        del history[n:]  # NB: the shell is shared by the whole test session


def test_a_model_whose_data_another_model_uses_is_the_one_left_behind(fake_cuda: Any) -> None:
    teacher = nn.Sequential(nn.Linear(64, 256), nn.Linear(256, 2))  # never moved, the biggest
    ns = {"teacher": teacher, "student": fake_cuda.to(nn.Linear(64, 2), "cuda:0"),
          "X_train": fake_cuda.randn(16, 64, device="cuda:0")}
    cell = "t_logits = teacher_predict(teacher, X_train)\ns_logits = student(X_train)\n"
    fs = found(ns, cell)
    assert [(f.kind, f.severity, f.fix) for f in fs] == [
        ("model_left_behind", "error", 'teacher.to("cuda:0")')]
    assert "what your cells feed it (X_train) is on cuda:0, where student uses it" in fs[0].message
    with fake_cuda, torch.no_grad():
        run(ns, fs[0].fix)
    assert str(teacher[0].weight.device) == "cuda:0" and found(ns, cell) == []


def test_a_model_on_a_second_gpu_may_be_there_on_purpose(fake_cuda: Any) -> None:
    """SAELens: the SAE on cuda:1 beside its LLM on cuda:0, both fed the same tokens. A model is
    left behind on the cpu, where it was made; one on another GPU was put there, so it is a
    warning that says both readings, not an error (the rehearsal edits where the two meet)."""
    ns = {"sae": fake_cuda.to(nn.Linear(4, 4), "cuda:1"),
          "llm": fake_cuda.to(nn.Linear(4, 4), "cuda:0"),
          "tokens": fake_cuda.randn(2, 4, device="cuda:0")}
    fs = found(ns, "acts = llm(tokens)\nr = recons(sae, llm, tokens)\n")
    assert [(f.kind, f.severity, f.fix) for f in fs if f.kind == "model_left_behind"] == [
        ("model_left_behind", "warning", 'sae.to("cuda:0")')]
    assert all(f.severity != "error" for f in fs), fs
    fs = [f for f in fs if f.kind == "model_left_behind"]
    assert "If sae is on cuda:1 on purpose, move the data to it where the two meet" \
        in fs[0].message


def test_a_dataparallel_scatters_its_inputs_wherever_they_are(fake_cuda: Any) -> None:
    dp = nn.DataParallel(nn.Linear(4, 2))
    dp.device_ids, dp.output_device = [0, 1], 0
    fake_cuda.to(dp.module, "cuda:0")
    ns = {"dp": dp, "x": torch.randn(3, 4)}
    assert found(ns, "out = dp(x)") == []


# --- look-alikes: how a tensor is used decides -------------------------------------------------

def test_with_history_a_tensor_no_cell_uses_yet_is_only_a_note() -> None:
    ns = {"unet": nn.Conv2d(4, 4, 3).half(), "latents": torch.randn(1, 4, 8, 8)}
    (f,) = found(ns)  # no history (the API on a plain dict): judged against the only model
    assert (f.kind, f.severity) == ("loose_dtype", "warning")
    (f,) = found(ns, "unet = unet.half()\nlatents = torch.randn(1, 4, 8, 8)")
    assert (f.kind, f.severity, f.action) == ("loose_dtype", "info", None)
    assert f.message.endswith("(Your cells have not used it with a model yet.)")


def test_a_tensor_used_under_autocast_may_differ_in_dtype() -> None:
    ns = {"unet": nn.Conv2d(4, 4, 3).half(), "latents": torch.randn(1, 4, 8, 8)}
    amp = ("with torch.no_grad(), torch.autocast('cpu', dtype=torch.float16):\n"
           "    noise_pred = unet(latents)\n")
    assert found(ns, amp) == []
    (f,) = found(ns, "noise_pred = unet(latents)")
    assert (f.kind, f.severity) == ("loose_dtype", "warning")


ENCODER = '''
class Encoder(nn.Module):
    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True)
        return self.lstm(packed)
'''


def test_cpu_lengths_through_the_users_forward_are_not_flagged_gpu_ones_are() -> None:
    encoder = nn.Sequential(nn.Embedding(40, 8)).to("meta")
    encoder.__class__ = type("Encoder", (nn.Sequential,), {})
    ns = {"encoder": encoder, "tokens": torch.randint(1, 40, (3, 7)).to("meta"),
          "lengths": torch.tensor([7, 5, 2])}
    assert found(ns, ENCODER, "out = encoder(tokens, lengths)") == []
    batch = {"tokens": ns["tokens"], "lengths": torch.tensor([7, 5, 2])}
    fake_gpu = {"encoder": encoder, "batch": batch}
    assert found(fake_gpu, ENCODER, "out = encoder(batch['tokens'], batch['lengths'])") == []
    batch["lengths"] = batch["lengths"].to("meta")
    (f,) = found(fake_gpu, ENCODER, "out = encoder(batch['tokens'], lengths=batch['lengths'])")
    assert (f.kind, f.paths, f.fix) == ("cpu_required", ("batch['lengths']",), "")
    assert "takes its lengths as a CPU int64 tensor" in f.message


# --- a diagnosis kept across cells (the panel's memo) ---------------------------------------

def test_a_kept_diagnosis_follows_the_cells_and_reuses_nothing_stale() -> None:
    from devicelens.analysis import Memo

    ns: dict[str, Any] = {"model": nn.Linear(4, 4).to("meta"), "x": torch.zeros(2, 4),
                          "In": ["", "model = model.to('meta')"]}
    memo = Memo()
    first = diagnose(take_snapshot(ns), memo=memo)
    assert about(first, "x") == [("loose_device", "info")]  # no cell uses x yet: a note
    ns["In"].append("pass")  # NB: a cell that uses nothing: the very same answers
    assert diagnose(take_snapshot(ns), memo=memo) == first
    ns["In"].append("out = model(x)")  # now x is the model's input: a warning with a fix
    used = diagnose(take_snapshot(ns), memo=memo)
    assert about(used, "x") == [("loose_device", "warning")]
    assert used == diagnose(take_snapshot(ns))
    ns["x"] = torch.zeros(2, 4, device="meta")
    assert diagnose(take_snapshot(ns), memo=memo) == [] == diagnose(take_snapshot(ns))


@pytest.mark.parametrize("cell, name, kind", [
    # NB: the strays are judged from the models the cells feed (kept while models and cells are)
    ("out = student(x)\nref = teacher(x)", "teacher", "model_left_behind"),
    # NB: a helper's findings follow the cells too, while the records and strays stay the same
    ("loss = crit(student(x), y)", "crit", "module_device"),
])
def test_a_kept_diagnosis_follows_a_cell_that_only_changes_who_uses_what(
        cell: str, name: str, kind: str) -> None:
    from devicelens.analysis import Memo

    ns: dict[str, Any] = {"student": nn.Linear(4, 3).to("meta"), "teacher": nn.Linear(4, 3),
                          "crit": nn.CrossEntropyLoss(weight=torch.ones(3)),
                          "x": torch.zeros(2, 4, device="meta"), "In": ["", "pass"]}
    memo = Memo()
    before = diagnose(take_snapshot(ns), memo=memo)
    assert diagnose(take_snapshot(ns), memo=memo) == before
    assert not [f for f in before if f.kind == kind]
    ns["In"].append(cell)  # NB: no object changed: only the cells
    after = diagnose(take_snapshot(ns), memo=memo)
    assert after == diagnose(take_snapshot(ns))
    assert [(f.kind, f.objects[0]) for f in after if f.kind == kind] == [(kind, name)]


def test_a_kept_diagnosis_follows_data_that_moves_from_one_model_to_the_other() -> None:
    from devicelens.analysis import Memo

    ns: dict[str, Any] = {"student": nn.Linear(4, 3).to("meta"), "teacher": nn.Linear(4, 3),
                          "x": torch.zeros(2, 4, device="meta"),
                          "In": ["", "out = student(x)\nref = teacher(x)"]}
    memo = Memo()
    before = diagnose(take_snapshot(ns), memo=memo)
    assert [f.objects[0] for f in before if f.kind == "model_left_behind"] == ["teacher"]
    ns["x"] = torch.zeros(2, 4)  # NB: the models, their records and the cells stay the same
    after = diagnose(take_snapshot(ns), memo=memo)
    assert after == diagnose(take_snapshot(ns))
    # NB: student is on meta (no data to move): no one is left behind, the two are apart
    assert [(f.kind, f.objects) for f in after] == [("module_apart", ("teacher", "student"))]


def test_usage_key_ignores_cells_that_tie_nothing_to_a_model() -> None:
    base = Usage(["out = model(x)"], ["model"])
    assert Usage(["out = model(x)", "pass", "y = y.double()"], ["model"]).key() == base.key()
    assert Usage(["out = model(x)", "z = model(y)"], ["model"]).key() != base.key()
    assert base.mentioned() == {"x", "out"} and base.inputs("model") == {"x"}


def test_usage_key_changes_with_what_a_class_the_cells_define_does() -> None:
    """A cell that only redefines a class changes what its code reads, moves or casts, and
    so the answers: the key says so (an equal key lets a memo keep the old findings)."""
    reads = "class Net(nn.Module):\n    def forward(self, x):\n        return x + self.pos\n"
    ignores = reads.replace("self.pos", "x")
    casts = reads.replace("x + self.pos", "self.head(x.to(self.head.weight.dtype))")
    keys = [Usage(["out = model(x)", c], ["model"]).key() for c in (reads, ignores, casts)]
    assert len(set(map(repr, keys))) == 3
    assert Usage([casts], ["model"]).casts_inputs("Net") == {"head"}
    assert Usage([reads], ["model"]).casts_inputs("Net") == frozenset()


def test_each_modules_own_tensors_are_found_once_per_diagnosis_and_not_kept_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Several rules ask each module for its own tensors; one diagnosis finds them once per
    module, and keeps none of its records once it returns (they would outlive the snapshot)."""
    from devicelens.analysis import findings

    scanned: list[str] = []

    class Roles(frozenset):  # type: ignore[type-arg]
        def __contains__(self, role: object) -> bool:
            scanned.append(str(role))
            return super().__contains__(role)

    monkeypatch.setattr(findings, "_OWN_ROLES", Roles(findings._OWN_ROLES))
    ns = three_models()
    ns["head"] = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))
    snap = take_snapshot(ns)
    fs = diagnose(snap)
    assert [f.kind for f in fs if "a" in f.objects]  # NB: the rules did run on the models
    assert len(scanned) == sum(len(o.tensors) for o in snap.objects if o.kind == "module") == 11
    assert getattr(findings._KEPT, "own", None) is None


# --- issue 36 harms 9-11 and issue 40 item 10: severities as the user's cells use things ----

def test_one_model_under_two_names_gets_its_findings_once_under_its_first_name() -> None:
    """Harm 10: ``model`` and a loop's leftover ``block`` bound to it gave two errors."""
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 4))
    model.extra = torch.randn(3)
    model.to("meta")
    ns = {"model": model, "block": model, "x": torch.randn(2, 8, device="meta")}
    fs = found(ns, "for block in [model]:\n    pass\n", "out = model(x)\n")
    assert [(f.kind, f.severity, f.objects) for f in fs if f.severity == "error"] == [
        ("trap_attribute", "error", ("model",))], fs
    # NB: two models that merely look alike keep their own findings
    twin = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 4))
    twin.extra = torch.randn(3)
    twin.to("meta")
    fs = found({**ns, "block": twin}, "out = model(x)\n")
    assert sorted(f.objects[0] for f in fs if f.severity == "error") == ["block", "model"]


def test_what_a_model_returned_is_no_input_until_a_cell_passes_it_back() -> None:
    """Harm 9: a bf16 output made under autocast on purpose got a warning and a cast; harm 11:
    a cpu sanity check's output got "using it with model will fail"."""
    model = nn.Linear(8, 4)
    x = torch.randn(2, 8)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = model(x)
    cells = ("with torch.autocast('cpu', dtype=torch.bfloat16):\n    out = model(x)\n",)
    assert about(found({"model": model, "x": x, "out": out}, *cells), "out") == [
        ("loose_dtype", "info")]
    fed_back = (*cells, "h = model(out)\n")
    assert about(found({"model": model, "x": x, "out": out}, *fed_back), "out") == [
        ("loose_dtype", "warning")]


def test_tensors_passed_through_a_helper_are_used_with_the_model_it_calls() -> None:
    """Issue 40 item 10: what failed inside ``train_step(...)`` was only info, because the
    helper's parameter has another name than the caller's tensor."""
    ns = {"model": nn.Linear(8, 4).to("meta"), "xb": torch.randn(2, 8),
          "class_weights": torch.ones(4), "batches": [torch.randn(2, 8)]}
    cells = ("def train_step(inputs, w):\n    out = model(inputs)\n"
             "    return F.cross_entropy(out, out.argmax(1), weight=w)\n",
             "loss = train_step(xb, class_weights)\n",
             "def evaluate(loader):\n    for b in loader:\n        p = model(b)\n",
             "evaluate(batches)\n")
    fs = found(ns, *cells)
    assert about(fs, "xb") == [("loose_device", "warning")]
    assert about(fs, "class_weights") == [("loose_device", "warning")]
    assert about(fs, "batches") == [("loose_device", "warning")]
    # NB: without the calls, nothing ties them to the model yet
    fs = found(ns, cells[0], cells[2])
    assert {about(fs, n)[0][1] for n in ("xb", "class_weights", "batches")} == {"info"}


def test_an_optimizer_over_a_named_parameter_is_no_orphan_and_its_fix_keeps_the_parameter(
        ) -> None:
    """Harm 1 (and 2) in ``%devices``: ``popt = Adam([prompt])`` beside a model was "stale",
    its fix rebuilt it over the model's parameters; the prompt's fix rebound it to a copy."""
    torch.__future__.set_swap_module_params_on_conversion(True)
    try:
        head, prompt = nn.Linear(8, 4), nn.Parameter(torch.randn(2, 8))
        ns = {"head": head, "prompt": prompt, "opt": torch.optim.Adam(head.parameters()),
              "popt": torch.optim.Adam([prompt])}
        head.to("meta")
        ns["x"] = torch.randn(2, 8, device="meta")
        fs = found(ns, "out = head(torch.cat([prompt, x]))\n")
    finally:
        torch.__future__.set_swap_module_params_on_conversion(False)
    assert [(f.kind, f.severity, f.objects) for f in fs] == [
        ("loose_device", "warning", ("prompt",))]
    assert fs[0].fix == "prompt.data = prompt.data.to(next(head.parameters()).device)"
    # NB: an optimizer whose parameters nothing holds any more is still one
    del ns["prompt"]
    assert [f.kind for f in found(ns, "out = head(x)\n")] == ["optimizer_orphan"]


def test_a_plain_attribute_its_own_class_moves_where_it_reads_it_is_only_a_note() -> None:
    """fairseq's sinusoidal table: a plain attribute left on the cpu, which the module's own
    ``forward`` moves where it reads it (``self.weights.to(x)``): nothing fails, so no error;
    the same class without that move keeps the error."""
    cls = ("class Pos(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.fc = nn.Linear(4, 4)\n        self.weights = torch.zeros(8, 4)\n"
           "    def forward(self, x):\n        w = self.weights.to(x)\n"
           "        return self.fc(x) + w[: x.shape[0]]\n")

    class Pos(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.weights = torch.zeros(8, 4)

    ns = {"model": Pos().to("meta")}
    moved = [(f.kind, f.severity) for f in found(ns, cls) if "model.weights" in f.paths]
    assert moved == [("trap_latent", "info")], moved
    kept = [(f.kind, f.severity) for f in found(ns, cls.replace("self.weights.to(x)",
                                                                 "self.weights"))
            if "model.weights" in f.paths]
    assert kept == [("trap_attribute", "error")], kept


def test_a_plain_attribute_read_into_a_local_that_is_moved_later_is_only_a_note() -> None:
    """LayoutLMv3's patch boxes: ``visual_bbox = self.visual_bbox.repeat(b, 1, 1)``, then
    ``visual_bbox = visual_bbox.to(device)`` in a second statement: moved where it is read, as
    ``self.visual_bbox.to(...)`` is; the local never moved keeps the error."""
    cls = ("class Boxes(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.fc = nn.Linear(4, 4)\n        self.visual_bbox = torch.zeros(8, 4)\n"
           "    def calculate(self, device, b):\n"
           "        visual_bbox = self.visual_bbox.repeat(b, 1, 1)\n"
           "        visual_bbox = visual_bbox.to(device)\n        return visual_bbox\n"
           "    def forward(self, x):\n        return self.fc(x) + self.calculate(x.device, 1)\n")

    class Boxes(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.visual_bbox = torch.zeros(8, 4)

    ns = {"model": Boxes().to("meta")}

    def severity(text: str) -> list[tuple[str, str]]:
        return [(f.kind, f.severity) for f in found(ns, text) if "model.visual_bbox" in f.paths]

    assert severity(cls) == [("trap_latent", "info")]
    assert severity(cls.replace("visual_bbox = visual_bbox.to(device)", "pass")) == [
        ("trap_attribute", "error")]


def test_a_plain_attribute_handed_to_a_submodule_that_moves_it_is_only_a_note() -> None:
    """BasicTS's STGCN keeps its graph shift operator as a plain attribute on the cpu and hands
    it to a Chebyshev layer whose ``forward`` moves it to its input's device first: moved where
    it is read, one call down. The same layer without that move keeps the error, and so does a
    layer the cells define after the one that uses it (its code is not read yet)."""
    conv = ("class Cheb(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.w = nn.Linear(4, 4)\n    def forward(self, x, gso):\n"
            "        gso = gso.to(x.device)\n        return self.w(gso @ x)\n")
    layer = ("class Layer(nn.Module):\n    def __init__(self, gso):\n        super().__init__()\n"
             "        self.gso = gso\n        self.cheb = Cheb()\n"
             "    def forward(self, x):\n        return self.cheb(x, self.gso)\n")

    class Cheb(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = nn.Linear(4, 4)

    class Layer(nn.Module):
        def __init__(self, gso: torch.Tensor) -> None:
            super().__init__()
            self.gso = gso
            self.cheb = Cheb()

    ns = {"model": Layer(torch.eye(4)).to("meta")}
    model = ns["model"]
    model.gso = torch.eye(4)  # NB: as ``Module.to()`` leaves a plain attribute

    def severity(text: str) -> list[tuple[str, str]]:
        return [(f.kind, f.severity) for f in found(ns, text) if "model.gso" in f.paths]

    assert severity(conv + layer) == [("trap_latent", "info")]
    assert severity(conv.replace("gso = gso.to(x.device)", "pass") + layer) == [
        ("trap_attribute", "error")]
    assert severity(layer + conv) == [("trap_attribute", "error")]


def test_a_plain_attribute_its_own_class_never_reads_is_only_a_note() -> None:
    """A focal loss keeps ``self.alpha`` on the cpu and reads the copy its ``NLLLoss`` holds
    as a buffer (AdeelH's multi-class focal loss): nothing reads the stray, so no error. The
    same class reading ``self.alpha``, or one on a base the cells do not define (whose code
    may read it), keeps the error."""
    cls = ("class Focal(nn.Module):\n    def __init__(self, alpha):\n"
           "        super().__init__()\n        self.alpha = alpha\n"
           "        self.nll = nn.NLLLoss(weight=alpha)\n"
           "    def forward(self, x, y):\n        return self.nll(x, y)\n")

    class Focal(nn.Module):
        def __init__(self, alpha: torch.Tensor) -> None:
            super().__init__()
            self.alpha = alpha
            self.nll = nn.NLLLoss(weight=alpha)

    ns = {"criterion": Focal(torch.ones(4)).to("meta")}

    def severity(text: str) -> list[tuple[str, str]]:
        return [(f.kind, f.severity) for f in found(ns, text) if "criterion.alpha" in f.paths]

    assert severity(cls) == [("trap_latent", "info")]
    assert severity(cls.replace("self.nll(x, y)", "self.nll(x * self.alpha, y)")) == [
        ("trap_attribute", "error")]
    assert severity(cls.replace("(nn.Module)", "(LossBase)")) == [("trap_attribute", "error")]
    assert severity(cls.replace("return self.nll(x, y)", "return getattr(self, 'al' + 'pha')")
                    ) == [("trap_attribute", "error")]
    # NB: a class that reads none of its attributes reads this one neither
    assert severity(cls.replace("return self.nll(x, y)", "return x")) == [("trap_latent", "info")]


def test_a_plain_attribute_only_construction_reads_is_only_a_note() -> None:
    """scyan's prior keeps a cpu mask as a plain attribute that ``__init__`` hands to
    ``set_rho_mask``, which calls ``compute_modes``: both build registered buffers from it
    before any ``.to()``, and nothing else reads it. The same method called by a cell, by a
    method of a subclass, or by ``forward`` keeps the error."""
    cls = ("class Prior(nn.Module):\n    def __init__(self, marker):\n"
           "        super().__init__()\n        self.marker = marker\n"
           "        self.fc = nn.Linear(4, 4)\n        self.set_mask()\n"
           "    def set_mask(self):\n        self.compute_modes()\n"
           "    def compute_modes(self):\n"
           "        self.register_buffer('modes', torch.where(self.marker, 5.0, 1.0))\n"
           "    def forward(self, x):\n        return self.fc(x) * self.modes\n")

    class Prior(nn.Module):
        def __init__(self, marker: torch.Tensor) -> None:
            super().__init__()
            self.marker = marker
            self.fc = nn.Linear(4, 4)
            self.register_buffer("modes", torch.where(marker, 5.0, 1.0))

    ns = {"prior": Prior(torch.tensor([True, False, True, False])).to("meta")}

    def severity(*cells: str) -> list[tuple[str, str]]:
        return [(f.kind, f.severity) for f in found(ns, *cells) if "prior.marker" in f.paths]

    assert severity(cls) == [("trap_latent", "info")]
    assert severity(cls, "prior.compute_modes()\n") == [("trap_attribute", "error")]
    sub = ("class Wide(Prior):\n    def forward(self, x):\n        self.set_mask()\n"
           "        return self.fc(x)\n")
    assert severity(cls + sub) == [("trap_attribute", "error")]
    assert severity(cls.replace("return self.fc(x) * self.modes",
                                "self.compute_modes()\n        return self.fc(x)")) == [
        ("trap_attribute", "error")]
    # NB: handed on as a hook, a method runs at every call: its reads count
    assert severity(cls.replace("self.set_mask()", "self.register_forward_pre_hook(self.set_mask)")
                    ) == [("trap_attribute", "error")]
    # NB: a property's setter runs on assignment, never named as a call: its reads count
    assert severity(cls.replace("    def set_mask(self):\n",
                                "    @property\n    def set_mask(self):\n")) == [
        ("trap_attribute", "error")]


def test_float64_sums_a_class_only_adds_into_are_kept_on_purpose() -> None:
    """torchmetrics' FID keeps float64 feature sums beside its float32 extractor and only adds
    into them in place (``self.real_sum += features.sum(dim=0)``) and divides them: nothing
    fails, a note. Handed to a matmul with the weights, the warning stays."""
    cls = ("class Fid(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.net = nn.Linear(4, 4)\n"
           "        self.register_buffer('real_sum', torch.zeros(4).double())\n"
           "    def update(self, x):\n        f = self.net(x).double()\n"
           "        self.real_sum += f.sum(dim=0)\n"
           "    def compute(self, n):\n        return self.real_sum / n\n")

    class Fid(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = nn.Linear(4, 4)
            self.register_buffer("real_sum", torch.zeros(4).double())

    ns = {"fid": Fid()}

    def severity(text: str) -> list[tuple[str, str]]:
        return [(f.kind, f.severity) for f in found(ns, text) if "fid" in f.objects]

    assert severity(cls) == [("module_float32_kept", "info")]
    assert severity(cls.replace("return self.real_sum / n", "return self.net(self.real_sum)")
                    ) == [("module_mixed_dtype", "warning")]


def test_tensors_a_class_reads_only_while_it_is_built_are_only_a_note() -> None:
    """Pyro's MADE network keeps its masks in a plain list (and one as a plain attribute) and
    reads them only in ``__init__``, where each layer registers its own copy as a buffer:
    after ``.to()`` nothing reads the cpu originals, so no error. Read in ``forward``, the
    error stays."""
    cls = ("class Made(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.masks = [torch.ones(4, 4)]\n        self.skip = torch.ones(4, 4)\n"
           "        self.fc = nn.Linear(4, 4)\n"
           "        self.fc.register_buffer('mask', self.masks[0] * self.skip)\n"
           "    def forward(self, x):\n        return x @ (self.fc.weight * self.fc.mask)\n")

    class Made(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.masks = [torch.ones(4, 4)]
            self.skip = torch.ones(4, 4)
            self.fc = nn.Linear(4, 4)
            self.fc.register_buffer("mask", self.masks[0] * self.skip)

    ns = {"arn": Made().to("meta")}

    def severity(text: str) -> list[tuple[str, str]]:
        return sorted((f.kind, f.severity) for f in found(ns, text)
                      if {"arn.masks[0]", "arn.skip"} & set(f.paths))

    assert severity(cls) == [("trap_latent", "info"), ("trap_latent", "info")]
    assert severity(cls.replace("self.fc.mask)", "self.masks[0] * self.skip)")) == [
        ("trap_attribute", "error"), ("trap_container", "error")]


def test_a_plain_container_its_own_class_moves_through_a_chain_of_reads_is_only_a_note() -> None:
    """peft's prompt tuning keeps ``self.prompt_tokens = {name: torch.arange(n)}`` on the cpu
    and moves it where it reads it, through an index and two views
    (``self.prompt_tokens[name].unsqueeze(0).expand(b, -1).to(w.device)``): nothing fails, so
    no error; the same class reading it without the move keeps the error."""
    cls = ("class Peft(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.emb = nn.Embedding(8, 4)\n"
           "        self.prompt_tokens = {'default': torch.arange(8)}\n"
           "    def forward(self, b):\n"
           "        idx = self.prompt_tokens['default'].unsqueeze(0).expand(b, -1)"
           ".to(self.emb.weight.device)\n        return self.emb(idx)\n")

    class Peft(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Embedding(8, 4)
            self.prompt_tokens = {"default": torch.arange(8)}

    ns = {"model": Peft().to("meta")}
    moved = [(f.kind, f.severity) for f in found(ns, cls)
             if any(p.startswith("model.prompt_tokens") for p in f.paths)]
    assert moved == [("trap_latent", "info")], moved
    kept = [(f.kind, f.severity) for f in found(ns, cls.replace(".to(self.emb.weight.device)", ""))
            if any(p.startswith("model.prompt_tokens") for p in f.paths)]
    assert kept == [("trap_container", "error")], kept


def test_a_plain_list_whose_items_a_method_moves_one_by_one_is_only_a_note() -> None:
    """torchvision's AnchorGenerator keeps ``cell_anchors`` in a plain cpu list and its
    ``forward`` calls ``set_cell_anchors``, which rebinds it as ``[a.to(device=device) for a in
    self.cell_anchors]``: each item is moved where it is read, so nothing fails. The same class
    reading the items without the move keeps the error."""
    cls = ("class Anchors(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.cell_anchors = [torch.zeros(3, 4)]\n"
           "        self.proj = nn.Linear(4, 4)\n"
           "    def set_cell_anchors(self, device):\n"
           "        self.cell_anchors = [a.to(device=device) for a in self.cell_anchors]\n"
           "    def forward(self, x):\n        self.set_cell_anchors(x.device)\n"
           "        return self.proj(x) + self.cell_anchors[0]\n")

    class Anchors(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.cell_anchors = [torch.zeros(3, 4)]
            self.proj = nn.Linear(4, 4)

    ns = {"gen": Anchors().to("meta")}

    def severity(text: str) -> list[tuple[str, str]]:
        return [(f.kind, f.severity) for f in found(ns, text)
                if any(p.startswith("gen.cell_anchors") for p in f.paths)]

    assert severity(cls) == [("trap_latent", "info")]
    assert severity(cls.replace("a.to(device=device)", "a")) == [("trap_container", "error")]


def test_a_plain_list_of_one_tensor_per_device_read_by_the_inputs_device_is_only_a_note() -> None:
    """unsloth keeps its RoPE tables per GPU in plain lists and reads
    ``self.cos_cached[x.device.index]`` (here through a local bound to that index): the
    tensors on other devices than the module's are the other GPUs' copies, not strays. Read
    by a fixed index, the error stays."""
    cls = ("class Rope(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.proj = nn.Linear(4, 4)\n        self.cos_cached = [torch.ones(4)]\n"
           "    def forward(self, x):\n        device_index = x.device.index\n"
           "        return self.proj(x) * self.cos_cached[device_index]\n")

    class Rope(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.proj = nn.Linear(4, 4)
            self.cos_cached = [torch.ones(4)]

    ns = {"rope": Rope().to("meta")}

    def severity(text: str) -> list[tuple[str, str]]:
        return [(f.kind, f.severity, f.title) for f in found(ns, text)
                if any(p.startswith("rope.cos_cached") for p in f.paths)]

    assert severity(cls) == [("trap_latent", "info", "rope.cos_cached keeps one tensor per device")]
    fixed = cls.replace("self.cos_cached[device_index]", "self.cos_cached[0]")
    assert [s[:2] for s in severity(fixed)] == [("trap_container", "error")]


def test_a_plain_1d_attribute_read_only_an_item_at_a_time_is_only_a_note() -> None:
    """FlashOcc's view transformer keeps ``grid_size`` as a plain 1-D cpu tensor and reads it
    only as ``coor[:, 0] < self.grid_size[0]``: each item is a 0-dim tensor, which PyTorch
    takes beside tensors on any device, so nothing fails. Read whole, the error stays; a 2-D
    attribute's item is 1-D, and its error stays too."""
    cls = ("class View(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.proj = nn.Linear(3, 3)\n        self.grid_size = torch.ones(3)\n"
           "    def forward(self, coor):\n"
           "        n = len(self.grid_size)\n"
           "        return (self.proj(coor)[:, 0] < self.grid_size[0]) & "
           "(coor[:, n - 1] < self.grid_size[-1])\n")

    class View(nn.Module):
        def __init__(self, dims: int = 1) -> None:
            super().__init__()
            self.proj = nn.Linear(3, 3)
            self.grid_size = torch.ones(*[3] * dims)

    def severity(text: str, dims: int = 1) -> list[tuple[str, str]]:
        ns = {"view": View(dims).to("meta")}
        return [(f.kind, f.severity) for f in found(ns, text)
                if any(p.startswith("view.grid_size") for p in f.paths)]

    assert severity(cls) == [("trap_latent", "info")]
    whole = cls.replace("self.grid_size[-1]", "self.grid_size.sum()")
    assert severity(whole) == [("trap_attribute", "error")]
    assert severity(cls, dims=2) == [("trap_attribute", "error")]


def test_a_model_part_its_forward_never_reads_may_stay_on_another_device() -> None:
    """Real-Time-Voice-Cloning's speaker encoder puts its LSTM on the GPU and its similarity
    scale on a cpu ``loss_device``, which only its ``loss`` reads: its forward pass does not
    fail, so the split is a note. Read by a method its ``forward`` calls, the error stays."""
    cls = ("class Encoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.linear = nn.Linear(4, 4)\n"
           "        self.similarity_weight = nn.Parameter(torch.tensor([10.0]))\n"
           "    def forward(self, x):\n        return self.embed(x)\n"
           "    def embed(self, x):\n        return self.linear(x)\n"
           "    def loss(self, e):\n        return (e * self.similarity_weight).sum()\n")

    class Encoder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.linear = nn.Linear(4, 4).to("meta")
            self.similarity_weight = nn.Parameter(torch.tensor([10.0]))

    ns = {"model": Encoder()}

    def severity(text: str) -> list[tuple[str, str]]:
        return [(f.kind, f.severity) for f in found(ns, text) if f.kind == "module_split"]

    assert severity(cls) == [("module_split", "info")]
    read = cls.replace("return self.linear(x)\n",
                       "return self.linear(x) * self.similarity_weight\n")
    assert severity(read) == [("module_split", "error")]


def test_float64_buffers_cast_through_a_local_where_read_are_kept_on_purpose() -> None:
    """rl_games' RunningMeanStd keeps float64 statistics in a float32 network and reads them as
    ``current_mean = self.running_mean`` then ``current_mean.float()``: cast where read, a note.
    Read without the cast, the warning stays."""
    cls = ("class RunningMeanStd(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.register_buffer('running_mean', torch.zeros(4, dtype=torch.float64))\n"
           "        self.fc = nn.Linear(4, 4)\n"
           "    def forward(self, x):\n        current_mean = self.running_mean\n"
           "        return self.fc(x - current_mean.float())\n")

    class RunningMeanStd(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("running_mean", torch.zeros(4, dtype=torch.float64))
            self.fc = nn.Linear(4, 4)

    ns = {"model": RunningMeanStd()}
    assert about(found(ns, cls), "model") == [("module_float32_kept", "info")]
    plain = cls.replace("current_mean.float()", "current_mean")
    assert about(found(ns, plain), "model") == [("module_mixed_dtype", "warning")]


def test_a_layer_computing_in_its_own_dtype_and_casting_back_is_kept_on_purpose() -> None:
    """PEFT's VeRA keeps its float32 scaling vectors in a float16 model: its ``forward`` casts
    the input to one of them (``x = x.to(lambda_d.dtype)``, ``lambda_d`` bound to
    ``self.vera_lambda_d[name]``) and its result back (``result.to(previous_dtype)``), so the
    other one, ``vera_lambda_b``, only meets float32 too: a note. Without the cast back, what
    the layer gives is float32 in a float16 model, and the warning stays."""
    cls = ("ONES = torch.ones(4)\nclass Vera(nn.Module):\n    def __init__(self):\n"
           "        super().__init__()\n"
           "        self.base_layer = nn.Linear(4, 4)\n"
           "        self.vera_lambda_d = nn.ParameterDict({'default': nn.Parameter(ONES)})\n"
           "        self.vera_lambda_b = nn.ParameterDict({'default': nn.Parameter(ONES)})\n"
           "    def forward(self, x):\n        previous_dtype = x.dtype\n"
           "        result = self.base_layer(x)\n"
           "        lambda_d = self.vera_lambda_d['default']\n"
           "        lambda_b = self.vera_lambda_b['default']\n"
           "        x = x.to(lambda_d.dtype)\n"
           "        result = result + lambda_b * (lambda_d * x)\n"
           "        return result.to(previous_dtype)\n")

    class Vera(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.base_layer = nn.Linear(4, 4)
            self.vera_lambda_d = nn.ParameterDict({"default": nn.Parameter(torch.ones(4))})
            self.vera_lambda_b = nn.ParameterDict({"default": nn.Parameter(torch.ones(4))})

    layer = Vera()
    layer.base_layer.half()
    ns = {"layer": layer}
    assert about(found(ns, cls), "layer") == [("module_float32_kept", "info")]
    open_ended = cls.replace("return result.to(previous_dtype)", "return result")
    assert about(found(ns, open_ended), "layer") == [("module_mixed_dtype", "warning")]


def test_a_plain_attribute_whose_values_are_copied_and_moved_where_read_is_a_note() -> None:
    """KGCN keeps its adjacency tables as plain cpu attributes, reads rows of them with cpu ids
    and moves the copy: ``torch.LongTensor(self.adj_ent[ids.cpu()]).view(b, -1).to(self.device)``.
    The copy's move is the table's, where it is read; without it the table is a stray."""
    cls = ("class KGCN(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.ent = nn.Embedding(8, 4)\n        self.adj_ent = torch.zeros(8, 2)\n"
           "    def forward(self, v):\n"
           "        n = torch.LongTensor(self.adj_ent[v.cpu()]).view(-1)"
           ".to(self.ent.weight.device)\n"
           "        return self.ent(n)\n")

    class KGCN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ent = nn.Embedding(8, 4)
            self.adj_ent = torch.zeros(8, 2, dtype=torch.long)

    ns = {"net": KGCN().to("meta")}
    moved = [(f.kind, f.severity) for f in found(ns, cls) if "net.adj_ent" in f.paths]
    assert moved == [("trap_latent", "info")], moved
    kept = [(f.kind, f.severity) for f in found(ns, cls.replace(".to(self.ent.weight.device)", ""))
            if "net.adj_ent" in f.paths]
    assert kept == [("trap_attribute", "error")], kept


def test_a_layer_a_plain_object_holds_is_moved_itself() -> None:
    """SpeechBrain's ``asr_model.hparams`` is a SimpleNamespace: a layer it holds is no
    submodule, and there is no container to register it in (``nn.ModuleList(hparams)`` raises).
    The fix moves the layer; the one held in a plain list is still registered."""
    from types import SimpleNamespace

    class Asr(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.enc = nn.Linear(4, 4)
            self.hparams = SimpleNamespace(ctc_lin=nn.Linear(4, 3))
            self.heads = [nn.Linear(4, 3)]

    ns = {"asr_model": Asr().to("meta")}
    fixes = {f.paths[0]: f.fix for f in found(ns) if f.kind == "trap_module"}
    assert fixes["asr_model.hparams.ctc_lin"] == 'asr_model.hparams.ctc_lin.to("meta")', fixes
    assert fixes["asr_model.heads[0]"].startswith(
        "asr_model.heads = torch.nn.ModuleList(asr_model.heads)"), fixes
    run(ns, fixes["asr_model.hparams.ctc_lin"])
    assert ns["asr_model"].hparams.ctc_lin.weight.device.type == "meta"


def test_a_plain_attribute_forward_makes_again_at_each_call_gets_no_move() -> None:
    """seq2seq's TopKDecoder assigns ``self.pos_index = torch.LongTensor(...)`` in ``forward``:
    what the namespace holds is the last call's, and moving it (or registering it) changes
    nothing at the next call; a note that names the line's class, with no fix. Made in
    ``__init__`` instead, it stays an error with its fix."""
    cls = ("class Dec(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.fc = nn.Linear(4, 4)\n        self.pos_index = torch.zeros(2)\n"
           "    def forward(self, x):\n        self.pos_index = torch.LongTensor([0, 1])\n"
           "        return self.fc(x)[self.pos_index]\n")

    class Dec(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.pos_index = torch.zeros(2)

    ns = {"model": Dec().to("meta")}
    remade = [(f.kind, f.severity, f.fix) for f in found(ns, cls) if "model.pos_index" in f.paths]
    assert remade == [("trap_latent", "info", "")], remade
    assert "Dec.forward assigns it at each call" in next(
        f.message for f in found(ns, cls) if "model.pos_index" in f.paths)
    kept = [(f.kind, f.severity) for f in found(ns, cls.replace(
        "        self.pos_index = torch.LongTensor([0, 1])\n", "")) if "model.pos_index" in f.paths]
    assert kept == [("trap_attribute", "error")], kept


def test_an_optimizer_over_a_flat_master_copy_of_a_model_is_no_orphan() -> None:
    """Uni-Core's / fairseq's fp16 optimizer steps one flat fp32 copy of an fp16 model's
    weights and copies it back: its one parameter belongs to no module and has no module's
    shape, yet it is the model's, number for number. An optimizer over parameters of another
    size is still an orphan."""
    model = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2)).half()
    flat = nn.Parameter(torch.cat([p.detach().float().reshape(-1) for p in model.parameters()]))
    ns = {"model": model, "opt": torch.optim.Adam([flat])}
    assert [f.kind for f in found(ns, "opt.step()\n")] == []
    ns["opt"] = torch.optim.Adam([nn.Parameter(torch.zeros(5))])
    assert [f.kind for f in found(ns, "opt.step()\n")] == ["optimizer_orphan"]


def test_a_helper_that_rebinds_its_argument_to_a_moved_copy_uses_it_moved() -> None:
    """Grounded-SAM's ``get_grounding_output(model, image, ..., device=device)`` starts with
    ``image = image.to(device)``: every later use meets the model moved, so the cpu ``image``
    the cell keeps is no stray (it was warned). A helper that uses it as it is still warns."""
    ns: dict[str, Any] = {"model": nn.Linear(4, 4).to("meta"), "image": torch.zeros(2, 4)}
    helper = ("def run(model, image, device='meta'):\n    image = image.to(device)\n"
              "    return model(image.unsqueeze(0))\n")
    assert about(found(ns, helper + "out = run(model, image)"), "image") == []
    bare = "def run(model, image):\n    return model(image.unsqueeze(0))\n"
    assert about(found(ns, bare + "out = run(model, image)"), "image") == [
        ("loose_device", "warning")]


def test_a_tensor_handed_to_a_model_method_that_moves_it_itself_is_no_stray() -> None:
    """SAM2's ``predictor.init_state(video_frames, offload_video_to_cpu=True)`` keeps the frames
    on the cpu on purpose and moves each one when it reads it: its body moves the argument, so
    the cpu ``video_frames`` the cell keeps is no stray (it was warned). A method that does not
    move it still warns."""
    src = ("class Predictor(torch.nn.Module):\n"
           "    def __init__(self):\n        super().__init__()\n"
           "        self.w = torch.nn.Parameter(torch.zeros(4))\n"
           "    def init_state(self, frames, offload=True):\n"
           "        self.frames = frames if offload else frames.to(self.w.device)\n"
           "    def score(self, frames):\n        return frames @ self.w\n")
    ns: dict[str, Any] = {"torch": torch}
    exec(src, ns)
    ns.update(predictor=ns["Predictor"]().to("meta"), video_frames=torch.zeros(3, 4))
    del ns["torch"], ns["Predictor"]
    assert about(found(ns, src, "predictor.init_state(video_frames)"), "video_frames") == []
    assert about(found(ns, src, "s = predictor.score(video_frames)"), "video_frames") == [
        ("loose_device", "warning")]


def test_a_cells_own_rebinding_to_a_moved_copy_leaves_the_namespace_to_say_where_it_is() -> None:
    """``x = x.to('meta')`` in a cell rebinds the namespace's ``x``: where ``x`` is now is what
    the snapshot reads (a cpu ``x`` that a model on meta reads is still a stray), unlike a
    function's rebinding of its own argument."""
    ns: dict[str, Any] = {"model": nn.Linear(4, 4).to("meta"), "x": torch.zeros(2, 4)}
    assert about(found(ns, "x = x.to('meta')\nout = model(x)"), "x") == [
        ("loose_device", "warning")]


SWA = '''
class Averaged(nn.Module):
    def __init__(self, model, device):
        super().__init__()
        self.module = nn.Linear(4, 3).to(device)
    def update_parameters(self, model):
        for p_avg, p in zip(self.parameters(), model.parameters()):
            p_avg.detach().copy_(p.detach().to(p_avg.device))
'''


def test_a_model_handed_to_another_models_method_is_read_not_fed() -> None:
    """``swa_model.update_parameters(model)`` (PyTorch's SWA with ``device="cpu"``) hands the
    model over as an object whose parameters the method reads: the two are not used together,
    so the averaged copy on the cpu is no stray. Fed through it (``swa_model(model(x))``), they
    are."""
    ns: dict[str, Any] = {"nn": nn}
    exec(SWA, ns)
    ns = {"model": nn.Linear(4, 3).to("meta"), "swa_model": ns["Averaged"](None, "cpu")}
    assert not [f for f in found(ns, SWA, "swa_model.update_parameters(model)")
                if f.kind == "module_device"]
    fed = [f for f in found(ns, SWA, "y = swa_model(model(x))") if f.kind == "module_device"]
    assert [(f.objects, f.fix) for f in fed] == [(("swa_model", "model"),
                                                  'swa_model.to("meta")')]


EXPERTS = '''
class Expert(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
    def forward(self, x):
        return self.fc(x.float())

class MoE(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(4, 2)
        self.experts = nn.ModuleList([Expert(), Expert()])
    def forward(self, x):
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            out = out + expert(x).to(x.dtype)
        return out * self.gate(x).sum()
'''


def test_experts_whose_outputs_the_loop_over_them_casts_are_kept_on_purpose() -> None:
    """Tutel's custom float32 experts in a bfloat16 MoE layer: ``for i, expert in
    enumerate(self.experts): expert(x).to(x.dtype)`` casts what each expert gives, as
    ``self.experts[i](x).to(...)`` would. A note; the same loop casting nothing is a warning."""
    ns: dict[str, Any] = {"torch": torch, "nn": nn}
    exec(EXPERTS, ns)
    model = ns["MoE"]()
    model.gate.to(torch.bfloat16)
    (f,) = [f for f in found({"model": model}, EXPERTS) if f.objects == ("model",)]
    assert (f.kind, f.severity, f.fix) == ("module_float32_kept", "info", "")
    plain = EXPERTS.replace("expert(x).to(x.dtype)", "expert(x)")
    (f,) = [f for f in found({"model": model}, plain) if f.objects == ("model",)]
    assert (f.kind, f.severity) == ("module_mixed_dtype", "warning")


class _Client:
    """A federated client (FL-bench's SCAFFOLD): its model and that model's optimizer."""

    def __init__(self, model: nn.Module) -> None:
        self.model = model
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)


def test_an_optimizer_beside_its_model_in_a_plain_object_updates_that_model() -> None:
    """A client object holding a model and its optimizer, next to a global model of the same
    shapes: the optimizer's parameters are named by the client's own model (its owners), so
    nothing says the global model was re-created. The optimizer's state paths read them."""
    ns = {"client": _Client(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))),
          "global_model": nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))}
    snap = take_snapshot(ns)
    owners = [t.owner for t in snap["client"].tensors if t.role == "opt_param"]
    assert owners == ["client.model.0.weight", "client.model.0.bias", "client.model.2.weight",
                      "client.model.2.bias"]
    assert [f.kind for f in diagnose(snap)] == []
    # NB: the same optimizer under a name of its own (its walk names its parameters by no
    # module): it updates the client's model all the same
    ns["opt"] = ns["client"].optimizer
    assert [f.kind for f in diagnose(take_snapshot(ns))] == []
    # NB: the client's model replaced after its optimizer was made: the optimizer's parameters
    # are no model's any more, and that is said
    ns["client"].model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    assert "optimizer_orphan" in [f.kind for f in diagnose(take_snapshot(ns))]


def test_the_live_snapshot_sees_a_wrappers_model_replaced_beside_its_optimizer() -> None:
    """The wrapper's optimizer is watched, not read again, after each cell; the model beside it
    names its parameters, so the watch compares those paths too: a model replaced (or a layer
    renamed) while the optimizer stays gives the snapshot a fresh one gives."""
    from devicelens.inspect._live import Live

    ns: dict[str, Any] = {"client": _Client(nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2)))}
    live = Live()
    live.update(ns)
    assert live.update(ns).snapshot == take_snapshot(ns)
    client = ns["client"]
    client.model = nn.Sequential(client.model[0], nn.Linear(8, 2))  # NB: one layer kept
    assert live.update(ns).snapshot == take_snapshot(ns)
    assert [t.owner for t in take_snapshot(ns)["client"].tensors if t.role == "opt_param"] == [
        "client.model.0.weight", "client.model.0.bias", "", ""]
    client.model.add_module("head", client.model._modules.pop("1"))  # NB: renamed in place
    assert live.update(ns).snapshot == take_snapshot(ns)


BOXLIB = '''
import torch
from torch import nn


class Boxes(nn.Module):
    """transformers' LayoutLMv3: a plain tensor attribute, moved where it is read."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.visual_bbox = torch.zeros(8, 4)

    def calculate(self, device):
        visual_bbox = self.visual_bbox.repeat(1, 1)
        return visual_bbox.to(device)

    def forward(self, x):
        return self.fc(x) + self.calculate(x.device)[: x.shape[0]]


class Kept(Boxes):
    def calculate(self, device):
        return self.visual_bbox
'''


def test_a_library_classs_own_code_is_read_from_its_file_as_a_cells_class_is(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A model imported from a library (its class in a file, not in the cells) that keeps a
    plain tensor attribute and moves it where it reads it: only a note, as for the same class
    defined in a cell (LayoutLMv3 was told "error: left on cpu" from a library and not from a
    cell); its subclass that reads it unmoved keeps the error. The live snapshot reads the same
    sources as a fresh one."""
    import importlib

    from devicelens.inspect._class_sources import MARK
    from devicelens.inspect._live import Live

    (tmp_path / "boxlib_dl.py").write_text(BOXLIB)
    monkeypatch.syspath_prepend(str(tmp_path))
    lib = importlib.import_module("boxlib_dl")
    ns = {"model": lib.Boxes().to("meta"), "kept": lib.Kept().to("meta")}
    fs = found(ns, "out = model(x)\nz = kept(x)\n")
    assert about(fs, "model") == [("trap_latent", "info")]
    assert about(fs, "kept") == [("trap_attribute", "error")]
    snap = take_snapshot(ns)
    assert [c.split("\n")[1] for c in snap.cells if c.startswith(MARK)] == [
        "class Boxes(nn.Module):", "class Kept(Boxes):"]
    live = Live()
    assert live.update(ns).snapshot == snap
    del ns["kept"]
    assert live.update(ns).snapshot == take_snapshot(ns)
    assert [c.split("\n")[1] for c in live.update(ns).snapshot.cells] == ["class Boxes(nn.Module):"]


ENCODER_LIB = '''
import torch
from torch import nn


class Encoder(nn.Module):
    """Real-Time-Voice-Cloning's speaker encoder: a scale only its loss reads."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4).to("meta")
        self.similarity_weight = nn.Parameter(torch.tensor([10.0]))

    def forward(self, x):
        return self.linear(x)

    def loss(self, e):
        return (e * self.similarity_weight).sum()
'''


def test_a_library_models_split_its_forward_never_reads_is_a_note_as_a_cells_is(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The class of a model over several devices is read from its file, as one with a plain
    tensor attribute is: its forward never reads the scale it keeps on the cpu, so the split
    is a note from a library too (it was an error there, and a note from a cell)."""
    import importlib

    (tmp_path / "encoderlib_dl.py").write_text(ENCODER_LIB)
    monkeypatch.syspath_prepend(str(tmp_path))
    lib = importlib.import_module("encoderlib_dl")
    fs = found({"model": lib.Encoder()}, "e = model(x)\n")
    assert about(fs, "model") == [("module_split", "info")]


SCALE_LIB = '''
import torch
from torch import nn


class ScaleShift(nn.Module):
    """NequIP: per-species scales kept in float64, cast where ``forward`` reads them."""

    def __init__(self):
        super().__init__()
        self.register_buffer("scales", torch.tensor([0.51, 0.83], dtype=torch.float64))
        self.head = nn.Linear(4, 1)

    def forward(self, idx, x):
        return self.head(x) * self.scales[idx].view(-1, 1).to(x.dtype)


class Uncast(ScaleShift):
    def forward(self, idx, x):
        return self.head(x) * self.scales[idx].view(-1, 1)
'''


def test_a_library_models_float64_buffers_its_code_casts_are_a_note_as_a_cells_are(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The classes of modules holding a weight in another floating dtype than the rest (and of
    those above them) are read from their files too: NequIP's scales cast where they are read
    are a note when the model is imported, as when its class is a cell's; uncast, a warning."""
    import importlib

    (tmp_path / "scalelib_dl.py").write_text(SCALE_LIB)
    monkeypatch.syspath_prepend(str(tmp_path))
    lib = importlib.import_module("scalelib_dl")
    fs = found({"model": lib.ScaleShift(), "plain": lib.Uncast()})
    assert about(fs, "model") == [("module_float32_kept", "info")]
    assert about(fs, "plain") == [("module_mixed_dtype", "warning")]


GSO_LIB = '''
import torch
from torch import nn


class Cheb(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Linear(4, 4)

    def forward(self, x, gso):
        gso = gso.to(x.device)
        return self.w(gso @ x)


class Layer(nn.Module):
    """BasicTS's STGCN: the graph shift operator a plain attribute, handed to the layer."""

    def __init__(self, gso):
        super().__init__()
        self.gso = gso
        self.cheb = Cheb()

    def forward(self, x):
        return self.cheb(x, self.gso)
'''


def test_a_library_submodule_that_moves_what_it_is_handed_is_read_from_its_file_too(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The children of a module holding a plain tensor attribute are read too: BasicTS's
    Chebyshev layer moves the operator its parent hands it, so the parent's cpu attribute is a
    note when both classes come from a library, as when the cells define them."""
    import importlib

    (tmp_path / "gsolib_dl.py").write_text(GSO_LIB)
    monkeypatch.syspath_prepend(str(tmp_path))
    lib = importlib.import_module("gsolib_dl")
    model = lib.Layer(torch.eye(4)).to("meta")
    model.gso = torch.eye(4)  # NB: as ``Module.to()`` leaves a plain attribute
    fs = found({"model": model}, "y = model(x)\n")
    assert [(f.kind, f.severity) for f in fs if "model.gso" in f.paths] == [
        ("trap_latent", "info")]


def test_a_library_class_whose_source_cannot_be_read_costs_the_snapshot_nothing(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A loader that raises anything while its class's text is read (not only OSError): the
    snapshot is taken, with no source for that class, and the attribute is judged as before
    (an error: nothing says the class moves it)."""
    import importlib
    import inspect

    from devicelens.inspect import _class_sources

    (tmp_path / "boxlib_broken_dl.py").write_text(BOXLIB)
    monkeypatch.syspath_prepend(str(tmp_path))
    lib = importlib.import_module("boxlib_broken_dl")

    def broken(obj: Any) -> str:
        raise RuntimeError("a loader that fails")

    monkeypatch.setattr(inspect, "getsource", broken)
    monkeypatch.setattr(_class_sources, "_CACHE", {})
    ns = {"model": lib.Boxes().to("meta")}
    snap = take_snapshot(ns)
    assert not [c for c in snap.cells if c.startswith(_class_sources.MARK)]
    assert about(diagnose(snap), "model") == [("trap_attribute", "error")]


CALLED_LIB = '''
import torch
from torch import nn


def grounding(model, image, device="cpu"):
    """Grounded-SAM's ``get_grounding_output``: it moves the model and the image itself."""
    model = model.to(device)
    image = image.to(device)
    return model(image)


def careless(model, image):
    return model(image)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)
'''


def test_a_library_function_the_cells_hand_data_to_is_read_from_its_file(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cells hand a cpu image to a library function that moves it to the model's device
    itself (Grounded-SAM's ``get_grounding_output``): no warning, as when the cells define the
    function; handed to one that does not, the warning stays. The live snapshot reads the
    same sources as a fresh one."""
    import importlib

    from devicelens.inspect._class_sources import MARK
    from devicelens.inspect._live import Live

    (tmp_path / "calledlib_dl.py").write_text(CALLED_LIB)
    monkeypatch.syspath_prepend(str(tmp_path))
    lib = importlib.import_module("calledlib_dl")
    ns: dict[str, Any] = {"model": lib.Net().to("meta"), "image": torch.rand(3, 4),
                          "grounding": lib.grounding, "careless": lib.careless}
    ns["In"] = ["", 'boxes = grounding(model, image, device="meta")\n']
    snap = take_snapshot(ns)
    assert [c.split("\n")[1] for c in snap.cells if c.startswith(MARK)] == [
        "def grounding(model, image, device=\"cpu\"):"]
    assert about(diagnose(snap), "image") == []
    assert Live().update(ns).snapshot == snap
    ns["In"] = ["", "boxes = careless(model, image)\n"]
    assert about(diagnose(take_snapshot(ns)), "image") == [("loose_device", "warning")]


def test_what_the_library_sources_define_is_read_once_and_answers_as_a_fresh_read() -> None:
    """The library's sources come back with every new cell: what they define is kept per set
    of sources and copied into each new cell's usage, which then answers exactly as one read
    afresh, and a cell's own class does not leak into the next usage."""
    from devicelens.analysis import _usage
    from devicelens.inspect._class_sources import MARK

    lib = (MARK + "class Boxes(nn.Module):\n    def forward(self, x):\n"
           "        return x + self.table.to(x.device)\n")
    mine = "class Mine(nn.Module):\n    def forward(self, x):\n        return self.w.to(x)\n"
    _usage._LIBRARY.clear()
    first = Usage(["y = model(x)\n", mine, lib], {"model": "Boxes"})
    assert first.moved_at_use("Boxes") == {"table"} and first.moved_at_use("Mine") == {"w"}
    assert len(_usage._LIBRARY) == 1
    kept = Usage(["y = model(x)\n", "z = 1\n", lib], {"model": "Boxes"})
    _usage._LIBRARY.clear()
    fresh = Usage(["y = model(x)\n", "z = 1\n", lib], {"model": "Boxes"})
    assert kept.key() == fresh.key()
    assert kept.moved_at_use("Boxes") == {"table"} and kept.moved_at_use("Mine") == frozenset()


def _ids_to_weight(module: nn.Module, args: tuple[Any, ...]) -> tuple[Any, ...]:
    return (args[0].to(module.weight.device),)


def test_a_part_whose_own_pre_hook_places_its_inputs_is_no_partial_move() -> None:
    """unsloth's ``offload_embedding``: the embedding stays on the cpu beside a decoder on the
    GPU, and a forward pre-hook of the user's code sends the ids to the embedding's device (a
    forward hook sends its output back): the split is placed on purpose. Without the hook it is
    a partial move; torch's own pre-hooks (``weight_norm``) place nothing."""
    def model(hook: Any) -> nn.Module:
        m = nn.Sequential(nn.Embedding(8, 4), nn.Linear(4, 2).to("meta"))
        if hook is not None:
            m[0].register_forward_pre_hook(hook)
        return m

    def splits(m: nn.Module) -> list[tuple[str, str]]:
        return [(f.kind, f.severity) for f in diagnose(take_snapshot({"model": m}))
                if f.kind == "module_split"]

    assert splits(model(_ids_to_weight)) == []
    assert splits(model(None)) == [("module_split", "error")]
    normed = model(None)
    normed[1] = torch.nn.utils.weight_norm(nn.Linear(4, 2)).to("meta")
    assert splits(normed) == [("module_split", "error")]


def _prepared_for_fp16(model: nn.Module) -> nn.Module:
    """What accelerate's ``prepare_model`` does under ``mixed_precision="fp16"``: the model's
    own ``forward`` runs under autocast, and a wrapper (``convert_outputs_to_fp32``, which
    sets ``__wrapped__``) casts what it returns to float32; both are bound on the model."""
    autocast = torch.autocast("cpu", dtype=torch.bfloat16)
    model.forward = MethodType(autocast(model.forward.__func__), model)  # type: ignore[method-assign]
    inner = model.forward.__func__  # type: ignore[attr-defined]

    def forward(*args: Any, **kwargs: Any) -> Any:
        return inner(*args, **kwargs).float()

    forward.__wrapped__ = inner  # type: ignore[attr-defined]
    model.forward = MethodType(forward, model)  # type: ignore[method-assign]
    return model


def test_an_input_in_another_float_dtype_of_a_model_that_autocasts_is_no_warning() -> None:
    """A ControlNet prepared by accelerate for fp16 training is float32, its inputs come out
    of the fp16 VAE and text encoder: its ``forward`` runs under autocast, so their dtype never
    meets its weights'. The same model unprepared keeps the warning; so does one whose bound
    ``forward`` is no autocast's (a plain wrapper)."""
    def dtypes(model: nn.Module) -> list[tuple[str, str]]:
        ns = {"controlnet": model, "latents": torch.randn(2, 4, dtype=torch.bfloat16)}
        return [(f.kind, f.severity) for f in found(ns, "out = controlnet(latents)\n")
                if f.kind.startswith("loose_dtype")]

    prepared = _prepared_for_fp16(nn.Linear(4, 4))
    assert take_snapshot({"m": prepared}).objects[0].modules[0].hf_hook == "autocast"
    assert dtypes(prepared) == []
    assert prepared(torch.randn(2, 4, dtype=torch.bfloat16)).dtype == torch.float32
    assert dtypes(nn.Linear(4, 4)) == [("loose_dtype", "warning")]
    plain = nn.Linear(4, 4)
    inner = plain.forward.__func__  # type: ignore[attr-defined]
    plain.forward = MethodType(lambda self, x: inner(self, x), plain)  # type: ignore[method-assign]
    assert dtypes(plain) == [("loose_dtype", "warning")]
