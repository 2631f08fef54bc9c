"""Where a stray is fixed when the code that made it has nothing to take the device from: in
the caller that reads it out of its own container, in the comprehension that made it, in the
cache that holds it. Post-mortem diagnoses of real failing cells on a simulated GPU."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import torch

from tests._traces import VERIFIED

ANSI = re.compile(r"\x1b\[[0-9;]*m")

BIENCODER = """
import collections
import torch
from torch import nn

Batch = collections.namedtuple("Batch", ["question_ids", "context_ids"])

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 4)
    def forward(self, ids):
        return self.emb(ids).mean(1)

class BiEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.question_model = Encoder()
        self.ctx_model = Encoder()
    def forward(self, q_ids, ctx_ids):
        return self.question_model(q_ids), self.ctx_model(ctx_ids)

    @staticmethod
    def create_input(n):
        return Batch(torch.randint(0, 50, (n, 3)), torch.randint(0, 50, (2 * n, 3)))

class Trainer:
    def __init__(self, model):
        self.biencoder = model
    def validate(self):
        batch = BiEncoder.create_input(2)
        q, ctx = self.biencoder(batch.question_ids,
                                batch.context_ids)
        return q @ ctx.t()
"""

ENCODE = """
from collections import UserDict
import torch
from torch import nn

class Encoding(UserDict):  # transformers' BatchEncoding is one
    def to(self, device):
        return Encoding({k: v.to(device) for k, v in self.items()})

def tokenize(text, wrap):
    ids = torch.tensor([[len(w) for w in text.split()]])
    return wrap(input_ids=ids, attention_mask=torch.ones_like(ids))

class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(50, 4)
    def forward(self, input_ids, attention_mask=None):
        return self.embed(input_ids) * attention_mask.unsqueeze(-1)

def score(model, text, wrap):
    inputs = tokenize(text, wrap)
    return model(**inputs).sum()
"""

MERGE = """
import torch

def ties(*deltas, p=0.5):
    deltas = [d * torch.bernoulli(torch.full(d.shape, 1 - p)) for d in deltas]
    return torch.stack(deltas).sum(0)
"""

GRIDS = """
import torch

grids = {}

def warp(flow):
    k = (str(flow.device), flow.shape[1])
    if k not in grids:
        grids[k] = torch.linspace(-1.0, 1.0, flow.shape[1])
    return grids[k] + flow
"""

SPIKES = """
import torch
from torch import nn

class Input(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("s", torch.zeros(1, n, dtype=torch.bool))
        self.register_buffer("x", torch.zeros(1, n))
    def forward(self, x):
        self.s = x
        self.x.masked_fill_(self.s.bool(), 1.0)

class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"I": Input(3)})
    def run(self, inputs, time):
        for t in range(time):
            for l in self.layers:
                if l in inputs:
                    self.layers[l].forward(x=inputs[l].select(0, t))
"""

GRID = """
import torch
from torch import nn

class Grid(nn.Module):
    def __init__(self):
        super().__init__()
        self.data = nn.Parameter(torch.zeros(1, 6))
    def forward(self, u):
        padded = torch.cat([self.data, self.data], dim=-1)
        return torch.stack([padded * (u + o) for o in range(2)]).sum(0)
"""

STAGES = """
import torch
from torch import nn

class Rebuilt(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.rand(2))
    def _evaluate(self, x):
        res = torch.cos(x + self.weights)
        return torch.zeros(res.shape, dtype=x.dtype) + 0.0  # rebuilt on the host
    def forward(self, inputs):
        return self._evaluate(inputs)
"""

HALF_MOVED = """
import torch
from torch import nn

DEVICE = "cuda:0"

def test(net, testloader):
    correct = 0
    with torch.no_grad():
        for data in testloader:
            images, labels = data[0].to(DEVICE), data[1]
            outputs = net(images)
            correct += (outputs.argmax(1) == labels).sum()
    return correct
"""

LATE_MODEL = """
import numpy as np
import torch
from torch import nn

