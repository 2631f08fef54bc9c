"""Post-mortem diagnosis through a real IPython shell: plain cells, no ``%%cuda_safe``.

The original exception (type, object, traceback) must reach IPython intact, the diagnosis is
appended after it, handlers installed before devicelens keep running, and user code never runs
twice.
"""

from __future__ import annotations

import re
import sys

import pytest
import torch
from torch import nn

from devicelens.guard import postmortem
from tests._traces import VERIFIED, ours_in
from tests.conftest import to_in_place

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(ip, capsys, cell: str, fake=None):
    capsys.readouterr()
    if fake is not None:
        with fake:
            result = ip.run_cell(cell, store_history=False)
    else:
        result = ip.run_cell(cell, store_history=False)
    out = capsys.readouterr()
    return result.error_in_exec, ANSI.sub("", out.out), ANSI.sub("", out.err)


def diagnosis(out: str) -> str:
    assert "devicelens: " in out, out[-2000:]
    return out[out.index("devicelens: "):]


@pytest.fixture
def ns(ip):
    ip.run_cell("import torch\nfrom torch import nn\nimport torch.nn.functional as F\n",
                store_history=False)
    return ip.user_ns


def test_device_family_labels_not_moved_fake_cuda(ip, ns, capsys, fake_cuda):
    ns.update(logits=fake_cuda.randn(2, 4), labels=torch.tensor([0, 3]), count=0)
    err, out, _ = run(ip, capsys, "count += 1\nloss = F.cross_entropy(logits, labels)\n",
                      fake_cuda)
    assert type(err).__name__ == "FakeTensorDeviceMismatchError"  # the original, untouched
    assert sys.last_value is err and sys.last_type is type(err)
    frames = [f.f_code.co_name for f, _ in __import__("traceback").walk_tb(err.__traceback__)]
    assert "<module>" in frames and frames[-1] != "<module>"  # down to torch's own frames
    assert "Expected all tensors to be on the same device" in out.split("devicelens: ")[0]
    text = diagnosis(out)
    assert text.splitlines()[0] == "devicelens: tensors on different devices: cpu, cuda:0"
    assert "culprit: labels (int64[2] on cpu), `target` in cross_entropy; expected cuda:0" in text
    assert "at: cell line 2: loss = F.cross_entropy(logits, labels)" in text
    assert text.rstrip().endswith("fix:\n      labels = labels.to(logits.device)"
                                   + "\n" + VERIFIED)
    assert ns["count"] == 1  # never re-executed


def test_an_extensions_own_cuda_check_names_the_stray_weight_fake_cuda(ip, ns, capsys,
                                                                    fake_cuda):
    """A CUDA extension checks its arguments itself (``CHECK_CUDA``: "weights must be a CUDA
    tensor", DSXplore's ``scc_cuda``) before any kernel runs: the cpu weight among cuda
    operands is the stray, and the model that holds it moves."""
    ip.run_cell("def scc(input, weights):\n"
                "    for name, t in (('input', input), ('weights', weights)):\n"
                "        if not t.is_cuda:\n"
                "            raise RuntimeError(f'{name} must be a CUDA tensor')\n"
                "    return input\n")
    ns.update(net=nn.Linear(4, 4), x=fake_cuda.randn(2, 4))
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = scc(x, net.weight)\n",
                      fake_cuda)
    assert "must be a CUDA tensor" in str(err)
    text = diagnosis(out)
    assert text.splitlines()[0] == "devicelens: tensors on different devices: cpu, cuda:0"
    assert "culprit: net.weight (float32[4, 4] on cpu), `weights` in scc; expected cuda:0" in text


def test_of_two_names_of_one_model_the_failing_line_spells_is_named_fake_cuda(ip, ns, capsys,
                                                                           fake_cuda):
    """``m0 = m1.to('cuda:0')`` binds the very module to a second name; the line that fails
    calls ``m0(x)``: the culprit is named as that line spells it."""
    ip.run_cell("class Noisy(nn.Module):\n"
                "    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.fc = nn.Linear(4, 4)\n"
                "    def forward(self, x):\n"
                "        return self.fc(x) + torch.rand(2, 4, device='cuda:1')\n")
    ip.run_cell("m1 = Noisy()")
    ns["m1"] = fake_cuda.to(ns["m1"], "cuda:1")
    ns["x"] = fake_cuda.randn(2, 4)
    err, out, _ = run(ip, capsys, "m0 = m1.to('cuda:0')\nwith torch.no_grad():\n    m0(x)\n",
                      fake_cuda)
    assert isinstance(err, RuntimeError)
    text = diagnosis(out)
    assert "inside: m0 (Noisy)" in text, text
    assert "m1" not in text, text


def test_a_module_built_and_called_at_once_is_moved_where_it_is_built_fake_cuda(ip, ns, capsys,
                                                                               fake_cuda):
    """A metric made inside ``validation_step`` and called at once
    (``F1(n)(preds, y)``, torchmetrics' users) has no name but its own ``self``: the model
    whose method builds it is named, and the edit moves it where it is built, to its inputs'
    device."""
    ip.run_cell("class F1(nn.Module):\n"
                "    def __init__(self, n):\n"
                "        super().__init__()\n"
                "        self.register_buffer('tp', torch.zeros(n))\n"
                "    def forward(self, preds, y):\n"
                "        self.tp += (preds == y).float().sum() * torch.ones_like(self.tp)\n"
                "        return self.tp\n"
                "class Net(nn.Module):\n"
                "    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.fc = nn.Linear(4, 3)\n"
                "    def validation_step(self, x, y):\n"
                "        preds = self.fc(x).argmax(1)\n"
                "        f1 = F1(3)(preds, y)\n"
                "        return f1\n")
    ip.run_cell("model = Net()")
    ns["model"] = fake_cuda.to(ns["model"], "cuda:0")
    ns.update(x=fake_cuda.randn(2, 4), y=fake_cuda.to(torch.zeros(2, dtype=torch.long), "cuda:0"))
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    model.validation_step(x, y)\n",
                      fake_cuda)
    assert isinstance(err, RuntimeError)
    text = diagnosis(out)
    assert "culprit: `F1(...)` in Net.validation_step (F1, cpu); expected cuda:0" in text, text
    assert ("      - f1 = F1(3)(preds, y)\n      + f1 = F1(3).to(preds.device)(preds, y)"
            in text), text
    assert "culprit: model (" in text, text


def test_a_tensor_an_object_built_in_a_function_holds_is_named_through_that_function_fake_cuda(
        ip, ns, capsys, fake_cuda):
    """A logits processor built inside ``generate`` keeps its tokens on the cpu (transformers'
    Bark, before its fix): the tensor is no namespace object's, and its own method reads it as
    ``self.suppress``. It is named through the local that holds the processor where it is
    built, the outermost function that has it, never a blank culprit line."""
    ip.run_cell("class Suppress:\n"
                "    def __init__(self, tokens):\n"
                "        self.suppress = torch.tensor(tokens)\n"
                "    def __call__(self, scores):\n"
                "        return scores.index_fill(-1, self.suppress, 0.0)\n"
                "class Gen(nn.Module):\n"
                "    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.head = nn.Linear(4, 6)\n"
                "    def generate(self, x):\n"
                "        processor = Suppress([1, 2])\n"
                "        return processor(self.head(x))\n")
    ip.run_cell("model = Gen()")
    ns["model"] = fake_cuda.to(ns["model"], "cuda:0")
    ns["x"] = fake_cuda.randn(2, 4)
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    model.generate(x)\n", fake_cuda)
    assert isinstance(err, RuntimeError)
    text = diagnosis(out)
    assert "culprit: `processor.suppress` in Gen.generate (int64[2] on cpu)" in text, text
    assert "culprit:  (" not in text, text


def test_optimizer_state_restored_in_another_dtype_is_cast_not_the_grads(ip, ns, capsys):
    """OneTrainer resumed a bfloat16 LoRA with its momentum forced to float32: the optimizer's
    own ``buf.lerp_(grad)`` fails. The state is the stray, as the snapshot's warning says, and
    the fix casts it to its parameter's dtype; an edit casting the grad to float32 in the
    optimizer's code would fail every fresh run of that code (its own state is bfloat16)."""
    ip.run_cell("class Sink(torch.optim.Optimizer):\n"
                "    def __init__(self, params):\n"
                "        super().__init__(params, dict(lr=1e-3))\n"
                "    @torch.no_grad()\n"
                "    def _one(self, p, g):\n"
                "        grad = p.grad\n"
                "        st = self.state[p]\n"
                "        if 'buf' not in st:\n"
                "            st['buf'] = torch.zeros_like(p)\n"
                "        buf = st['buf']\n"
                "        buf.lerp_(grad, 0.1)\n"
                "        p.add_(buf.sign(), alpha=-g['lr'])\n"
                "    @torch.no_grad()\n"
                "    def step(self):\n"
                "        for g in self.param_groups:\n"
                "            for p in g['params']:\n"
                "                self._one(p, g)\n"
                "lin = nn.Linear(4, 4, bias=False).bfloat16()\n"
                "opt = Sink(lin.parameters())\n"
                "lin.weight.grad = torch.ones_like(lin.weight)\n"
                "opt.step()\n"
                "opt.state[lin.weight]['buf'] = opt.state[lin.weight]['buf'].float()\n")
    err, out, _ = run(ip, capsys, "opt.step()\n")
    assert isinstance(err, RuntimeError)
    text = diagnosis(out)
    assert "culprit: opt (1 tensor it holds in float32); expected bfloat16" in text, text
    assert "for _p, _s in opt.state.items():" in text and "edit:" not in text, text
    assert VERIFIED in text, text
    assert ns["opt"].state[ns["lin"].weight]["buf"].dtype == torch.float32  # NB: only advice


def test_a_foreach_step_refusing_an_integer_step_names_the_state_and_casts_it(ip, ns, capsys):
    """"Tensors of the same index must be on the same device and the same dtype except `step`
    tensors ...": a user's helper rebuilt AdamW's state with ``torch.tensor(0)`` (pytorch
    #127197). The message names no tensor; the grouping's lists do: the integer step is the
    culprit, and the fix makes it the float32 tensor torch keeps (and the cell runs)."""
    ip.run_cell("head = nn.Linear(4, 3, bias=False)\n"
                "opt = torch.optim.AdamW(head.parameters(), foreach=True)\n"
                "opt.state[head.weight] = {'step': torch.tensor(0),\n"
                "                          'exp_avg': torch.zeros_like(head.weight),\n"
                "                          'exp_avg_sq': torch.zeros_like(head.weight)}\n"
                "head.weight.grad = torch.ones_like(head.weight)\n")
    err, out, _ = run(ip, capsys, "opt.step()\n")
    assert "Tensors of the same index" in str(err)
    text = diagnosis(out)
    assert text.startswith("devicelens: tensors on different dtypes: float32, int64"), text
    assert "culprit: opt (1 tensor it holds in int64); expected float32" in text, text
    assert "elif torch.is_tensor(_v) and not _v.is_floating_point():\n" in text, text
    assert VERIFIED in text, text


