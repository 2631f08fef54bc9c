"""Culprits in the user's names, and fixes in their code (issue 10, items 1 and 8).

Each case is a small notebook: a setup cell, then a cell that fails on a simulated GPU (fake
``cuda:N``), ``meta`` or a plain cpu dtype. Both the post-mortem and ``%%cuda_safe``'s
``DeviceMismatchError`` must name the culprit as the user knows it (found by identity, through
views, containers, plain objects, function arguments and the lines that derived it), and what
they print must work: the ``fix:`` code run once, the ``edit:`` applied to the setup's code, then
the failing cell runs.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import pytest

from devicelens.guard import DeviceMismatchError
from tests.test_guard_messages import IMPORTS, _apply, _edits, _fix_code, _run

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Case(NamedTuple):
    id: str
    sim: str  # fake | meta | cpu
    setup: str
    cell: str
    culprit: str  # a culprit line must name this (or something inside it)
    edit: bool = False  # the fix is an edit of the code


# HiDDeN's discriminator: int labels make torch.full's targets int64, once per half
BCE_TWO_TARGETS = (
    "class Trainer:\n    def __init__(self):\n        self.disc = nn.Linear(4, 1)\n"
    "        self.loss = nn.BCEWithLogitsLoss()\n"
    "        self.real_label, self.fake_label = 1, 0\n"
    "    def train_step(self, x):\n"
    "        real = torch.full((x.shape[0], 1), self.real_label)\n"
    "        l1 = self.loss(self.disc(x), real)\n"
    "        fake = torch.full((x.shape[0], 1), self.fake_label)\n"
    "        l2 = self.loss(self.disc(-x), fake)\n"
    "        return l1 + l2\n"
    "trainer = Trainer()\nx = torch.randn(3, 4)\n")

CASES = [
    # --- item 1: the user's names
    Case("view_in_a_helper", "fake",
         "def accuracy(out, target):\n    out, target = out.view(-1, 4), target.view(-1)\n"
         "    return (out.argmax(1) == target).float().mean()\n"
         "out = torch.randn(2, 3, 4, device='cuda:0')\ntarget = torch.randint(0, 4, (2, 3))\n",
         "acc = accuracy(out, target)\n", "target"),
    Case("dict_item_through_a_helper", "fake",
         "def loss_of(logits, labels):\n    return F.cross_entropy(logits, labels.long())\n"
         "logits = torch.randn(4, 3, device='cuda:0')\n"
         "batch = {'labels': torch.randint(0, 3, (4,))}\n",
         "with torch.no_grad():\n    loss = loss_of(logits, batch['labels'])\n",
         "batch['labels']"),
    Case("module_path_of_self_weight", "meta",
         "class Scale(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.weight = nn.Parameter(torch.ones(4))\n"
         "    def forward(self, x):\n        return x * self.weight\n"
         "model = nn.Sequential(nn.Linear(4, 4), Scale())\nmodel[0].to('meta')\n"
         "x = torch.randn(2, 4, device='meta')\n", "out = model(x)\n", "model[1].weight"),
    Case("derived_in_forward", "fake",
         "class Rotary(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.register_buffer('inv_freq', torch.rand(4), persistent=False)\n"
         "    def forward(self, position_ids):\n"
         "        return self.inv_freq.view(1, -1, 1) * position_ids.unsqueeze(1).float()\n"
         "class Tiny(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.rotary = Rotary()\n        self.fc = nn.Linear(4, 4)\n"
         "    def forward(self, mask):\n        position_ids = mask.long().cumsum(-1) - 1\n"
         "        return self.rotary(position_ids)\n"
         "model = Tiny().to('cuda:0')\nattention_mask = torch.ones(1, 3, dtype=torch.long)\n",
         "with torch.no_grad():\n    y = model(attention_mask)\n", "attention_mask"),
    Case("plain_object_attribute", "fake",
         "class Scheduler:\n    def __init__(self):\n        self.alphas = torch.rand(10)\n"
         "def weight_of(t, sched):\n    return torch.index_select(sched.alphas, 0, t.cpu())\n"
         "scheduler = Scheduler()\nscheduler.alphas = scheduler.alphas.to('cuda:0')\n"
         "t = torch.randint(0, 10, (3,)).to('cuda:0')\n",
         "w = weight_of(t, scheduler)\n", "scheduler.alphas"),
    # --- item 8: bugs in code, fixed by an edit
    Case("factory_without_device_in_forward", "fake",
         "class Cell(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.fc = nn.Linear(8, 4)\n    def forward(self, x):\n"
         "        h = torch.zeros(x.shape[0], 4)\n        return self.fc(x) + h\n"
         "cell = Cell().to('cuda:0')\nx = torch.randn(2, 8, device='cuda:0')\n",
         "with torch.no_grad():\n    y = cell(x)\n", "cell", edit=True),
    Case("helper_method_without_device", "meta",
         "class Enc(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.gru = nn.GRU(4, 6, batch_first=True)\n"
         "    def init_hidden(self, n):\n        return torch.zeros(1, n, 6)\n"
         "    def forward(self, x):\n        return self.gru(x, self.init_hidden(x.shape[0]))\n"
         "enc = Enc().to('meta')\nseq = torch.randn(2, 5, 4, device='meta')\n",
         "out, h = enc(seq)\n", "enc", edit=True),
    Case("move_result_dropped", "fake",
         "def masked(scores, mask):\n    mask.to(scores.device)\n    return scores * mask\n"
         "scores = torch.randn(3, device='cuda:0')\nmask = torch.ones(3)\n",
         "y = masked(scores, mask)\n", "mask", edit=True),
    Case("hard_coded_device_id", "fake",
         "class Head(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.fc = nn.Linear(4, 3)\n        self.ids = [0]\n"
         "    def forward(self, x):\n        y = self.fc(x)\n"
         "        onehot = torch.zeros(y.size())\n"
         "        onehot = onehot.to(f'cuda:{self.ids[0]}')\n        return y * onehot\n"
         "head = Head().to('cuda:1')\nx = torch.randn(2, 4, device='cuda:1')\n",
         "with torch.no_grad():\n    y = head(x)\n", "head", edit=True),
    Case("helper_result_converted_at_the_call", "cpu",
         "def embed(t):\n    return torch.cat([torch.sin(t[:, None].float()), "
         "torch.cos(t[:, None].float())], -1)\n"
         "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.fc = nn.Linear(2, 2)\n"
         "    def forward(self, x, t):\n        return x + self.fc(embed(t))\n"
         "net = Net().half()\nx = torch.randn(3, 2, dtype=torch.float16)\nt = torch.arange(3)\n",
         "with torch.no_grad():\n    y = net(x, t)\n", "net", edit=True),
    Case("upcast_in_forward", "cpu",
         "class Block(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.norm = nn.LayerNorm(4)\n"
         "    def forward(self, x):\n        return self.norm(x.float())\n"
         "block = Block().half()\nh = torch.randn(2, 4, dtype=torch.float16)\n",
         "y = block(h)\n", "block", edit=True),
    Case("dtype_through_a_variable", "cpu",
         "def guided(model, x):\n    dt = torch.float64\n    w = torch.ones(x.shape, dtype=dt)\n"
         "    return model(x * w)\n"
         "net = nn.Linear(4, 2)\nx = torch.randn(3, 4)\n",
         "y = guided(net, x)\n", "guided", edit=True),
    Case("byte_mask_in_forward", "cpu",
         "class Attn(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.fc = nn.Linear(4, 4)\n"
         "    def forward(self, x):\n        s = self.fc(x)\n"
         "        mask = torch.triu(torch.ones(4, 4), diagonal=1).byte()\n"
         "        return s.masked_fill(mask, 0.0)\n"
         "attn = Attn()\nx = torch.randn(4, 4)\n", "y = attn(x)\n", "attn", edit=True),
    Case("in_place_into_int_in_a_function", "cpu",
         "def average(states, n):\n    out = {k: v.clone() for k, v in states[0].items()}\n"
         "    for k in out:\n        out[k] /= n\n    return out\n"
         "states = [{'w': torch.ones(2), 'count': torch.tensor(3)}]\n",
         "avg = average(states, 2)\n", "average", edit=True),
    # a sample taken from a dataset is a view of the dataset's tensor (held in a tuple): the
    # sample is what the cell used, and ``ds.tensors[0] = ...`` could not even run
    Case("dataset_sample_is_named_not_its_dataset", "fake",
         "from torch.utils.data import TensorDataset\n"
         "model = nn.Sequential(nn.Flatten(), nn.Linear(12, 2)).to('cuda:0')\n"
         "ds = TensorDataset(torch.rand(5, 1, 3, 4), torch.randint(0, 2, (5,)))\n"
         "x, y = ds[0][0], ds[0][1]\n",
         "with torch.no_grad():\n    pred = model(x)\n", "x"),
    # a model dispatched over two GPUs takes its inputs on the first; an index its own forward
    # derives from one meets the last layer's output: that line is the fix, not the input
    Case("index_derived_from_an_input_of_a_dispatched_model", "fake",
         "class Scorer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.body, self.head = nn.Linear(4, 4), nn.Linear(4, 1)\n"
         "    def forward(self, x, mask):\n        h = self.head(self.body(x).to('cuda:1'))\n"
         "        ends = mask.sum(dim=1, keepdim=True) - 1\n"
         "        return torch.gather(h.squeeze(-1), 1, ends)\n"
         "scorer = Scorer()\nscorer.body.to('cuda:0')\nscorer.head.to('cuda:1')\n"
         "scorer.hf_device_map = {'body': 0, 'head': 1}\n"
         "x = torch.randn(2, 3, 4, device='cuda:0')\n"
         "mask = torch.ones(2, 3, dtype=torch.long, device='cuda:0')\n",
         "with torch.no_grad():\n    s = scorer(x, mask)\n", "scorer", edit=True),
    # an optimizer's own factors beside ``state`` (Shampoo's), restored from a CPU checkpoint:
    # ``load_state_dict`` moves none of them, and the loop's `K` is one of them
    Case("factors_an_optimizer_keeps_beside_its_state", "meta",
         "class Shampoo(torch.optim.SGD):\n    def __init__(self, params):\n"
         "        super().__init__(params, lr=0.1)\n"
         "        self.factors = [torch.eye(p.shape[0], device=p.device)\n"
         "                        for p in self.param_groups[0]['params']]\n"
         "    @torch.no_grad()\n    def step(self):\n"
         "        for p, K in zip(self.param_groups[0]['params'], self.factors):\n"
         "            p.sub_(K @ p.grad.reshape(p.shape[0], -1).reshape(p.shape), alpha=0.1)\n"
         "net = nn.Linear(4, 3).to('meta')\nopt = Shampoo(net.parameters())\n"
         "opt.factors = [torch.eye(f.shape[0]) for f in opt.factors]  # a CPU checkpoint's\n"
         "for p in net.parameters():\n    p.grad = torch.ones_like(p)\n",
         "opt.step()\n", "opt.factors"),
    Case("int_label_fills_two_targets_of_one_loss", "cpu", BCE_TWO_TARGETS,
         "out = trainer.train_step(x)\n", "trainer.real_label", edit=True),
    # Prodigy keeps a tensor in each param group, which load_state_dict never moves
    Case("tensor_kept_in_a_param_group", "fake",
         "class Prodigy(torch.optim.SGD):\n    @torch.no_grad()\n    def step(self):\n"
         "        for group in self.param_groups:\n            d = group['d_numerator']\n"
         "            for p in group['params']:\n                d.add_(p.grad.sum().reshape(1))\n"
         "net = nn.Linear(4, 2).to('cuda:0')\nopt = Prodigy(net.parameters(), lr=0.1)\n"
         "opt.param_groups[0]['d_numerator'] = torch.zeros(1)  # restored on the cpu\n"
         "for p in net.parameters():\n    p.grad = torch.ones_like(p)\n",
         "with torch.no_grad():\n    opt.step()\n", "opt.param_groups[0]['d_numerator']"),
    # LightGlue: two score buffers made in the default dtype, each filled with fp16 scores
    Case("two_buffers_made_in_the_default_dtype_for_fp16_writes", "cpu",
         "class Matcher(nn.Module):\n    def forward(self, x, i0, i1):\n"
         "        s0, s1 = x.half(), (2 * x).half()\n"
         "        b0 = torch.zeros((1, 6))\n        b1 = torch.zeros((1, 6))\n"
         "        b0[:, i0] = s0\n        b1[:, i1] = s1\n        return b0, b1\n"
         "matcher = Matcher()\nx = torch.rand(1, 3)\n"
         "i0, i1 = torch.tensor([0, 2, 4]), torch.tensor([1, 3, 5])\n",
         "out = matcher(x, i0, i1)\n", "matcher", edit=True),
    # an index made by true division in a helper object the model builds and runs
    Case("index_made_float_by_true_division", "cpu",
         "class Search:\n    def __init__(self, k):\n        self.k = k\n"
         "    def run(self, scores):\n        idx = scores.argsort(-1)[:, :self.k]\n"
         "        beam = idx / scores.shape[-1]\n        return self.pick(scores, beam)\n"
         "    def pick(self, scores, beam):\n        return torch.gather(scores, 1, beam)\n"
         "class Captioner(nn.Module):\n    def search(self, scores):\n"
         "        return Search(2).run(scores)\n"
         "model = Captioner()\nscores = torch.rand(2, 5)\n",
         "out = model.search(scores)\n", "model", edit=True),
    Case("tensor_attribute_registered_as_buffer", "fake",
         "class Pos(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.fc = nn.Linear(4, 4)\n        self.table = torch.randn(8, 4)\n"
         "    def forward(self, x):\n        return self.fc(x) + self.table.narrow(0, 0, 3)\n"
         "pos = Pos().to('cuda:0')\nx = torch.randn(3, 4, device='cuda:0')\n",
         "with torch.no_grad():\n    y = pos(x)\n", "pos.table", edit=True),
    # a chain of transforms started from a cpu identity: the cell reads the list's last item
    Case("last_item_of_a_list_read_with_a_negative_index", "fake",
         "steps = [torch.eye(3)]\nms = [torch.randn(3, 3, device='cuda:0') for _ in range(2)]\n",
         "for m in ms:\n    steps.append(m @ steps[-1])\n", "steps"),
    # a 0-dim statistic left on the GPU, multiplied into audio brought back to the cpu: the
    # scalar moves, not the data (a model on the GPU in the namespace does not decide)
    Case("zero_dim_statistic_left_on_the_gpu_with_cpu_data", "fake",
         "net = nn.Linear(4, 4).to('cuda:0')\nwav = torch.randn(1, 40, device='cuda:0')\n"
         "norm = wav.abs().amax()\nclips = [torch.randn(40) for _ in range(2)]\n",
         "outs = [c * norm for c in clips]\n", "norm"),
    # an index divided again and again (``keep / 3 / 1``): every ``/`` of the chain becomes
    # ``//``; the float scores the cell hands over are never cast to an integer (a cast that
    # runs because nothing passes the threshold any more)
    Case("an_index_divided_in_a_chain_and_scores_never_cast_to_long", "cpu",
         "def pick(scores, table):\n    keep = (scores >= 0.5).nonzero().view(-1)\n"
         "    if keep.numel() == 0:\n        return None\n    rows = keep / 3 / 1\n"
         "    return table[rows]\n"
         "scores = torch.tensor([0.9, 0.2, 0.7, 0.6])\ntable = torch.randn(4, 2)\n",
         "out = pick(scores, table)\n", "pick", edit=True),
    # a value still being computed when it fails, then sent to the cpu: the ``.cpu()`` says where
    # the result goes, not where the distribution's parameters must be
    Case("a_result_sent_to_the_cpu_does_not_decide_where_the_inputs_go", "fake",
         "class Forecast:\n    def __init__(self, loc):\n        self.loc = loc\n"
         "    def quantile(self, level):\n"
         "        return (self.loc * torch.tensor([level])).cpu()\n"
         "forecast = Forecast(torch.randn(5, device='cuda:0'))\n",
         "q = forecast.quantile(0.9)\n", "forecast", edit=True),
    # ConceptExpress: ids a user tokenizer object returns on the cpu, passed to a text encoder
    # on the GPU: converted where they are made (against a tensor the method already has), not
    # inside the encoder they are passed to
    Case("ids_from_an_opaque_call_are_converted_where_they_are_made", "fake",
         "from types import SimpleNamespace\n"
         "class Tok:\n    def __call__(self, texts):\n"
         "        return SimpleNamespace(input_ids=torch.tensor([[1, 2, 3]] * len(texts)))\n"
         "class TextEncoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.emb = nn.Embedding(8, 4)\n"
         "    def forward(self, input_ids):\n        return self.emb(input_ids)\n"
         "class Trainer:\n    def __init__(self):\n        self.tok = Tok()\n"
         "        self.enc = TextEncoder().to('cuda:0')\n"
         "    def step(self, x):\n        latents = x * 2\n"
         "        null_ids = self.tok([''] * x.shape[0]).input_ids\n"
         "        return self.enc(null_ids) + latents.mean()\n"
         "trainer = Trainer()\nx = torch.randn(2, 4, device='cuda:0')\n",
         "with torch.no_grad():\n    out = trainer.step(x)\n", "`null_ids` in Trainer.step",
         edit=True),
    # kornia's RandomSolarize: a helper returns a dict of tensors made on the cpu; each local
    # taken from it is converted where it is taken (``.to()`` of the dict itself would raise)
    Case("tensors_taken_from_a_helper_dict_are_converted_where_taken", "fake",
         "class Aug(nn.Module):\n    def params(self, n):\n"
         "        return dict(scale=torch.rand(n), shift=torch.rand(n))\n"
         "    def forward(self, x):\n        p = self.params(x.shape[0])\n"
         "        scale = p['scale'].view(-1, 1)\n        shift = p['shift'].view(-1, 1)\n"
         "        return x * scale + shift\n"
         "aug = Aug()\nx = torch.randn(4, 3, device='cuda:0')\n",
         "out = aug(x)\n", "`scale` in Aug.forward", edit=True),
    # pytorch's chatbot tutorial: lengths moved to the model's device by the user's own line;
    # pack_padded_sequence wants them on the cpu: that line sends them there instead
    Case("lengths_moved_to_the_device_by_a_line_go_to_the_cpu_there", "meta",
         "class Enc(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.rnn = nn.GRU(4, 4)\n"
         "    def forward(self, x, input_lengths):\n"
         "        packed = nn.utils.rnn.pack_padded_sequence(x, input_lengths)\n"
         "        return self.rnn(packed)\n"
         "device = torch.device('meta')\nenc = Enc().to(device)\n"
         "def evaluate(enc, seq):\n    lengths = torch.tensor([seq.shape[0]])\n"
         "    lengths = lengths.to(device)\n    return enc(seq.unsqueeze(1), lengths)\n"
         "seq = torch.randn(5, 4, device='meta')\n",
         "out = evaluate(enc, seq)\n", "`lengths` in evaluate", edit=True),
    # machine-learning-book's char-RNN: ``sample(model, ...)`` encodes the prompt on the cpu;
    # the model it was handed says where (``next(model.parameters()).device``)
    Case("a_prompt_made_in_a_function_takes_the_device_of_the_model_it_was_handed", "fake",
         "class RNN(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.embedding = nn.Embedding(10, 4)\n"
         "    def forward(self, x):\n        return self.embedding(x)\n"
         "model = RNN().to('cuda:0')\n"
         "def sample(model, prompt):\n"
         "    encoded_input = torch.tensor([ord(c) % 10 for c in prompt])\n"
         "    return model(encoded_input)\n",
         "with torch.no_grad():\n    out = sample(model, 'the island')\n",
         "`encoded_input` in sample", edit=True),
    # heads kept in a plain list by a model with no parameter of its own: its .to() moved
    # nothing; each head moves as a module (a Parameter cannot be rebound to a tensor)
    Case("heads_in_a_plain_list_of_a_model_with_no_parameter_of_its_own", "meta",
         "class Heads(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.heads = [nn.Linear(4, n) for n in (2, 3)]\n"
         "    def forward(self, x):\n        return [h(x) for h in self.heads]\n"
         "model = Heads().to('meta')\nxb = torch.randn(5, 4, device='meta')\n",
         "outs = model(xb)\n", "model.heads"),
]


def _text(out: str) -> str:
    out = ANSI.sub("", out)
    assert "devicelens: " in out, out[-1500:]
    return out[out.index("devicelens: "):]


def _named(text: str, culprit: str) -> bool:
    names = re.findall(r"^\s*culprit: (.+?) \(", text, re.M)
    return any(n == culprit or n.startswith((culprit + ".", culprit + "[")) for n in names)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_post_mortem_names_and_fixes(case: Case, ip, capsys, fake_cuda) -> None:
    fake = fake_cuda if case.sim == "fake" else None
    assert _run(ip, IMPORTS + case.setup, fake) is None
    capsys.readouterr()
    assert _run(ip, case.cell, fake) is not None
    text = _text("".join(capsys.readouterr()))
    assert _named(text, case.culprit), text
    edits = _edits(text)
    assert bool(edits) == case.edit or (case.edit is False and not edits), text
    setup, cell = case.setup, case.cell
    for old, new in edits:
        try:
            setup = _apply(setup, old, new)
        except AssertionError:
            cell = _apply(cell, old, new)
    if edits:
        assert _run(ip, IMPORTS + setup, fake) is None
    fix = _fix_code(text)
    if fix:
        assert _run(ip, fix, fake) is None, fix
    assert _run(ip, cell, fake) is None, text


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_cuda_safe_names_the_same_culprit(case: Case, ip, capsys, fake_cuda) -> None:
    fake = fake_cuda if case.sim == "fake" else None
    assert _run(ip, IMPORTS + case.setup, fake) is None
    flags = " --dtype" if case.sim == "cpu" else ""
    err = _run(ip, f"%%cuda_safe --no-preflight{flags}\n{case.cell}", fake)
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert _named(str(err), case.culprit), str(err)
    assert bool(err.report.edits) == case.edit, str(err)


LORA_AFTER_TO = (
    "class LoRA(nn.Module):\n    def __init__(self, base):\n        super().__init__()\n"
    "        self.base, self.down, self.up = base, nn.Linear(8, 2), nn.Linear(2, 8)\n"
    "    def forward(self, x):\n        return self.base(x) + self.up(self.down(x))\n"
    "net = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8), nn.Linear(8, 8)).to('meta')\n"
    "net[0], net[2] = LoRA(net[0]), LoRA(net[2])\n"  # NB: added after .to(): on the cpu
    "x = torch.randn(2, 8, device='meta')\n")


def test_every_part_a_partial_move_left_behind_is_a_culprit(ip, capsys) -> None:
    """Adapters added after ``net.to()``: the op meets the first one; all four are strays, each
    named (not only in the note), and the one fix moves the whole model."""
    assert _run(ip, IMPORTS + LORA_AFTER_TO, None) is None
    capsys.readouterr()
    assert _run(ip, "y = net(x)\n", None) is not None
    text = _text("".join(capsys.readouterr()))
    names = re.findall(r"^\s*culprit: (\S+) \(", text, re.M)
    assert names == ["net[0].down.weight", "net[0].down.bias", "net[0].up", "net[2].down",
                     "net[2].up"], text
    assert _fix_code(text) == 'net.to("meta")', text
    err = _run(ip, "%%cuda_safe --no-preflight\ny = net(x)\n", None)
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert re.findall(r"^\s*culprit: (\S+) \(", str(err), re.M) == names, str(err)


def test_an_int64_loss_target_is_called_so_not_an_in_place_cast(ip, capsys) -> None:
    assert _run(ip, IMPORTS + BCE_TWO_TARGETS, None) is None
    capsys.readouterr()
    assert _run(ip, "out = trainer.train_step(x)\n", None) is not None
    text = _text("".join(capsys.readouterr()))
    assert text.splitlines()[0] == (
        "devicelens: the loss target must be floating point, like the input"), text
    # NB: both targets, so the step runs after one fix: the second is the rehearsal's, which
    # ran the step with the first edit and met the second line
    assert len(_edits(text)) == 2, text
    assert "  verified: rehearsed on a copy of this kernel's state" in text, text



def test_a_module_s_own_buffers_left_behind_are_culprits_too(ip, capsys, fake_cuda) -> None:
    """MFCC: its mel part's filter bank and its own ``dct`` buffer both stayed on the cpu."""
    setup = ("class Mel(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
             "        self.register_buffer('fb', torch.rand(4, 3))\n"
             "    def forward(self, x):\n        return x @ self.fb\n"
             "class MFCC(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
             "        self.mel, self.lin = Mel(), nn.Linear(3, 3)\n"
             "        self.register_buffer('dct', torch.rand(3, 2))\n"
             "    def forward(self, x):\n        return self.lin(self.mel(x)) @ self.dct\n"
             "mfcc = MFCC()\nmfcc.lin.to('cuda:0')\nx = torch.rand(2, 4, device='cuda:0')\n")
    assert _run(ip, IMPORTS + setup, fake_cuda) is None
    capsys.readouterr()
    assert _run(ip, "with torch.no_grad():\n    y = mfcc(x)\n", fake_cuda) is not None
    text = _text("".join(capsys.readouterr()))
    names = re.findall(r"^\s*culprit: (\S+) \(", text, re.M)
    assert names == ["mfcc.mel.fb", "mfcc.dct"], text
    assert _fix_code(text) == 'mfcc.to("cuda:0")', text


