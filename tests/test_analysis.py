"""Findings: each kind fires on a real broken layout, stays quiet on the intentional twin, and its
fix code, run against the same namespace, makes the finding go away."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot

from .conftest import to_in_place


def findings(ns):
    return diagnose(take_snapshot(ns))


def kinds(ns):
    return sorted(f.kind for f in findings(ns))


def only(ns, kind):
    (f,) = [f for f in findings(ns) if f.kind == kind]
    return f


def run_fix(ns, f):
    """NB: tests run the library's *own* generated fix code, to prove the advice is right."""
    ns.update(torch=torch, nn=nn)
    exec(f.fix, ns)


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.enc = nn.Linear(4, 8)
        self.dec = nn.Linear(8, 2)

    def forward(self, x):
        return self.dec(self.enc(x))


# --- module split ----------------------------------------------------------------------------

def test_partly_moved_module_is_flagged_and_fixed_on_meta():
    model = Net()
    model.dec.to("meta")
    ns = {"model": model}
    f = only(ns, "module_split")
    assert f.severity == "error" and f.paths == ("model.enc.weight", "model.enc.bias")
    assert f.fix == 'model.to("meta")' and f.devices == ("cpu", "meta")
    assert f.action is not None and f.action.device == "meta"
    run_fix(ns, f)
    assert kinds(ns) == []


def test_partly_moved_module_targets_the_accelerator(fake_cuda):
    model = Net()
    model.enc = fake_cuda.to(model.enc, "cuda:1")  # the small half went to the GPU
    f = only({"model": model}, "module_split")
    assert f.fix == 'model.to("cuda:1")'
    assert "model.dec.weight" in f.paths and "split across cpu, cuda:1" in f.message


def test_accelerate_dispatched_model_is_not_flagged():
    model = Net()
    model.dec.to("meta")
    model.hf_device_map = {"enc": "cpu", "dec": "meta"}
    assert kinds({"model": model}) == []
    model2 = Net()
    model2.dec.to("meta")
    model2.dec._hf_hook = object()
    assert kinds({"model2": model2}) == []


def test_integer_counter_on_cpu_does_not_split_a_module():
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).to("meta")
    model[1].num_batches_tracked = torch.tensor(0)  # 0-dim int64 counter on cpu
    assert kinds({"model": model}) == []


# --- dtypes ----------------------------------------------------------------------------------

def test_module_with_mixed_float_dtypes():
    model = Net()
    model.dec.half()
    ns = {"model": model}
    f = only(ns, "module_mixed_dtype")
    assert f.fix == "model.to(torch.float32)" and set(f.dtypes) == {"float16", "float32"}
    run_fix(ns, f)
    assert kinds(ns) == []


def test_float64_data_for_a_float32_model():
    model = Net()
    ns = {"model": model, "x": torch.randn(3, 4, dtype=torch.float64),
          "labels": torch.tensor([0, 1, 1])}
    f = only(ns, "loose_dtype")
    assert f.fix == "x = x.float()" and f.paths == ("x",)
    run_fix(ns, f)
    assert kinds(ns) == [] and ns["x"].dtype == torch.float32


def freqs_cis(dim: int = 8, end: int = 16) -> torch.Tensor:
    """Rotary embeddings as Meta's LLaMA computes them: complex64 (``torch.polar``)."""
    freqs = 1.0 / (10000.0 ** (torch.arange(0, dim, 2).float() / dim))
    angles = torch.outer(torch.arange(end).float(), freqs)
    return torch.polar(torch.ones_like(angles), angles)


class Rotary(nn.Module):
    """An attention block that keeps its rotary table as a complex buffer (as torchtitan and
    many LLaMA ports do) and applies it the reference way."""

    def __init__(self) -> None:
        super().__init__()
        self.wq = nn.Linear(8, 8)
        self.wo = nn.Linear(8, 8)
        self.register_buffer("freqs_cis", freqs_cis(), persistent=False)

    def forward(self, x):
        q = torch.view_as_complex(self.wq(x).float().reshape(*x.shape[:-1], -1, 2))
        q = torch.view_as_real(q * self.freqs_cis[: x.shape[-2]]).flatten(-2).type_as(x)
        return self.wo(q)


def test_a_complex_rotary_table_is_no_dtype_mismatch():
    # NB: before, a complex64 buffer made the module "mixed" and its fix model.to(torch.complex64)
    # (the bigger dtype by bytes), or for a loose table freqs_cis.float(): both wreck RoPE
    ns = {"model": Rotary(), "x": torch.randn(2, 4, 8)}
    assert kinds(ns) == []
    half = {"model": nn.Linear(8, 8).half(), "freqs_cis": freqs_cis()}
    assert kinds(half) == []
    # NB: a complex tensor is still judged for its device
    moved = {"model": nn.Linear(8, 8).to("meta"), "freqs_cis": freqs_cis()}
    assert kinds(moved) == ["loose_device"]
    # NB: the model's dtype stays known beside a complex buffer: float64 data is still caught
    ns["x"] = ns["x"].double()
    assert only(ns, "loose_dtype").fix == "x = x.float()"


def test_a_mixed_module_with_a_complex_buffer_is_fixed_without_casting_it():
    model = Rotary()
    model.wo.half()
    table = model.freqs_cis.clone()
    ns = {"model": model, "x": torch.randn(2, 4, 8)}
    f = only(ns, "module_mixed_dtype")
    # NB: model.to(torch.float32) would cast the complex table to float32 too
    assert f.fix == "model.wo.to(torch.float32)"
    assert f.paths == ("model.wo.weight", "model.wo.bias")
    run_fix(ns, f)
    assert kinds(ns) == [] and torch.equal(model.freqs_cis, table)
    assert model(ns["x"]).shape == (2, 4, 8)  # the forward runs