def test_the_foreach_lists_are_read_as_torchs_check_reads_them():
    """Each index is checked against its parameter as torch checks it: a half state on the
    cpu beside a parameter elsewhere is refused (a float32 one, a ``step``'s dtype, is not), an
    integer step is, a float32 or bfloat16 state beside a parameter on its device is not."""
    from devicelens.guard.families._foreach import refused
    from devicelens.guard.running._frames import traceback_frames

    def _group_tensors_by_device_and_dtype(tensorlistlist):
        raise RuntimeError("Tensors of the same index must be on the same device")

    def frames_of(*lists):
        try:
            _group_tensors_by_device_and_dtype(list(lists))
        except RuntimeError as e:
            return traceback_frames(e.__traceback__)
        raise AssertionError

    p = torch.zeros(2, device="meta")
    state, step = torch.zeros(2, dtype=torch.float16), torch.tensor(1.0)
    kind, want, ops = refused(frames_of([p], [torch.zeros(2, device="meta")], [state], [step]))
    assert (kind, want) == ("device", "meta") and [t for _w, t in ops] == [p, state]
    assert refused(frames_of([p], [torch.zeros(2)], [step])) is None
    half = torch.zeros(2, dtype=torch.bfloat16)
    assert refused(frames_of([torch.zeros(2)], [half], [torch.tensor(1.0)])) is None
    kind, want, ops = refused(frames_of([torch.zeros(2)], [torch.zeros(2)], [torch.tensor(0)]))
    assert (kind, want, len(ops)) == ("dtype", "float32", 2)
    assert refused(frames_of([torch.zeros(2)], [torch.zeros(2, dtype=torch.float16)]))[0] == "dtype"


def test_a_zero_dim_cpu_tensor_the_line_reshapes_is_a_culprit_fake_cuda(ip, ns, capsys,
                                                                       fake_cuda):
    """A 0-dim cpu tensor mixes with cuda tensors as a number does, but not once the failing
    line gives it dimensions (open_clip's ``self.eos_token_id.view(1, -1)``, the end token
    kept by a stopping criterion ``generate`` builds): it is the culprit, not left out."""
    ip.run_cell("class Eos:\n"
                "    def __init__(self, token):\n"
                "        self.eos = torch.tensor(token)\n"
                "    def __call__(self, ids):\n"
                "        return (ids == self.eos.view(1, -1)).any(-1)\n")
    ns["ids"] = fake_cuda.to(torch.tensor([[1, 2], [2, 3]]), "cuda:0")
    ip.run_cell("stop = Eos(2)")
    err, out, _ = run(ip, capsys, "done = stop(ids)\n", fake_cuda)
    assert isinstance(err, RuntimeError)
    text = diagnosis(out)
    assert text.startswith("devicelens: tensors on different devices: cpu, cuda:0"), text
    assert "culprit: stop.eos (int64[] on cpu); expected cuda:0" in text, text


def test_a_mismatch_a_library_raises_again_as_its_own_error_is_explained(ip, ns, capsys,
                                                                        fake_cuda):
    """baal catches the device error of its MC-dropout replication and raises its own "ran out
    of memory" error from it: the error shown is baal's, untouched, and the diagnosis is the
    cause's, with the frames of both (down to the layer, up to the cell). Without a mismatch in
    the chain, nothing is added."""
    ip.run_cell("def predict(model, x):\n    try:\n        return model(x)\n"
                "    except RuntimeError as e:\n"
                "        raise RuntimeError('ran out of memory while replicating data') from e\n",
                store_history=False)
    ns.update(net=nn.Linear(4, 2), x=fake_cuda.randn(3, 4))
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = predict(net, x)\n", fake_cuda)
    assert str(err) == "ran out of memory while replicating data"
    text = diagnosis(out)
    assert "culprit: net.weight (float32[2, 4] on cpu)" in text
    assert "inside: net (Linear)" in text
    assert "note: the error shown wraps this mismatch, raised as its cause" in text
    assert 'net.to("cuda:0")' in text
    assert VERIFIED in text
    err, out, _ = run(ip, capsys, "raise RuntimeError('unrelated') from ValueError('inner')")
    assert str(err) == "unrelated" and "devicelens: " not in out


def test_a_wrapper_that_restates_a_mismatch_in_its_own_words_is_explained_by_the_cause(
        ip, ns, capsys, fake_cuda):
    """torchmetrics re-raises a metric's device error as "Encountered different devices in
    metric calculation ... not being on the same device as input", which reads as a library's
    own device check and names no operand: the cause's frames reach the op, so the diagnosis is
    the cause's (it used to name nothing)."""
    ip.run_cell("def update(model, x):\n    try:\n        return model(x)\n"
                "    except RuntimeError as err:\n"
                "        raise RuntimeError('Encountered different devices in metric calculation. "
                "This could be due to the metric class not being on the same device as "
                "input.') from err\n", store_history=False)
    ns.update(net=nn.Linear(4, 2), x=fake_cuda.randn(3, 4))
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = update(net, x)\n", fake_cuda)
    assert str(err).startswith("Encountered different devices in metric calculation")
    text = diagnosis(out)
    assert "culprit: net.weight (float32[2, 4] on cpu)" in text, text
    assert "note: the error shown wraps this mismatch, raised as its cause" in text, text
    assert VERIFIED in text, text


def test_device_family_names_the_layer_fake_cuda(ip, ns, capsys, fake_cuda):
    ns.update(model=fake_cuda.to(nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2)),
                                 "cuda:0"), x=torch.randn(3, 4))
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    out = model(x)\n", fake_cuda)
    assert isinstance(err, RuntimeError)
    text = diagnosis(out)
    assert "culprit: x (float32[3, 4] on cpu), `input` in Linear.forward; expected cuda:0" in text
    assert "inside: model[0] (Linear)" in text
    assert "at: cell line 2: out = model(x)" in text
    assert 'x = x.to("cuda:0")' in text


def test_device_family_on_meta_blames_the_input_not_the_model(ip, ns, capsys):
    from tests.conftest import to_in_place

    ns.update(model=to_in_place(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)),
                                "meta"), x=torch.randn(3, 4))
    err, out, _ = run(ip, capsys, "out = model(x)\n")
    # NB: torch's text names the first tensor's device (cpu) as "expected"; the model is on meta
    assert str(err) == "Tensor on device meta is not on the expected device cpu!"
    text = diagnosis(out)
    assert "culprit: x (float32[3, 4] on cpu), `input` in Linear.forward; expected meta" in text
    assert "inside: model[0] (Linear)" in text
    assert text.rstrip().endswith('fix:\n      x = x.to("meta")'
                                   + "\n" + VERIFIED)


def test_dataparallel_device_ids_family_fake_cuda(ip, ns, capsys, fake_cuda):
    dp = nn.DataParallel(fake_cuda.to(nn.Sequential(nn.Linear(4, 2)), "cuda:1"))
    dp.device_ids, dp.src_device_obj, dp.output_device = [0, 1], torch.device("cuda:0"), 0
    ns.update(dp=dp, x=fake_cuda.randn(2, 4))
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    out = dp(x)\n", fake_cuda)
    assert "(device_ids[0]) but found one of them on device: cuda:1" in str(err)
    text = diagnosis(out)
    assert "culprit: dp.module[0].weight (float32[2, 4] on cuda:1)" in text
    assert "inside: dp (DataParallel)" in text
    assert "at: cell line 2: out = dp(x)" in text
    # NB: simulated GPUs cannot replicate a module: the rehearsal says so rather than "verified"
    assert text.rstrip().endswith('fix:\n      dp.module.to("cuda:0")\n  not verified: after '
                                  "this fix the cell fails with AttributeError: 'DataParallel' "
                                  "object has no attribute 'dim'")


def test_optimizer_foreach_family_meta(ip, ns, capsys):
    model = nn.Linear(3, 2)
    opt = torch.optim.Adam(model.parameters(), foreach=True)
    model(torch.randn(4, 3)).sum().backward()
    opt.step()
    for s in opt.state.values():
        s["exp_avg"] = s["exp_avg"].to("meta")
    ns.update(model=model, opt=opt)
    err, out, _ = run(ip, capsys, "opt.step()\n")
    assert "Tensors of the same index must be on the same device" in str(err)
    text = diagnosis(out)
    assert "at: cell line 1: opt.step()" in text
    assert "2 state tensors of opt are on meta while their parameters are on cpu" in text
    assert "for _p, _s in opt.state.items():" in text


def test_dtype_family_mat1_mat2(ip, ns, capsys):
    ns.update(net=nn.Sequential(nn.Linear(8, 4)), x64=torch.randn(2, 8, dtype=torch.float64))
    err, out, _ = run(ip, capsys, "out = net(x64)\n")
    assert "mat1 and mat2 must have the same dtype" in str(err)
    text = diagnosis(out)
    assert text.splitlines()[0] == "devicelens: tensors on different dtypes: float32, float64"
    assert "culprit: x64 (float64[2, 8] on cpu), `input` in Linear.forward; expected float32" \
        in text
    assert "inside: net[0] (Linear)" in text
    assert text.rstrip().endswith("fix:\n      x64 = x64.float()"
                                   + "\n" + VERIFIED)


def test_index_dtype_family_float_labels(ip, ns, capsys):
    ns.update(logits=torch.randn(3, 4), labels=torch.tensor([1.0, 2.0, 0.0]))
    err, out, _ = run(ip, capsys, "loss = F.cross_entropy(logits, labels)\n")
    assert "expected target dtype to be Long" in str(err)
    text = diagnosis(out)
    assert "culprit: labels (float32[3] on cpu), `target` in cross_entropy" in text
    assert text.rstrip().endswith("fix:\n      labels = labels.long()"
                                   + "\n" + VERIFIED)


def test_backward_error_is_explained(ip, ns, capsys):
    err, out, _ = run(ip, capsys, (
        "class ToMeta(torch.autograd.Function):\n    @staticmethod\n"
        "    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n"
        "    def backward(ctx, g):\n        return torch.ones(g.shape, device='meta')\n"
        "w = torch.randn(3, requires_grad=True)\nloss = ToMeta.apply(w).sum()\n"
        "loss.backward()\n"))
    assert "returned an invalid gradient at index 0 - expected device cpu but got meta" in str(err)
    text = diagnosis(out)
    assert "at: cell line 10: loss.backward()" in text
    assert re.search(r"note: the backward\(\) of ToMeta \(cell In\[\d+\] line 5\) returned "
                     r"input 0's gradient on meta; autograd needs it on cpu", text)
    assert "# in ToMeta.backward: return each gradient on its input's device" in text


