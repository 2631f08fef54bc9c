"""unsloth's fast cross-entropy on an 8-GPU run: the loss buffers are allocated with a hard-coded `device="cuda:0"` while the logits and labels live on cuda:7.

Source: https://github.com/unslothai/unsloth/issues/996
Training on 8 GPUs with `fast_cross_entropy_loss` in place of `torch.nn.CrossEntropyLoss` failed in
`Fast_CrossEntropyLoss.forward` at `losses.masked_fill_(labels == -100, 0)`: "expected self and mask to
be on the same device, but got mask on cuda:7 and self on cuda:0". `losses` and `logsumexp` were
created with `torch.empty(n_rows, dtype=torch.float32, device="cuda:0")`; the reporter's fix, confirmed
by the maintainer, is `device=logits.device`.
Stand-ins: the loss in plain torch (the Triton kernel's in-place writes left out, no autograd
Function) and a causal-LM head whose last stage runs on cuda:7.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def fast_cross_entropy_loss(logits, labels):
    # stand-in for Fast_CrossEntropyLoss.forward (kernels/cross_entropy_loss.py)
    batch, seq_len, d = logits.shape
    logits = logits.view(batch * seq_len, d)
    labels = labels.view(-1)
    n_rows, vocab_size = logits.shape
    losses    = torch.empty(n_rows, dtype = torch.float32, device = "cuda:0")
    logsumexp = torch.empty(n_rows, dtype = torch.float32, device = "cuda:0")
    # _cross_entropy_forward[(n_rows,)](logits, ..., losses, logsumexp, labels, ...): the Triton
    # kernel fills both buffers in place (not reproduced: a fake tensor cannot be written into)
    losses.masked_fill_(labels == -100, 0)  # Don't forget to mask padding out!
    n_items = torch.count_nonzero(labels != -100)
    return losses.sum() / n_items

class CausalLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.Sequential(nn.Linear(d, d), nn.GELU())
        self.lm_head = nn.Linear(d, vocab, bias=False)
    def forward(self, input_ids, labels=None):
        h = self.layers(self.embed_tokens(input_ids))
        logits = self.lm_head(h.to(self.lm_head.weight.device))
        loss = None
        if labels is not None:
            shift_logits = logits[..., :-1, :].contiguous()
            shift_labels = labels[..., 1:].contiguous().to(shift_logits.device)
            loss = fast_cross_entropy_loss(shift_logits, shift_labels)
        return loss, logits

model = CausalLM()
model.embed_tokens.to("cuda:7")
model.layers.to("cuda:7")
model.lm_head.to("cuda:7")         # this rank's model lives on the 8th GPU
input_ids = torch.randint(0, 64, (2, 10)).to("cuda:7")
labels = input_ids.clone()
'''
CELL = '''
loss, logits = model(input_ids, labels=labels)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''    losses    = torch.empty(n_rows, dtype = torch.float32, device = "cuda:0")
    logsumexp = torch.empty(n_rows, dtype = torch.float32, device = "cuda:0")''',
                  '''    losses    = torch.empty(n_rows, dtype = torch.float32, device = logits.device)
    logsumexp = torch.empty(n_rows, dtype = torch.float32, device = logits.device)''')
CLEAN = False