def test_a_stray_beside_a_complex_tensor_gets_no_code_that_would_cast_it():
    model = Rotary()
    model.weight = nn.Parameter(torch.zeros(8, dtype=torch.float64))  # beside freqs_cis
    table = model.freqs_cis.clone()
    ns = {"model": model}
    f = only(ns, "module_mixed_dtype")
    assert f.fix == "" and "would also cast its complex tensors" in f.message
    # NB: the action casts real floating tensors only: the table keeps its imaginary part
    assert f.action is not None and f.action.dtype == "float32"
    assert moves.apply_fix(f, ns).ok
    assert model.weight.dtype == torch.float32 and torch.equal(model.freqs_cis, table)
    assert kinds(ns) == []


def test_float32_buffers_beside_half_parameters_are_a_note_not_a_cast():
    # NB: from_pretrained(torch_dtype=torch.bfloat16) keeps buffers in float32 (transformers
    # #30709); casting a rotary inv_freq to bfloat16 degrades RoPE (transformers #29496)
    model = Net()
    model.register_buffer("inv_freq", 1.0 / 10000 ** (torch.arange(0, 4, 2).float() / 4),
                          persistent=False)
    model.enc.bfloat16()
    model.dec.bfloat16()
    f = only({"model": model}, "module_float32_kept")
    assert f.severity == "info" and f.fix == "" and f.action is None
    assert f.paths == ("model.inv_freq",) and "deliberate" in f.message
    assert [k for k in kinds({"model": model}) if k != "module_float32_kept"] == []
    # NB: a float32 *parameter* left behind is still a mixed module, with its cast
    model.dec.float()
    f = only({"model": model}, "module_mixed_dtype")
    assert f.severity == "warning" and f.fix == "model.to(torch.bfloat16)"


def test_normalisation_layers_kept_in_float32_beside_half_ones_are_a_note():
    # NB: apex's network_to_half and fp16 recipes keep BatchNorm in float32 (cuDNN takes half
    # inputs with float32 statistics and affine weights); a Linear left in float32 is no such
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.Flatten(), nn.Linear(4, 2))
    model.half()
    model[1].float()
    f = only({"model": model}, "module_float32_kept")
    assert f.severity == "info" and set(f.paths) == {"model.1.weight", "model.1.bias",
                                                     "model.1.running_mean", "model.1.running_var"}
    model[3].float()
    assert kinds({"model": model}) == ["module_mixed_dtype"]


