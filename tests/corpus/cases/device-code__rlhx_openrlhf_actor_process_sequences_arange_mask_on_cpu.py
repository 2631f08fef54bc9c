"""OpenRLHF PPO rollout: `Actor.process_sequences` builds its position mask with `torch.arange` on the CPU.

Source: https://github.com/OpenRLHF/OpenRLHF/issues/325
Running `examples/train_ppo.py` (`train_ppo_llama.sh`, `--actor_init_on_gpu`) failed at the first
episode with "[rank3]: RuntimeError: Expected all tensors to be on the same device, but found at
least two devices, cuda:3 and cpu!". The maintainers' fix (commit 7adaedc2, "Fix .../issues/325")
is in `Actor.process_sequences`: the mask added for Llama3/Qwen2 prompts with inner EOS tokens was
`torch.arange(seq_length)...` (CPU) compared with `eos_indices` computed from the GPU sequences;
it became `torch.arange(seq_length)....to(device=sequences.device)`.
Stand-ins: OpenRLHF's `Actor` (generate -> process_sequences, as in that release) around a tiny
causal LM whose `generate` appends sampled tokens; `sequences[:, a:b]` is written `narrow`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    """Stand-in for the HF causal LM the Actor wraps (`self.model`)."""

    def __init__(self, vocab_size=128, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)
        self.vocab_size = vocab_size

    def forward(self, input_ids, attention_mask=None, position_ids=None):
        return {"logits": self.lm_head(self.embed_tokens(input_ids))}

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, max_new_tokens=8, **kwargs):
        # transformers' sampling loop, reduced: new tokens come out on the model's device
        logits = self(input_ids)["logits"]
        new_tokens = torch.randint(3, self.vocab_size, (input_ids.size(0), max_new_tokens), device=logits.device)
        return torch.cat([input_ids, new_tokens], dim=1)

class Actor(nn.Module):
    def __init__(self, pretrain_or_model):
        super().__init__()
        self.model = pretrain_or_model

    @torch.no_grad()
    def generate(self, input_ids, **kwargs):
        generate_args = {
            "input_ids": input_ids,
            "attention_mask": kwargs.get("attention_mask"),
            "eos_token_id": kwargs.get("eos_token_id"),
            "pad_token_id": kwargs.get("pad_token_id"),
            "max_new_tokens": kwargs.get("max_new_tokens"),
        }
        sequences = self.model.generate(**generate_args)
        eos_token_id = generate_args["eos_token_id"]
        pad_token_id = generate_args["pad_token_id"]
        return self.process_sequences(sequences, input_ids.size(1), eos_token_id, pad_token_id)

    def process_sequences(self, sequences, input_len, eos_token_id, pad_token_id):
        attention_mask = (sequences.ne(eos_token_id) & sequences.ne(pad_token_id)).to(dtype=torch.long)
        seq_length = attention_mask.size(1)
        eos_indices = seq_length - attention_mask.long().fliplr().argmax(dim=1, keepdim=True).clamp(min=1)
        first_token_indices = attention_mask.long().argmax(dim=1, keepdim=True)

        # For Llama3 and Qwen2 models, there are some eos_tokens in the middle of the prompt.
        mask = torch.arange(seq_length).unsqueeze(0).expand(sequences.size(0), -1)
        mask = (mask <= eos_indices) & (mask >= first_token_indices)

        attention_mask.masked_fill_(mask, 1)
        sequences.scatter_(dim=1, index=eos_indices, value=eos_token_id)

        # in RL, state_i (current token) + action_i (next token) -> state_i+1 (next token)
        state_seq = sequences.narrow(1, input_len - 1, seq_length - input_len)
        action_mask = state_seq.ne(eos_token_id) & state_seq.ne(pad_token_id)
        return sequences, attention_mask, action_mask

actor = Actor(TinyCausalLM()).to("cuda:0")          # --actor_init_on_gpu
input_ids = torch.randint(3, 128, (4, 16), device="cuda:0")   # prompts, tokenized and moved by the experience maker
prompt_mask = torch.ones(4, 16, dtype=torch.long, device="cuda:0")
'''
CELL = '''
sequences, attention_mask, action_mask = actor.generate(
    input_ids, attention_mask=prompt_mask, max_new_tokens=8, eos_token_id=2, pad_token_id=0
)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["actor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "mask = torch.arange(seq_length).unsqueeze(0).expand(sequences.size(0), -1)",
    "mask = torch.arange(seq_length).unsqueeze(0).expand(sequences.size(0), -1).to(device=sequences.device)",
)
CLEAN = False
