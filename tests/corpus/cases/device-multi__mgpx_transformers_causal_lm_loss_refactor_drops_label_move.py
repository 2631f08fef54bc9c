"""transformers' refactored `ForCausalLMLoss` lost the labels-to-logits-device move: a model split over two GPUs computes its loss with logits on cuda:1 and labels on cuda:0.

Source: https://github.com/huggingface/transformers/pull/35395
After the loss refactor (#34191) moved the causal-LM loss into `ForCausalLMLoss(logits, labels,
vocab_size, ...)`, training a model dispatched over several GPUs (device_map) failed in the loss: the
labels come with the batch on the first GPU, the logits from `lm_head` on the last one, and
`cross_entropy(shift_logits, shift_labels)` raises "Expected all tensors to be on the same device".
The PR ("Fix multi-gpu loss: fixes the label's device") moves the shifted labels to the logits'
device inside the loss.
Stand-ins: a two-layer causal LM, accelerate-like dispatch hooks that move each mapped module's
inputs to its GPU, and the loss function in plain torch.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def dispatch_model(model, device_map):
    # stand-in for accelerate.dispatch_model: each entry moves to its GPU and gets a pre-hook that
    # moves the module's tensor inputs there
    for name, device in device_map.items():
        module = model.get_submodule(name)
        module.to(device)
        def pre_hook(mod, args, device=device):
            return tuple(a.to(device) if isinstance(a, torch.Tensor) else a for a in args)
        module.register_forward_pre_hook(pre_hook)
    model.hf_device_map = dict(device_map)
    return model

def fixed_cross_entropy(source, target, num_items_in_batch=None, ignore_index=-100):
    reduction = "sum" if num_items_in_batch is not None else "mean"
    loss = F.cross_entropy(source, target, ignore_index=ignore_index, reduction=reduction)
    if reduction == "sum":
        loss = loss / num_items_in_batch
    return loss

def ForCausalLMLoss(logits, labels, vocab_size, num_items_in_batch=None, ignore_index=-100, **kwargs):
    # Upcast to float if we need to compute the loss to avoid potential precision issues
    logits = logits.float()
    # Shift so that tokens < n predict n
    shift_logits = logits[..., :-1, :].contiguous()
    shift_labels = labels[..., 1:].contiguous()
    # Flatten the tokens
    shift_logits = shift_logits.view(-1, vocab_size)
    shift_labels = shift_labels.view(-1)
    loss = fixed_cross_entropy(shift_logits, shift_labels, num_items_in_batch, ignore_index)
    return loss

class DecoderLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, hidden_states):
        return hidden_states + self.mlp(hidden_states)

class LlamaModel(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([DecoderLayer(d), DecoderLayer(d)])
        self.norm = nn.LayerNorm(d)
    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.norm(h)

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.vocab_size = vocab
        self.model = LlamaModel(vocab, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.loss_function = ForCausalLMLoss
    def forward(self, input_ids, labels=None):
        hidden_states = self.model(input_ids)
        logits = self.lm_head(hidden_states)
        loss = None
        if labels is not None:
            loss = self.loss_function(logits, labels, self.vocab_size)
        return loss, logits

model = LlamaForCausalLM()
device_map = {"model.embed_tokens": "cuda:0", "model.layers.0": "cuda:0",
              "model.layers.1": "cuda:1", "model.norm": "cuda:1", "lm_head": "cuda:1"}
model = dispatch_model(model, device_map)
input_ids = torch.randint(0, 64, (2, 12)).to("cuda:0")
labels = input_ids.clone()
'''
CELL = '''
loss, logits = model(input_ids, labels=labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["labels"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    shift_labels = shift_labels.view(-1)\n",
                  "    shift_labels = shift_labels.view(-1)\n    # Enable model parallelism\n"
                  "    shift_labels = shift_labels.to(shift_logits.device)\n")
CLEAN = False