class Series:  # NB: a darts TimeSeries: the values behind a method, no array to cast
    def __init__(self, values):
        self._values = values
    def values(self):
        return self._values

class Trainer:
    def _samples(self, target, cov):
        stacked = np.concatenate([target.values(), cov.values()], axis=1)
        return torch.from_numpy(stacked), torch.from_numpy(target.values())
    def fit(self, target, cov):
        x, y = self._samples(target, cov)
        dtype = torch.float64 if target.values().dtype == np.float64 else torch.float32
        self.model = nn.Linear(x.shape[1], y.shape[1]).to(dtype)  # built after the samples
        with torch.no_grad():
            return self.model(x)
"""

def run(ip, cell: str, fake=None):
    if fake is None:
        return ip.run_cell(cell, store_history=False).error_in_exec
    with fake:
        return ip.run_cell(cell, store_history=False).error_in_exec


def diagnosis(capsys) -> str:
    out = ANSI.sub("", capsys.readouterr().out)
    assert "devicelens: " in out, out[-2000:]
    return out[out.index("devicelens: "):]


def test_an_element_of_the_callers_batch_is_moved_where_the_caller_reads_it(ip, capsys,
                                                                             fake_cuda):
    """DPR's ``validate_average_rank``: a static method (read off the class) makes a namedtuple
    of cpu ids for a bi-encoder on the GPU. The ids are moved where the trainer hands them to
    the model, with the model it holds as the anchor, not inside the encoder's ``forward``."""
    assert run(ip, BIENCODER) is None
    with fake_cuda:
        ip.user_ns.update(trainer=ip.user_ns["Trainer"](
            fake_cuda.to(ip.user_ns["BiEncoder"](), "cuda:0")))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    ranks = trainer.validate()\n", fake_cuda) \
        is not None
    text = diagnosis(capsys)
    assert "culprit: `batch` in Trainer.validate (int64[" in text
    assert "+ q, ctx = self.biencoder(batch.question_ids.to(next(self.biencoder.parameters())" \
           ".device)," in text
    assert "+ batch.context_ids.to(next(self.biencoder.parameters()).device))" in text
    assert "Encoder.forward, cell" not in text.split("edit:", 1)[1]
    assert VERIFIED in text


def test_a_dict_unpacked_into_the_model_is_moved_where_it_is_unpacked(ip, capsys, fake_cuda):
    """A tokenizer's output left on the cpu and passed as ``model(**inputs)``: moved through its
    own ``.to`` where its class has one (a ``BatchEncoding``), and the local is the culprit."""
    assert run(ip, ENCODE) is None
    with fake_cuda:
        ip.user_ns.update(model=fake_cuda.to(ip.user_ns["LM"](), "cuda:0"),
                          wrap=ip.user_ns["Encoding"])
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    s = score(model, 'a bb ccc', wrap)\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: `inputs` in score (int64[1, 3] on cpu)" in text
    assert "+ return model(**inputs.to(next(model.parameters()).device)).sum()" in text
    assert VERIFIED in text


def test_a_plain_dict_unpacked_into_the_model_is_moved_item_by_item(ip, capsys, fake_cuda):
    """The same with a plain dict of tensors, which has no ``.to``: each item is moved where
    the dict is unpacked."""
    assert run(ip, ENCODE) is None
    with fake_cuda:
        ip.user_ns.update(model=fake_cuda.to(ip.user_ns["LM"](), "cuda:0"), wrap=dict)
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    s = score(model, 'a bb ccc', wrap)\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "+ return model(**{k: v.to(next(model.parameters()).device) for k, v in " \
           "inputs.items()}).sum()" in text
    assert VERIFIED in text