SETTINGS = """
class Policy(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.device = device
        self.net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    def forward(self, obs):
        obs = torch.as_tensor(obs, device=self.device, dtype=torch.float32)
        return self.net(obs)
class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.policy = Policy(torch.device("cpu"))
        self.scale = nn.Linear(2, 2)
    def forward(self, obs):
        return self.scale(self.policy(obs).to(self.policy.device))
agent = Policy("cpu")
sampler = Sampler()
stack = nn.Sequential(Policy("cpu"))
obs = [[0.0, 1.0, 2.0, 3.0]]
"""


@pytest.mark.parametrize(("cell", "culprit", "fix"), [
    ("agent.to('meta')\nout = agent(obs)\n", "agent.device", 'agent.device = "meta"'),
    ("sampler.to('meta')\nout = sampler(obs)\n", "sampler.policy.device",
     'sampler.policy.device = torch.device("meta")'),
    ("stack.to('meta')\nout = stack(obs)\n", "stack[0].device", 'stack[0].device = "meta"'),
])
def test_a_device_kept_as_a_setting_is_the_culprit_and_setting_it_the_fix(
        ip, capsys, cell, culprit, fix) -> None:
    """``self.device``, set when the object was built and never changed by ``Module.to()``:
    the tensors its code makes on it are temporaries; the setting is the user's to fix (in a
    library's code, the only thing they can change)."""
    assert _run(ip, IMPORTS + SETTINGS, None) is None
    capsys.readouterr()
    assert _run(ip, cell, None) is not None
    text = _text("".join(capsys.readouterr()))
    assert re.findall(r"^\s*culprit: (\S+) \(", text, re.M) == [culprit], text
    assert _fix_code(text) == fix, text
    assert "  verified: rehearsed on a copy of this kernel's state" in text, text
    assert ip.run_cell(fix, store_history=False).error_in_exec is None
    assert _run(ip, cell.splitlines()[-1] + "\n", None) is None