def test_backward_error_inside_cuda_safe_keeps_its_type(ip, ns, capsys):
    ns["w"] = torch.randn(3, requires_grad=True)
    err, _out, _ = run(ip, capsys, "%%cuda_safe\ny = w * 2\ny.register_hook(lambda g: g.double())\n"
                                  "y.sum().backward()\n")
    assert type(err).__name__ == "DeviceMismatchError" and isinstance(err, RuntimeError)
    assert type(err.__cause__) is RuntimeError  # the original, chained
    assert "has changed the type of value" in str(err.__cause__)
    assert "note: the tensor hook '<lambda>' returned a torch.DoubleTensor gradient" in str(err)


def test_other_errors_are_untouched(ip, ns, capsys):
    err, out, _ = run(ip, capsys, "raise RuntimeError('boom')\n")
    assert str(err) == "boom" and "RuntimeError: boom" in out and ours_in(out) == []
    err, out, _ = run(ip, capsys, "{}['missing']\n")
    assert isinstance(err, KeyError) and ours_in(out) == []


def test_guard_errors_are_not_explained_twice(ip, ns, capsys):
    ns.update(a=torch.ones(2), b=torch.ones(2, device="meta"))
    err, out, _ = run(ip, capsys, "%%cuda_safe\nc = a + b\n")
    assert type(err).__name__ == "DeviceMismatchError"
    assert out.count("culprit: a (float32[2] on cpu)") == 1 and "devicelens: " not in out


def test_chains_with_handlers_installed_before(ip, ns, capsys):
    seen = []

    def earlier(shell, etype, value, tb, tb_offset=None):
        seen.append(etype.__name__)
        print(f"earlier handler saw {etype.__name__}")

    postmortem.uninstall(ip)
    ip.set_custom_exc((KeyError, RuntimeError), earlier)
    try:
        postmortem.install(ip)
        assert set(ip.custom_exceptions) == {KeyError, RuntimeError, ValueError, IndexError,
                                             TypeError}
        ns.update(net=nn.Linear(8, 4), x64=torch.randn(2, 8, dtype=torch.float64))
        _, out, err_text = run(ip, capsys, "net(x64)\n")
        assert seen == ["RuntimeError"] and "earlier handler saw RuntimeError" in out
        assert "devicelens: tensors on different dtypes" in err_text
        _, out, _ = run(ip, capsys, "{}['k']\n")
        assert seen == ["RuntimeError", "KeyError"]
    finally:
        postmortem.uninstall(ip)
        assert ip.custom_exceptions == (KeyError, RuntimeError)
        ip.set_custom_exc((), None)
        postmortem.install(ip)


def test_a_failing_diagnosis_shows_the_plain_traceback(ip, ns, capsys, monkeypatch):
    def broken(*a, **k):
        raise AssertionError("diagnosis bug")

    monkeypatch.setattr(postmortem, "diagnose_exception", broken)
    ns.update(net=nn.Linear(8, 4), x64=torch.randn(2, 8, dtype=torch.float64))
    installed = ip.CustomTB
    _err, out, _ = run(ip, capsys, "net(x64)\n")
    assert "mat1 and mat2 must have the same dtype" in out and ours_in(out) == []
    assert ip.CustomTB is installed  # still installed: IPython did not unregister it


def test_unload_restores_the_previous_handler(ip):
    before = (ip.custom_exceptions, ip.CustomTB)
    ip.run_line_magic("unload_ext", "devicelens")
    try:
        assert RuntimeError not in ip.custom_exceptions
    finally:
        ip.run_line_magic("load_ext", "devicelens")
    assert ip.custom_exceptions == before[0]


@pytest.mark.parametrize(("text", "kind"), [
    ("Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same "
     "or input should be a MKLDNN tensor and weight is a dense tensor", "device"),
    ("Input type (torch.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same",
     "device"),
    ("Input type (torch.DoubleTensor) and weight type (torch.FloatTensor) should be the same",
     "dtype"),
    ("Input type (torch.cuda.HalfTensor) and weight type (torch.cuda.FloatTensor) should be the "
     "same", "dtype"),
    ("Expected object of device type cuda but got device type cpu for argument #1 'self' in call "
     "to _th_addmm", "device"),
    ("Input and parameter tensors are not at the same device, found input tensor at cuda:0 and "
     "parameter tensor at cpu", "device"),
    ("expected scalar type Float but found Half", "dtype"),
    ("expected m1 and m2 to have the same dtype, but got: double != float", "dtype"),
    ("Found dtype Double but expected Float", "dtype"),
    ("Double did not match Float", "dtype"),
    ("Float did not match Half", "dtype"),
    ("key 'lr' did not match any parameter group", None),
    ("CUDA out of memory. Tried to allocate 2.00 GiB", None),
])
def test_classify_current_and_older_messages(text, kind):
    fam = postmortem.classify(RuntimeError(text))
    assert (fam.kind if fam else None) == kind


LOUD: list[str] = []


class LoudDevice(torch.Tensor):
    """A subclass whose ``.device``/``.shape`` are user code (issue 12 D, the post-mortem)."""

    @property
    def device(self):  # type: ignore[override]
        LOUD.append("device")
        return torch.device("cpu")

    @property
    def shape(self):  # type: ignore[override]
        LOUD.append("shape")
        return torch.Size([99])


def test_post_mortem_reads_a_subclass_header_not_its_properties(ip, ns, capsys):
    ns.update(w=torch.ones(3, device="meta"), x=torch.ones(3),
              odd=torch.ones(3).as_subclass(LoudDevice))
    LOUD.clear()
    err, out, _ = run(ip, capsys, "def f(a, b, extra):\n    return torch.add(a, b)\n"
                                  "y = f(w, x, odd)\n")
    assert isinstance(err, RuntimeError)
    text = diagnosis(out)
    assert LOUD == []  # the post-mortem read every tensor in the frames, never a property
    assert "culprit: x (float32[3] on cpu)" in text


# --- names: the optimizer itself, the replica that runs the op, an index with no frame ------

def test_an_optimizer_a_model_holds_is_named_by_its_own_path(ip, ns, capsys):
    """Its state left behind when the model moved: ``net.optim`` (one object, one fix), not
    ``net``, whose weights are where they should be."""
    ip.run_cell('''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 2)
        self.optim = torch.optim.Adam(self.parameters(), lr=1e-3)
net = Net()
for p in net.parameters():
    p.grad = torch.ones_like(p)
net.optim.step()
''', store_history=False)
    to_in_place(ns["net"].lin, "meta")  # NB: the same Parameters, as a move to a GPU keeps them
    ip.run_cell("for p in net.parameters():\n    p.grad = torch.ones_like(p)\n",
                store_history=False)
    _err, out, _ = run(ip, capsys, "net.optim.step()\n")
    text = diagnosis(out)
    assert "culprit: net.optim (4 tensors it holds on cpu); expected meta" in text, text
    assert "for _p, _s in net.optim.state.items():" in text


def test_a_replica_on_another_gpu_decides_where_the_op_runs(ip, ns, capsys, fake_cuda):
    """A copy of the model on cuda:1 (as DataParallel makes) runs a line whose tensor its code
    put on cuda:0: the copy's device is the op's, so that tensor is the stray, and the line that
    makes it on the copied ``self.device`` is the fix (DeepCTR-Torch#309)."""
    ip.run_cell('''
import copy
class Mic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.device = "cuda:0"
    def forward(self, x):
        zeros = torch.zeros(x.shape[0], 2, device=self.device)
        return torch.cat((zeros, self.lin(x)), dim=-1)
class Par(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module
    def forward(self, x):
        replica = copy.deepcopy(self.module)
        for m in replica.modules():
            for k, p in m._parameters.items():
                m._parameters[k] = nn.Parameter(p.detach().to("cuda:1"))
        return replica(x.to("cuda:1"))
''', store_history=False)
    ns["model"] = ns["Par"](fake_cuda.to(ns["Mic"](), "cuda:0"))
    ns["x"] = fake_cuda.randn(2, 4)
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = model(x)\n", fake_cuda)
    text = diagnosis(out)
    assert "culprit: `zeros` in Mic.forward (float32[2, 2] on cuda:0); expected cuda:1" in text, \
        text
    # NB: where it is made, on the device the function already has: the copy's own setting is
    # the original's (no user-visible object to set), so the line changes, not a setting
    assert "+ zeros = torch.zeros(x.shape[0], 2, device=x.device)" in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_plain_tensor_every_dataparallel_replica_shares_is_registered_not_moved(
        ip, ns, capsys, fake_cuda):
    """simpletransformers#665: a model keeps ``pos_weight`` as a plain attribute; DataParallel's
    replicas share that one tensor (``__dict__`` is copied, not broadcast), so the replica on
    cuda:1 fails on it. Moving it only moves the failure to cuda:0's replica (the rehearsal
    printed ``.to("cuda:1")`` then ``.to("cuda:0")``, unverified); registering it as a buffer
    gives each replica its own copy: verified, and the cell runs with the same tensor object."""
    ip.run_cell('''
class Clf(nn.Module):
    def __init__(self, pos_weight):
        super().__init__()
        self.lin = nn.Linear(4, 3)
        self.pos_weight = pos_weight
    def forward(self, x):
        return self.lin(x) * self.pos_weight
def replicate(module, device):
    r = module._replicate_for_data_parallel()
    for k, p in module._parameters.items():
        r._parameters[k] = p.to(device)
    for k, b in module._buffers.items():
        r._buffers[k] = b.to(device)
    for k, m in module._modules.items():
        r._modules[k] = replicate(m, device)
    return r
class Par(nn.Module):
    def __init__(self, module, device_ids):
        super().__init__()
        self.module, self.device_ids = module, device_ids
    def forward(self, x):
        outs = []
        for part, d in zip(x.chunk(len(self.device_ids)), self.device_ids):
            replica = replicate(self.module, torch.device("cuda", d))
            outs.append(replica(part.to(torch.device("cuda", d))))
        return torch.cat([o.to(torch.device("cuda", self.device_ids[0])) for o in outs])
''', store_history=False)
    clf = fake_cuda.to(ns["Clf"](fake_cuda.randn(3)), "cuda:0")
    ns["model"], ns["x"] = ns["Par"](clf, [0, 1]), fake_cuda.randn(4, 4)
    ns["w0"] = clf.pos_weight
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = model(x)\n", fake_cuda)
    text = diagnosis(out)
    assert "culprit: model.module.pos_weight (float32[3] on cuda:0); expected cuda:1" in text, text
    assert "note: every replica DataParallel makes reads this one tensor" in text, text
    assert ("_t = model.module.pos_weight\n      del model.module.pos_weight\n"
            '      model.module.register_buffer("pos_weight", _t, persistent=False)') in text, text
    assert '+ self.register_buffer("pos_weight", pos_weight, persistent=False)' in text, text
    assert ".to(" not in text.split("fix:")[1].split("edit:")[0], text
    assert text.rstrip().endswith(VERIFIED), text
    err, out, _ = run(ip, capsys, "_t = model.module.pos_weight\ndel model.module.pos_weight\n"
                      'model.module.register_buffer("pos_weight", _t, persistent=False)\n'
                      "with torch.no_grad():\n    y = model(x)\n", fake_cuda)
    assert err is None, out
    assert ns["model"].module._buffers["pos_weight"] is ns["w0"]
    assert str(ns["y"].device) == "cuda:0" and tuple(ns["y"].shape) == (4, 3)


