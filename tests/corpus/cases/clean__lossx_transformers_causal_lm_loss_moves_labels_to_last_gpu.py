"""transformers `ForCausalLMLoss` on a model split over two GPUs: labels and token count stay on the first GPU, the loss moves them.

Source: https://github.com/huggingface/transformers/blob/0114da07ec0e101b420a923dedeb6032b6ac3a44/src/transformers/loss/loss_utils.py
With a causal LM whose layers are spread over cuda:0 and cuda:1, the logits come out of the LM head
on the last GPU while the batch (`labels`) and the Trainer's `num_items_in_batch` live on the first.
`ForCausalLMLoss` pads/shifts the labels and does `shift_labels = shift_labels.to(logits.device)`
("Enable model parallelism"), and `fixed_cross_entropy` moves a tensor `num_items_in_batch` to
`loss.device` before dividing. Look-alike: labels and the token count on another GPU than the
logits, moved inside the loss; it runs.
Stand-ins: a two-stage toy causal LM placed by hand (hidden states handed to cuda:1 as accelerate's
hooks do) and the Trainer's token count; the two loss functions keep the library's code.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import Optional
import torch
import torch.nn as nn

def fixed_cross_entropy(source, target, num_items_in_batch: Optional[torch.Tensor] = None,
                        ignore_index: int = -100, **kwargs):
    reduction = "sum" if num_items_in_batch is not None else "mean"
    loss = nn.functional.cross_entropy(source, target, ignore_index=ignore_index, reduction=reduction)
    if reduction == "sum":
        if torch.is_tensor(num_items_in_batch):
            num_items_in_batch = num_items_in_batch.to(loss.device)
        loss = loss / num_items_in_batch
    return loss

def ForCausalLMLoss(logits, labels, vocab_size: int, num_items_in_batch: Optional[torch.Tensor] = None,
                    ignore_index: int = -100, shift_labels: Optional[torch.Tensor] = None, **kwargs):
    logits = logits.float()
    if shift_labels is None:
        labels = nn.functional.pad(labels, (0, 1), value=ignore_index)
        shift_labels = labels[..., 1:].contiguous()
    logits = logits.view(-1, vocab_size)
    shift_labels = shift_labels.view(-1)
    shift_labels = shift_labels.to(logits.device)
    loss = fixed_cross_entropy(logits, shift_labels, num_items_in_batch, ignore_index, **kwargs)
    return loss

class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=128, hidden=32):
        super().__init__()
        self.vocab_size = vocab_size
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.layer0 = nn.Linear(hidden, hidden)
        self.layer1 = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids):
        h = torch.tanh(self.layer0(self.embed_tokens(input_ids)))
        h = h.to(self.layer1.weight.device)          # what accelerate's AlignDevicesHook does
        h = torch.tanh(self.layer1(h))
        return self.lm_head(h)

model = TinyCausalLM()
model.embed_tokens.to("cuda:0"); model.layer0.to("cuda:0")
model.layer1.to("cuda:1"); model.lm_head.to("cuda:1")
input_ids = torch.randint(0, 128, (4, 16), device="cuda:0")
labels = input_ids.clone()
num_items_in_batch = torch.tensor(4 * 15, device="cuda:0")   # Trainer: sum(labels.ne(-100)) on args.device
'''
CELL = '''
logits = model(input_ids)
loss = ForCausalLMLoss(logits, labels, vocab_size=model.vocab_size, num_items_in_batch=num_items_in_batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
