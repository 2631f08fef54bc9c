"""The ``%%cuda_safe`` pre-flight: read the cell, never run it, report what will fail."""

from __future__ import annotations

import math

import pytest
import torch
from IPython.core.error import UsageError
from torch import nn

from devicelens.guard.preflight import lint_forward, preflight
from tests.conftest import to_in_place


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        mask = torch.ones(x.size(0))
        y = self.fc(x).cuda()
        z = torch.arange(3, device="cuda:0")
        fine = torch.zeros(3, device=x.device) + torch.zeros_like(y)
        return y * mask[:, None] + z + fine


def to_device(x, tensor):
    """pytorch-metric-learning's helper: moves ``x`` to ``tensor``'s device."""
    if x.device != tensor.device:
        x = x.to(tensor.device)
    return x


class MovingLoss(nn.Module):
    """A loss whose ``forward`` moves the labels it is given itself (ProxyAnchorLoss)."""

    def __init__(self) -> None:
        super().__init__()
        self.proxies = nn.Parameter(torch.randn(3, 4))

    def forward(self, emb, labels):
        labels = to_device(labels, emb)
        return (emb @ self.proxies.t()).sum() + labels.sum()


class StillLoss(MovingLoss):
    def forward(self, emb, labels):
        return (emb @ self.proxies.t()).sum() + labels.sum()


def kinds(report):
    return [(i.severity, i.kind, i.line) for i in report.issues]


@pytest.fixture
def ns(fake_cuda):
    return {"torch": torch, "nn": nn, "F": torch.nn.functional,
            "model": fake_cuda.to(nn.Sequential(nn.Linear(8, 3)), "cuda:0"),
            "x": torch.randn(2, 8), "labels": torch.tensor([0, 1]), "device": "cuda:0",
            "a": fake_cuda.randn(3), "b": fake_cuda.randn(3, device="cuda:1"),
            "criterion": nn.CrossEntropyLoss(weight=torch.ones(3))}


def test_module_called_with_a_tensor_on_another_device(ns):
    rep = preflight("out = model(x)\n", ns, line_offset=1)
    assert kinds(rep) == [("error", "module_input", 2)]
    assert rep.issues[0].message == "model is on cuda:0 but x is on cpu: `model(x)` will fail"
    assert rep.issues[0].fix == 'x = x.to("cuda:0")'
    assert rep.text().splitlines() == [
        "%%cuda_safe pre-flight: 1 problem found before running the cell",
        "  error (cell line 2): model is on cuda:0 but x is on cpu: `model(x)` will fail",
        '      x = x.to("cuda:0")']


def test_tensors_combined_in_one_expression(ns):
    rep = preflight("c = a + b\nd = torch.cat([a, b])\ne = a.mul(b)\nf = a * 2\n", ns)
    assert kinds(rep) == [("error", "mixed_operands", 1), ("error", "mixed_operands", 2),
                          ("error", "mixed_operands", 3)]
    assert rep.issues[1].message == ("a (cuda:0), b (cuda:1) meet in `torch.cat([a, b])` on "
                                     "different devices")
    assert {i.fix for i in rep.issues} == {'b = b.to("cuda:0")'}


def test_loss_module_weight_elsewhere(ns):
    cell = "logits = model(x.to(device))\nloss = criterion(logits, labels)\n"
    rep = preflight(cell, ns)
    assert kinds(rep) == [("error", "loss_weight", 2), ("error", "module_input", 2)]
    assert rep.issues[0].message.startswith("criterion's weight tensors are on cpu but the "
                                            "model is on cuda:0")
    assert rep.issues[0].fix == 'criterion.to("cuda:0")'
    assert rep.issues[1].fix == 'labels = labels.to("cuda:0")'


class _Background(nn.Module):
    """threestudio's solid-colour background: a buffer on the cpu that its ``forward`` moves to
    the ray directions' device where it reads it."""

    def __init__(self):
        super().__init__()
        self.register_buffer("env_color", torch.ones(3))

    def forward(self, dirs):
        return torch.ones(*dirs.shape[:-1], 3).to(dirs) * self.env_color.to(dirs)


class _StillBackground(_Background):
    def forward(self, dirs):
        return torch.ones(*dirs.shape[:-1], 3).to(dirs) * self.env_color


def test_a_module_that_moves_its_own_buffers_where_it_reads_them_takes_any_inputs(ns):
    """A module of buffers only (a loss, a background) whose ``forward`` moves each of them to
    its input's device fails nothing, wherever its buffers are; the one that reads its buffer
    as it is keeps the error."""
    ns.update(dirs=ns["a"].reshape(1, 3), background=_Background(),
              still=_StillBackground())
    assert preflight("rgb = background(dirs)\n", ns).issues == ()
    assert kinds(preflight("rgb = still(dirs)\n", ns)) == [("error", "loss_weight", 1)]