def test_a_librarys_own_device_check_names_the_stray_among_its_locals(ip, capsys) -> None:
    """A library that checks devices itself (PPQ's executor) raises its own ValueError from a
    ``raise`` line that reads no tensor: the tensors are that frame's locals."""
    setup = ("def check_same_device(op, values):\n"
             "    devices = [str(v.device.type) for v in values]\n"
             "    if len(set(devices)) > 1:\n"
             "        raise ValueError(f'Input tensors do not share a same device. ({devices})')\n"
             "class Executor:\n"
             "    def __init__(self, w):\n        self.w = w\n"
             "    def forward(self, x):\n"
             "        check_same_device('Gemm', [x, self.w])\n"
             "        return x @ self.w\n"
             "executor = Executor(torch.randn(4, 2, device='meta'))\n"
             "batch = torch.randn(3, 4)\n")
    assert _run(ip, IMPORTS + setup, None) is None
    capsys.readouterr()
    assert _run(ip, "out = executor.forward(batch)\n", None) is not None
    text = _text("".join(capsys.readouterr()))
    assert text.splitlines()[0] == "devicelens: tensors on different devices: cpu, meta", text
    assert re.findall(r"^\s*culprit: (\S+) \(", text, re.M) == ["batch"], text
    assert _fix_code(text) == 'batch = batch.to("meta")', text
    assert "  verified: rehearsed on a copy of this kernel's state" in text, text


