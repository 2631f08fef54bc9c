"""unsloth with device_map="balanced": the chunked cross-entropy fills the last GPU's losses with a mask built from labels still on the first GPU.

Source: https://github.com/unslothai/unsloth/pull/4059
(fixes unslothai/unsloth#4041) Loading a model with `device_map='balanced'` over two GPUs and training
it: `labels` come in with the batch on the first GPU, the logits are produced by `lm_head` on the
last one, and `Fast_CrossEntropyLoss.forward` fails at `losses.masked_fill_(labels == -100, 0)` with
"Expected all tensors to be on the same device". The merged fix moves `labels` to the logits' device
at the start of the loss. Stand-ins: a two-layer causal LM, accelerate's dispatch_model with
device-aligning hooks, and unsloth's loss in plain torch (no Triton kernel).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def send_to_device(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(send_to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: send_to_device(v, device) for k, v in obj.items()}
    return obj

def dispatch_model(model, device_map):
    # stand-in for accelerate.dispatch_model: each entry is moved to its GPU and gets an
    # AlignDevicesHook-like pre-hook that moves the module's inputs to that GPU
    for name, device in device_map.items():
        module = model.get_submodule(name) if name else model
        module.to(device)
        def pre_hook(mod, args, kwargs, device=device):
            return send_to_device(args, device), send_to_device(kwargs, device)
        module.register_forward_pre_hook(pre_hook, with_kwargs=True)
    model.hf_device_map = dict(device_map)
    return model

def fast_cross_entropy_loss(logits, labels):
    # Fast_CrossEntropyLoss.forward, in torch instead of the Triton kernel
    logsumexp = torch.logsumexp(logits, dim=-1)
    picked = torch.gather(logits, -1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
    losses = logsumexp - picked
    losses.masked_fill_(labels == -100, 0)
    n_items = (labels != -100).sum()
    return losses.sum() / n_items

class DecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, h):
        return h + self.mlp(self.norm(h))

class CausalLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([DecoderLayer(d), DecoderLayer(d)])
        self.lm_head = nn.Linear(d, vocab, bias=False)
    def forward(self, input_ids, labels=None):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        logits = self.lm_head(h)
        loss = None
        if labels is not None:
            shift_logits = logits[:, :-1, :]
            shift_labels = labels[:, 1:]
            loss = fast_cross_entropy_loss(shift_logits.reshape(-1, shift_logits.shape[-1]),
                                           shift_labels.reshape(-1))
        return loss, logits

model = CausalLM()
device_map = {"": "cuda:0", "embed_tokens": "cuda:0", "layers.0": "cuda:0",
              "layers.1": "cuda:1", "lm_head": "cuda:1"}        # device_map="balanced" on 2 GPUs
model = dispatch_model(model, device_map)
input_ids = torch.randint(0, 100, (2, 16)).to("cuda:0")
labels = torch.randint(0, 100, (2, 16)).to("cuda:0")
'''
CELL = '''
loss, logits = model(input_ids, labels=labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["labels"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    logsumexp = torch.logsumexp(logits, dim=-1)\n",
                  "    labels = labels.to(logits.device)\n    logsumexp = torch.logsumexp(logits, dim=-1)\n")
CLEAN = False