def test_what_forward_makes_on_the_cpu_is_fixed_where_it_is_made_even_in_self_and_args(
        ip, ns, capsys, fake_cuda):
    """IBM/pytorch-seq2seq's TopKDecoder: ``forward`` makes ``self.pos_index`` and an index
    for ``scores.index_fill_`` on the cpu. Moving ``dec.pos_index`` in the namespace fixes
    nothing (the next call makes it again), and the index is an argument of a tensor's own
    method: each line that makes one is edited, and the cell runs in one round."""
    ip.run_cell('''
class Dec(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.k = 2
    def forward(self, h):
        b = h.shape[0]
        self.pos_index = (torch.LongTensor(range(b)) * self.k).view(-1, 1)
        scores = self.fc(h)
        scores.index_fill_(0, torch.LongTensor([0]), 0.0)
        return scores + self.pos_index
''', store_history=False)
    ns["dec"], ns["h"] = fake_cuda.to(ns["Dec"](), "cuda:0"), fake_cuda.randn(3, 4)
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    out = dec(h)\n", fake_cuda)
    text = diagnosis(out)
    assert "+ scores.index_fill_(0, torch.LongTensor([0]).to(h.device), 0.0)" in text, text
    assert ("+ self.pos_index = (torch.LongTensor(range(b)).to(h.device) * self.k).view(-1, 1)"
            in text), text
    assert "dec.pos_index = dec.pos_index.to(" not in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_optimizer_state_restored_in_another_dtype_is_cast_to_its_parameters(ip, ns, capsys):
    """DeepSpeed#7746: a Muon momentum restored in float32 for bfloat16 weights fails
    ``lerp_``. The optimizer's fix used to move its state to the parameters' device only
    (unverified: the cell still failed); it casts floating state to the parameters' dtype too."""
    ip.run_cell('''
class Mom(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1):
        super().__init__(params, dict(lr=lr))
    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            for p in g["params"]:
                st = self.state[p]
                if "m" not in st:
                    st["m"] = torch.zeros_like(p)
                st["m"].lerp_(p.grad, 0.1)
                p.add_(st["m"], alpha=-g["lr"])
net = nn.Linear(4, 2).to(torch.bfloat16)
for w in net.parameters():
    w.grad = torch.ones_like(w)
opt = Mom(net.parameters())
for w in net.parameters():
    opt.state[w]["m"] = torch.zeros(w.shape)
''', store_history=False)
    _err, out, _ = run(ip, capsys, "opt.step()\n")
    text = diagnosis(out)
    fix = ("_s[_k] = _v.to(device=_p.device, dtype=_p.dtype if _v.is_floating_point() "
           "else _v.dtype)")
    assert fix in text, text
    assert text.rstrip().endswith(VERIFIED), text
    err, out, _ = run(ip, capsys, "for _p, _s in opt.state.items():\n"
                      "    for _k, _v in _s.items():\n"
                      "        if torch.is_tensor(_v) and _k != 'step':\n"
                      f"            {fix}\nopt.step()\n")
    assert err is None, out
    assert [s["m"].dtype for s in ns["opt"].state.values()] == [torch.bfloat16] * 2