def test_a_module_a_function_built_is_named_by_its_local_and_moved_where_it_is_held(
        ip, capsys) -> None:
    """d3rlpy's factory probes the encoder it just built with an input on the target device,
    before it moves it: the weights are in no namespace object yet, only in the factory's
    local ``encoder``; the fix moves it there, before that line."""
    setup = ("def output_size(encoder, device):\n"
             "    return encoder(torch.rand(1, 8, device=device)).shape[1]\n"
             "def build(device):\n"
             "    encoder = nn.Sequential(nn.Linear(8, 16), nn.ReLU())\n"
             "    size = output_size(encoder, device)\n"
             "    head = nn.Linear(size, 2)\n"
             "    return nn.Sequential(encoder, head).to(device)\n")
    assert _run(ip, IMPORTS + setup, None) is None
    capsys.readouterr()
    assert _run(ip, "net = build('meta')\n", None) is not None
    text = _text("".join(capsys.readouterr()))
    assert "  culprit: `encoder` in build (Sequential, cpu)" in text, text
    assert "  inside: `encoder[0]` in output_size (Linear)\n" in text, text
    assert _edits(text) == [(["size = output_size(encoder, device)"],
                             ["encoder.to(device)", "size = output_size(encoder, device)"])], text
    assert "  verified: rehearsed on a copy of this kernel's state" in text, text