def test_a_models_own_normalisation_classes_kept_in_float32_are_a_note_too():
    # NB: transformers' and openpi's norms are classes of their own (``GemmaRMSNorm``,
    # ``T5LayerNorm``): kept in float32 beside bfloat16 layers on purpose, as torch's are
    class GemmaRMSNorm(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.weight = nn.Parameter(torch.zeros(dim))

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_layernorm = GemmaRMSNorm(4)
            self.proj = nn.Linear(4, 4)
            self.out = nn.Linear(4, 4)

    model = Layer().bfloat16()
    model.input_layernorm.float()
    f = only({"model": model}, "module_float32_kept")
    assert f.severity == "info" and f.paths == ("model.input_layernorm.weight",)
    model.out.float()  # NB: a plain layer left in float32 is still a mix
    assert kinds({"model": model}) == ["module_mixed_dtype"]


def test_a_checkpoints_tensors_are_no_inputs_of_the_model():
    # NB: pytorch-3dunet's resume: a DataParallel run's state dict, loaded on the cpu, handed to
    # a helper with the model on the GPU (here meta); load_state_dict copies across devices
    model = nn.Linear(2, 2).to("meta")
    state = {"epoch": 3, "model_state_dict": {"module.weight": torch.zeros(2, 2),
                                               "module.bias": torch.zeros(2)},
             "x": torch.zeros(1, 2)}
    ns = {"model": model, "state": state, "In": ["", "load_checkpoint(state, model)"]}
    f = only(ns, "loose_device")
    assert f.paths == ("state['x']",)


def test_float8_weights_beside_bfloat16_ones_are_no_mixed_model():
    # NB: fp8 checkpoints keep quantised weights (and their float32 scales) beside bfloat16
    # norms and embeddings; casting them to bfloat16 would undo the quantisation
    model = Net().bfloat16()
    model.enc.weight = nn.Parameter(model.enc.weight.detach().to(torch.float8_e4m3fn),
                                    requires_grad=False)
    assert kinds({"model": model}) == []
    model.dec.float()  # NB: a real float32 layer still is
    assert kinds({"model": model}) == ["module_mixed_dtype"]


class LoraLinear(nn.Module):
    """PEFT's LoRA layer, as its structure goes: the base layer beside ``lora_A``/``lora_B``
    ModuleDicts per adapter; its forward casts the input to the adapter's dtype."""

    def __init__(self, base: nn.Linear, r: int = 2) -> None:
        super().__init__()
        self.base_layer = base
        self.lora_A = nn.ModuleDict({"default": nn.Linear(base.in_features, r, bias=False)})
        self.lora_B = nn.ModuleDict({"default": nn.Linear(r, base.out_features, bias=False)})

    def forward(self, x):
        result = self.base_layer(x)
        a, b = self.lora_A["default"], self.lora_B["default"]
        return result + b(a(x.to(a.weight.dtype))).to(result.dtype)


def test_peft_float32_adapters_beside_a_half_base_are_a_note():
    # NB: PEFT upcasts LoRA weights to float32 over a float16/bfloat16 base (peft #1706) and
    # discourages model.to(torch.bfloat16) after get_peft_model (peft #2421)
    model = Net().bfloat16()
    model.enc, model.dec = LoraLinear(model.enc), LoraLinear(model.dec)
    for m in (model.enc, model.dec):
        m.lora_A.float()
        m.lora_B.float()
    ns = {"model": model, "x": torch.randn(3, 4, dtype=torch.bfloat16)}
    assert model(ns["x"]).dtype == torch.bfloat16  # NB: the forward runs as it is
    f = only(ns, "module_float32_kept")
    assert f.severity == "info" and f.fix == "" and f.action is None
    assert "model.enc.lora_A.default.weight" in f.paths and "PEFT" in f.message
    assert kinds(ns) == ["module_float32_kept"]
    # NB: the model's dtype is its base's: float32 data is still caught
    ns["x"] = ns["x"].float()
    assert only(ns, "loose_dtype").fix == "x = x.bfloat16()"
    # NB: a float32 base layer is no adapter: a mixed module, with its cast
    model.dec.base_layer.float()
    assert only(ns, "module_mixed_dtype").severity == "warning"


def test_a_frozen_batchs_cast_leaves_its_labels_alone():
    # NB: before, the fix cast every tensor of the tuple: the int64 labels became float
    model = Net()
    ns = {"model": model, "batch": (torch.randn(3, 4, dtype=torch.float64),
                                    torch.tensor([0, 1, 1]))}
    f = only(ns, "loose_dtype")
    assert "_t.dtype in (torch.float64,)" in f.fix
    run_fix(ns, f)
    assert [t.dtype for t in ns["batch"]] == [torch.float32, torch.int64]
    x, y = ns["batch"]
    assert nn.functional.cross_entropy(model(x), y).dim() == 0  # NB: the step runs
    assert kinds(ns) == []


def test_a_packed_sequences_batch_sizes_stay_on_the_cpu():
    # NB: PackedSequence keeps batch_sizes on the cpu by design (pytorch #7466); a tree_map
    # over it moved them too, and an RNN then refuses the sequence
    lstm = nn.LSTM(4, 8).to("meta")
    packed = nn.utils.rnn.pack_padded_sequence(torch.randn(5, 3, 4), torch.tensor([5, 3, 4]),
                                               enforce_sorted=False)
    ns = {"lstm": lstm, "packed": packed}
    f = only(ns, "loose_device")
    assert f.paths == ("packed.data", "packed.sorted_indices", "packed.unsorted_indices")
    assert f.fix == "packed = packed.to(next(lstm.parameters()).device)"
    run_fix(ns, f)
    assert ns["packed"].data.is_meta and ns["packed"].batch_sizes.device.type == "cpu"
    assert kinds(ns) == []  # NB: a packed sequence where it belongs is no mismatch
    out, _ = lstm(ns["packed"])
    assert out.data.is_meta


# --- traps -----------------------------------------------------------------------------------

class PosNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.pos_emb = torch.zeros(4)
        self.step_size = torch.tensor(0.5)  # 0-dim cpu: mixes fine with any device

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # NB: read unmoved (its source is read from this file as a library class's would be)
        return self.fc(x) * self.step_size + self.pos_emb


def test_plain_tensor_attribute_left_behind():
    model = PosNet().to("meta")
    ns = {"model": model}
    f = only(ns, "trap_attribute")
    assert f.paths == ("model.pos_emb",) and f.devices == ("cpu", "meta")
    assert 'model.register_buffer("pos_emb", _t.to("meta"), persistent=False)' in f.fix
    run_fix(ns, f)
    assert "pos_emb" in model._buffers and model.pos_emb.device.type == "meta"
    assert kinds(ns) == []


class Normalize(nn.Module):
    """docTR's PreProcessor: statistics as plain attributes, no parameter or buffer."""

    def __init__(self) -> None:
        super().__init__()
        self.mean = torch.zeros(3, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x - self.mean


def test_a_plain_attribute_of_a_module_with_no_weights_of_its_own_is_a_note():
    """A pre-processor inside a model on the GPU keeps its statistics on the cpu, where the
    pages it normalises are: it has no device of its own (nothing says where it runs), so its
    attribute is a note with its buffer fix (no one-click move: it would move the statistics
    away from the pages), not an error; beside a weight of its own, it is. A cell that fails on
    it makes it a culprit with that fix (test_guard.py's positional encoding)."""
    model = nn.Sequential(Normalize(), nn.Linear(4, 4)).to("meta")
    ns = {"model": model}
    f = only(ns, "trap_unplaced")
    assert f.severity == "info" and f.paths == ("model.0.mean",) and f.action is None
    assert "holds no parameter or buffer" in f.message and "register_buffer" in f.fix
    model[0].scale = nn.Parameter(torch.ones(1, device="meta"))
    assert kinds(ns) == ["trap_attribute"]


def test_a_0_dim_float64_buffer_in_a_float32_module_is_no_mixed_dtype():
    """nflows' StandardNormal keeps ``_log_z`` as a float64 0-dim buffer: it promotes as a
    number does (float32 results), so nothing is flagged; a float64 vector buffer is."""
    model = nn.Linear(4, 4)
    model.register_buffer("_log_z", torch.tensor(0.5, dtype=torch.float64))
    ns = {"flow": model}
    assert kinds(ns) == []
    assert (model.weight + model._log_z).dtype == torch.float32
    model.register_buffer("shift", torch.zeros(4, dtype=torch.float64))
    assert kinds(ns) == ["module_mixed_dtype"] and only(ns, "module_mixed_dtype").paths == (
        "flow.shift",)


def test_the_trap_fix_leaves_the_state_dict_as_it_was():
    # NB: a plain attribute was never saved: a persistent buffer would make every checkpoint
    # saved before the fix fail to load ("Missing key(s) in state_dict: pos_emb")
    saved = PosNet().state_dict()
    model = PosNet()
    ns = {"model": model}
    run_fix(ns, only(ns, "trap_latent"))
    assert "pos_emb" in model._buffers
    assert list(model.state_dict()) == list(saved) == ["fc.weight", "fc.bias"]
    model.load_state_dict(saved)  # strict: raises on a missing key
    model.to("meta")
    assert model.pos_emb.is_meta and kinds(ns) == []


def test_plain_tensor_attribute_on_the_right_device_is_only_a_hint():
    f = only({"model": PosNet()}, "trap_latent")
    assert f.severity == "info" and f.action is None and f.paths == ("model.pos_emb",)


@pytest.mark.parametrize("norm", ["weight_norm", "spectral_norm"])
def test_a_weight_that_weight_norm_makes_before_each_forward_is_no_trap(norm):
    # NB: torch.nn.utils.weight_norm/spectral_norm keep the weight a plain attribute, made from
    # weight_g/weight_v (weight_orig) by a pre-hook; registered as a buffer, as the trap fix
    # did, it would enter the state_dict and checkpoints would no longer load
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # NB: the legacy API is deprecated
        layer = getattr(nn.utils, norm)(nn.Linear(4, 4))
    layer(torch.randn(2, 4))
    keys = set(layer.state_dict())
    model = nn.Sequential(layer).to("meta")
    ns = {"model": model}
    f = only(ns, "norm_weight_stale")
    assert f.severity == "info" and f.fix == "" and f.action is None
    assert f.paths == ("model.0.weight",) and f"parametrizations.{norm}" in f.message
    assert kinds(ns) == ["norm_weight_stale"]
    assert model(torch.randn(2, 4, device="meta")).is_meta  # NB: the forward makes it anew
    assert kinds(ns) == [] and set(layer.state_dict()) == keys
    layer.pos = torch.zeros(4)  # NB: a plain attribute beside it still is a trap
    assert kinds(ns) == ["trap_attribute"]


class Heads(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.heads = [nn.Linear(4, 2), nn.Linear(4, 3)]


def test_list_held_submodules_left_behind():
    model = Heads().to("meta")
    ns = {"model": model}
    fs = [f for f in findings(ns) if f.kind == "trap_module"]
    assert [f.paths for f in fs] == [("model.heads[0]",), ("model.heads[1]",)]
    assert fs[0].fix == ('model.heads = torch.nn.ModuleList(model.heads)\n'
                         'model.heads.train(model.training)\nmodel.to("meta")')
    run_fix(ns, fs[0])
    assert isinstance(model.heads, nn.ModuleList) and kinds(ns) == []


def test_dict_held_submodules_under_int_keys_are_registered_beside_the_dict():
    """RLlib's ComplexInputNetwork keeps its flatten nets in a plain dict keyed by ints, which a
    ModuleDict cannot take (a ModuleList in its place fails on the dict). Each is registered
    beside it, the dict and its keys kept, and the model's ``.to()`` then moves them."""
    model = Heads()
    model.heads = {1: nn.Linear(4, 2), 3: nn.Linear(4, 3)}  # type: ignore[assignment]
    model.body.to("meta")
    ns = {"model": model}
    fs = [f for f in findings(ns) if f.kind == "trap_module"]
    assert [f.paths for f in fs] == [("model.heads[1]",), ("model.heads[3]",)]
    assert fs[0].fix == ('for _k, _m in model.heads.items():\n'
                         '    model.add_module(f"heads_{_k}", _m.train(model.training))\n'
                         'model.to("meta")')
    run_fix(ns, fs[0])
    assert type(model.heads) is dict and [m.weight.device.type for m in model.heads.values()] \
        == ["meta", "meta"] and kinds(ns) == []


def test_tensors_a_module_keeps_in_a_plain_list_or_dict_are_what_to_does_not_move():
    """torchvision#1738's ``cell_anchors``: tensors in a plain list (or dict) attribute stay
    where they were made when the module moves. On another device: an error whose fix remakes
    the container on the module's device; on the same one: a note (the next .to() leaves them)."""
    class Anchors(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(2, 2)
            self.cell_anchors = [torch.zeros(3), torch.ones(2)]
            self.table = {"a": torch.zeros(2), "n": 3}

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            # NB: read where the model runs, as torchvision's ``grid_anchors`` does: a
            # container read only in ``__init__`` would be rightly "never read"
            return self.fc(x) + self.cell_anchors[1] + self.table["a"]

    m = Anchors()
    ns = {"m": m}
    assert sorted(kinds(ns)) == ["trap_latent", "trap_latent"]
    to_in_place(m, "meta")  # NB: the weights move; the list and the dict stay on the cpu
    found = {f.paths[0]: f for f in findings(ns) if f.kind == "trap_container"}
    assert sorted(found) == ["m.cell_anchors[0]", "m.table['a']"]
    assert found["m.cell_anchors[0]"].paths == ("m.cell_anchors[0]", "m.cell_anchors[1]")
    assert found["m.cell_anchors[0]"].severity == "error"
    for f in found.values():
        run_fix(ns, f)
    assert [t.device.type for t in m.cell_anchors] == ["meta", "meta"]
    assert type(m.cell_anchors) is list and m.table["a"].device.type == "meta"
    assert m.table["n"] == 3 and "trap_container" not in kinds(ns)


def test_list_held_submodules_join_the_mode_of_the_model_that_now_holds_them():
    """``model.eval()`` never reached modules in a plain list: registered by the fix, they take
    the model's mode (else their Dropout and BatchNorm still train at inference)."""
    model = nn.Sequential(nn.Linear(4, 4))
    model.heads = [nn.Sequential(nn.BatchNorm1d(4), nn.Dropout())]  # type: ignore[assignment]
    model.to("meta").eval()
    ns = {"model": model}
    fs = [f for f in findings(ns) if f.kind == "trap_module"]
    assert model.heads[0].training  # NB: what eval() left behind
    run_fix(ns, fs[0])
    assert isinstance(model.heads, nn.ModuleList) and kinds(ns) == []
    assert [m.training for m in model.modules()] == [False] * 6


class ListedAndRegistered(nn.Module):
    """ai-toolkit's LoRA network: each LoRA module kept in a plain list *and* registered with
    ``add_module``, placed on the GPU of the block it wraps."""

    def __init__(self) -> None:
        super().__init__()
        self.loras = []
        for i in range(2):
            lora = nn.Linear(4, 4)
            self.loras.append(lora)
            self.add_module(f"lora_{i}", lora)


def test_a_listed_module_that_is_also_registered_is_no_trap():
    model = ListedAndRegistered()
    model.loras[1].to("meta")  # NB: on purpose, beside its host; Module.to() sees it
    assert "trap_module" not in kinds({"model": model})
    model.heads = [nn.Linear(4, 2).to("meta")]  # NB: one only the list holds still is a trap
    fs = [f for f in findings({"model": model}) if f.kind == "trap_module"]
    assert [f.paths for f in fs] == [("model.heads[0]",)]


class EMA(nn.Module):
    """ema-pytorch: the online model kept in a plain list on purpose, so that the EMA's own
    ``to()``, ``parameters()`` and ``state_dict()`` leave it alone."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.online_model = [model]
        self.ema_model = nn.Linear(4, 4)


def test_a_listed_module_the_namespace_holds_by_its_own_name_is_no_trap():
    model = nn.Linear(4, 4).to("meta")
    ema = EMA(model)  # NB: the EMA on the cpu, the online model moved on its own
    assert "trap_module" not in kinds({"model": model, "ema": ema})
    # without the user's own name for it, the listed model is one Module.to() leaves behind
    assert "trap_module" in kinds({"ema": ema})


# --- optimizers ------------------------------------------------------------------------------

def trained():
    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model(torch.randn(2, 4)).sum().backward()
    opt.step()
    return model, opt


def test_optimizer_state_left_behind_after_moving_the_model():
    model, opt = trained()
    to_in_place(model, "meta")
    ns = {"model": model, "opt": opt}
    f = only(ns, "optimizer_state")
    assert "opt.state[model.enc.weight]['exp_avg']" in f.paths
    assert not any("'step'" in p for p in f.paths)  # the step counter belongs on the cpu
    run_fix(ns, f)
    assert kinds(ns) == []
    assert opt.state[model.enc.weight]["exp_avg"].device.type == "meta"
    assert opt.state[model.enc.weight]["step"].device.type == "cpu"


def test_optimizer_state_dtype():
    model, opt = trained()
    opt.state[model.enc.weight]["exp_avg"] = opt.state[model.enc.weight]["exp_avg"].double()
    ns = {"model": model, "opt": opt}
    f = only(ns, "optimizer_state_dtype")
    assert f.paths == ("opt.state[model.enc.weight]['exp_avg']",)
    run_fix(ns, f)
    assert kinds(ns) == []


def test_state_left_behind_in_another_dtype_on_purpose_is_moved_not_cast():
    # NB: fairseq's and ParlAI's memory-efficient fp16 optimizers keep float32 moments beside
    # float16 parameters; a checkpoint loaded on the cpu leaves them there. The fix moves
    # them: casting them to float16 as well would lose the very precision they are kept for
    model, opt = trained()
    for s in opt.state.values():
        s["exp_avg"], s["exp_avg_sq"] = s["exp_avg"].double(), s["exp_avg_sq"].double()
    to_in_place(model, "meta")
    ns = {"model": model, "opt": opt}
    f = only(ns, "optimizer_state")
    assert "dtype" not in f.fix, f.fix
    run_fix(ns, f)
    moment = opt.state[model.enc.weight]["exp_avg"]
    assert (moment.device.type, moment.dtype) == ("meta", torch.float64)


def test_model_recreated_after_the_optimizer():
    _, opt = trained()
    model = Net()  # the notebook cell that builds the model ran again
    ns = {"model": model, "opt": opt}
    f = only(ns, "optimizer_orphan")
    assert "model was re-created" in f.message and f.objects == ("opt", "model")
    exp_avg = [s["exp_avg"].clone() for s in opt.state.values()]
    run_fix(ns, f)
    assert kinds(ns) == [] and ns["opt"].param_groups[0]["params"][0] is model.enc.weight
    assert [torch.equal(opt.state[p]["exp_avg"], e)
            for p, e in zip(model.parameters(), exp_avg, strict=True)] == [True] * 4


def test_a_learning_rate_scheduler_is_not_a_second_optimizer():
    # NB: a scheduler holds its optimizer to set its learning rate; read through it, every
    # stale optimizer was reported twice (once as "sched updates stale parameters")
    _, opt = trained()
    model = Net()
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
    ns = {"model": model, "opt": opt, "sched": sched, "plateau": plateau}
    f = only(ns, "optimizer_orphan")
    assert f.objects == ("opt", "model")
    assert [o.name for o in take_snapshot(ns).objects] == ["model", "opt"]
    run_fix(ns, f)
    assert kinds(ns) == [] and sched.optimizer is opt  # NB: it keeps stepping the same one


class Trainer:
    """A notebook's training-loop helper holding the model and its optimizer."""

    def __init__(self, model: nn.Module, optimizer: torch.optim.Optimizer) -> None:
        self.model, self.optimizer = model, optimizer


def test_an_optimizer_held_by_a_helper_and_named_is_judged_once_under_its_name():
    model, opt = trained()
    to_in_place(model, "meta")
    ns = {"model": model, "opt": opt, "trainer": Trainer(model, opt)}
    f = only(ns, "optimizer_state")
    assert f.objects == ("opt",)
    assert [o.name for o in take_snapshot(ns).objects] == ["model", "opt", "trainer"]
    # NB: held by the helper alone, it is judged there
    alone = {"model": model, "trainer": ns["trainer"]}
    assert only(alone, "optimizer_state").objects == ("trainer",)
    # NB: another optimizer over the same parameters (re-created) is no alias: both judged
    twin = torch.optim.Adam(model.parameters())
    twin.state.update({p: {k: v.clone() for k, v in s.items()} for p, s in opt.state.items()})
    ns["trainer"] = Trainer(model, twin)
    assert sorted(f.objects[0] for f in findings(ns) if f.kind == "optimizer_state") == [
        "opt", "trainer"]
    run_fix(ns, only({"model": model, "opt": opt}, "optimizer_state"))
    assert [f.objects for f in findings(ns)] == [("trainer",)]


# --- DataParallel ----------------------------------------------------------------------------

def test_dataparallel_module_not_on_device_ids_0(fake_cuda):
    dp = nn.DataParallel(Net())
    dp.device_ids, dp.output_device = [1, 0], 1
    fake_cuda.to(dp.module, "cuda:0")
    f = only({"dp": dp}, "dataparallel_device")
    assert f.fix == 'dp.module.to("cuda:1")' and "device_ids[0] = cuda:1" in f.message
    assert "module_split" not in kinds({"dp": dp})


def test_dataparallel_inputs_may_be_anywhere_its_module_may_not(fake_cuda):
    dp = nn.DataParallel(Net())
    dp.device_ids, dp.output_device = [0, 1], 0
    x = fake_cuda.randn(2, 4, device="cuda:1")  # DataParallel.scatter copies it where needed
    assert kinds({"dp": dp, "x": x}) == ["dataparallel_device"]
    assert only({"dp": dp, "x": x}, "dataparallel_device").fix == 'dp.module.to("cuda:0")'


def test_dataparallel_on_the_right_device_is_quiet(fake_cuda):
    dp = nn.DataParallel(Net())
    dp.device_ids, dp.output_device = [0, 1], 0
    fake_cuda.to(dp.module, "cuda:0")
    assert kinds({"dp": dp}) == []


# --- loose tensors ---------------------------------------------------------------------------

def test_data_not_moved_with_the_model(fake_cuda):
    model = fake_cuda.to(Net(), "cuda:0")
    batch = {"x": torch.randn(2, 4), "y": torch.tensor([1, 0]),
             "on_gpu": fake_cuda.randn(2, device="cuda:0"), "temp": torch.tensor(2.0)}
    f = only({"model": model, "batch": batch}, "loose_device")
    assert f.paths == ("batch['x']", "batch['y']")  # the 0-dim cpu scalar mixes fine
    assert f.fix == ("batch['x'] = batch['x'].to(next(model.parameters()).device)\n"
                     "batch['y'] = batch['y'].to(next(model.parameters()).device)")
    assert f.severity == "warning"


def test_loose_tensors_in_a_tuple_get_a_rebuilding_fix():
    model = Net().to("meta")
    ns = {"model": model, "pair": (torch.ones(4), torch.ones(4))}
    f = only(ns, "loose_device")
    assert f.fix.startswith("pair = torch.utils._pytree.tree_map(")
    run_fix(ns, f)
    assert kinds(ns) == [] and ns["pair"][0].device.type == "meta"


def test_no_loose_findings_when_the_main_model_is_split():
    model = Net()
    model.dec.to("meta")
    assert kinds({"model": model, "x": torch.ones(3)}) == ["module_split"]


def test_loss_weight_left_on_the_cpu(fake_cuda):
    model = fake_cuda.to(Net(), "cuda:0")
    criterion = nn.CrossEntropyLoss(weight=torch.ones(2))
    ns = {"model": model, "criterion": criterion, "labels": torch.tensor([0, 1])}
    f = only(ns, "module_device")
    assert f.paths == ("criterion.weight",) and f.fix == 'criterion.to("cuda:0")'
    assert "calling it on model's outputs will fail" in f.message
    # NB: the loss on the cpu must not hide the labels on the cpu
    assert only(ns, "loose_device").paths == ("labels",)


def test_two_models_not_known_to_be_used_together_are_only_a_note():
    big, small = nn.Linear(64, 64), nn.Linear(2, 2)
    ns = {"head": small.to("meta"), "backbone": big}
    f = only(ns, "module_apart")
    assert f.severity == "info" and f.action is None and f.fix == ""
    assert f.objects == ("head", "backbone")  # never 'head.to("cpu")': meta has no data


class Pipeline(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stage0 = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
        self.stage1 = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2))


def test_model_parallel_by_hand_is_only_a_note(fake_cuda):
    model = Pipeline()
    fake_cuda.to(model.stage0, "cuda:0")
    fake_cuda.to(model.stage1, "cuda:1")
    f = only({"model": model}, "module_split")
    assert f.severity == "info" and f.action is None
    assert "intentional model parallelism" in f.message


def test_a_layer_left_on_the_cpu_inside_a_pipeline(fake_cuda):
    model = Pipeline()
    fake_cuda.to(model.stage0, "cuda:0")
    fake_cuda.to(model.stage1[0], "cuda:1")  # stage1[1] stayed behind
    f = only({"model": model}, "module_split")
    assert f.severity == "error" and f.fix == 'model.stage1[1].to("cuda:1")'
    assert f.paths == ("model.stage1.1.weight", "model.stage1.1.bias")
    assert f.action is not None and f.action.device == "cuda:1"


def test_finding_ids_are_stable_across_snapshots():
    model = Net()
    model.dec.to("meta")
    assert [f.id for f in findings({"model": model})] == [f.id for f in findings({"model": model})]


def test_errors_come_first():
    model = PosNet()
    model.fc.to("meta")
    sev = [f.severity for f in findings({"model": model, "x": torch.ones(2, dtype=torch.float64)})]
    assert sev == sorted(sev, key=["error", "warning", "info"].index)


CLIP_LIKE = '''
class Visual(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.ln = nn.LayerNorm(4)
        self.pos = nn.Parameter(torch.zeros(3, 4))
        self.tok = nn.Embedding(10, 4)
    def forward(self, ids):
        x = self.tok(ids).type(self.proj.weight.dtype) + self.pos.to(self.proj.weight.dtype)
        return self.proj(self.ln(x.float()).to(self.proj.weight.dtype))
'''


def test_float32_weights_a_half_models_own_code_casts_where_it_reads_them_are_a_note():
    """OpenAI CLIP halves its linear layers and keeps its embeddings and LayerNorms in float32,
    casting them where ``forward`` reads them (``self.pos.to(dtype)``, ``self.tok(ids)
    .type(dtype)``): nothing fails, so it is a note. The same model whose code does not cast
    them is still a mixed-dtype warning."""
    ns: dict = {"torch": torch, "nn": nn}
    exec(CLIP_LIKE, ns)
    model = ns["Visual"]()
    model.proj.half()
    found = diagnose(take_snapshot({"model": model}), cells=[CLIP_LIKE])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity, f.fix) == ("module_float32_kept", "info", "")
    assert "casts where model.pos, model.tok.weight meet other dtypes" in f.message
    plain = CLIP_LIKE.replace(".type(self.proj.weight.dtype)", "").replace(
        "self.pos.to(self.proj.weight.dtype)", "self.pos")
    found = diagnose(take_snapshot({"model": model}), cells=[plain])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity) == ("module_mixed_dtype", "warning")


FED_FLOAT32 = '''
class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(4, 4)
        self.action_out_proj = nn.Linear(4, 2)
    def forward(self, x):
        h = self.backbone(x.to(self.backbone.weight.dtype))
        h = h.to(dtype=torch.float32)
        return self.action_out_proj(h)
'''


def test_a_float32_head_a_half_models_code_hands_float32_is_a_note():
    """openpi keeps ``action_out_proj`` in float32 beside bfloat16 layers and casts what it
    hands it first (``suffix_out = suffix_out.to(dtype=torch.float32)``): a note. Without that
    cast, a mixed-dtype warning."""
    ns: dict = {"torch": torch, "nn": nn}
    exec(FED_FLOAT32, ns)
    model = ns["Policy"]()
    model.backbone.bfloat16()
    found = diagnose(take_snapshot({"model": model}), cells=[FED_FLOAT32])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity, f.fix) == ("module_float32_kept", "info", "")
    plain = FED_FLOAT32.replace("        h = h.to(dtype=torch.float32)\n", "")
    found = diagnose(take_snapshot({"model": model}), cells=[plain])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity) == ("module_mixed_dtype", "warning")