class _Predict(nn.Module):
    """sGDML's ``GDMLTorchPredict``: ``forward`` hands the training indices to
    ``self._forward``, which binds them to a local and moves that local to where its cached
    descriptors are (on the cpu when the GPU had no room) before reading them."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 3)
        self.R_d_desc = torch.zeros(8, 3)

    def _forward(self, Rs_or_train_idxs):
        train_idxs = Rs_or_train_idxs
        train_idxs = train_idxs.to(self.R_d_desc.device)
        return self.fc.weight.sum() + self.R_d_desc[train_idxs].sum().to(self.fc.weight.device)

    def forward(self, Rs_or_train_idxs):
        return self._forward(Rs_or_train_idxs)


class _PredictAsIs(_Predict):
    def _forward(self, Rs_or_train_idxs):
        train_idxs = Rs_or_train_idxs
        return self.fc(train_idxs)


def test_a_module_whose_own_method_moves_what_forward_hands_it_takes_any_inputs(ns):
    """Followed into a method of the module's class, and through a local bound to the
    argument as it came; the same method without the move keeps the error."""
    ns.update(idx=torch.arange(2), predict=_Predict().to("meta"),
              still=_PredictAsIs().to("meta"))
    assert preflight("out = predict(idx)\n", ns).issues == ()
    assert "module_input" in [i.kind for i in preflight("out = still(idx)\n", ns).issues]


class _FrontEnd(nn.Module):
    """tortoise's mel front end: its only tensors are its child's, which ``forward`` moves
    whole to the input's device."""

    def __init__(self):
        super().__init__()
        self.stft = _Background()

    def forward(self, dirs):
        self.stft = self.stft.to(dirs.device)
        return self.stft(dirs)


class _StillFrontEnd(_FrontEnd):
    def forward(self, dirs):
        return self.stft(dirs) * self.stft.env_color


def test_a_module_that_moves_its_child_whole_where_it_reads_it_takes_any_inputs(ns):
    """A module whose tensors are all its child's, which its ``forward`` moves whole where the
    input is, fails nothing; one that reads the child as it is keeps the error."""
    ns.update(dirs=ns["a"].reshape(1, 3), mel_fn=_FrontEnd(), still=_StillFrontEnd())
    assert preflight("mel = mel_fn(dirs)\n", ns).issues == ()
    assert kinds(preflight("mel = still(dirs)\n", ns)) == [("error", "loss_weight", 1)]


class _Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 4)

    def forward(self, seq, input_lengths):
        packed = nn.utils.rnn.pack_padded_sequence(seq, input_lengths)
        return self.gru(packed)[1]


class _Searcher(nn.Module):
    """The chatbot tutorial's greedy searcher: hands the lengths to its encoder as they came."""

    def __init__(self, encoder: nn.Module):
        super().__init__()
        self.encoder = encoder

    def forward(self, input_seq, input_length, max_length):
        return self.encoder(input_seq, input_length)


class _Summer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, seq, input_lengths):
        return self.proj(seq) + input_lengths


def test_lengths_handed_on_to_a_part_that_packs_them_may_stay_on_the_cpu(fake_cuda):
    """The chatbot tutorial keeps ``lengths`` on the cpu for ``pack_padded_sequence`` and
    hands them to the searcher, which hands them on to its encoder: nothing fails. A part that
    adds them to its output keeps the error."""
    ns = {"seq": fake_cuda.randn(5, 2, 4), "lengths": torch.tensor([5, 3])}
    ns["searcher"] = _Searcher(fake_cuda.to(_Encoder(), "cuda:0"))
    assert preflight("out = searcher(seq, lengths, 5)\n", ns).issues == ()
    ns["searcher"] = _Searcher(fake_cuda.to(_Summer(), "cuda:0"))
    assert kinds(preflight("out = searcher(seq, lengths, 5)\n", ns)) == [
        ("error", "module_input", 1)]


def test_moves_inside_the_cell_are_followed(ns):
    cell = ("x = x.to(device)\nlabels = labels.to('cuda:0')\nfor a in [1, 2]:\n    pass\n"
            "out = model(x)\ncriterion.to(device)\nloss = criterion(out, labels)\n"
            "batch = [(t.cpu(), t) for t in [b]]\n")
    assert preflight(cell, ns).issues == ()


def test_a_container_the_cell_refills_item_by_item_is_no_longer_judged_by_its_old_items(ns):
    """The TrOCR tutorial's loop: ``for k, v in batch.items(): batch[k] = v.to(device)``, then
    ``model(**batch)``. Any item may now be anywhere: the namespace's cpu items are stale and
    never blamed; a batch the cell leaves as it is still is."""
    ns["batch"] = {"pixel_values": torch.randn(2, 8), "labels": torch.tensor([0, 1])}
    moved = "for k, v in batch.items():\n    batch[k] = v.to(device)\nout = model(**batch)\n"
    assert preflight(moved, ns).issues == ()
    assert kinds(preflight("out = model(**batch)\n", ns)) == [("error", "module_input", 1)] * 2
    # NB: a tensor written through an index stays where it is, and is judged
    assert kinds(preflight("for i in range(2):\n    x[:, i] = 0.0\nout = model(x)\n", ns)) == [
        ("error", "module_input", 3)]