def test_a_local_made_by_a_submodule_is_traced_through_its_forward(ip, capsys) -> None:
    """PyTorch Frame: the encoder multiplies float64 features by float32 weights (promotion
    makes float64), and the LayerNorm after it fails on a local. The local came from the
    encoder's ``forward``, whose float64 came from the features the user holds."""
    setup = ("class Frame:\n"
             "    def __init__(self, feats):\n        self.feats = feats\n"
             "class Encoder(nn.Module):\n"
             "    def __init__(self):\n        super().__init__()\n"
             "        self.w = nn.Parameter(torch.randn(5, 16))\n"
             "    def forward(self, feat):\n        return feat.unsqueeze(-1) * self.w\n"
             "class Net(nn.Module):\n"
             "    def __init__(self):\n        super().__init__()\n"
             "        self.encoder, self.norm = Encoder(), nn.LayerNorm(16)\n"
             "    def forward(self, frame):\n"
             "        x = self.encoder(frame.feats['num'])\n"
             "        return self.norm(x)\n"
             "frame = Frame({'num': torch.randn(8, 5, dtype=torch.float64)})\n"
             "net = Net()\n")
    assert _run(ip, IMPORTS + setup, None) is None
    capsys.readouterr()
    assert _run(ip, "out = net(frame)\n", None) is not None
    text = _text("".join(capsys.readouterr()))
    assert re.findall(r"^\s*culprit: (\S+) \(", text, re.M) == ["frame.feats['num']"], text
    assert _fix_code(text) == "frame.feats['num'] = frame.feats['num'].float()", text


