"""The default ``%devices`` table fits a screen whatever the model size: a 7B Llama with LoRA
adapters built on ``meta`` (no memory), folded rows summed exactly, errors open, ``--all`` whole."""

from __future__ import annotations

import re
from typing import Any

import torch
from torch import nn

from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.render import DevicesView
from devicelens.render._fold import MAX_ROWS, rows, table
from devicelens.render.widget import DevicesWidget

# --- a 7B-shaped PEFT model, as PEFT and transformers lay it out ---------------------------


class LoraLinear(nn.Module):
    """PEFT's ``lora.Linear``: the base layer beside one ModuleDict (or ParameterDict) per part."""

    def __init__(self, i: int, o: int, r: int = 16) -> None:
        super().__init__()
        self.base_layer = nn.Linear(i, o, bias=False)
        self.lora_dropout = nn.ModuleDict({"default": nn.Dropout(0.05)})
        self.lora_A = nn.ModuleDict({"default": nn.Linear(i, r, bias=False)})
        self.lora_B = nn.ModuleDict({"default": nn.Linear(r, o, bias=False)})
        self.lora_embedding_A = nn.ParameterDict()
        self.lora_embedding_B = nn.ParameterDict()
        self.lora_magnitude_vector = nn.ModuleDict()


class RMSNorm(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))