def test_module_moved_inside_the_cell(ns):
    assert preflight("model.to('cpu')\nout = model(x)\n", ns).issues == ()
    assert kinds(preflight("model.cpu()\nout = model(a)\n", ns)) == [("error", "module_input", 2)]


def test_optimizer_state_elsewhere_than_its_params():
    model = nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(3, 4)).sum().backward()
    opt.step()
    for s in opt.state.values():
        s["exp_avg"] = s["exp_avg"].to("meta")
    rep = preflight("loss = model(x).sum()\nloss.backward()\nopt.step()\n",
                    {"model": model, "opt": opt, "x": torch.randn(3, 4)})
    assert kinds(rep) == [("error", "optimizer_state", 3)]
    assert "for _p, _s in opt.state.items():" in rep.issues[0].fix


def test_model_recreated_after_the_optimizer(ip):
    ip.run_cell("import torch\nfrom torch import nn\nmodel = nn.Linear(4, 2)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel = nn.Linear(4, 2)\n"
                "x = torch.randn(3, 4)\nran = False\n", store_history=False)
    cell = "loss = model(x).sum()\nloss.backward()\nopt.step()\nran = True\n"
    rep = preflight(cell, ip.user_ns)
    assert kinds(rep) == [("error", "optimizer_orphan", 1)]
    assert "_new = dict(zip(map(id, _old), model.parameters(), strict=True))" in rep.issues[0].fix
    result = ip.run_cell(f"%%cuda_safe --strict\n{cell}", store_history=False)
    assert isinstance(result.error_in_exec, UsageError)
    assert "1 error(s) found before running; the cell was not run" in str(result.error_in_exec)
    assert ip.user_ns["ran"] is False


def test_recreating_the_optimizer_in_the_cell_is_not_blamed(ip):
    ip.run_cell("import torch\nfrom torch import nn\nmodel = nn.Linear(4, 2)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel = nn.Linear(4, 2)\n",
                store_history=False)
    cell = "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nopt.step()\n"
    assert preflight(cell, ip.user_ns).issues == ()


def test_dtype_checks_only_with_dtype(ns):
    ns["x64"] = torch.randn(2, 8, dtype=torch.float64)
    ns["model"] = nn.Linear(8, 3)
    assert preflight("out = model(x64)\n", ns).issues == ()
    rep = preflight("out = model(x64)\n", ns, check_dtype=True)
    assert kinds(rep) == [("error", "module_input_dtype", 1)]
    assert rep.issues[0].fix == "x64 = x64.to(torch.float32)"


def test_forward_lint_finds_missing_and_hardcoded_devices():
    issues = lint_forward(Net)
    assert [(i.kind, i.name) for i in issues] == [
        ("forward_no_device", "mask"), ("forward_hardcoded_device", "y"),
        ("forward_hardcoded_device", "z")]
    assert issues[0].fix.startswith("mask = torch.ones(x.size(0), device=x.device)")
    assert issues[1].fix == "y = self.fc(x).to(x.device)"
    assert issues[2].fix == "z = torch.arange(3, device=x.device)"
    assert f"Net.forward (test_guard_preflight.py line {Net.forward.__code__.co_firstlineno + 1})" \
        in issues[0].message
    assert lint_forward(nn.Linear) == ()


class Itm(nn.Module):
    """ALBEF's image-text matching labels: made on the cpu from factories only, then moved."""

    def forward(self, image):
        bs = image.size(0)
        labels = torch.cat([torch.ones(bs, dtype=torch.long), torch.zeros(2 * bs).long()],
                           dim=0).to(image.device)
        mixed = torch.cat([torch.zeros(bs), image[:, 0]]).to(image.device)
        return labels, mixed


def test_factories_only_other_factories_meet_before_a_move_are_fine():
    """Nothing from outside meets ALBEF's labels before ``.to(image.device)``; a factory that
    meets the input first (``mixed``) still fails on a GPU, before its move."""
    assert [(i.kind, i.name) for i in lint_forward(Itm)] == [("forward_no_device", "mixed")]


@pytest.mark.filterwarnings("ignore:`torch.nn.utils.weight_norm` is deprecated")
def test_a_module_whose_pre_hook_moves_it_is_not_judged(fake_cuda):
    """webui's ``--medvram``: parts stay on the cpu and a forward pre-hook of its own sends each
    to the input's GPU when called; torch's own pre-hooks (``weight_norm``) move nothing."""
    def send_me_to_gpu(module, args):
        module.to(args[0].device)

    x = fake_cuda.randn(2, 8, device="cuda:0")
    hooked = nn.Sequential(nn.Linear(8, 3))
    hooked[0].register_forward_pre_hook(send_me_to_gpu)
    assert preflight("out = model(x)\n", {"model": hooked, "x": x}).issues == ()
    normed = nn.Sequential(torch.nn.utils.weight_norm(nn.Linear(8, 3)))
    rep = preflight("out = model(x)\n", {"model": normed, "x": x})
    assert [(i.severity, i.kind) for i in rep.issues] == [("error", "module_input")]