PARAMETRIZED = '''
class RotateLayer(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.eye(n))
    def forward(self, x):
        return torch.matmul(x.to(self.weight.dtype), self.weight)

class Intervention(nn.Module):
    def __init__(self):
        super().__init__()
        self.rotate_layer = torch.nn.utils.parametrizations.orthogonal(RotateLayer(4))
        self.proj = nn.Linear(4, 4)
    def forward(self, base):
        rotated = self.rotate_layer(base)
        output = torch.matmul(rotated, self.rotate_layer.weight.T)
        return self.proj(output.to(base.dtype))
'''


def test_a_parametrized_float32_weight_its_class_casts_its_input_to_is_a_note():
    """pyvene keeps an orthogonal rotation (``parametrizations.orthogonal``) in float32 beside a
    bfloat16 model; ``RotateLayer`` casts its input to the weight's dtype. The weight is read as
    ``rotate_layer.parametrizations.weight.original`` by a class torch made
    (``ParametrizedRotateLayer``): read as ``rotate_layer.weight`` of ``RotateLayer``, a
    note. Without the cast, a warning."""
    ns: dict = {"torch": torch, "nn": nn}
    exec(PARAMETRIZED, ns)
    model = ns["Intervention"]()
    model.proj.bfloat16()
    found = diagnose(take_snapshot({"model": model}), cells=[PARAMETRIZED])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity, f.fix) == ("module_float32_kept", "info", "")
    plain = PARAMETRIZED.replace("x.to(self.weight.dtype)", "x")
    found = diagnose(take_snapshot({"model": model}), cells=[plain])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity) == ("module_mixed_dtype", "warning")