class Attention(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.q_proj, self.k_proj, self.v_proj, self.o_proj = (LoraLinear(d, d) for _ in range(4))


class MLP(nn.Module):
    def __init__(self, d: int, h: int) -> None:
        super().__init__()
        self.gate_proj, self.up_proj = LoraLinear(d, h), LoraLinear(d, h)
        self.down_proj = LoraLinear(h, d)


class DecoderLayer(nn.Module):
    def __init__(self, d: int, h: int) -> None:
        super().__init__()
        self.self_attn, self.mlp = Attention(d), MLP(d, h)
        self.input_layernorm, self.post_attention_layernorm = RMSNorm(d), RMSNorm(d)


class LlamaModel(nn.Module):
    def __init__(self, v: int, d: int, h: int, n: int) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(v, d)
        self.layers = nn.ModuleList(DecoderLayer(d, h) for _ in range(n))
        self.norm = RMSNorm(d)


class LlamaForCausalLM(nn.Module):
    def __init__(self, v: int = 32000, d: int = 4096, h: int = 11008, n: int = 32) -> None:
        super().__init__()
        self.model = LlamaModel(v, d, h, n)
        self.lm_head = nn.Linear(d, v, bias=False)


class LoraModel(nn.Module):
    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model


class PeftModel(nn.Module):
    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.base_model = LoraModel(model)


def llama_7b_lora(adapters: torch.dtype = torch.bfloat16) -> PeftModel:
    """6.9B parameters in bfloat16 (13.5 GB were they real), LoRA r=16 on every projection."""
    with torch.device("meta"):
        peft = PeftModel(LlamaForCausalLM()).to(torch.bfloat16)
    for m in peft.modules():
        if isinstance(m, LoraLinear):
            m.lora_A.to(adapters)
            m.lora_B.to(adapters)
    return peft


LAYERS = "peft.base_model.model.model.layers"


def text_of(ns: dict[str, Any], **kw: Any) -> str:
    snap = take_snapshot(ns)
    return repr(DevicesView(snap, diagnose(snap), **kw))


def table_part(text: str) -> list[str]:
    """The table's rows: the lines between the header and the first blank or note line."""
    lines = text.splitlines()[2:]
    return lines[:next(i for i, s in enumerate(lines) if not s or s.startswith("("))]


def member_paths(name: str) -> re.Pattern[str]:
    """What a folded row stands for, as a pattern of the paths under it: ``a.0-31.b`` holds
    ``a.k.b.…`` for k in 0…31 (checked by :func:`in_ranges`)."""
    return re.compile(re.sub(r"\\\.(\d+)\\-(\d+)", r"\\.(\\d+)", re.escape(name)) + r"[.\[]")


def in_ranges(name: str, path: str) -> bool:
    m = member_paths(name).match(path)
    if m is None:
        return False
    bounds = [tuple(map(int, b)) for b in re.findall(r"\.(\d+)-(\d+)", name)]
    return all(lo <= int(k) <= hi for k, (lo, hi) in zip(m.groups(), bounds, strict=True))


# --- the tests ------------------------------------------------------------------------------


def test_a_7b_lora_model_fits_a_screen_and_every_folded_row_sums_what_it_stands_for():
    peft = llama_7b_lora()
    snap = take_snapshot({"peft": peft})
    found = diagnose(snap)
    assert found == []
    folded, every = rows(snap, found), rows(snap, found, show_all=True)
    assert len(folded) <= MAX_ROWS and len(every) == 1 + len(list(peft.parameters()))
    text = repr(DevicesView(snap, found))
    assert len(table_part(text)) == len(folded) and len(text.splitlines()) <= MAX_ROWS + 5
    tensors = {r.name: r.nbytes for r in every[1:]}
    assert sum(tensors.values()) == folded[0].nbytes == snap["peft"].nbytes == sum(
        p.numel() * 2 for p in peft.parameters())
    assert [(r.level, r.name.removeprefix("peft.base_model.model."), r.kind) for r in folded] == [
        (0, "peft", "PeftModel"), (1, "peft.base_model", "LoraModel"),
        (2, "peft.base_model.model", "LlamaForCausalLM"), (3, "model", "LlamaModel"),
        (4, "model.embed_tokens", "Embedding"), (4, "model.layers", "ModuleList"),
        (5, "model.layers.0-31", "DecoderLayer ×32"),
        (6, "model.layers.0-31.self_attn", "Attention ×32"),
        *((7, f"model.layers.0-31.self_attn.{p}_proj", "LoraLinear ×32") for p in "qkvo"),
        (6, "model.layers.0-31.mlp", "MLP ×32"),
        *((7, f"model.layers.0-31.mlp.{p}_proj", "LoraLinear ×32")
          for p in ("gate", "up", "down")),
        (6, "model.layers.0-31.input_layernorm", "RMSNorm ×32"),
        (6, "model.layers.0-31.post_attention_layernorm", "RMSNorm ×32"),
        (4, "model.norm", "RMSNorm"), (3, "lm_head", "Linear")]
    runs = [r for r in folded if re.search(r"\.\d+-\d+", r.name)]
    for r in folded[1:]:  # NB: each row holds exactly the bytes of the tensors it stands for
        held = [n for n in tensors if in_ranges(r.name, n)] if r in runs else [
            n for n in tensors if n.startswith(r.name + ".")]
        assert r.nbytes == sum(tensors[n] for n in held), r.name
        if r in runs:
            assert r.shape == f"{len(held):,} tensors"
    layers = next(r for r in folded if r.name == f"{LAYERS}.0-31")
    assert (layers.kind, layers.devices, layers.dtypes, layers.shape) == (
        "DecoderLayer ×32", ("meta",), ("bfloat16",), "736 tensors")
    assert layers.nbytes == 32 * sum(p.numel() * 2 for p in peft.base_model.model.model
                                     .layers[0].parameters())


def test_float32_adapters_open_the_layers_to_the_level_that_still_fits():
    peft = llama_7b_lora(adapters=torch.float32)
    snap = take_snapshot({"peft": peft})
    found = diagnose(snap)
    assert [f.severity for f in found] == ["info"]  # NB: PEFT's float32 adapters: a note only
    tab = table(snap, found)
    assert len(tab.rows) <= MAX_ROWS
    assert [(r.level, r.name.removeprefix(LAYERS), r.kind) for r in tab.rows if LAYERS in r.name
            ] == [(4, "", "ModuleList"), (5, ".0-31", "DecoderLayer ×32"),
                  (6, ".0-31.self_attn", "Attention ×32"),
                  (7, ".0-31.self_attn.q_proj", "LoraLinear ×32"),
                  (7, ".0-31.self_attn.k_proj", "LoraLinear ×32"),
                  (7, ".0-31.self_attn.v_proj", "LoraLinear ×32"),
                  (7, ".0-31.self_attn.o_proj", "LoraLinear ×32"),
                  (6, ".0-31.mlp", "MLP ×32"),
                  (7, ".0-31.mlp.gate_proj", "LoraLinear ×32"),
                  (7, ".0-31.mlp.up_proj", "LoraLinear ×32"),
                  (7, ".0-31.mlp.down_proj", "LoraLinear ×32"),
                  (6, ".0-31.input_layernorm", "RMSNorm ×32"),
                  (6, ".0-31.post_attention_layernorm", "RMSNorm ×32")]
    q = next(r for r in tab.rows if r.name.endswith("self_attn.q_proj"))
    assert q.dtypes == ("bfloat16", "float32")
    assert q.nbytes == 32 * (4096 * 4096 * 2 + 2 * 16 * 4096 * 4)
    assert tab.note == (f"(folded to {len(tab.rows)} rows from {1 + 7 * 32 * 3 + 32 * 2 + 3}: "
                        "alike rows as one, errors and warnings open; %devices --all shows "
                        "every row.)")


def test_all_lists_every_parameter():
    peft = llama_7b_lora(adapters=torch.float32)
    text = text_of({"peft": peft}, show_all=True)
    names = [line.split()[0] for line in table_part(text)]
    assert names == ["peft", *(f"peft.{n}" for n, _ in peft.named_parameters())]
    assert "folded" not in text and "0-31" not in text


def test_one_layer_on_another_device_shows_open_with_its_finding_the_rest_folded():
    peft = llama_7b_lora()
    layer = peft.base_model.model.model.layers[5]
    layer.input_layernorm.weight = nn.Parameter(torch.ones(4096, dtype=torch.bfloat16))  # cpu
    ns = {"peft": peft}
    snap = take_snapshot(ns)
    found = diagnose(snap)
    assert [(f.severity, f.paths) for f in found] == [
        ("error", (f"{LAYERS}.5.input_layernorm.weight",))]
    text = repr(DevicesView(snap, found))
    shown = table_part(text)
    assert len(shown) <= MAX_ROWS
    assert [line.split()[:2] for line in shown if ".layers" in line] == [
        [f"{LAYERS}", "!"], [f"{LAYERS}.0-4", "DecoderLayer"], [f"{LAYERS}.5", "!"],
        [f"{LAYERS}.5.self_attn", "Attention"], [f"{LAYERS}.5.mlp", "MLP"],
        [f"{LAYERS}.5.input_layernorm", "!"], [f"{LAYERS}.5.post_attention_layernorm", "RMSNorm"],
        [f"{LAYERS}.6-31", "DecoderLayer"]]
    bad = next(line for line in shown if line.split()[0] == f"{LAYERS}.5.input_layernorm")
    assert bad.split()[1:5] == ["!", "RMSNorm", "cpu", "bfloat16"]
    assert "✖ error: peft is partly moved" in text
    html = DevicesView(snap, found)._repr_mimebundle_()["text/html"]
    assert html.count("<tr") == 1 + len(shown)
    assert f'<tr class="dl-bad"><td style="padding-left:104px"><code>{LAYERS}.5.input_layernorm' \
        in html
    assert f"<code>{LAYERS}.6-31</code>" in html and "folded to" in html


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(4))
        self.register_buffer("mask", torch.ones(4))
        self.fc = nn.Linear(4, 4)