def test_lint_runs_for_module_classes_used_in_the_cell(fake_cuda):
    """On cuda:1 every line of Net.forward that pins a tensor elsewhere is a warning; on
    cuda:0, where ``.cuda()`` and ``device="cuda:0"`` already put them, the code runs and only
    the tensor made on the cpu is (MoCo's ``labels ... .cuda()`` is a look-alike); under
    DataParallel the replicas on other GPUs would fail on the pins: warned again."""
    net = fake_cuda.to(Net(), "cuda:1")
    rep = preflight("out = net(x)\n", {"net": net, "x": fake_cuda.randn(2, 8, device="cuda:1")})
    assert [(i.severity, i.kind) for i in rep.issues] == [
        ("warning", "forward_no_device"), ("warning", "forward_hardcoded_device"),
        ("warning", "forward_hardcoded_device")]
    assert rep.errors == ()
    net = fake_cuda.to(Net(), "cuda:0")
    rep = preflight("out = net(x)\n", {"net": net, "x": fake_cuda.randn(2, 8)})
    assert [(i.severity, i.kind) for i in rep.issues] == [("warning", "forward_no_device")]

    class DataParallel(nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

    rep = preflight("out = dp(x)\n", {"dp": DataParallel(net), "x": fake_cuda.randn(2, 8)})
    assert [i.kind for i in rep.issues] == [
        "forward_no_device", "forward_hardcoded_device", "forward_hardcoded_device"]


def test_a_factory_moved_at_once_is_not_linted_as_made_on_the_cpu():
    """MoCo: ``torch.zeros(n, dtype=torch.long).cuda()``: the cpu tensor is moved at once, so
    "has no device" would be wrong (and its fix, ``device=...`` and ``.cuda()`` both, worse);
    only the move itself is linted (a pin)."""

    class MoCo(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(8, 3)

        def forward(self, x):
            labels = torch.zeros(x.shape[0], dtype=torch.long).cuda()
            return self.fc(x), labels

    assert [i.kind for i in lint_forward(MoCo)] == ["forward_hardcoded_device"]


class _SupCon(nn.Module):
    """SupContrast: a factory reshaped and then moved, and a local read only as an index."""

    def __init__(self, keep_index_on_cpu: bool = True) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 3)
        self.keep = keep_index_on_cpu

    def forward(self, x, y):
        mask = torch.arange(x.shape[0]).view(-1, 1).to(x.device)
        rows = torch.arange(x.shape[0]).long()
        log_p = self.fc(x).log_softmax(-1)
        return log_p[rows, y] + log_p[torch.arange(2), y[:2]].sum() + mask.squeeze(1)


class _Offset(nn.Module):
    """The same local read as an index and also added to a tensor: still a stray."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 3)

    def forward(self, x, y):
        rows = torch.arange(x.shape[0])
        return self.fc(x)[rows, y] + rows


def test_a_reshaped_factory_moved_at_once_and_a_factory_only_indexing_are_not_linted():
    """SupContrast's ``torch.arange(n).view(-1, 1).to(device)`` is moved before anything meets
    it; a focal loss's ``rows = torch.arange(n)`` read only as ``log_p[rows, y]`` is an index,
    which PyTorch takes from the cpu for a tensor on any device: neither is a stray. The same
    ``rows`` added to a tensor is."""
    assert lint_forward(_SupCon) == ()
    assert [(i.kind, i.name) for i in lint_forward(_Offset)] == [("forward_no_device", "rows")]


class _Lengths(nn.Module):
    """ESPnet's RNN encoder: lengths made a tensor on the cpu, then only copied to the cpu for
    ``pack_padded_sequence`` before the name is bound again by ``pad_packed_sequence``."""

    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 4, batch_first=True)

    def forward(self, xs, ilens):
        if not isinstance(ilens, torch.Tensor):
            ilens = torch.tensor(ilens)
        packed = nn.utils.rnn.pack_padded_sequence(xs, ilens.cpu(), batch_first=True)
        ys, ilens = nn.utils.rnn.pad_packed_sequence(self.rnn(packed)[0], batch_first=True)
        return ys, ilens


class _LengthsAdded(nn.Module):
    """The same lengths, also added to the input: a stray wherever the module is."""

    def forward(self, xs, ilens):
        ilens = torch.tensor(ilens)
        n = ilens.cpu()
        return xs + ilens, n


class _Carried(nn.Module):
    """A tensor made in a loop, copied to the cpu there, and read at the top of the next turn
    by an add: the loop carries it to a read above its binding."""

    def forward(self, xs):
        h = None
        for x in xs:
            if h is not None:
                x = x + h
            h = torch.zeros(3)
            h.cpu()
        return xs


class _CarriedOnce(nn.Module):
    """The same, bound once in the loop: the add above its binding still reads it."""

    def forward(self, xs, h):
        for x in xs:
            x = x + h
            h = torch.zeros(3)
            h.cpu()
        return xs


class _Frequencies(nn.Module):
    """A time-step embedding's frequencies made on the default device, moved to the time steps'
    device as the name is bound again, before anything meets them (synthcity's TabDDPM makes
    them as ``torch.exp(-math.log(T) / mid * torch.arange(mid))``, where ``T`` and ``mid`` could
    be tensors for all the lint can tell: that one is still linted)."""

    def forward(self, timesteps, dim=8):
        fs = torch.arange(dim // 2, dtype=torch.float32)
        fs = fs.to(timesteps.device)
        return timesteps[:, None].float() * fs[None]


class _FrequenciesCast(nn.Module):
    """The same, cast to a dtype at the next binding: no move, still on the default device."""

    def forward(self, timesteps, dim=8):
        fs = torch.arange(dim // 2, dtype=torch.float32)
        fs = fs.to(torch.float16)
        return timesteps[:, None].half() * fs[None]


class _ReboundFromItself(nn.Module):
    """A rebinding that reads the old value as plain data (``y = y.view(...)``) still reads
    it: the value the first line makes meets the input."""

    def forward(self, x):
        y = torch.ones(3)
        y = y.view(1, 3)
        return x + y


def test_a_tensor_moved_as_its_name_is_bound_again_is_not_linted():
    assert lint_forward(_Frequencies) == ()
    assert [(i.kind, i.name) for i in lint_forward(_FrequenciesCast)] == [
        ("forward_no_device", "fs")]
    assert [(i.kind, i.name) for i in lint_forward(_ReboundFromItself)] == [
        ("forward_no_device", "y")]


class _TimeSteps(nn.Module):
    """synthcity's TabDDPM time-step embedding: frequencies made of the module's numbers and
    a factory, then moved to the time steps' device as the name is bound again."""

    def __init__(self, dim=8, max_period=10000):
        super().__init__()
        self.dim, self.max_period = dim, max_period
        self.fc = nn.Linear(2, 2)  # NB: a parameter, so a move takes the module off the cpu

    def forward(self, timesteps):
        d, T = self.dim, self.max_period
        mid = d // 2
        fs = torch.exp(-math.log(T) / mid * torch.arange(mid, dtype=torch.float32))
        fs = fs.to(timesteps.device)
        return timesteps[:, None].float() * fs[None]


class _TimeStepsInput(_TimeSteps):
    """The same frequencies scaled by the input before the move: they meet it on the cpu."""

    def forward(self, timesteps):
        mid = self.dim // 2
        fs = timesteps.max() * torch.arange(mid, dtype=torch.float32)
        fs = fs.to(timesteps.device)
        return timesteps[:, None].float() * fs[None]


def test_a_tensor_made_of_numbers_and_factories_then_moved_is_silent_where_they_are_numbers():
    """The lint proves ``mid`` a number from its bindings, on condition that the module's own
    ``dim`` is one: a buffer there would be a tensor. ``math.log(T)`` is a number whatever
    ``T`` is."""
    from devicelens.guard.preflight import lint_modules

    assert [(i.name, i.scalar_if) for i in lint_forward(_TimeSteps)] == [("fs", ("dim",))]
    assert lint_modules([_TimeSteps().to("meta")]) == []
    held = _TimeSteps()
    del held.dim
    held.register_buffer("dim", torch.tensor(8))
    assert [i.name for i in lint_modules([held.to("meta")])] == ["fs"]
    assert [(i.name, i.scalar_if) for i in lint_forward(_TimeStepsInput)] == [("fs", ())]


class _Dropout(nn.Module):
    """DAC's residual vector quantizer: counts made on the cpu, a slice of another tensor
    made there written into them, then moved to the input's device."""

    def __init__(self, n_codebooks=4):
        super().__init__()
        self.n_codebooks = n_codebooks
        self.fc = nn.Linear(2, 2)

    def forward(self, z):
        n_quantizers = torch.ones((z.shape[0],)) * self.n_codebooks + 1
        dropout = torch.randint(1, self.n_codebooks + 1, (z.shape[0],))
        n_dropout = int(z.shape[0] * 0.5)
        n_quantizers[:n_dropout] = dropout[:n_dropout]
        n_quantizers = n_quantizers.to(z.device)
        return z * n_quantizers[:, None]


class _DropoutIntoInput(_Dropout):
    """The draws written into a tensor made like the input: on the cpu they meet it."""

    def forward(self, z):
        counts = torch.zeros_like(z[:, 0])
        dropout = torch.randint(1, self.n_codebooks + 1, (z.shape[0],))
        counts[:2] = dropout[:2]
        return z * counts[:, None]


class _DropoutNeverMoved(_Dropout):
    """Written into a tensor made here that is never moved: that one is still linted."""

    def forward(self, z):
        n_quantizers = torch.ones((z.shape[0],)) * self.n_codebooks
        dropout = torch.randint(1, self.n_codebooks + 1, (z.shape[0],))
        n_quantizers[:2] = dropout[:2]
        return z * n_quantizers[:, None]


def test_a_tensor_written_into_another_made_here_that_is_then_moved_is_not_linted():
    from devicelens.guard.preflight import lint_modules

    # NB: both tensors are made of the module's ``n_codebooks``: silent where it is a number
    assert sorted((i.name, i.scalar_if) for i in lint_forward(_Dropout)) == [
        ("dropout", ("n_codebooks",)), ("n_quantizers", ("n_codebooks",))]
    assert lint_modules([_Dropout().to("meta")]) == []
    assert [i.name for i in lint_forward(_DropoutIntoInput)] == ["dropout"]
    assert [i.name for i in lint_modules([_DropoutNeverMoved().to("meta")])] == ["n_quantizers"]


def test_a_tensor_only_copied_to_the_cpu_before_it_is_bound_again_is_not_linted():
    assert lint_forward(_Lengths) == ()
    assert [(i.kind, i.name) for i in lint_forward(_LengthsAdded)] == [
        ("forward_no_device", "ilens")]
    assert [(i.kind, i.name) for i in lint_forward(_Carried)] == [("forward_no_device", "h")]
    assert [(i.kind, i.name) for i in lint_forward(_CarriedOnce)] == [
        ("forward_no_device", "h")]


def test_preflight_runs_no_user_code():
    calls = []

    class Sneaky(nn.Module):
        @property
        def weight(self):
            calls.append("weight")
            return torch.ones(1, device="meta")

        def __getattr__(self, name):
            calls.append(name)
            return super().__getattr__(name)

        def forward(self, x):
            calls.append("forward")
            return x

    m = to_in_place(nn.Linear(2, 2), "meta")
    rep = preflight("y = sneaky(x) + sneaky.weight + m.weight\nz = sneaky.other\n",
                    {"sneaky": Sneaky(), "x": torch.ones(2), "m": m})
    assert calls == []
    assert kinds(rep) == [("error", "mixed_operands", 1)]


def test_syntax_error_and_no_torch_give_no_report():
    assert preflight("def broken(:\n", {"x": torch.ones(1)}).issues == ()


class _Scaled(nn.Module):
    """``torch.tensor(self.d_head)`` is 0-dim when ``d_head`` is a number (fine beside a
    tensor on any device), and a tensor with dims when it is a list (a stray on the cpu)."""

    def __init__(self, d_head):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.d_head = d_head

    def forward(self, x):
        return self.fc(x) / torch.sqrt(torch.tensor(self.d_head)) + torch.tensor(2.0)


def test_lint_leaves_a_0_dim_tensor_of_a_number_and_keeps_one_of_a_list():
    from devicelens.guard.preflight import lint_modules

    def on_meta(d_head):  # NB: off the default device, where a cpu tensor is a stray
        return _Scaled(d_head).to("meta")

    assert [i.scalar_if for i in lint_forward(_Scaled)] == [("d_head",)]  # not 2.0's
    assert lint_modules([on_meta(8)]) == []
    assert [i.kind for i in lint_modules([on_meta([8, 8, 8, 8])])] == ["forward_no_device"]
    # NB: one instance with a list among several with numbers: the class is still warned about
    assert len(lint_modules([on_meta(8), on_meta([8.0] * 4)])) == 1


def test_a_tensor_made_on_the_default_device_beside_modules_all_there_is_not_flagged():
    """torchaudio's HuBERT mask generator draws ``torch.rand(B, T)`` in ``forward``; with the
    model on the cpu (the default device) nothing can meet it elsewhere, and a look-alike was
    warned "this fails ... once the module moves". On another device, or under DataParallel,
    the warning stays."""
    from devicelens.guard.preflight import lint_modules

    assert lint_modules([_Scaled([8, 8, 8, 8])]) == []
    assert [i.kind for i in lint_modules([_Scaled([8, 8, 8, 8]).to("meta")])] == [
        "forward_no_device"]
    assert [i.kind for i in lint_modules([nn.DataParallel(_Scaled([8, 8, 8, 8]))])] == [
        "forward_no_device"]


def test_an_argument_the_module_moves_itself_is_not_flagged(fake_cuda):
    """pytorch-metric-learning: the loss moves the loader's cpu labels to the embeddings' device
    (through a helper of its module): passing them on the cpu fails nothing. A loss that does
    not move them keeps the error."""
    ns = {"emb": fake_cuda.randn(2, 4), "labels": torch.tensor([0.0, 1.0])}
    ns["crit"] = fake_cuda.to(MovingLoss(), "cuda:0")
    assert preflight("loss = crit(emb, labels)\n", ns).issues == ()
    ns["crit"] = fake_cuda.to(StillLoss(), "cuda:0")
    assert kinds(preflight("loss = crit(emb, labels)\n", ns)) == [("error", "module_input", 1)]


class ParallelWrapper(nn.Module):
    """A data-parallel wrapper's shape (PyTorch's DDP tutorial): ``forward(*inputs)`` moves
    each input to its device itself."""

    def __init__(self, module: nn.Module, device: str) -> None:
        super().__init__()
        self.module, self.device = module, device

    def forward(self, *inputs, **kwargs):
        inputs = tuple(t.to(self.device) for t in inputs)
        return self.module(*inputs, **kwargs)


class Engine(nn.Module):
    """DeepSpeed's ``InferenceEngine``: hands its arguments on as they came."""

    def __init__(self, module: nn.Module) -> None:
        super().__init__()
        self.module = module

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)