def test_a_split_models_own_loss_takes_its_labels_where_its_logits_are(
        ip, capsys, fake_cuda) -> None:
    """A model split over two GPUs computes its loss in its own forward (as transformers'
    models do): the logits come out of the last stage, and the labels, on the first, are what
    moves, under the guard and in the post-mortem alike."""
    setup = ("import torch.nn.functional as F\n"
             "class Split(nn.Module):\n"
             "    def __init__(self):\n        super().__init__()\n"
             "        self.s0 = nn.Linear(8, 8).to('cuda:0')\n"
             "        self.s1 = nn.Linear(8, 4).to('cuda:1')\n"
             "    def forward(self, x, labels):\n"
             "        logits = self.s1(self.s0(x).to('cuda:1'))\n"
             "        return F.cross_entropy(logits, labels)\n"
             "model = Split()\n"
             "x = torch.randn(3, 8, device='cuda:0')\n"
             "labels = torch.randint(0, 4, (3,), device='cuda:0')\n")
    assert _run(ip, IMPORTS + setup, fake_cuda) is None
    for cell in ("with torch.no_grad():\n    loss = model(x, labels)\n",
                 "%%cuda_safe --no-preflight\n"
                 "with torch.no_grad():\n    loss = model(x, labels)\n"):
        capsys.readouterr()
        err = _run(ip, cell, fake_cuda)
        assert err is not None
        text = str(err) if isinstance(err, DeviceMismatchError) else _text(
            "".join(capsys.readouterr()))
        assert re.findall(r"^\s*culprit: (\S+) \(", text, re.M) == ["labels"], text
        assert _fix_code(text) == 'labels = labels.to("cuda:1")', text