def test_an_edit_of_a_decorated_method_is_rehearsed(ip, ns, capsys, fake_cuda):
    """velovi's ``get_gene_likelihood`` runs under ``@torch.no_grad()``: the class holds the
    decorator's wrapper, whose code is torch's. The rehearsal replaced the wrapper's code and
    refused ("the edit changes what ... takes from its closure"), so no edit of such a method
    was ever verified; it now edits the function the wrapper calls (``__wrapped__``)."""
    ip.run_cell('''
class Trainer:
    def __init__(self, module):
        self.module = module
        self.device = "cpu"
    def batches(self):
        for _ in range(2):
            yield {"x": torch.full((3, 4), 3.0)}
    @torch.no_grad()
    def score(self):
        out = []
        for batch in self.batches():
            counts = batch["x"]
            out.append(torch.matmul(counts, self.module.weight.t()))
        return out
''', store_history=False)
    ns["trainer"] = ns["Trainer"](nn.Linear(4, 2))
    ns["trainer"].module = fake_cuda.to(ns["trainer"].module, "cuda:0")
    ns["trainer"].device = "cuda:0"
    _err, out, _ = run(ip, capsys, "ys = trainer.score()\n", fake_cuda)
    text = diagnosis(out)
    assert "- out.append(torch.matmul(counts, self.module.weight.t()))" in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_optimizer_state_its_own_first_step_makes_elsewhere_is_fixed_where_it_is_made(
        ip, ns, capsys, fake_cuda):
    """pytorch_optimizer#131: AdaFactor's first ``step`` makes its factored state with no
    device (``state["row"] = torch.zeros(shape[:-1])``) beside GPU parameters. Moving the state
    helps this optimizer only; the line in ``step`` that makes it is the fix a fresh optimizer
    needs too, and it is shown, verified."""
    ip.run_cell('''
class Ada(torch.optim.Optimizer):
    def __init__(self, params):
        super().__init__(params, dict(lr=0.1))
    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                if len(state) == 0:
                    state["row"] = torch.zeros(p.shape[:-1])
                row = state["row"]
                row.mul_(0.9).add_(p.grad.mean(dim=-1))
''', store_history=False)
    ns["net"] = fake_cuda.to(nn.Linear(4, 3), "cuda:0")
    run(ip, capsys, "for w in net.parameters():\n    w.grad = torch.ones_like(w)\n"
                    "opt = Ada([net.weight])\n", fake_cuda)
    _err, out, _ = run(ip, capsys, "opt.step()\n", fake_cuda)
    text = diagnosis(out)
    assert '+ state["row"] = torch.zeros(p.shape[:-1], device=p.device)' in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_plain_objects_own_tensors_say_where_its_method_makes_one(ip, ns, capsys, fake_cuda):
    """gluonts' ``DistributionForecast.quantile`` makes ``torch.tensor([level])`` on the cpu
    for a distribution on the GPU: the object is no module (no ``next(self.parameters())``),
    but it holds the distribution, whose ``loc`` says where (read from ``__dict__``s: no
    property such as ``mean`` runs). The edit was missing ("no fix as code to rehearse")."""
    ip.run_cell('''
class Forecast:
    def __init__(self, distribution):
        self.distribution = distribution
    def quantile(self, level):
        return self.distribution.icdf(torch.tensor([level]))
''', store_history=False)
    with fake_cuda:
        dist = torch.distributions.Normal(torch.zeros(1, device="cuda:0"),
                                          torch.ones(1, device="cuda:0"), validate_args=False)
    ns["forecast"] = ns["Forecast"](dist)
    _err, out, _ = run(ip, capsys, "q = forecast.quantile(0.9)\n", fake_cuda)
    text = diagnosis(out)
    assert ("+ return self.distribution.icdf(torch.tensor([level], "
            "device=self.distribution.loc.device))") in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_lambdas_frame_reads_the_names_it_closes_over(ip, ns, capsys, fake_cuda):
    """LiftedGAN's cameras return ``lambda points: torch.bmm(points, R.expand(...))``: the
    failing frame is the lambda's, whose source was not read ("no fix as code", no culprit at
    all in the post-mortem). Its frame holds ``R``, which a plain object inside the model holds:
    that is the culprit, moved where it is held."""
    ip.run_cell('''
class Cameras:
    def __init__(self, R):
        self.R = R
    def transform(self):
        R = self.R
        return lambda points: torch.bmm(points, R.expand(points.shape[0], 3, 3))

class Rasterizer(torch.nn.Module):
    def __init__(self, cameras):
        super().__init__()
        self.cameras = cameras
    def forward(self, verts):
        return self.cameras.transform()(verts)
''', store_history=False)
    ns["raster"] = ns["Rasterizer"](ns["Cameras"](torch.eye(3)[None]))
    ns["verts"] = fake_cuda.randn(2, 5, 3)
    _err, out, _ = run(ip, capsys, "out = raster(verts)\n", fake_cuda)
    text = diagnosis(out)
    assert "culprit: raster.cameras.R (float32[1, 3, 3] on cpu); expected cuda:0" in text, text
    assert "raster.cameras.R = raster.cameras.R.to(verts.device)" in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_dtype_the_cell_mixes_again_on_each_pass_is_fixed_where_it_mixes(ip, ns, capsys):
    """Neural-Lyapunov-Control appends float64 counterexamples to ``x`` in its training loop
    (``torch.cat((x, torch.tensor([n_pt])))`` of NumPy floats): the model fails on the next
    pass, and the failed cell has left ``x`` float64. ``x = x.float()`` alone is undone by the
    loop ("after this fix the cell still fails"): the guard, run after it, stops where the
    loop mixes the dtypes, and both are the fix."""
    ip.run_cell('''
import numpy as np
def add_points(x, n):
    for i in range(n):
        pt = list(np.random.uniform(0.0, 1.0, 2))
        x = torch.cat((x, torch.tensor([pt])), 0)
    return x

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Linear(2, 6)
        self.control = torch.nn.Linear(2, 1, bias=False)
    def forward(self, x):
        h = torch.tanh(self.layer1(x))
        return h, self.control(x)
''', store_history=False)
    ns["model"] = ns["Net"]()
    ns["x"] = torch.rand(5, 2)
    cell = ("for step in range(3):\n    h, u = model(x)\n"
            "    z = torch.mm(x, model.layer1.weight.t())\n    x = add_points(x, 2)\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "x = x.float()" in text, text
    assert "+ x = torch.cat((x, torch.tensor([pt], dtype=x.dtype)), 0)" in text, text
    assert "PyTorch raised later" in text and text.rstrip().endswith(VERIFIED), text


def test_isclose_of_two_dtypes_is_a_dtype_mismatch(ip, ns, capsys):
    """``torch.isclose`` says only "Double did not match Float": the post-mortem said nothing at
    all (a GeneralizedPareto's ``log_prob`` compares float64 parameters to
    ``torch.tensor(0.0)``)."""
    ip.run_cell('''
class Pareto:
    def __init__(self, concentration):
        self.concentration = concentration
    def log_prob(self, value):
        zero = torch.isclose(self.concentration, torch.tensor(0.0))
        return torch.where(zero, -value, -value * self.concentration)
''', store_history=False)
    ns["d"] = ns["Pareto"](torch.tensor([0.0, 0.5], dtype=torch.float64))
    _err, out, _ = run(ip, capsys, "lp = d.log_prob(torch.tensor(0.5, dtype=torch.float64))\n")
    text = diagnosis(out)
    assert "culprit: d (its Pareto.log_prob has the line to edit)" in text, text
    assert "- zero = torch.isclose(self.concentration, torch.tensor(0.0))" in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_library_objects_own_tensors_are_the_operands_of_its_method(ip, ns, capsys, fake_cuda):
    """A ``TransformedDistribution`` on the cpu scoring GPU data fails in
    ``AffineTransform._inverse``, ``(y - self.loc) / self.scale``: torch's own Python code, whose
    ``self`` is no module. The post-mortem named nothing; the transform's and the base
    distribution's parameters are the culprits, each moved."""
    from torch.distributions import AffineTransform, Normal, TransformedDistribution

    ns["flow"] = TransformedDistribution(
        Normal(torch.zeros(4), torch.ones(4), validate_args=False),
        [AffineTransform(torch.zeros(4), torch.ones(4))], validate_args=False)
    ns["x"] = fake_cuda.randn(3, 4)
    _err, out, _ = run(ip, capsys, "nll = -flow.log_prob(x).sum()\n", fake_cuda)
    text = diagnosis(out)
    assert "culprit: flow.transforms[0].loc (float32[4] on cpu), AffineTransform.loc" in text, text
    assert "flow.base_dist.scale = flow.base_dist.scale.to(x.device)" in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_trainable_leaf_moved_where_it_is_made_stays_a_leaf(ip, ns, capsys):
    """neural_bounding makes its trainable parameters with ``torch.full(..., requires_grad=True)``
    on the cpu: ``.to(device)`` on that line gives a tensor that is no leaf, and the optimizer
    the cell builds next refuses it ("can't optimize a non-leaf Tensor"; not verified)."""
    ip.run_cell('''
def make_params(n):
    return torch.full((n,), 0.5, requires_grad=True)
def loss_fn(p, x):
    return ((x - p) ** 2).sum()
device = "meta"
''', store_history=False)
    ns["x"] = torch.randn(3, 4, device="meta")
    cell = "params = make_params(4)\nopt = torch.optim.Adam([params])\nloss = loss_fn(params, x)\n"
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "+ params = make_params(4).to(device).detach().requires_grad_()" in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_leaf_an_optimizer_holds_is_never_detached_from_it() -> None:
    """The moved leaf is detached only where no optimizer already updates it (one the cell
    makes again after the line takes the new leaf): a detached copy would leave the optimizer
    training the old tensor, which nothing reads any more."""
    from devicelens.guard.families._code_bugs import _optimized

    w = torch.zeros(3, requires_grad=True)

    class Trainer:
        def __init__(self) -> None:
            self.optimizer = torch.optim.SGD([w], lr=0.1)

    assert _optimized({"opt": torch.optim.SGD([w], lr=0.1)}, w, set())
    assert not _optimized({"opt": torch.optim.SGD([w], lr=0.1)}, w, {"opt"})
    assert _optimized({"trainer": Trainer()}, w, set())
    assert not _optimized({"opt": torch.optim.SGD([torch.zeros(2, requires_grad=True)])}, w,
                          set())


def test_a_layer_built_on_the_line_it_runs_is_built_on_its_inputs_device(ip, ns, capsys):
    """A U-Net block builds ``nn.BatchNorm2d(...)(x)`` inside ``forward``: a new layer on the
    cpu at each call, whatever device the model is on. Its parameters were ``batch_norm``'s
    locals, with no fix; torch's layers take ``device=``."""
    ip.run_cell('''
class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.fc = nn.Linear(n, n)
    def forward(self, x):
        x = self.fc(x)
        return nn.BatchNorm1d(num_features=self.n)(x)
''', store_history=False)
    ns["block"] = ns["Block"](4).to("meta")
    ns["x"] = torch.randn(5, 4, device="meta")
    _err, out, _ = run(ip, capsys, "y = block(x)\n")
    text = diagnosis(out)
    assert "+ return nn.BatchNorm1d(num_features=self.n, device=x.device)(x)" in text, text
    assert "culprit: block (" in text and text.rstrip().endswith(VERIFIED), text


def test_an_int_source_scattered_into_a_float_temporary_is_named(ip, ns, capsys):
    """``torch.zeros(2, 2).scatter_(0, index, x)`` with an int64 ``x``: the float side is a
    temporary of the line, and both named tensors are int64; the line's own index argument is
    no culprit, what is left of the op's values is. No culprit was named."""
    ns["x"] = torch.arange(1, 5).reshape(2, 2)
    ns["index"] = torch.tensor([[1, 0], [0, 0]])
    _err, out, _ = run(ip, capsys, "out = torch.zeros(2, 2).scatter_(0, index, x)\n")
    text = diagnosis(out)
    assert "devicelens: tensors on different dtypes: float32, int64\n" in text, text
    assert "culprit: x (int64[2, 2] on cpu); expected float32" in text, text
    assert "culprit: index" not in text and text.rstrip().endswith(VERIFIED), text


def test_a_random_fill_made_on_the_cpu_is_moved_after_the_fill(ip, ns, capsys, fake_cuda):
    """A truncated normal's ``rsample`` draws ``torch.empty(shape).uniform_(...)`` on the cpu:
    the fix moves it after the fill (the numbers stay the ones the cpu generator drew), not
    ``device=`` inside the factory."""
    ip.run_cell('''
class Trunc:
    def __init__(self, loc):
        self.loc = loc
    def rsample(self):
        p = torch.empty(self.loc.shape).uniform_(1e-6, 1 - 1e-6)
        return self.loc + p
''', store_history=False)
    ns["dist"] = ns["Trunc"](fake_cuda.randn(4, 2))
    _err, out, _ = run(ip, capsys, "a = dist.rsample()\n", fake_cuda)
    text = diagnosis(out)
    assert ("+ p = torch.empty(self.loc.shape).uniform_(1e-6, 1 - 1e-6).to(self.loc.device)"
            in text), text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_numpy_int32_index_into_one_hot_is_named_where_it_comes_from(ip, ns, capsys):
    """``F.one_hot`` runs no Python frame: the statement's own index tensor is the operand, and
    one_hot takes int64 only, so an int32 one is the culprit (from NumPy's int32 array)."""
    ip.run_cell('''
import numpy as np
def norm(edge_type, n):
    return F.one_hot(edge_type, num_classes=n).float().sum(0)
trip = np.array([[0, 1, 2], [1, 0, 3]]).astype(np.int32)
''', store_history=False)
    _err, out, _ = run(ip, capsys, "r = norm(torch.from_numpy(trip[:, 1]), 4)\n")
    text = diagnosis(out)
    assert "culprit: trip (NumPy int32[2, 3]), `edge_type` in norm; expected int64" in text, text
    assert "trip = trip.astype('int64')" in text and text.rstrip().endswith(VERIFIED)


def test_an_int16_index_into_an_embedding_is_the_culprit_the_message_says_it_got(
        ip, ns, capsys):
    """Embedding takes int64 and int32 indices: an int16 one (Fast-LLM's token ids, packed to
    save memory) is an integer, and still the culprit: the message says it got a
    ``ShortTensor``, and the fix casts it where it is held."""
    ip.run_cell('''
from types import SimpleNamespace
emb = nn.Embedding(10, 4)
batch = SimpleNamespace(tokens=torch.tensor([1, 2, 3], dtype=torch.int16))
''', store_history=False)
    err, out, _ = run(ip, capsys, "h = emb(batch.tokens[:-1])\n")
    assert err is not None
    text = diagnosis(out)
    assert "culprit: batch.tokens (int16[3] on cpu)" in text and "expected int64" in text, text
    assert "batch.tokens = batch.tokens.long()" in text and text.rstrip().endswith(VERIFIED)


def test_integers_written_into_integers_keep_the_written_tensors_dtype(ip, ns, capsys):
    """lit-gpt's generate: int32 prompt ids, the int64 token ``multinomial`` samples copied in
    with ``index_copy``. A float model beside them says nothing of token ids: the sampled
    token is cast to the tensor it is written into (never the prompt to float32)."""
    ip.run_cell('''
model = nn.Linear(4, 4)
def generate(model, idx, n):
    out = torch.zeros(len(idx) + n, dtype=idx.dtype)
    out[:len(idx)] = idx
    pos = torch.tensor([len(idx)])
    probs = torch.softmax(model(torch.ones(4)), -1)
    idx_next = torch.multinomial(probs, num_samples=1)
    return out.index_copy(0, pos, idx_next)
encoded = torch.tensor([1, 2, 3], dtype=torch.int32)
''', store_history=False)
    err, out, _ = run(ip, capsys, "y = generate(model, encoded, 2)\n")
    assert err is not None
    text = diagnosis(out)
    assert "tensors on different dtypes: int32, int64" in text, text
    assert "culprit: `idx_next` in generate (int64[1] on cpu); expected int32" in text
    assert "+ idx_next = torch.multinomial(probs, num_samples=1).to(idx.dtype)" in text
    assert "encoded" not in text.split("at:")[0] and text.rstrip().endswith(VERIFIED)


def test_an_edit_the_simulated_device_cannot_rehearse_gives_way_to_one_it_can(
        ip, ns, capsys, fake_cuda):
    """MUNIT's ``vgg_preprocess`` makes ``mean`` on the cpu and fills it channel by channel:
    moved where it is made, its fill is an in-place write a simulated GPU cannot run, so that
    edit is not verified; moved where the op reads it, the cell runs: the verified edit is
    shown."""
    ip.run_cell('''
def vgg_preprocess(batch):
    mean = torch.Tensor(batch.size())
    mean[:, 0, :, :] = 103.939
    mean[:, 1, :, :] = 116.779
    batch = batch.sub(mean)
    return batch
''', store_history=False)
    ns["images"] = fake_cuda.randn(1, 2, 4, 4, device="cuda:0")
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    x = vgg_preprocess(images)\n",
                      fake_cuda)
    assert err is not None
    text = diagnosis(out)
    assert "culprit: `mean` in vgg_preprocess (float32[1, 2, 4, 4] on cpu); expected cuda:0" \
        in text, text
    assert "+ batch = batch.sub(mean.to(batch.device))" in text and text.rstrip().endswith(
        VERIFIED)