def test_a_wrapper_that_moves_or_hands_on_its_inputs_is_judged_by_what_moves_them(fake_cuda):
    """A wrapper whose ``forward`` moves its ``*inputs`` takes them anywhere; one that hands
    its arguments on as they came is judged by the module it hands them to: a loss that moves
    its labels takes them on the cpu, one that does not keeps the error."""
    x = torch.randn(2, 4)
    wrapped = ParallelWrapper(fake_cuda.to(nn.Linear(4, 2), "cuda:1"), "cuda:1")
    assert preflight("out = ddp_model(x)\n", {"ddp_model": wrapped, "x": x}).issues == ()
    ns = {"emb": fake_cuda.randn(2, 4), "labels": torch.tensor([0.0, 1.0])}
    ns["engine"] = Engine(fake_cuda.to(MovingLoss(), "cuda:0"))
    assert preflight("loss = engine(emb, labels)\n", ns).issues == ()
    ns["engine"] = Engine(fake_cuda.to(StillLoss(), "cuda:0"))
    assert kinds(preflight("loss = engine(emb, labels)\n", ns)) == [("error", "module_input", 1)]


def test_an_item_the_cell_moves_before_using_it_is_not_flagged(ns):
    """MoCo's training loop: ``images[0] = images[0].cuda(...)`` before the model reads it: the
    namespace's list still holds the cpu tensor, the cell's item does not."""
    ns["images"] = [torch.randn(2, 8), torch.randn(2, 8)]
    cell = 'images[0] = images[0].cuda("cuda:0")\nout = model(images[0])\n'
    assert preflight(cell, ns).issues == ()
    assert kinds(preflight("out = model(images[0])\n", ns)) == [("error", "module_input", 1)]


