"""llm-awq `run_awq`: the model stays on the CPU, each decoder block is moved to the GPU in turn, and the linear-layer input features are cached back on the CPU.

Source: https://github.com/mit-han-lab/llm-awq/blob/main/awq/quantize/pre_quant.py
`run_awq` moves `layers[0]` and the embeddings to "cuda", catches the first block's input with a
`Catcher` that raises `ValueError`, moves them back to the CPU, then for each block does
`layer = layer.cuda()`, registers `cache_input_hook` (`x.detach().cpu()` into `input_feat`),
`inps = inps.to(next(layer.parameters()).device)`, runs the block, and finally `layer = layer.cpu()`.
Look-alike: a CPU model, CPU feature caches and GPU activations side by side, all on purpose; it runs.
Stand-ins: a two-block OPT-like model, `get_blocks`/`move_embed`/`get_named_linears`, and the
calibration loop without the scale/clip search (`.cuda()` written `.to("cuda:0")`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import functools
from collections import defaultdict
import torch
import torch.nn as nn

class OPTDecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.self_attn_layer_norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, x, attention_mask=None):
        return (x + self.fc2(torch.relu(self.fc1(self.self_attn_layer_norm(x)))),)

class OPTDecoder(nn.Module):
    def __init__(self, vocab=100, d=32, n=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([OPTDecoderLayer(d) for _ in range(n)])

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h, attention_mask=None)[0]
        return h

class OPTForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Module()
        self.model.decoder = OPTDecoder()

    def forward(self, input_ids):
        return self.model.decoder(input_ids)

def get_blocks(model):
    return model.model.decoder.layers

def move_embed(model, device):
    model.model.decoder.embed_tokens = model.model.decoder.embed_tokens.to(device)

def get_named_linears(module):
    return {name: m for name, m in module.named_modules() if isinstance(m, nn.Linear)}

@torch.no_grad()
def run_awq(model, samples):
    layers = get_blocks(model)
    inps = []
    layer_kwargs = {}
    layers[0] = layers[0].to("cuda:0")
    move_embed(model, "cuda:0")

    class Catcher(nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

        def forward(self, inp, **kwargs):
            inps.append(inp)
            layer_kwargs.update(kwargs)
            raise ValueError

    layers[0] = Catcher(layers[0])
    try:
        model(samples.to(next(model.parameters()).device))
    except ValueError:
        pass
    layers[0] = layers[0].module
    inps = inps[0]
    layers[0] = layers[0].cpu()
    move_embed(model, "cpu")

    awq_results = {"scale": [], "clip": [], "input_feat_rows": []}
    for i in range(len(layers)):
        layer = layers[i]
        layer = layer.to("cuda:0")
        named_linears = get_named_linears(layer)

        def cache_input_hook(m, x, y, name, feat_dict):
            x = x[0]
            x = x.detach().cpu()
            feat_dict[name].append(x)

        input_feat = defaultdict(list)
        handles = []
        for name in named_linears:
            handles.append(named_linears[name].register_forward_hook(
                functools.partial(cache_input_hook, name=name, feat_dict=input_feat)))
        inps = inps.to(next(layer.parameters()).device)
        inps = layer(inps, **layer_kwargs)[0]
        for h in handles:
            h.remove()
        input_feat = {k: torch.cat(v, dim=0) for k, v in input_feat.items()}
        awq_results["input_feat_rows"].append({k: v.shape[0] for k, v in input_feat.items()})
        layer = layer.cpu()
    return awq_results

model = OPTForCausalLM().eval()            # loaded on the CPU
samples = torch.randint(0, 100, (4, 16))   # get_calib_dataset(...) blocks, on the CPU
'''
CELL = '''
awq_results = run_awq(model, samples)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