UNDER_AUTOCAST = '''
class Blip(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual_encoder = nn.Linear(64, 64)
        self.query_tokens = nn.Parameter(torch.zeros(1, 64))
        self.qformer = nn.Linear(64, 8)
        self.proj = nn.Linear(8, 8)
    def maybe_autocast(self, dtype=torch.bfloat16):
        return torch.autocast("cpu", dtype=dtype)
    def encode_img(self, image):
        with self.maybe_autocast():
            emb = self.visual_encoder(image) + self.query_tokens
            return self.proj(self.qformer(emb))
'''


def test_weights_a_models_own_method_runs_under_autocast_are_kept_on_purpose():
    """BLIP-2 keeps its ViT in half precision beside a float32 Q-Former and runs both in
    ``with self.maybe_autocast():``: autocast casts what each op meets, so the float32 parts
    are kept on purpose (a note). Without the block, a warning. NB: not the other way round: a
    float32 model's half part under autocast gives half outputs, which its float32 layers
    outside the block refuse."""
    ns: dict = {"torch": torch, "nn": nn}
    exec(UNDER_AUTOCAST, ns)
    model = ns["Blip"]()
    model.visual_encoder.bfloat16()  # NB: the bigger part: bfloat16 is the model's dtype
    found = diagnose(take_snapshot({"model": model}), cells=[UNDER_AUTOCAST])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity, f.fix) == ("module_float32_kept", "info", "")
    plain = UNDER_AUTOCAST.replace("        with self.maybe_autocast():\n", "        if True:\n")
    found = diagnose(take_snapshot({"model": model}), cells=[plain])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity) == ("module_mixed_dtype", "warning")