def test_a_models_plain_float64_attribute_is_mended_where_the_model_holds_it(ip, ns, capsys):
    """view-GCN: ``self.vertices = torch.tensor(vertices)`` from NumPy floats is float64, a
    plain attribute ``.float()`` never casts; a submodule gathers from it and its Linear
    fails. The data is mended where the model holds it (one line, not an edit of each local
    made from it), and the submodule whose code had the edit is no culprit."""
    ip.run_cell('''
import numpy as np
def gather(points, idx):
    return points[:, idx]
class KNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.R = nn.Linear(6, 4)
    def forward(self, vertices):
        v = gather(vertices, torch.tensor([0, 1]))
        v_0 = v[:, :1].repeat(1, 2, 1)
        v_F = torch.cat((v_0, v), -1)
        return self.R(v_F)
class ViewGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.knn = KNN()
        self.vertices = torch.tensor(np.ones((5, 3)) * np.sqrt(3))
    def forward(self, x):
        return self.knn(self.vertices.unsqueeze(0).repeat(x.shape[0], 1, 1))
model = ViewGCN()
''', store_history=False)
    err, out, _ = run(ip, capsys, "y = model(torch.ones(2, 3))\n")
    assert err is not None
    text = diagnosis(out)
    assert "culprit: model.vertices (float64[5, 3] on cpu), read by the cell; expected float32" \
        in text, text
    assert "model.vertices = model.vertices.float()" in text and "culprit: model.knn" not in text
    assert "edit:" not in text and text.rstrip().endswith(VERIFIED)


def test_a_stray_unpacked_from_a_helpers_tuple_is_mended_where_the_helper_makes_it(
        ip, ns, capsys, fake_cuda):
    """executorch's ``scale, zero_point = derive_qparams(...)``: the helper returns a tuple
    whose second element it makes on the cpu (``torch.zeros(n).to(torch.int32)``: a cast, which
    keeps the device); the element is followed into the helper and made there on its input's
    device."""
    ip.run_cell('''
def derive_qparams(w):
    scale = w.abs().amax(1)
    zero = torch.zeros(w.shape[0]).to(torch.int32)
    return scale, zero
def convert(w):
    scale, zero_point = derive_qparams(w)
    return w.sum(1) / scale + zero_point
''', store_history=False)
    ns["weight"] = fake_cuda.randn(3, 4, device="cuda:0")
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    q = convert(weight)\n", fake_cuda)
    assert err is not None
    text = diagnosis(out)
    assert "+     zero = torch.zeros(w.shape[0], device=w.device).to(torch.int32)" in text \
        or "+ zero = torch.zeros(w.shape[0], device=w.device).to(torch.int32)" in text, text
    assert text.rstrip().endswith(VERIFIED)


def test_a_rehearsal_checks_a_convolutions_devices_as_a_gpu_does(ip, ns, capsys, fake_cuda):
    """The cpu ``timestep`` fails first, at a Linear; a tensor ``forward`` makes on the cpu
    would fail next, at a convolution, on a GPU, where a simulated convolution runs. The
    rehearsal checks it as a GPU does: the edit it calls verified moves the convolution's
    input, never the convolution's result (which a GPU refuses before it is made)."""
    ip.run_cell('''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.temb = nn.Linear(4, 8)
        self.patch = nn.Conv2d(3, 8, 2)
    def forward(self, t):
        h = self.temb(t)
        return self.patch(torch.zeros(1, 3, 4, 4)).mean((2, 3)) + h
''', store_history=False)
    ns["net"] = fake_cuda.to(ns["Net"](), "cuda:0")
    ns["timestep"] = torch.randn(2, 4)
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = net(timestep)\n", fake_cuda)
    assert err is not None
    text = diagnosis(out)
    assert "timestep = timestep.to(" in text, text
    # NB: the conv's own input is moved (moving its result, after the conv, fails on a GPU)
    assert "+ return self.patch(torch.zeros(1, 3, 4, 4).to(h.device))" in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_helper_left_out_of_the_model_never_decides_where_the_op_runs(ip, ns, capsys):
    """A head kept in a plain list stays on the cpu when the model moves: it is no replica (the
    model's device decides), so the head is what is named, not the model's input."""
    ip.run_cell('''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.heads = [nn.Linear(4, 4)]
    def forward(self, x):
        return self.heads[0](self.body(x))
net = Net().to("meta")
x = torch.randn(2, 4, device="meta")
''', store_history=False)
    _err, out, _ = run(ip, capsys, "y = net(x)\n")
    text = diagnosis(out)
    assert "culprit: net.heads[0]" in text and "expected meta" in text, text
    assert "expected cpu" not in text


def test_a_model_moved_back_to_the_cpu_is_not_moved_again_for_its_own_stale_cache(
        ip, ns, capsys, fake_cuda):
    """torchvision#1738: trained on the GPU, then ``model.to("cpu")`` for inference on a cpu
    batch; anchors the model cached on the GPU meet the cpu outputs. The cell hands the model
    only cpu tensors, so nothing says the data moved: the model stays where the user put it
    and the cpu batch is no culprit."""
    err, _out, _ = run(ip, capsys, '''
class Decoder:
    def decode(self, deltas, boxes):
        widths = boxes.sum(1)
        return deltas.sum(1) * widths
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.coder = Decoder()
        self._cache = {}
    def forward(self, x):
        if "a" not in self._cache:
            self._cache["a"] = torch.ones(x.shape[0], 4, device=x.device)
        return self.coder.decode(self.fc(x), self._cache["a"])
with torch.no_grad():
    net = Net().to("cuda:0")
    _ = net(torch.randn(2, 4, device="cuda:0"))
    net = net.to("cpu")
batch = torch.randn(2, 4)
''', fake=fake_cuda)
    assert err is None
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = net(batch)\n",
                       fake=fake_cuda)
    text = diagnosis(out)
    assert "expected cpu" in text and "expected cuda:0" not in text, text
    assert "culprit: batch" not in text, text


def test_an_in_place_op_whose_result_is_no_whole_number_keeps_it_a_float(ip, ns, capsys):
    """pyg#2334: ``deg.pow_(-0.5)`` on int64 degrees. Written back into the integer tensor
    (``deg.copy_(deg.pow(-0.5))``) the cell would run and every weight be 0 or 1: the result
    stays a float tensor instead. A clamp's result is a whole number: written back."""
    ip.run_cell('''
def gcn_norm(edge_weight, n):
    index = torch.tensor([0, 1, 1])
    deg = torch.zeros(n, dtype=edge_weight.dtype).scatter_add_(0, index, edge_weight)
    deg_inv_sqrt = deg.pow_(-0.5)
    return deg_inv_sqrt
w = torch.tensor([1, 2, 3])
''', store_history=False)
    _err, out, _ = run(ip, capsys, "norm = gcn_norm(w, 3)\n")
    assert "w = w.float()" in diagnosis(out)  # NB: the user's data, where it names it
    _err, out, _ = run(ip, capsys, "norm = gcn_norm(torch.tensor([1, 2, 3]), 3)\n")
    text = diagnosis(out)
    assert "+ deg_inv_sqrt = deg.pow(-0.5)" in text and "copy_" not in text, text
    assert text.rstrip().endswith(VERIFIED), text
    ip.run_cell("def box(g, bound):\n    return g.clamp_(0, bound - 1)\n"
                "bound = torch.tensor(5.0)\n", store_history=False)
    _err, out, _ = run(ip, capsys, "gg = box(torch.tensor([3, 9]), bound)\n")
    assert "+ return g.copy_(g.clamp(0, bound - 1))" in diagnosis(out), diagnosis(out)


def test_floats_made_where_the_trail_ends_are_not_cast_to_integers_there(ip, ns, capsys):
    """A float index made by a call the trail cannot read into (``operator.truediv``): no
    ``.to(pos.dtype)`` where it is made (floats cast to integers lose their values, the rule
    every caller's-line cast follows); the index is cast where the op reads it as one."""
    ip.run_cell("import operator\ndef pick(table, pos):\n    idx = operator.truediv(pos, 2)\n"
                "    return table[idx]\ntable = torch.randn(4, 2)\npos = torch.tensor([0, 2, 4])\n",
                store_history=False)
    _err, out, _ = run(ip, capsys, "out = pick(table, pos)\n")
    text = diagnosis(out)
    assert "culprit: `idx` in pick" in text and ".to(pos.dtype)" not in text, text
    assert "+ return table[idx.long()]" in text, text


def test_heads_in_a_plain_list_are_registered_and_moved_together(ip, ns, capsys):
    """pytorch#15005: a model with no parameter of its own keeps its heads in a plain list;
    the op meets the first head only, and the fix registers the list (every head, now and at
    the next ``.to()``, in the model's train/eval mode) and moves it: complete in one round."""
    ip.run_cell('''
class Multi(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = [nn.Linear(4, n) for n in (2, 3, 5)]
    def forward(self, x):
        return [h(x) for h in self.heads]
model = Multi()
model.to("meta").eval()
x = torch.randn(2, 4, device="meta")
''', store_history=False)
    _err, out, _ = run(ip, capsys, "outs = model(x)\n")
    text = diagnosis(out)
    assert ("model.heads = torch.nn.ModuleList(model.heads)\n"
            "      model.heads.train(model.training)\n      model.heads.to(\"meta\")") in text, text
    assert text.rstrip().endswith(VERIFIED), text
    ip.run_cell("model.heads = torch.nn.ModuleList(model.heads)\n"
                "model.heads.train(model.training)\nmodel.heads.to('meta')\nouts = model(x)\n",
                store_history=False)
    assert [o.device.type for o in ns["outs"]] == ["meta"] * 3
    assert not any(m.training for m in ns["model"].modules())


def test_a_fix_that_needs_an_edit_on_each_of_two_lines_is_completed_and_verified(
        ip, ns, capsys, fake_cuda):
    """Two locals a helper made on the cpu fail on two lines, one after the other, and the
    rules can only advise ("pass ... through .to"): the rehearsal moves the first, reaches the
    second, moves it too, and shows both edits as one verified fix."""
    ip.run_cell('''
def nearest(p, q):
    dist, idx = torch.cdist(q, p).topk(2, dim=-1, largest=False)
    return dist, idx
class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 4)
    def forward(self, x, near):
        dist, idx = near
        picked = torch.gather(x, 0, idx)
        return torch.cat((self.lin(picked), dist), dim=-1)
''', store_history=False)
    ns["enc"] = fake_cuda.to(ns["Enc"](), "cuda:0")
    ns["x"] = fake_cuda.randn(5, 4)
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n"
                                   "    y = enc(x, nearest(x.cpu(), x.cpu()))\n", fake_cuda)
    text = diagnosis(out)
    assert "+ picked = torch.gather(x, 0, idx.to(x.device))" in text, text
    assert ("+ return torch.cat((self.lin(picked), dist.to(next(self.parameters()).device)), "
            "dim=-1)") in text, text
    assert text.count("edit:") == 2, text
    assert VERIFIED in text, text
    assert "culprit: `idx` in Enc.forward (int64[5, 2] on cpu); expected cuda:0" in text, text
    assert "culprit: `dist` in Enc.forward (float32[5, 2] on cpu); expected cuda:0" in text, text


