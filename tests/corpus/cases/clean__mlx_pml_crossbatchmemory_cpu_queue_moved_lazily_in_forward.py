"""Look-alike: pytorch-metric-learning's CrossBatchMemory keeps its queue as plain CPU tensors and moves them itself.

Source: https://github.com/KevinMusgrave/pytorch-metric-learning/blob/master/src/pytorch_metric_learning/losses/cross_batch_memory.py
`CrossBatchMemory(loss, embedding_size, memory_size)` creates `embedding_memory` / `label_memory`
in `reset_queue()` as ordinary tensor attributes (not buffers, so `loss_fn.to(device)` would not
move them) on the CPU. Each `forward` moves them to the embeddings' device first:
`self.embedding_memory = c_f.to_device(self.embedding_memory, device=device, dtype=embeddings.dtype)`
(same for the labels), then enqueues and computes the wrapped loss. With a GPU model and CPU labels
from the loader this runs. Stand-ins: CrossBatchMemory's forward/add_to_memory/reset_queue and
`c_f.to_device`; the wrapped loss reduced to a masked contrastive (InfoNCE-style) loss over the
memory without pair mining; simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def to_device(x, tensor=None, device=None, dtype=None):
    dv = device if device is not None else tensor.device
    if x.device != dv:
        x = x.to(dv)
    if dtype is not None:
        x = x.type(dtype)
    return x

class MaskedContrastiveLoss(nn.Module):
    """Stand-in for the wrapped loss (e.g. NTXentLoss) computed against the memory."""
    def __init__(self, temperature=0.07):
        super().__init__()
        self.temperature = temperature

    def forward(self, embeddings, labels, indices_tuple, ref_emb, ref_labels):
        sim = nn.functional.normalize(embeddings, dim=1) @ nn.functional.normalize(ref_emb, dim=1).t()
        pos = (labels[:, None] == ref_labels[None, :]).to(sim.dtype)
        log_prob = sim / self.temperature - torch.logsumexp(sim / self.temperature, dim=1, keepdim=True)
        return -(log_prob * pos).sum(1).div(pos.sum(1).clamp(min=1)).mean()

class CrossBatchMemory(nn.Module):
    def __init__(self, loss, embedding_size, memory_size=1024, miner=None):
        super().__init__()
        self.loss = loss
        self.miner = miner
        self.embedding_size = embedding_size
        self.memory_size = memory_size
        self.reset_queue()

    def forward(self, embeddings, labels, indices_tuple=None, enqueue_mask=None):
        device = embeddings.device
        labels = to_device(labels, device=device)
        self.embedding_memory = to_device(self.embedding_memory, device=device, dtype=embeddings.dtype)
        self.label_memory = to_device(self.label_memory, device=device, dtype=labels.dtype)

        self.add_to_memory(embeddings, labels, len(embeddings))
        if not self.has_been_filled:
            E_mem = self.embedding_memory[: self.queue_idx]
            L_mem = self.label_memory[: self.queue_idx]
        else:
            E_mem = self.embedding_memory
            L_mem = self.label_memory
        return self.loss(embeddings, labels, indices_tuple, E_mem, L_mem)

    def add_to_memory(self, embeddings, labels, batch_size):
        self.curr_batch_idx = (
            torch.arange(self.queue_idx, self.queue_idx + batch_size, device=labels.device) % self.memory_size
        )
        self.embedding_memory[self.curr_batch_idx] = embeddings.detach()
        self.label_memory[self.curr_batch_idx] = labels.detach()
        prev_queue_idx = self.queue_idx
        self.queue_idx = (self.queue_idx + batch_size) % self.memory_size
        if (not self.has_been_filled) and (self.queue_idx <= prev_queue_idx):
            self.has_been_filled = True

    def reset_queue(self):
        self.embedding_memory = torch.zeros(self.memory_size, self.embedding_size)
        self.label_memory = torch.zeros(self.memory_size).long()
        self.has_been_filled = False
        self.queue_idx = 0

device = torch.device("meta")          # the GPU, simulated with meta
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 64), nn.ReLU(), nn.Linear(64, 32)).to(device)
loss_fn = CrossBatchMemory(MaskedContrastiveLoss(), embedding_size=32, memory_size=64)
train_loader = [(torch.randn(16, 3, 16, 16), torch.randint(0, 4, (16,))) for _ in range(2)]
'''
CELL = '''
for data, labels in train_loader:
    embeddings = model(data.to(device))
    loss = loss_fn(embeddings, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