SCALE_SHIFT = '''
class ScaleShift(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scales", torch.tensor([0.51, 0.83], dtype=torch.float64))
        self.head = nn.Linear(4, 1)
    def forward(self, idx, x):
        return self.head(x) * self.scales[idx].view(-1, 1).to(x.dtype)
'''


def test_float64_buffers_a_float32_models_own_code_casts_where_it_reads_them_are_a_note():
    """NequIP keeps its per-species scales in float64 and casts them where ``forward`` reads
    them (``self.scales[idx].view(-1, 1).to(x.dtype)``): nothing fails, so a note. The same
    model whose code does not cast them is still a mixed-dtype warning."""
    ns: dict = {"torch": torch, "nn": nn}
    exec(SCALE_SHIFT, ns)
    model = ns["ScaleShift"]()
    found = diagnose(take_snapshot({"model": model}), cells=[SCALE_SHIFT])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity, f.fix) == ("module_float32_kept", "info", "")
    assert f.title == "model keeps 1 tensor in float64"
    assert "casts where model.scales meets other dtypes" in f.message
    plain = SCALE_SHIFT.replace(".view(-1, 1).to(x.dtype)", ".view(-1, 1)")
    found = diagnose(take_snapshot({"model": model}), cells=[plain])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity) == ("module_mixed_dtype", "warning")