def test_guesses_that_would_carry_data_to_one_gpu_and_back_are_not_a_fix(
        ip, ns, capsys, fake_cuda):
    """A layer left on cuda:0 inside a model on cuda:1: moving its input to cuda:0 gets past
    the line, then its output must go back to cuda:1. Such a chain chases the stray; it is not
    shown as a verified fix."""
    ip.run_cell('''
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)
    def forward(self, x):
        h = self.a(x)
        return x + self.b(h)
''', store_history=False)
    block = fake_cuda.to(ns["Block"](), "cuda:1")
    block.a = fake_cuda.to(block.a, "cuda:0")
    ns["block"], ns["x"] = block, fake_cuda.randn(2, 4, device="cuda:1")
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = block(x)\n", fake_cuda)
    text = diagnosis(out)
    assert "x.to(next(self" not in text or VERIFIED not in text, text
    assert ".to(x.device)" not in text, text


def test_a_plain_object_working_for_a_model_takes_its_dtype(ip, ns, capsys):
    """A likelihood (no module) holds the float32 model it scores; a float64 target meets the
    model's float32 covariance in a solver whose message is its own ("Expected b and A to have
    the same dtype"): the float64 side is the stray, not the float32 factor."""
    ip.run_cell('''
class Gp(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(()))
    def forward(self, x):
        return x.mean(-1), self.scale * (x @ x.T) + torch.eye(x.shape[0])
class Likelihood:
    def __init__(self, model):
        self.model = model
    def __call__(self, output, target):
        mean, covar = output
        L = torch.linalg.cholesky(covar)
        diff = (target - mean).unsqueeze(-1)
        return torch.cholesky_solve(diff, L).sum()
gp = Gp()
mll = Likelihood(gp)
x = torch.randn(5, 3)
y = torch.randn(5, dtype=torch.float64)
''', store_history=False)
    err, out, _ = run(ip, capsys, "loss = mll(gp(x), y)\n")
    assert "to have the same dtype" in str(err)
    text = diagnosis(out)
    assert text.splitlines()[0] == "devicelens: tensors on different dtypes: float32, float64"
    assert "expected float32" in text and "expected float64" not in text, text
    assert VERIFIED in text, text


def test_a_guess_in_a_cells_function_anchors_to_a_namespace_model_it_calls(
        ip, ns, capsys, fake_cuda):
    """``generator.generate(inputs["ids"])`` in a cell's function: ``generator`` is the
    namespace's (a global of the function), its weights say where the ids must go, and the
    line that made them on the cpu is the one to edit."""
    ip.run_cell('''
class Gen(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
    def generate(self, ids):
        h = self.emb(ids)
        return h + self.emb(ids.flip(1))
def answer(n):
    inputs = {"ids": torch.arange(n).unsqueeze(0)}
    out = generator.generate(inputs["ids"])
    return out
''', store_history=False)
    ns["generator"] = fake_cuda.to(ns["Gen"](), "cuda:0")
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    a = answer(3)\n", fake_cuda)
    text = diagnosis(out)
    assert ('+ inputs = {"ids": torch.arange(n, device=next(generator.parameters()).device)'
            '.unsqueeze(0)}') in text, text
    assert VERIFIED in text, text


def test_a_line_of_a_function_defined_inside_another_is_edited_through_the_outer_one(
        ip, ns, capsys, fake_cuda):
    """``f`` is made anew by each call of ``attack``; the failing op (a cpu ``eye`` indexed by
    cuda labels) sits inside a ``.to(device)``: the guess reaches inside the move, and the edit
    is rehearsed by replacing ``attack``'s code."""
    ip.run_cell('''
def attack(model, x, labels):
    def f(z):
        outputs = model(z)
        one_hot = torch.eye(outputs.size(1)).index_select(0, labels).to(outputs.device)
        return (one_hot * outputs).sum()
    return f(x)
''', store_history=False)
    ns["model"] = fake_cuda.to(nn.Linear(4, 3), "cuda:0")
    ns["x"], ns["labels"] = fake_cuda.randn(2, 4), fake_cuda.to(torch.tensor([0, 2]), "cuda:0")
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    cost = attack(model, x, labels)\n",
                       fake_cuda)
    text = diagnosis(out)
    assert ("+ one_hot = torch.eye(outputs.size(1)).to(labels.device).index_select(0, labels)"
            ".to(outputs.device)") in text, text
    assert "outputs.size(1).to(" not in text
    assert VERIFIED in text, text


def test_a_stray_passed_to_a_plain_objects_call_is_followed_to_the_namespace(ip, ns, capsys):
    """``mll(output, y)`` runs ``Likelihood.__call__`` as ``model(x)`` runs ``forward``: the
    float64 local there is followed back through ``__call__``'s parameter to ``y``."""
    ip.run_cell('''
class Gp(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(()))
    def forward(self, x):
        return x.mean(-1), self.scale * (x @ x.T) + torch.eye(x.shape[0])
class Likelihood:
    def __init__(self, model):
        self.model = model
    def __call__(self, output, target):
        mean, covar = output
        L = torch.linalg.cholesky(covar)
        diff = (target - mean).unsqueeze(-1)
        return torch.cholesky_solve(diff, L).sum()
gp = Gp()
mll = Likelihood(gp)
x = torch.randn(5, 3)
y = torch.randn(5, dtype=torch.float64)
''', store_history=False)
    text = diagnosis(run(ip, capsys, "loss = mll(gp(x), y)\n")[1])
    assert ("culprit: y (float64[5] on cpu), `diff` in Likelihood.__call__; expected float32"
            in text), text
    assert "  fix:\n      y = y.float()\n" + VERIFIED in text, text


def test_a_function_with_a_percent_continuation_line_is_read_and_its_stray_named(
        ip, ns, capsys, fake_cuda):
    """A cell whose function continues a format string on a line starting with ``%``: the
    source is still read, and the cpu ``torch.ones`` the function makes gets its edit."""
    ip.run_cell('''
def nll(logits, labels):
    if logits.shape != labels.shape:
        raise ValueError("shapes %s and %s"
                         % (logits.shape, labels.shape))
    pi = torch.cat([torch.ones((labels.shape[0], 1)), labels.narrow(1, 0, 2)], dim=1)
    return (pi * logits).sum()
''', store_history=False)
    ns["logits"], ns["labels"] = fake_cuda.randn(4, 3), fake_cuda.randn(4, 3)
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    loss = nll(logits, labels)\n",
                       fake_cuda)
    text = diagnosis(out)
    assert ("+ pi = torch.cat([torch.ones((labels.shape[0], 1), device=logits.device), "
            "labels.narrow(1, 0, 2)], dim=1)") in text, text
    assert VERIFIED in text, text


def test_a_dropped_move_in_a_caller_names_the_callers_local(ip, ns, capsys, fake_cuda):
    """``tokens.to(self.device)`` as a statement of its own drops the moved copy; the model it
    reaches fails on its own parameter name. The culprit is the caller's ``tokens``, where the
    edit is, not the model's ``input_ids``."""
    ip.run_cell('''
class Lm(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(10, 4)
    def forward(self, input_ids):
        return self.wte(input_ids).sum(1)
class Decoder:
    def __init__(self, model):
        self.model, self.device = model, "cuda:0"
    def codegen(self, n):
        tokens = torch.arange(n).unsqueeze(0)
        tokens.to(self.device)
        return self.model(tokens)
''', store_history=False)
    ns["decoder"] = ns["Decoder"](fake_cuda.to(ns["Lm"](), "cuda:0"))
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    s = decoder.codegen(3)\n",
                       fake_cuda)
    text = diagnosis(out)
    assert "culprit: `tokens` in Decoder.codegen (int64[1, 3] on cpu)" in text, text
    assert "+ tokens = tokens.to(self.device)" in text, text


def test_an_edit_the_same_mismatch_meets_again_is_shown_once(ip, ns, capsys):
    """A batch made by an earlier cell with ``move_to``, which moved the lengths to the model's
    device too: the edit of ``move_to`` mends the batches made from now on, not the one already
    made, so the same mismatch is met after it. Each round edited its own edit again (seven
    ever longer ``v if k == 'lengths' else ...`` lines); the edit is shown once, and the verdict
    says the cell still fails after it."""
    ip.run_cell('''
from torch.nn.utils.rnn import pack_padded_sequence
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(40, 8)
    def forward(self, tokens, lengths):
        return pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True)

def move_to(sample, device):
    return {k: v.to(device) for k, v in sample.items()}
''', store_history=False)
    history = ip.user_ns["In"]
    kept = len(history)
    try:  # NB: stored, as a notebook stores it: the edit is found in that earlier cell
        ip.run_cell('encoder = Encoder().to("meta")\n'
                    'sample = {"tokens": torch.randint(1, 40, (3, 7)),\n'
                    '          "lengths": torch.tensor([7, 5, 2])}\n'
                    'padded = move_to(sample, "meta")\n', store_history=True)
        # NB: a name no other test's cell binds: cells run without history share one number
        _err, out, _ = run(ip, capsys, 'out = encoder(padded["tokens"], padded["lengths"])\n')
    finally:
        del history[kept:]  # NB: later tests read the cells a notebook ran (none)
    text = diagnosis(out)
    assert "+ return {k: (v if k == 'lengths' else v.to(device)) for k, v in sample.items()}" \
        in text, text
    assert text.count("edit:") == 1, text
    assert "\n  not verified: " in text, text  # NB: the batch already made still fails


def test_a_model_whose_parameters_the_line_reads_is_moved_to_the_data(ip, ns, capsys,
                                                                        fake_cuda):
    """OpenRLHF's ``moving_average(actor, ema_model, beta, "cpu")`` keeps the EMA copy on the
    cpu, but ``ema_model`` is a deepcopy of the actor on the GPU. Moving the data to the GPU is
    undone by the function itself (``param.data.to(device)``), and the op runs in no module:
    the model whose parameters the failing line reads (``param_ema``) is moved to the data."""
    ip.run_cell('''
def moving_average(model, model_ema, beta=0.99, device="cpu"):
    with torch.no_grad():
        for param, param_ema in zip(model.parameters(), model_ema.parameters()):
            data = param.data.to(device)
            param_ema.data.copy_((1 - beta) * data + beta * param_ema.data)
''', store_history=False)
    ns["actor"] = fake_cuda.to(nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2)), "cuda:0")
    ns["ema_model"] = fake_cuda.to(nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2)), "cuda:0")
    _err, out, _ = run(ip, capsys, 'moving_average(actor, ema_model, 0.99, "cpu")\n', fake_cuda)
    text = diagnosis(out)
    assert "culprit: ema_model (Sequential, on cuda:0: its parameters are what the line " \
        "reads); expected cpu" in text, text
    assert text.rstrip().endswith('fix:\n      ema_model.to("cpu")\n' + VERIFIED), text