def test_a_flagged_tensor_beside_unflagged_ones_shows_as_its_own_row():
    m = nn.Sequential(*(Block() for _ in range(60))).to("meta")
    m[7].weight = nn.Parameter(torch.ones(4))  # NB: one parameter on the cpu, beside its buffer
    snap = take_snapshot({"m": m})
    found = diagnose(snap)
    assert [f.paths for f in found] == [("m.7.weight",)]
    assert [(r.level, r.name, r.kind, r.devices, r.shape, r.nbytes, r.flagged)
            for r in rows(snap, found)] == [
        (0, "m", "Sequential", ("cpu", "meta"), "", 60 * 112, True),
        (1, "m.0-6", "Block ×7", ("meta",), "28 tensors", 7 * 112, False),
        (2, "m.0-6.fc", "Linear ×7", ("meta",), "14 tensors", 7 * 80, False),
        (1, "m.7", "Block", ("cpu", "meta"), "", 112, True),
        (2, "m.7.weight", "parameter", ("cpu",), "(4,)", 16, True),
        (2, "m.7.fc", "Linear", ("meta",), "", 80, False),
        (1, "m.8-59", "Block ×52", ("meta",), "208 tensors", 52 * 112, False),
        (2, "m.8-59.fc", "Linear ×52", ("meta",), "104 tensors", 52 * 80, False)]


def test_ten_thousand_loose_tensors_fold_and_the_odd_one_stays_open():
    ns: dict[str, Any] = {"model": nn.Linear(4, 4)}
    ns.update({f"t{i}": torch.zeros(3) for i in range(2_500)})
    ns["head"] = nn.Linear(4, 4)  # NB: an object between two runs ends the first
    ns.update({f"t{i}": torch.zeros(3 if i % 2 else 2) for i in range(2_500, 10_000)})
    ns["t5000"] = torch.zeros(3, dtype=torch.float64)
    text = text_of(ns)
    assert table_part(text) == [
        "model          Linear         cpu     float32            80 B",
        "t0 … t2499     Tensor ×2,500  cpu     float32  (3,)      29.3 KiB",
        "head           Linear         cpu     float32            80 B",
        "t2500 … t4999  Tensor ×2,500  cpu     float32  2 shapes  24.4 KiB",
        "t5000 !        Tensor         cpu     float64  (3,)      24 B",
        "t5001 … t9999  Tensor ×4,999  cpu     float32  2 shapes  48.8 KiB"]
    snap = take_snapshot(ns)
    folded = rows(snap, diagnose(snap))
    assert [r.nbytes for r in folded] == [80, 2500 * 12, 80, 1250 * 20, 24, 2500 * 12 + 2499 * 8]
    assert sum(r.nbytes for r in folded) == sum(o.nbytes for o in snap.objects)
    assert "(folded to 6 rows from 10,006:" in text and "warning: t5000" in text
    assert len(rows(snap, diagnose(snap), show_all=True)) == 10_006