VALUE_HEAD = '''
class ValueHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.summary = nn.Linear(4, 1)
    def forward(self, hidden):
        if hidden.dtype != self.summary.weight.dtype:
            hidden = hidden.to(self.summary.weight.dtype)
        return self.summary(hidden)

class WithValueHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.v_head = ValueHead()
    def forward(self, x):
        return self.v_head(self.body(x))
'''


def test_a_submodule_whose_parent_casts_its_inputs_to_its_dtype_is_kept_on_purpose():
    """TRL's value head stays in float32 beside a bfloat16 model and casts what it hands its
    ``summary`` layer to that layer's dtype: nothing fails, so a note, not a warning. The same
    model whose head does not cast is still a mixed-dtype warning."""
    ns: dict = {"torch": torch, "nn": nn}
    exec(VALUE_HEAD, ns)
    model = ns["WithValueHead"]()
    model.body.bfloat16()
    found = diagnose(take_snapshot({"model": model}), cells=[VALUE_HEAD])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity, f.fix) == ("module_float32_kept", "info", "")
    assert "model.v_head.summary.weight, model.v_head.summary.bias meet other dtypes" in f.message
    plain = VALUE_HEAD.replace("hidden = hidden.to(self.summary.weight.dtype)", "pass")
    found = diagnose(take_snapshot({"model": model}), cells=[plain])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity) == ("module_mixed_dtype", "warning")