class Leaky(nn.Module):
    """snntorch's neuron: a placeholder state, remade on the input's device at first use."""

    def forward(self, input_, mem):
        if mem.shape != input_.shape:
            mem = torch.zeros_like(input_)
        return input_ + mem, mem


class Keeps(nn.Module):
    """The same neuron that uses the state it is given as it is."""

    def forward(self, input_, mem):
        return input_ + mem, mem


def test_a_state_the_forward_remakes_where_the_input_is_is_not_flagged(fake_cuda):
    """A cpu placeholder ``mem = lif.init_leaky()`` handed with GPU activations to a neuron
    whose forward remakes it as ``torch.zeros_like(input_)``: nothing meets. A neuron that
    uses it as given keeps the error."""
    ns = {"cur": fake_cuda.randn(2, 4), "mem": torch.zeros(0),
          "lif": fake_cuda.to(Leaky(), "cuda:0")}
    assert preflight("spk, mem = lif(cur, mem)\n", ns).issues == ()
    ns["lif"] = fake_cuda.to(Keeps(), "cuda:0")
    assert kinds(preflight("spk, mem = lif(cur, mem)\n", ns)) == [
        ("error", "mixed_operands", 1)]


class EMA(nn.Module):
    """ema-pytorch: the online model kept in a plain list, so the EMA's ``to()`` leaves it."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.online_model = [model]
        self.ema_model = nn.Linear(4, 4)


def test_a_model_in_a_plain_list_that_the_namespace_names_is_not_flagged(fake_cuda):
    """The EMA keeps the user's ``net`` (on the GPU) in a plain list beside its own cpu copy:
    the user moves ``net`` by its own name, as the whole snapshot's diagnosis already reads it.
    A module in a plain list that no name holds is still an error."""
    net = fake_cuda.to(nn.Linear(4, 4), "cuda:0")
    ns = {"net": net, "ema": EMA(net)}
    assert preflight("ema(1)\n", ns).issues == ()
    ns = {"ema": EMA(fake_cuda.to(nn.Linear(4, 4), "cuda:0"))}
    assert kinds(preflight("ema(1)\n", ns)) == [("error", "trap_module", 1)]


class _Windowed(nn.Module):
    """open-unmix's Wiener window: frame indices made on the cpu, read back as a number
    (``int(cur[-1])``) and otherwise only as indices; ``_Spread`` also adds them to a tensor."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        out, pos = torch.zeros_like(x), 0
        while pos < x.shape[0]:
            cur = torch.arange(pos, min(x.shape[0], pos + 2))
            pos = int(cur[-1]) + 1
            out[cur] = self.fc(x[cur])
        return out