def test_a_model_kept_in_a_dict_is_moved_by_its_own_path(ip, ns, capsys, fake_cuda):
    """SpeechBrain's beam searcher runs ``hparams['lm_model']``, which is not among the Brain's
    modules, so it stayed on the cpu: the fix moves that model, not ``hparams`` (a dict has no
    ``.to()``)."""
    ns["hparams"] = {"lm_model": nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 10)),
                     "beam_size": 3}
    ns["tokens"] = fake_cuda.randn(2, 5).long()
    cell = 'with torch.no_grad():\n    logits = hparams["lm_model"](tokens)\n'
    _err, out, _ = run(ip, capsys, cell, fake_cuda)
    text = diagnosis(out)
    assert 'fix:\n      hparams[\'lm_model\'].to("cuda:0")\n' + VERIFIED in text, text


def test_the_tensors_of_a_list_handed_to_the_op_are_its_operands(ip, ns, capsys):
    """``torch.cat(parts)`` of a list a function filled: the post-mortem read no operand (the
    list is no tensor) and named nothing; each tensor in the list is an operand."""
    ip.run_cell('''
def join(a, b):
    parts = [None] * 2
    parts[0], parts[1] = a, b
    return torch.cat(parts, dim=0)
''', store_history=False)
    ns.update(x=torch.zeros(2, device="meta"), y=torch.zeros(2))
    _err, out, _ = run(ip, capsys, "z = join(x, y)\n")
    text = diagnosis(out)
    assert text.splitlines()[0] == "devicelens: tensors on different devices: cpu, meta", text
    assert "culprit: y (float32[2] on cpu); expected meta" in text, text
    assert "fix:\n      y = y.to(x.device)\n" + VERIFIED in text, text


def test_an_operand_inside_a_returned_dict_gets_a_rehearsed_cast(ip, ns, capsys):
    """detectron2's ROI head returns ``{"loss_cls": F.cross_entropy(scores, gt_classes)}`` with
    float ``gt_classes`` gathered from the user's dataset through objects the diagnosis cannot
    follow (an ``Instances`` with ``__getattr__``): the rehearsal's guesses never looked inside
    the dict, and there was no fix. The cast on that line is rehearsed and shown."""
    ip.run_cell('''
class Fields:
    def __init__(self, **kw):
        object.__setattr__(self, "_f", dict(kw))
    def __getattr__(self, name):
        if name == "_f":
            raise AttributeError(name)
        return self._f[name]

def roi_losses(scores, targets):
    gt_classes = torch.cat([t.gt_classes for t in targets], dim=0)
    return {"loss_cls": F.cross_entropy(scores, gt_classes, reduction="mean")}
''', store_history=False)
    ns["targets"] = [ns["Fields"](gt_classes=torch.FloatTensor([1, 2])) for _ in range(2)]
    ns["scores"] = torch.randn(4, 3)
    _err, out, _ = run(ip, capsys, "loss_dict = roi_losses(scores, targets)\n")
    text = diagnosis(out)
    assert '+ return {"loss_cls": F.cross_entropy(scores, gt_classes.long(), reduction="mean")}' \
        in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_a_second_plain_list_of_the_named_module_gets_its_own_culprit_line(ip, ns, capsys):
    """flexible-yolov5's Detect keeps ``grid`` and ``anchor_grid`` in plain lists, left on the
    cpu by ``.to()``: the op meets ``grid[0]`` first, and ``anchor_grid`` (the next to fail)
    was only in a note and the fix; it is a culprit too."""
    ip.run_cell('''
class Detect(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 2, 1)
        self.grid = [torch.zeros(1, 2, 4, 4)]
        self.anchor_grid = [torch.ones(1, 2, 4, 4)]
    def forward(self, x):
        y = self.conv(x).sigmoid()
        xy = y * 2.0 + self.grid[0]
        return xy * self.anchor_grid[0]
''', store_history=False)
    ns.update(head=ns["Detect"]().to("meta"), img=torch.zeros(1, 2, 4, 4, device="meta"))
    _err, out, _ = run(ip, capsys, "out = head(img)\n")
    text = diagnosis(out)
    assert "culprit: head.grid[0] (float32[1, 2, 4, 4] on cpu); expected meta" in text, text
    assert "culprit: head.anchor_grid (list)" in text, text


def test_what_a_cell_hands_a_models_own_method_says_where_the_data_is(ip, ns, capsys):
    """NeMo's Tacotron2 moved to the cpu: ``generate_spectrogram(tokens=parsed)`` gets cpu
    tokens, but ``Decoder.infer`` sends its step counter to the GPU whenever one is available.
    The data the cell hands the model's own method is on the cpu, so the model is where it
    belongs and the counter is the stray (the model was told to move to the GPU)."""
    ip.run_cell('''
def gpu_available():
    return True

class Tts(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.gate = nn.Linear(4, 1)
    def generate(self, tokens):
        h = self.embed(tokens).mean(dim=1)
        not_finished = torch.ones([h.size(0)], dtype=torch.int32)
        if gpu_available():
            not_finished = not_finished.to("meta")
        dec = (self.gate(h).squeeze(1) < 0.5).to(torch.int32)
        return not_finished * dec
''', store_history=False)
    ns.update(tts=ns["Tts"](), parsed=torch.randint(0, 10, (2, 5)))
    _err, out, _ = run(ip, capsys, "steps = tts.generate(tokens=parsed)\n")
    text = diagnosis(out)
    assert "culprit: `not_finished` in Tts.generate (int32[2] on meta); expected cpu" in text, text
    assert text.rstrip().endswith(VERIFIED), text


def test_index_put_of_values_on_another_device_is_a_device_mismatch(ip, ns, capsys, fake_cuda):
    """Fake tensors (and so ``torch.compile``'s tracing) word ``index_put_`` of cpu values into
    a GPU tensor as "Mismatching aten.index_put_.default device between self (cuda:0) and
    values (cpu)": the post-mortem said nothing at all (RecBole's scores of a model that made
    them on the cpu)."""
    with fake_cuda:
        ns["scores"] = torch.zeros(4, 3, device="cuda:0")
    ns.update(rows=torch.tensor([0, 2]), vals=torch.ones(2, 3))
    _err, out, _ = run(ip, capsys, "scores.index_put_((rows,), vals)\n", fake_cuda)
    text = diagnosis(out)
    assert text.splitlines()[0] == "devicelens: tensors on different devices: cpu, cuda:0", text
    assert "culprit: vals (float32[2, 3] on cpu)" in text and "expected cuda:0" in text, text
    assert "vals = vals.to(scores.device)" in text and text.rstrip().endswith(VERIFIED), text


def test_two_gpus_and_no_model_the_device_most_of_the_users_tensors_are_on_decides() -> None:
    """neural_renderer: a distortion coefficient its library made on cuda:0 meets a mesh, its
    camera and faces the user put on cuda:2, in a function no model runs: the stray is the one
    on cuda:0, not the first operand's device. Most of the op's operands decide before the
    namespace does; a tie leaves the order as it was."""
    from devicelens.guard.diagnosis import _decide
    from devicelens.guard.diagnosis._blame import Named, Operand

    k1 = Operand("argument 1", Named("renderer.dist_coeffs", "renderer.dist_coeffs", "tensor",
                                     "renderer"), "cuda:0", "float32", (1, 5))
    r = Operand("argument 2", Named("`r` in projection", "", "local", ""), "cuda:2", "float32",
                (1, 642))
    args: tuple = ([k1, r], [], None, [], [], None, None)
    assert _decide.expected_device(*args, ns_data=lambda: {"cuda:2": 6, "cuda:0": 1}) == "cuda:2"
    assert _decide.expected_device(*args, ns_data=lambda: {"cuda:2": 1, "cuda:0": 1}) == "cuda:0"
    assert _decide.expected_device(*args) == "cuda:0"
    # NB: the op's own operands come first: a painter's strokes and its net's outputs on cuda:0
    # beside one canvas on cuda:2, whatever else the namespace holds on cuda:2
    strokes = [Operand("argument 1", Named(f"pt.x{i}", f"pt.x{i}", "tensor", "pt"), "cuda:0",
                       "float32", (1, 5)) for i in range(3)]
    canvas = Operand("argument 2", Named("canvas", "canvas", "tensor", "canvas"), "cuda:2",
                     "float32", (1, 5))
    assert _decide.expected_device([*strokes, canvas], *args[1:],
                                   ns_data=lambda: {"cuda:2": 9, "cuda:0": 3}) == "cuda:0"


MASKED = '''
class Masked(nn.Module):
    def __init__(self):
        self.mask = torch.ones(3)
        super().__init__()
        self.lin = nn.Linear(3, 3)
    def forward(self, x):
        return self.lin(x) * self.mask
model = Masked().to("meta")
x = torch.randn(2, 3, device="meta")
'''


def test_a_buffer_is_not_offered_where_init_assigns_it_before_module_init(ip, ns, capsys):
    """sbi's CategoricalMADE assigns ``self.mask`` before ``super().__init__()``: there
    ``register_buffer`` raises "cannot assign buffer before Module.__init__() call", so the
    lasting edit of the class is not offered (it was, beside a verified move, and broke a fresh
    start); the live object's buffer is. Assigned after the base's ``__init__``, the edit is
    offered, and it runs."""
    ip.run_cell(MASKED, store_history=False)
    _err, out, _ = run(ip, capsys, "y = model(x)\n")
    text = diagnosis(out)
    assert 'model.register_buffer("mask", _t.to("meta"), persistent=False)' in text, text
    assert "+ self.register_buffer" not in text and text.rstrip().endswith(VERIFIED), text
    after = MASKED.replace("        self.mask = torch.ones(3)\n        super().__init__()\n",
                           "        super().__init__()\n        self.mask = torch.ones(3)\n")
    ip.run_cell(after, store_history=False)
    _err, out, _ = run(ip, capsys, "y = model(x)\n")
    text = diagnosis(out)
    assert '+ self.register_buffer("mask", torch.ones(3), persistent=False)' in text, text
    ip.run_cell(after.replace("self.mask = torch.ones(3)",
                              'self.register_buffer("mask", torch.ones(3), persistent=False)'),
                store_history=False)
    err, out, _ = run(ip, capsys, "y = model(x)\n")
    assert err is None and str(ns["y"].device) == "meta", out