HALF_STEM = '''
class Stem(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
    def forward(self, ids):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x)
        return x

class Folding(nn.Module):
    def __init__(self):
        super().__init__()
        self.esm = Stem()
        self.combine = nn.Parameter(torch.zeros(4))
        self.trunk = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4), nn.Linear(4, 3))
    def forward(self, ids):
        esm_s = self.esm(ids)
        esm_s = esm_s.to(self.combine.dtype)
        return self.trunk(esm_s * self.combine)
'''


def test_a_half_stem_whose_output_a_module_above_casts_is_kept_on_purpose():
    """ESMFold halves its language-model stem and keeps its folding trunk in float32: the model
    above the stem keeps what the stem gives in a local and casts it to the trunk's dtype two
    lines on. Nothing fails, so a note. The same model casting nothing is still a warning."""
    ns: dict = {"torch": torch, "nn": nn}
    exec(HALF_STEM, ns)
    model = ns["Folding"]()
    model.esm = model.esm.half()
    found = diagnose(take_snapshot({"model": model}), cells=[HALF_STEM])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity, f.fix) == ("module_float32_kept", "info", "")
    assert f.title == "model keeps 5 tensors in float16"
    assert "casts where model.esm.embed.weight, model.esm.layers.0.weight" in f.message
    assert "normalisation" not in f.message
    plain = HALF_STEM.replace("esm_s = esm_s.to(self.combine.dtype)", "pass")
    found = diagnose(take_snapshot({"model": model}), cells=[plain])
    (f,) = [f for f in found if f.objects == ("model",)]
    assert (f.kind, f.severity) == ("module_mixed_dtype", "warning")