@pytest.mark.parametrize(("setup", "cell", "culprit", "fix"), [
    # a float label map (resampled with interpolate) counted by bincount in a helper
    ("def shares(label, n):\n    return torch.bincount(label.flatten(), minlength=n)\n"
     "label = torch.randint(0, 4, (4, 4)).float()\n",
     "s = shares(label, 4)\n", "label", "label = label.long()"),
    ("label = torch.randint(0, 4, (4, 4)).float()\n",
     "counts = label.flatten().bincount()\n", "label", "label = label.long()"),
    # "expected scalar type Long but found Float" is NLL's target, and also any op's mix: an
    # int64 adjacency matrix into matmul (PyG's DenseGraphConv)
    ("class Conv(nn.Module):\n"
     "    def __init__(self):\n        super().__init__()\n        self.lin = nn.Linear(4, 2)\n"
     "    def forward(self, x, adj):\n        return self.lin(torch.matmul(adj, x))\n"
     "c = Conv()\nx = torch.randn(3, 4, 4)\na = torch.randint(0, 2, (3, 4, 4))\n",
     "out = c(x, a)\n", "a", "a = a.float()"),
])
def test_integer_counts_and_a_long_operand_in_a_float_op(ip, capsys, setup, cell, culprit,
                                                         fix) -> None:
    assert _run(ip, IMPORTS + setup, None) is None
    capsys.readouterr()
    assert _run(ip, cell, None) is not None
    text = _text("".join(capsys.readouterr()))
    assert re.findall(r"^\s*culprit: (\S+) \(", text, re.M) == [culprit], text
    assert _fix_code(text) == fix, text


