"""OpenRLHF PPO replay buffer with `cpu_offload=True`: experiences are parked on the CPU and moved back to the GPU when sampled.

Source: https://github.com/OpenRLHF/OpenRLHF/blob/main/openrlhf/trainer/ppo_utils/replay_buffer.py
(`NaiveReplayBuffer`, as of commit 7adaedc2, with `Experience.to_device` from experience_maker.py)
`append()` calls `experience.to_device(torch.device("cpu"))` on purpose to free GPU memory between
rollout and training, and `sample()` rebuilds a batch and calls `experience.to_device(self.target_device)`
before the actor's PPO loss. Look-alike: the rollout `experience` (and the buffer items) stay on
the CPU next to a GPU actor; the loss only sees the sampled batch, which is on cuda:0. It runs.
Stand-ins: Experience/NaiveReplayBuffer reduced (no padding removal), a tiny causal LM actor,
OpenRLHF's PolicyLoss and masked_mean; `target_device` is cuda:0 (`torch.cuda.current_device()` there).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import random
from dataclasses import dataclass
from typing import List, Optional
import torch
from torch import nn

@dataclass
class Experience:
    sequences: torch.Tensor
    action_log_probs: torch.Tensor
    values: torch.Tensor
    returns: torch.Tensor
    advantages: torch.Tensor
    attention_mask: Optional[torch.LongTensor]
    action_mask: Optional[torch.BoolTensor]

    @torch.no_grad()
    def to_device(self, device):
        self.sequences = self.sequences.to(device)
        self.action_log_probs = self.action_log_probs.to(device)
        self.values = self.values.to(device)
        self.returns = self.returns.to(device)
        self.advantages = self.advantages.to(device)
        if self.attention_mask is not None:
            self.attention_mask = self.attention_mask.to(device)
        if self.action_mask is not None:
            self.action_mask = self.action_mask.to(device)

FIELDS = ("sequences", "action_log_probs", "values", "returns", "advantages", "attention_mask", "action_mask")

def split_experience_batch(experience):
    columns = [getattr(experience, k).unbind(0) for k in FIELDS]
    return [dict(zip(FIELDS, row)) for row in zip(*columns)]

def make_experience_batch(items):
    return Experience(**{k: torch.stack([item[k] for item in items]) for k in FIELDS})

class NaiveReplayBuffer:
    def __init__(self, sample_batch_size, limit=0, cpu_offload=True):
        self.sample_batch_size = sample_batch_size
        self.limit = limit
        self.cpu_offload = cpu_offload
        self.target_device = torch.device("cuda:0")
        self.items = []

    @torch.no_grad()
    def append(self, experience):
        if self.cpu_offload:
            experience.to_device(torch.device("cpu"))
        items = split_experience_batch(experience)
        self.items.extend(items)

    @torch.no_grad()
    def sample(self):
        items = random.sample(self.items, self.sample_batch_size)
        experience = make_experience_batch(items)
        if self.cpu_offload:
            experience.to_device(self.target_device)
        return experience

def masked_mean(tensor, mask, dim=None):
    return (tensor * mask).sum(dim=dim) / mask.sum(dim=dim)

class PolicyLoss(nn.Module):
    def __init__(self, clip_eps=0.2):
        super().__init__()
        self.clip_eps = clip_eps

    def forward(self, log_probs, old_log_probs, advantages, action_mask=None):
        ratio = (log_probs - old_log_probs).exp()
        surr1 = ratio * advantages
        surr2 = ratio.clamp(1 - self.clip_eps, 1 + self.clip_eps) * advantages
        loss = -torch.min(surr1, surr2)
        return masked_mean(loss, action_mask, dim=-1).mean()

class Actor(nn.Module):
    def __init__(self, vocab_size=64, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, sequences, num_actions, attention_mask=None):
        logits = self.lm_head(self.embed_tokens(sequences))
        S = sequences.size(1)
        log_probs = logits.narrow(1, 0, S - 1).log_softmax(-1)
        log_probs = log_probs.gather(-1, sequences.narrow(1, 1, S - 1).unsqueeze(-1)).squeeze(-1)
        return log_probs.narrow(1, S - 1 - num_actions, num_actions)

actor = Actor().to("cuda:0")
policy_loss = PolicyLoss()
replay_buffer = NaiveReplayBuffer(sample_batch_size=4, cpu_offload=True)
B, S, A = 8, 20, 6
experience = Experience(
    sequences=torch.randint(0, 64, (B, S), device="cuda:0"),
    action_log_probs=torch.randn(B, A, device="cuda:0"),
    values=torch.randn(B, A, device="cuda:0"),
    returns=torch.randn(B, A, device="cuda:0"),
    advantages=torch.randn(B, A, device="cuda:0"),
    attention_mask=torch.ones(B, S, dtype=torch.long, device="cuda:0"),
    action_mask=torch.ones(B, A, dtype=torch.bool, device="cuda:0"),
)
'''
CELL = '''
replay_buffer.append(experience)          # offloaded: `experience` now lives on the CPU
batch = replay_buffer.sample()            # moved back to cuda:0
action_log_probs = actor(batch.sequences, A, attention_mask=batch.attention_mask)
actor_loss = policy_loss(action_log_probs, batch.action_log_probs, batch.advantages, action_mask=batch.action_mask)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