def test_the_widget_folds_its_table_and_opens_every_row_on_request():
    peft = llama_7b_lora()
    peft.base_model.model.model.layers[5].input_layernorm.weight = nn.Parameter(
        torch.ones(4096, dtype=torch.bfloat16))
    view = DevicesWidget({"peft": peft})
    folded = rows(view.snapshot, view.findings)  # type: ignore[arg-type]
    assert view.table.value.count("<tr") == 1 + len(folded) and len(folded) <= MAX_ROWS
    assert f"<code>{LAYERS}.0-4</code>" in view.table.value
    view.rows_button.value = True
    every = 1 + len(list(peft.parameters()))
    assert view.table.value.count("<tr") == 1 + every and "0-4" not in view.table.value
    view.refresh()  # NB: a refresh keeps what the user asked for
    assert view.table.value.count("<tr") == 1 + every
    view.rows_button.value = False
    assert view.table.value.count("<tr") == 1 + len(folded)
    assert DevicesWidget({"peft": peft}, show_all=True).table.value.count("<tr") == 1 + every


def test_the_magic_prints_the_folded_table_and_all_of_it_with_all(ip, capsys):
    peft = llama_7b_lora(adapters=torch.float32)
    ip.user_ns["peft"] = peft
    capsys.readouterr()
    ip.run_line_magic("devices", "--text --no-rehearse")
    folded = capsys.readouterr().out
    shown = table_part(folded)
    assert len(shown) == 20 and shown[6].split()[:2] == [f"{LAYERS}.0-31", "DecoderLayer"]
    assert len(folded.splitlines()) <= MAX_ROWS + 10
    ip.run_line_magic("devices", "--all --text --no-rehearse")
    every = capsys.readouterr().out
    assert [line.split()[0] for line in table_part(every)] == [
        "peft", *(f"peft.{n}" for n, _ in peft.named_parameters())]
    assert len(folded.encode()) * 20 < len(every.encode())


def test_an_error_opens_its_path_even_past_the_row_limit():
    # NB: 50 named (not numbered) blocks: their level alone is past the limit, so only the
    # error opens it
    d = nn.ModuleDict({f"b{i}": nn.Sequential(nn.Linear(2, 2)) for i in range(50)}).to("meta")
    d["b30"][0].weight = nn.Parameter(torch.ones(2, 2))
    snap = take_snapshot({"d": d})
    found = diagnose(snap)
    assert [f.paths for f in found] == [("d.b30.0.weight",)]
    got = [(r.name, r.flagged) for r in rows(snap, found)]
    assert got == [("d", True), *((f"d.b{i}", i == 30) for i in range(31)),
                   ("d.b30.0", True), ("d.b30.0.weight", True),
                   *((f"d.b{i}", False) for i in range(31, 50))]


def test_a_long_container_folds_runs_of_alike_tensors_a_short_one_shows_each():
    lst = [torch.zeros(i % 2 + 1) for i in range(30)]
    lst[15] = torch.zeros(3, dtype=torch.float64)
    ns = {"model": nn.Linear(2, 2), "lst": lst, "batch": {"x": torch.ones(2), "y": torch.ones(2)}}
    snap = take_snapshot(ns)
    found = diagnose(snap)
    assert [f.paths for f in found] == [("lst[15]",)]
    assert [(r.name, r.kind, r.shape, r.nbytes, r.flagged) for r in rows(snap, found)] == [
        ("model", "Linear", "", 24, False), ("lst", "list", "", 4 * 43 + 24, True),
        ("lst[0] … lst[14]", "tensor ×15", "2 shapes", 4 * 22, False),
        ("lst[15]", "tensor", "(3,)", 24, True),
        ("lst[16] … lst[29]", "tensor ×14", "2 shapes", 4 * 21, False),
        ("batch", "dict", "", 16, False), ("batch['x']", "tensor", "(2,)", 8, False),
        ("batch['y']", "tensor", "(2,)", 8, False)]