def test_a_factory_in_a_comprehension_frame_is_given_the_device(ip, capsys, fake_cuda):
    """sd-mecha's TIES merge: ``torch.full(d.shape, ...)`` with no device in a list
    comprehension (its own frame before Python 3.12) meets GPU deltas. The comprehension's
    element is read as the failing frame's own line, and its variable is the anchor."""
    assert run(ip, MERGE) is None
    with fake_cuda:
        ip.user_ns.update(a=fake_cuda.randn(3, device="cuda:0"),
                          b=fake_cuda.randn(3, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "merged = ties(a, b)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert "+ deltas = [d * torch.bernoulli(torch.full(d.shape, 1 - p, device=d.device)) for " \
           "d in deltas]" in text
    assert VERIFIED in text


def test_a_cache_entry_under_a_tuple_key_is_named(ip, capsys, fake_cuda):
    """Practical-RIFE's grid cache keyed by ``(device, size)``: the cached cpu grid is read as
    ``grids[k]`` with ``k`` a tuple, so it is named in the namespace dict that holds it."""
    assert run(ip, GRIDS) is None
    with fake_cuda:
        ip.user_ns.update(flow=fake_cuda.randn(2, 5, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "g = warp(flow)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert text.startswith("devicelens: tensors on different devices: cpu, cuda:0")
    assert "culprit: grids[#0] (float32[5] on cpu); expected cuda:0" in text


def test_the_cells_own_tensors_are_still_moved_in_the_cell(ip, capsys, fake_cuda):
    """The caller's container is the fix only where the trail into its maker found nothing:
    a batch the cell itself holds by name is moved by that name."""
    assert run(ip, BIENCODER) is None
    with fake_cuda:
        ip.user_ns.update(model=fake_cuda.to(ip.user_ns["BiEncoder"](), "cuda:0"))
    ip.user_ns["batch"] = ip.user_ns["BiEncoder"].create_input(2)
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    q, c = model(batch.question_ids, "
               "batch.context_ids)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: batch.question_ids (int64[2, 3] on cpu)" in text
    assert "+ batch = batch._replace(question_ids=batch.question_ids.to(" not in text
    assert "batch = batch._replace(question_ids=batch.question_ids.to(\"cuda:0\"))" in text
    assert "edit:" not in text and VERIFIED in text
    assert isinstance(ip.user_ns["batch"].question_ids, torch.Tensor)


DUMMY = """
import torch
from torch import nn

class Bart(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Embedding(20, 4)

    @property
    def dummy_inputs(self):
        input_ids = torch.tensor([[0, 6, 10, 4, 2], [0, 8, 12, 2, 1]])
        return {"input_ids": input_ids, "attention_mask": input_ids.ne(1)}

    def forward(self, input_ids, attention_mask):
        return self.shared(input_ids) * attention_mask.unsqueeze(-1)
"""


def test_an_edit_inside_a_property_is_rehearsed_through_its_getter(ip, capsys, fake_cuda):
    """transformers' ``model(**model.dummy_inputs)``: the property makes its ids on the cpu for a
    model on the GPU. The dict it gives is unpacked into the call, so the trail reaches the
    getter's own line, and the edit there is rehearsed by running the edited getter."""
    assert run(ip, DUMMY) is None
    with fake_cuda:
        ip.user_ns.update(model=fake_cuda.to(ip.user_ns["Bart"](), "cuda:0"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    out = model(**model.dummy_inputs)\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: model (its Bart.dummy_inputs has the line to edit); expected cuda:0" in text
    assert "+ input_ids = torch.tensor([[0, 6, 10, 4, 2], [0, 8, 12, 2, 1]], " \
           "device=next(self.parameters()).device)" in text
    assert VERIFIED in text


FIT = """
import torch
from torch import nn

def fit(model, loader):
    for X, y in loader:
        loss = nn.functional.cross_entropy(model(X), y)
    return loss
"""


def test_a_batch_tuples_stray_item_is_cast_alone(ip, capsys):
    """TorchEEG with a team's own float64 trials: the batches are ``(X, y)`` tuples in a list.
    A tuple's item cannot be assigned, so the tuple is made again, with the float64 inputs cast
    and the int64 labels kept (casting every item made the labels float, the next round cast
    them back, and the fix never held)."""
    assert run(ip, FIT) is None
    ip.user_ns.update(model=torch.nn.Linear(4, 3), loader=[
        (torch.randn(2, 4, dtype=torch.float64), torch.tensor([0, 2])) for _ in range(2)])
    capsys.readouterr()
    assert run(ip, "loss = fit(model, loader)\n") is not None
    text = diagnosis(capsys)
    assert "loader[0] = (loader[0][0].float(), *loader[0][1:])" in text
    assert "loader[1] = (loader[1][0].float(), *loader[1][1:])" in text
    assert "tuple(t." not in text and VERIFIED in text


CACHED = """
import torch
from torch import nn

class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.kv_caches = []

    def forward(self, x, pos):
        if not self.kv_caches:
            self.kv_caches = [(torch.zeros(1, 3, 4), torch.zeros(1, 3, 4))]
        cache_k, cache_v = self.kv_caches[0]
        k = cache_k.index_copy(1, pos, self.proj(x))
        v = cache_v.index_copy(1, pos, self.proj(x))
        return k + v
"""


def test_a_modules_tuple_items_are_cast_by_making_the_tuple_again(ip, capsys):
    """lit-parrot's KV caches: ``(k, v)`` tuples in a plain list attribute of a bfloat16
    model, made in float32. ``kv_caches[0][0] = ...`` raises TypeError (a tuple's item cannot
    be assigned): the tuple is made again, each stray item cast in turn."""
    assert run(ip, CACHED) is None
    ip.user_ns.update(attn=ip.user_ns["Attn"]().to(torch.bfloat16),
                      x=torch.randn(1, 1, 4, dtype=torch.bfloat16), pos=torch.tensor([0]))
    assert run(ip, "attn(x, pos)\n") is not None  # NB: the caches are made, in float32
    capsys.readouterr()
    assert run(ip, "out = attn(x, pos)\n") is not None
    text = diagnosis(capsys)
    assert "attn.kv_caches[0] = (attn.kv_caches[0][0].bfloat16(), *attn.kv_caches[0][1:])" \
        in text
    assert ("attn.kv_caches[0] = (*attn.kv_caches[0][:1], attn.kv_caches[0][1].bfloat16(), "
            "*attn.kv_caches[0][2:])") in text
    assert VERIFIED in text


STATS = """
import torch
from torch import nn

class Stats:
    def __init__(self, source):
        self._tensordict = dict(source)

    def __getitem__(self, key):
        return self._tensordict[key]

class VecNorm(nn.Module):
    def __init__(self, keys):
        super().__init__()
        self.in_keys = list(keys)
        self._loc = Stats({k: torch.zeros(4) for k in keys})
        self._var = Stats({k: torch.ones(4) for k in keys})

    def forward(self, data):
        out = {}
        for k in self.in_keys:
            out[k] = (data[k] - self._loc[k]) / self._var[k].sqrt()
        return out
"""


def test_tensors_a_private_object_holds_are_named_by_the_key_the_line_spells(ip, capsys):
    """TorchRL's VecNormV2 keeps its running statistics in TensorDicts bound to private
    attributes, which ``Module.to()`` leaves on the cpu and the snapshot does not open. The
    failing line spells ``self._loc[k]``: followed through ``__dict__``s (no ``__getitem__``
    runs), the tensors under ``k`` are named and moved, both the one the op met and the one
    the next op would."""
    assert run(ip, STATS) is None
    ip.user_ns.update(vecnorm=ip.user_ns["VecNorm"](["obs"]).to("meta"),
                      td={"obs": torch.randn(4, device="meta")})
    capsys.readouterr()
    assert run(ip, "out = vecnorm(td)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: vecnorm._loc._tensordict['obs'] (float32[4] on cpu)" in text
    assert "culprit: vecnorm._var._tensordict['obs'] (float32[4] on cpu)" in text
    assert ("vecnorm._loc._tensordict['obs'] = vecnorm._loc._tensordict['obs'].to(\"meta\")"
            in text)
    assert VERIFIED in text
    # NB: %%cuda_safe meets the op's own arguments: the first is found by identity, the next
    # (a temporary of ``self._var[k]``) by its key, in the rehearsal's next round
    err = run(ip, "%%cuda_safe --no-preflight\nout = vecnorm(td)\n")
    assert "culprit: vecnorm._loc._tensordict['obs'] (float32[4] on cpu), argument 2" in str(err)
    assert "vecnorm._var._tensordict['obs'] = vecnorm._var._tensordict['obs'].to(\"meta\")" \
        in str(err)
    assert VERIFIED in str(err)


WRAPPER = """
import torch
from torch import nn

class Transformers:
    def __init__(self, model, device):
        self.device = torch.device(device)
        self.model = model

    @torch.no_grad()
    def __call__(self, input_ids):
        logits = self.model(input_ids)
        return logits.to("cuda:0")

def step(model, input_ids, allowed):
    logits = model(input_ids)
    return torch.where(allowed, logits, -float("inf"))
"""


def test_an_objects_own_call_is_followed_and_its_owner_named(ip, capsys, fake_cuda):
    """outlines' model wrapper pins its logits to cuda:0 in a ``__call__`` (under
    ``@torch.no_grad()``) for a model on cuda:1. The call of the object is followed into its
    class's ``__call__``, the hard-coded device is edited there, and the object is named by its
    namespace name although no frame of the failure runs its method any more."""
    assert run(ip, WRAPPER) is None
    with fake_cuda:
        lm = fake_cuda.to(torch.nn.Linear(4, 4), "cuda:1")
        ip.user_ns.update(model=ip.user_ns["Transformers"](lm, "cuda:1"),
                          ids=fake_cuda.randn(1, 4, device="cuda:1"),
                          allowed=fake_cuda.to(torch.ones(1, 4, dtype=torch.bool), "cuda:1"))
    capsys.readouterr()
    assert run(ip, "out = step(model, ids, allowed)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: model (its Transformers.__call__ has the line to edit); expected cuda:1" \
        in text
    assert "- return logits.to(\"cuda:0\")" in text and VERIFIED in text


ENGINE = """
import torch
from torch import nn

class Engine:
    def __init__(self, model):
        self.model = model
    def generate(self, prompt_token_ids):
        tokens = prompt_token_ids
        if isinstance(tokens, list):
            tokens = torch.Tensor(tokens)
        return self.model(tokens)
"""


def test_a_float_constructor_of_indices_is_made_an_integer_one(ip, capsys):
    """ColossalAI's inference engine: ``torch.Tensor(prompt_ids)`` makes float32 of integer ids
    (the legacy constructor's dtype is its name's). Where indices are wanted the line keeps the
    data's integers: ``torch.as_tensor(ids, dtype=torch.long)``."""
    assert run(ip, ENGINE) is None
    ip.user_ns.update(engine=ip.user_ns["Engine"](torch.nn.Embedding(50, 4)),
                      ids=[[1, 15, 27], [1, 42, 7]])
    capsys.readouterr()
    assert run(ip, "out = engine.generate(ids)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: engine (its Engine.generate has the line to edit); expected int64" in text
    assert "+ tokens = torch.as_tensor(tokens, dtype=torch.long)" in text and VERIFIED in text


GRAPHS = """
import torch
from torch import nn

class Graph:  # MatGL's DGL graph: a plain object, no ``.to`` of its own here
    def __init__(self, node_type, pos):
        self.node_type, self.pos = node_type, pos

def to_graph(symbols, positions):
    g = Graph(torch.tensor([len(s) for s in symbols]), torch.tensor(positions))
    return g, torch.zeros(1, 2)

class Potential(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Linear(1, 4)
        self.bond = nn.Linear(3, 4)
        self.state = nn.Linear(2, 4)
    def forward(self, g, state_attr):
        h = self.embedding(g.node_type.unsqueeze(1).float()) + self.bond(g.pos)
        return (h + self.state(state_attr)).sum()

class Calculator:
    def __init__(self, potential):
        self.potential = potential
    def calculate(self, symbols, positions):
        g, state_attr = to_graph(symbols, positions)
        return self.potential(g, state_attr)
"""


def test_a_plain_object_unpacked_from_a_helper_has_its_tensors_moved(ip, capsys, fake_cuda):
    """MatGL's calculator: the graph converter, with no device of its own, gives a graph
    object (no ``.to``) and a state tensor on the cpu. Where they are unpacked, the graph's own
    tensors are moved, each by its path, beside the state, to the calculator's model's device."""
    assert run(ip, GRAPHS) is None
    with fake_cuda:
        ip.user_ns.update(calc=ip.user_ns["Calculator"](
            fake_cuda.to(ip.user_ns["Potential"](), "cuda:0")))
    capsys.readouterr()
    cell = ("with torch.no_grad():\n"
            "    e = calc.calculate(['Pt', 'Pt'], [[0., 0., 0.], [1., 1., 0.]])\n")
    assert run(ip, cell, fake_cuda) is not None
    text = diagnosis(capsys)
    anchor = "next(self.potential.parameters()).device"
    assert (f"+ g.node_type, g.pos, state_attr = g.node_type.to({anchor}), g.pos.to({anchor}), "
            f"state_attr.to({anchor})") in text, text
    assert "g.to(" not in text
    assert VERIFIED in text


def test_a_buffer_the_method_rebinds_from_its_argument_is_the_callers_data(ip, capsys,
                                                                          fake_cuda):
    """BindsNET's input layer keeps each step's spikes as its buffer (``self.s = x``): the op
    meets the buffer, but the stray is what the cell handed ``network.run``. The user's data is
    the culprit, reached through ``self.layers[l]`` of a ``ModuleDict``; neither the buffer
    (the next call binds the stray again) nor a split of the network (the call's own doing)
    is blamed, and the model is not moved to the cpu."""
    assert run(ip, SPIKES) is None
    with fake_cuda:
        ip.user_ns.update(network=fake_cuda.to(ip.user_ns["Network"](), "cuda:0"),
                          price_data=torch.rand(4, 1, 3) > 0.5)
    capsys.readouterr()
    assert run(ip, 'network.run(inputs={"I": price_data}, time=4)\n', fake_cuda) is not None
    text = diagnosis(capsys)
    culprits = re.findall(r"^  culprit: (\S+)", text, re.MULTILINE)
    assert culprits == ["price_data"], text
    assert 'price_data = price_data.to("cuda:0")' in text
    assert ".to(\"cpu\")" not in text
    assert VERIFIED in text


def test_a_comprehension_sees_the_names_of_the_method_that_runs_it(ip, capsys, fake_cuda):
    """torch-cubic-spline-grids: the op fails in a list comprehension (a frame of its own up to
    Python 3.11, holding only the names it reads: ``padded``, not ``self``); its trail goes on
    in the method's names, to the grid's own weights: the module was never moved."""
    assert run(ip, GRID) is None
    ip.user_ns.update(m=ip.user_ns["Grid"]())
    capsys.readouterr()
    assert run(ip, 'with torch.no_grad():\n    out = m(torch.rand(12, device="cuda:0"))\n',
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: m.data (float32[1, 6] on cpu)" in text, text
    assert 'm.to("cuda:0")' in text
    assert VERIFIED in text


def test_the_input_of_a_sequentials_stage_is_what_the_stage_before_it_returned(ip, capsys,
                                                                             fake_cuda):
    """PennyLane 0.18's TorchLayer in an ``nn.Sequential`` on the GPU rebuilt its result on the
    host; the next stage (a Linear) fails. Its input is followed through torch's
    ``Sequential.forward`` to the stage before it, whose own code makes the stray: that line
    is edited, where the model was moved to the cpu before."""
    assert run(ip, STAGES) is None
    with fake_cuda:
        model = fake_cuda.to(torch.nn.Sequential(
            torch.nn.Linear(2, 2), ip.user_ns["Rebuilt"](), torch.nn.Linear(2, 2)), "cuda:0")
        ip.user_ns.update(model=model, xs=fake_cuda.randn(5, 2, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    pred = model(xs)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert "edit: in `model[1]` (Rebuilt._evaluate" in text, text
    assert ("+ return torch.zeros(res.shape, dtype=x.dtype, "
            "device=next(self.parameters()).device) + 0.0") in text
    assert '.to("cpu")' not in text
    assert VERIFIED in text


def test_a_value_unpacked_beside_moved_ones_is_moved_as_they_are(ip, capsys, fake_cuda):
    """Flower's quickstart ``test``: ``images, labels = data[0].to(DEVICE), data[1]`` moves
    the images and not the labels. The line is the fix (``data[1].to(DEVICE)``, the move its
    sibling makes): a real loader makes its batches anew at every pass, so moving the
    namespace's copy of them mends nothing."""
    assert run(ip, HALF_MOVED) is None
    with fake_cuda:
        ip.user_ns.update(net=fake_cuda.to(torch.nn.Linear(4, 3), "cuda:0"),
                          testloader=[(torch.randn(2, 4), torch.zeros(2, dtype=torch.int64))
                                      for _ in range(2)])
    capsys.readouterr()
    assert run(ip, "n = test(net, testloader)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert "+ images, labels = data[0].to(DEVICE), data[1].to(DEVICE)" in text, text
    assert "testloader[0] =" not in text
    assert VERIFIED in text


def test_an_edit_never_reads_an_attribute_its_caller_makes_after_calling_it(ip, capsys):
    """darts' N-BEATS: ``fit`` reads its samples, then builds ``self.model``; the float64
    samples meet the float32 model. The failed run left ``self.model`` behind, so an edit of
    the sampler casting to ``self.model``'s dtype is rehearsed fine, but a fresh run reaches it
    before the model exists. The edit takes its dtype from what exists there, and the fixed
    code runs from scratch."""
    from tests.test_guard_messages import _apply, _edits

    assert run(ip, LATE_MODEL) is None
    series = ip.user_ns["Series"]
    ip.user_ns.update(trainer=ip.user_ns["Trainer"](), target=series(np.ones((8, 1), np.float32)),
                      cov=series(np.ones((8, 2))))
    capsys.readouterr()
    assert run(ip, "out = trainer.fit(target, cov)\n") is not None
    text = diagnosis(capsys)
    plus = [ln for _old, new in _edits(text) for ln in new]
    assert plus and not any("self.model" in ln for ln in plus), text
    source = LATE_MODEL
    for old, new in _edits(text):
        source = _apply(source, old, new)
    assert run(ip, source) is None
    ip.user_ns["trainer"] = ip.user_ns["Trainer"]()  # NB: a fresh run: no model made yet
    assert run(ip, "out = trainer.fit(target, cov)\n") is None
    assert VERIFIED in text


def test_data_of_the_same_wrong_dtype_beside_the_culprit_is_mended_with_it(ip, capsys):
    """pykan's ``make_moons`` dataset (the corpus case), float64 for a float32 KAN: the trail
    names the training inputs; cast alone, they get the cell as far as the test inputs, whose
    own report offers no fix. Every datum the cell reads with that dtype is cast, rehearsed,
    where the rehearsal used to settle for a cast inside the library's spline code."""
    from tests.corpus import _harness

    case = _harness.load_case(str(Path(__file__).parent / "corpus" / "cases" /
                                  "dtype-input__pykan_make_moons_float64_dataset_dict.py"))
    assert run(ip, case.setup) is None
    capsys.readouterr()
    assert run(ip, case.cell) is not None
    text = diagnosis(capsys)
    assert "dataset['train_input'] = dataset['train_input'].float()" in text, text
    assert "dataset['test_input'] = dataset['test_input'].float()" in text
    assert "edit:" not in text and VERIFIED in text
