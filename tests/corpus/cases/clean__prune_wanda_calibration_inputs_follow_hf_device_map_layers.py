"""Wanda on a LLaMA split over two GPUs: calibration activations are moved to each layer's device from `hf_device_map`.

Source: https://github.com/locuslab/wanda/blob/main/lib/prune.py
`prune_wanda` keeps `inps`, `outs`, `attention_mask`, `position_ids` on the first device and, for every
decoder layer, "handle the case for llama-30B and llama-65B, when the device map has multiple GPUs":
`dev = model.hf_device_map[f"model.layers.{i}"]; inps, outs, attention_mask, position_ids = inps.to(dev), ...`.
`WrappedGPT.scaler_row` lives on its layer's device. Look-alike: layers on cuda:0 and cuda:1, activations
handed from one GPU to the next on purpose; it runs.
Stand-in: a two-layer decoder with `hf_device_map`, WrappedGPT's `add_batch`, and the unstructured Wanda
mask (per-sample loop written with `unbind`/`stack`, the masked write with `masked_fill_`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class WrappedGPT:
    def __init__(self, layer):
        self.layer = layer
        self.dev = self.layer.weight.device
        self.rows = layer.weight.data.shape[0]
        self.columns = layer.weight.data.shape[1]
        self.scaler_row = torch.zeros((self.columns), device=self.dev)
        self.nsamples = 0

    def add_batch(self, inp, out):
        if len(inp.shape) == 2:
            inp = inp.unsqueeze(0)
        tmp = inp.shape[0]
        if len(inp.shape) == 3:
            inp = inp.reshape((-1, inp.shape[-1]))
        inp = inp.t()
        self.scaler_row *= self.nsamples / (self.nsamples + tmp)
        self.nsamples += tmp
        inp = inp.type(torch.float32)
        self.scaler_row += torch.norm(inp, p=2, dim=1) ** 2 / self.nsamples

class DecoderLayer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.mlp = nn.Linear(hidden, hidden, bias=False)

    def forward(self, x, attention_mask=None, position_ids=None):
        h = x + self.q_proj(x) * attention_mask.unsqueeze(-1)
        return (h + torch.relu(self.mlp(h)),)

class LlamaModel(nn.Module):
    def __init__(self, n_layers=2):
        super().__init__()
        self.layers = nn.ModuleList([DecoderLayer() for _ in range(n_layers)])

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()
        self.seqlen = 16

def find_layers(module, layers=[nn.Linear], name=''):
    if type(module) in layers:
        return {name: module}
    res = {}
    for name1, child in module.named_children():
        res.update(find_layers(child, layers=layers, name=name + '.' + name1 if name != '' else name1))
    return res

model = LlamaForCausalLM()
model.model.layers[0].to("cuda:0")
model.model.layers[1].to("cuda:1")
model.hf_device_map = {"model.layers.0": "cuda:0", "model.layers.1": "cuda:1"}
nsamples = 4
inps = torch.randn(nsamples, model.seqlen, 32, device="cuda:0")      # prepare_calibration_input
outs = torch.zeros_like(inps)
attention_mask = torch.ones(1, model.seqlen, device="cuda:0")
position_ids = torch.arange(model.seqlen, device="cuda:0").unsqueeze(0)
sparsity_ratio = 0.5
'''
CELL = '''
layers = model.model.layers
for i in range(len(layers)):
    layer = layers[i]
    subset = find_layers(layer)
    if f"model.layers.{i}" in model.hf_device_map:
        dev = model.hf_device_map[f"model.layers.{i}"]
        inps, outs, attention_mask, position_ids = inps.to(dev), outs.to(dev), attention_mask.to(dev), position_ids.to(dev)
    wrapped_layers = {name: WrappedGPT(subset[name]) for name in subset}
    def add_batch(name):
        def tmp(_, inp, out):
            wrapped_layers[name].add_batch(inp[0].data, out.data)
        return tmp
    handles = [subset[name].register_forward_hook(add_batch(name)) for name in wrapped_layers]
    with torch.no_grad():
        outs = torch.stack([layer(x.unsqueeze(0), attention_mask=attention_mask, position_ids=position_ids)[0].squeeze(0)
                            for x in inps.unbind(0)])
    for h in handles:
        h.remove()
    for name in subset:
        W_metric = torch.abs(subset[name].weight.data) * torch.sqrt(wrapped_layers[name].scaler_row.reshape((1, -1)))
        W_mask = (torch.zeros_like(W_metric) == 1)
        sort_res = torch.sort(W_metric, dim=-1, stable=True)
        indices = sort_res[1].narrow(1, 0, int(W_metric.shape[1] * sparsity_ratio))
        W_mask.scatter_(1, indices, True)
        subset[name].weight.data.masked_fill_(W_mask, 0)
    inps, outs = outs, inps
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
