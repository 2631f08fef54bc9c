"""OpenRLHF `Actor.process_sequences` after the fix for issue 325: the CPU-made `arange` mask is moved to the sequences' device.

Source: https://github.com/OpenRLHF/OpenRLHF/blob/7adaedc2206fa1bcb8eda1addfa7729c06a21c12/openrlhf/models/actor.py
(`Actor.generate` -> `process_sequences`)
`torch.arange(seq_length)` is still created without a device, but the same line ends in
`.to(device=sequences.device)`, so the comparison with `eos_indices` / `first_token_indices` (from the
GPU sequences) happens on cuda:0. Look-alike: a device-less `torch.arange` inside a GPU rollout
that is moved before it meets the GPU tensors; the rollout runs.
Stand-ins: a tiny causal LM whose `generate` appends sampled tokens; `sequences[:, a:b]` is written
`narrow`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=128, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)
        self.vocab_size = vocab_size

    def forward(self, input_ids, attention_mask=None):
        return {"logits": self.lm_head(self.embed_tokens(input_ids))}

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, max_new_tokens=8, **kwargs):
        logits = self(input_ids)["logits"]
        new_tokens = torch.randint(3, self.vocab_size, (input_ids.size(0), max_new_tokens), device=logits.device)
        return torch.cat([input_ids, new_tokens], dim=1)

class Actor(nn.Module):
    def __init__(self, pretrain_or_model):
        super().__init__()
        self.model = pretrain_or_model

    @torch.no_grad()
    def generate(self, input_ids, **kwargs):
        sequences = self.model.generate(input_ids, attention_mask=kwargs.get("attention_mask"),
                                        max_new_tokens=kwargs.get("max_new_tokens"))
        return self.process_sequences(sequences, input_ids.size(1), kwargs.get("eos_token_id"), kwargs.get("pad_token_id"))

    def process_sequences(self, sequences, input_len, eos_token_id, pad_token_id):
        attention_mask = (sequences.ne(eos_token_id) & sequences.ne(pad_token_id)).to(dtype=torch.long)
        seq_length = attention_mask.size(1)
        eos_indices = seq_length - attention_mask.long().fliplr().argmax(dim=1, keepdim=True).clamp(min=1)
        first_token_indices = attention_mask.long().argmax(dim=1, keepdim=True)

        # For Llama3 and Qwen2 models, there are some eos_tokens in the middle of the prompt.
        mask = torch.arange(seq_length).unsqueeze(0).expand(sequences.size(0), -1).to(device=sequences.device)
        mask = (mask <= eos_indices) & (mask >= first_token_indices)

        attention_mask.masked_fill_(mask, 1)
        sequences.scatter_(dim=1, index=eos_indices, value=eos_token_id)

        state_seq = sequences.narrow(1, input_len - 1, seq_length - input_len)
        action_mask = state_seq.ne(eos_token_id) & state_seq.ne(pad_token_id)
        return sequences, attention_mask, action_mask

actor = Actor(TinyCausalLM()).to("cuda:0")
input_ids = torch.randint(3, 128, (4, 16), device="cuda:0")
prompt_mask = torch.ones(4, 16, dtype=torch.long, device="cuda:0")
'''
CELL = '''
sequences, attention_mask, action_mask = actor.generate(
    input_ids, attention_mask=prompt_mask, max_new_tokens=8, eos_token_id=2, pad_token_id=0
)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