class _Spread(_Windowed):
    def forward(self, x):
        cur = torch.arange(x.shape[0])
        return self.fc(x)[cur] * len(cur) + cur.unsqueeze(1)


def test_a_factory_read_only_as_indices_and_as_numbers_is_not_linted():
    assert lint_forward(_Windowed) == ()
    assert [(i.kind, i.name) for i in lint_forward(_Spread)] == [("forward_no_device", "cur")]


def _to_device(x, like):
    return x.to(like.device)


class _Inner(nn.Module):
    """pytorch-metric-learning's losses: ``labels = to_device(labels, embeddings)`` first."""

    def forward(self, embeddings, labels, ref_labels=None):
        labels = _to_device(labels, embeddings)
        return (embeddings.sum(1) * labels).sum()


class _Kept(nn.Module):
    def forward(self, embeddings, labels):
        return (embeddings.sum(1) * labels).sum()


class _SelfSupervised(nn.Module):
    """pytorch-metric-learning's SelfSupervisedLoss: pair labels made with no device, joined
    with themselves and handed to the wrapped loss, which moves them."""

    def __init__(self, loss):
        super().__init__()
        self.loss = loss
        self.head = nn.Linear(2, 2)  # NB: a weight off the default device once moved

    def forward(self, embeddings, ref_emb):
        labels = torch.arange(embeddings.shape[0])
        labels = torch.cat([labels, labels])
        return self.loss(torch.cat([embeddings, ref_emb]), labels)