def test_every_true_division_of_an_index_chain_becomes_a_floor_division(ip, capsys) -> None:
    """``indices / num_classes / height / width`` divides the index at every step: the edit
    floors each one (the first alone would leave the rest float)."""
    setup = IMPORTS + (
        "def cell_of(flat, table, w, h):\n    a = flat / w / h\n    return table[a]\n"
        "flat = torch.arange(0, 24, 6)\ntable = torch.randn(3, 2)\n")
    assert _run(ip, setup, None) is None
    capsys.readouterr()
    assert _run(ip, "out = cell_of(flat, table, 4, 2)\n", None) is not None
    text = _text("".join(capsys.readouterr()))
    assert "+ a = flat // w // h" in ANSI.sub("", text), text
    old, new = _edits(text)[0]
    assert _run(ip, IMPORTS + _apply(setup.removeprefix(IMPORTS), old, new), None) is None
    assert _run(ip, "out = cell_of(flat, table, 4, 2)\n", None) is None


LOOPED = """
import torch
from torch import nn
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.scale = torch.ones(4)
    def forward(self, x):
        return self.lin(x) * self.scale
class Made(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
    def forward(self, x):
        return self.lin(x) * torch.ones(4)
class Net(nn.Module):
    def __init__(self, kind):
        super().__init__()
        self.blocks = nn.ModuleList([kind(), kind()])
"""


def _looped(ip, capsys, kind: str) -> str:
    assert ip.run_cell(LOOPED + f"kind = {kind}\n", store_history=False).error_in_exec is None
    ip.run_cell(f"model = Net({kind}).to('meta')\nx = torch.randn(2, 4, device='meta')\n"
                "if kind is Block:\n"
                "    model.blocks[0].scale = model.blocks[0].scale.to('meta')\n")
    capsys.readouterr()
    assert ip.run_cell("for block in model.blocks:\n    x = block(x)\n").error_in_exec
    out = ANSI.sub("", capsys.readouterr().out)
    return out[out.index("devicelens: "):]


def test_a_module_the_cells_loop_binds_is_named_by_its_lasting_path(ip, capsys) -> None:
    """llm-foundry's MPT blocks called as ``for block in model.blocks``: the edit's handle is
    ``model.blocks[0]``, which the next pass does not rebind, not ``block``."""
    text = _looped(ip, capsys, "Made")
    assert "  culprit: model.blocks[0] (made on cpu), a temporary; expected meta" in text, text
    assert "edit: in `model.blocks[0]` (Made.forward," in text
    assert "`block`" not in text and "culprit: block" not in text


def test_a_finding_under_the_loops_name_is_not_said_twice(ip, capsys) -> None:
    """The stray attribute of ``model.blocks[1]`` is the finding of ``model`` and of the
    loop's ``block`` alike: said once, in the lasting name its fix needs."""
    text = _looped(ip, capsys, "Block")
    assert "  culprit: model.blocks[1].scale (float32[4] on cpu); expected meta" in text, text
    assert "block.scale" not in text and "culprit: block " not in text
    assert text.count("is a plain tensor attribute on cpu") == 1
    assert '      model.blocks[1].register_buffer("scale", _t.to("meta"), persistent=False)' \
        in text


DETECTION = """
import torch
from torch import nn
class RoIHeads(nn.Module):
  def forward(self, features, targets):
    for t in targets:
      if not t["boxes"].dtype in (torch.float, torch.double, torch.half):
        raise TypeError(f"target boxes must of float type, instead got {t['boxes'].dtype}")
      if not t["labels"].dtype == torch.int64:
        raise TypeError(f"target labels must of int64 type, instead got {t['labels'].dtype}")
    return features.sum()
def get_ground_truths(n):
  return [{"boxes": torch.rand(n, 4), "labels": torch.Tensor(list(range(n)))}]
heads = RoIHeads()
"""


def test_a_librarys_own_dtype_check_names_the_tensor_its_raising_line_reads(ip, capsys) -> None:
    """torchvision's detection heads check their targets themselves and raise TypeError,
    quoting the tensor they checked: that tensor is the culprit (labels made by
    ``torch.Tensor(...)`` are float32), not the features beside it."""
    assert ip.run_cell(DETECTION, store_history=False).error_in_exec is None
    ip.run_cell("feats = torch.randn(2, 4)\ntargets = get_ground_truths(3)\n")
    capsys.readouterr()
    assert ip.run_cell("loss = heads(feats, targets)\n").error_in_exec is not None
    out = ANSI.sub("", capsys.readouterr().out)
    text = out[out.index("devicelens: "):]
    assert text.startswith("devicelens: the tensor the library checks must hold int64 values\n")
    assert "  culprit: targets[0]['labels'] (float32[3] on cpu)" in text, text
    assert "culprit: feats" not in text and "boxes" not in text.split("  at:")[0]
    assert "targets[0]['labels'] = targets[0]['labels'].long()" in text
    assert "verified: rehearsed" in text
