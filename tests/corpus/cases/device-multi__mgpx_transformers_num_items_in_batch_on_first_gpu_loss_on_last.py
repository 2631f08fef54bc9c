"""A causal LM split over two GPUs trained with the HF Trainer: `num_items_in_batch` sits on the first GPU, the summed loss on the last.

Source: https://github.com/huggingface/transformers/issues/37886
With transformers 4.51.1 and the model's layers placed on several GPUs, training (TRL's SFTTrainer on top
of Trainer.compute_loss) fails in the causal-LM loss with "Expected all tensors to be on the same
device": `ForCausalLMLoss` moves `shift_labels` to `logits.device` "to enable model parallelism", but the
token count `num_items_in_batch`, which the Trainer computes and puts on `args.device` (the first GPU), is
not moved, and `fixed_cross_entropy` divides the last GPU's summed loss by it. The fix (PRs #37890/#38029)
moves `num_items_in_batch` to the loss's device before the division. Stand-ins: a two-layer causal LM,
accelerate's dispatch_model with device-aligning hooks, and the Trainer's token count, in plain torch.
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

def fixed_cross_entropy(source, target, num_items_in_batch=None, ignore_index=-100, **kwargs):
    reduction = "sum" if num_items_in_batch is not None else "mean"
    loss = nn.functional.cross_entropy(source, target, ignore_index=ignore_index, reduction=reduction)
    if reduction == "sum":
        loss = loss / num_items_in_batch
    return loss

def ForCausalLMLoss(logits, labels, vocab_size, num_items_in_batch=None, ignore_index=-100, **kwargs):
    # Upcast to float if we need to compute the loss to avoid potential precision issues
    logits = logits.float()
    labels = labels.to(logits.device)
    # Shift so that tokens < n predict n
    labels = nn.functional.pad(labels, (0, 1), value=ignore_index)
    shift_labels = labels[..., 1:].contiguous()
    # Flatten the tokens
    logits = logits.view(-1, vocab_size)
    shift_labels = shift_labels.view(-1)
    # Enable model parallelism
    shift_labels = shift_labels.to(logits.device)
    loss = fixed_cross_entropy(logits, shift_labels, num_items_in_batch, ignore_index, **kwargs)
    return loss

class DecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, h):
        return h + self.mlp(self.norm(h))

class Qwen2ForCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.vocab_size = vocab
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([DecoderLayer(d), DecoderLayer(d)])
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.loss_function = ForCausalLMLoss

    def forward(self, input_ids, attention_mask=None, labels=None, **kwargs):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        logits = self.lm_head(self.norm(h))
        loss = None
        if labels is not None:
            loss = self.loss_function(logits=logits, labels=labels, vocab_size=self.vocab_size, **kwargs)
        return {"loss": loss, "logits": logits}

model = Qwen2ForCausalLM()
device_map = {"embed_tokens": "cuda:0", "layers.0": "cuda:0",
              "layers.1": "cuda:1", "norm": "cuda:1", "lm_head": "cuda:1"}
model = dispatch_model(model, device_map)

# what Trainer._prepare_inputs / get_batch_samples hand to compute_loss (args.device is cuda:0)
inputs = {"input_ids": torch.randint(0, 100, (2, 16)).to("cuda:0"),
          "attention_mask": torch.ones(2, 16, dtype=torch.long).to("cuda:0"),
          "labels": torch.randint(0, 100, (2, 16)).to("cuda:0")}
num_items_in_batch = inputs["labels"].ne(-100).sum().to("cuda:0")
'''
CELL = '''
outputs = model(**inputs, num_items_in_batch=num_items_in_batch)
loss = outputs["loss"]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["num_items_in_batch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    if reduction == \"sum\":\n        loss = loss / num_items_in_batch\n",
                  "    if reduction == \"sum\":\n        if torch.is_tensor(num_items_in_batch):\n"
                  "            num_items_in_batch = num_items_in_batch.to(loss.device)\n"
                  "        loss = loss / num_items_in_batch\n")
CLEAN = False