def test_a_factory_handed_only_to_a_submodule_that_moves_it_is_not_flagged():
    """Where the wrapped loss moves the labels it is handed, the wrapper's cpu labels fail
    nothing (a look-alike was warned); where it does not, the warning stays."""
    from devicelens.guard.preflight import lint_modules

    (issue,) = lint_forward(_SelfSupervised)
    assert (issue.name, issue.handed) == ("labels", (("loss", 1),))
    assert lint_modules([_SelfSupervised(_Inner()).to("meta")]) == []
    assert [i.kind for i in lint_modules([_SelfSupervised(_Kept()).to("meta")])] == [
        "forward_no_device"]
    assert lint_forward(_Spread)[0].handed == ()  # NB: read by an op: handed nowhere only


class _MultiCrop(nn.Module):
    """DINO's MultiCropWrapper: crop sizes counted on the cpu, read only as slice bounds over a
    list of crops, through the loop over them and a local the bound is copied to."""

    def __init__(self, sliced: bool = True) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 3)
        self.sliced = sliced

    def forward(self, x):
        idx_crops = torch.cumsum(torch.unique_consecutive(
            torch.tensor([inp.shape[-1] for inp in x]), return_counts=True)[1], 0)
        start_idx, output = 0, torch.empty(0).to(x[0].device)
        for end_idx in idx_crops:
            output = torch.cat((output, self.fc(torch.cat(x[start_idx: end_idx]))))
            start_idx = end_idx
        return output


class _MultiCropAdded(_MultiCrop):
    """The same counts added to the crops' outputs: a cpu tensor an op meets."""

    def forward(self, x):
        idx_crops = torch.cumsum(torch.unique_consecutive(
            torch.tensor([inp.shape[-1] for inp in x]), return_counts=True)[1], 0)
        output = torch.empty(0).to(x[0].device)
        for end_idx in idx_crops:
            output = torch.cat((output, self.fc(torch.cat(x)) + end_idx))
        return output


def test_a_factory_read_only_as_slice_bounds_through_a_loop_over_it_is_not_linted():
    """Each item of the cpu counts is a 0-dim tensor read as a number by the slice: where it
    was made fails nothing (a DINO look-alike was warned). Added to a GPU output, it would."""
    assert lint_forward(_MultiCrop) == ()
    assert [i.kind for i in lint_forward(_MultiCropAdded)] == ["forward_no_device"]


class _MarchingCubes(nn.Module):
    """instant-nsr-pl's marching cubes: a mesh's faces made with no device, only returned."""

    def forward(self, level):
        faces = torch.zeros(1, 3, dtype=torch.long)
        return {"v_pos": level * 2, "t_pos_idx": faces, "t_idx": torch.zeros(1, 3)}


class _MarchingCubesShifted(nn.Module):
    def forward(self, level):
        faces = torch.zeros(1, 3, dtype=torch.long)
        return {"v_pos": level * 2, "t_pos_idx": faces + level.long()}


def test_a_factory_forward_only_returns_is_not_linted():
    """A tensor the forward only gives back meets nothing there (the caller's line is the
    guard's to read); one an op of the forward meets is linted."""
    assert lint_forward(_MarchingCubes) == ()
    assert [(i.kind, i.name) for i in lint_forward(_MarchingCubesShifted)] == [
        ("forward_no_device", "faces")]
