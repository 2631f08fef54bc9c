"""Speculative decoding with the target model on cuda:0 and the assistant on cuda:1: the candidate ids stay on the assistant's GPU.

Source: https://github.com/huggingface/transformers/issues/35099
The user took the speculative-decoding example (pythia-1.4b target, pythia-160m assistant), put the
target on one GPU and the assistant on another, and `model.generate(**inputs, assistant_model=assistant_model)`
failed with a device mismatch. `AssistedCandidateGenerator.get_candidates` moves `input_ids` to the
assistant's device and returns the candidate sequence there; `_assisted_decoding` then runs the
target model on `candidate_input_ids` without moving them back. The fix (PR #35116) adds
`candidate_input_ids = candidate_input_ids.to(self.device)` after `get_candidates`.
Stand-in: a tiny GPT-NeoX-like causal LM with a greedy assisted-generation loop (every candidate accepted).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class AssistedCandidateGenerator:
    def __init__(self, assistant_model, num_assistant_tokens=3):
        self.assistant_model = assistant_model
        self.num_assistant_tokens = num_assistant_tokens

    def get_candidates(self, input_ids):
        input_ids = input_ids.to(self.assistant_model.device)
        for _ in range(self.num_assistant_tokens):
            next_token = self.assistant_model(input_ids)[:, -1, :].argmax(dim=-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
        return input_ids

class GPTNeoXForCausalLM(nn.Module):
    def __init__(self, vocab_size=64, hidden=32):
        super().__init__()
        self.embed_in = nn.Embedding(vocab_size, hidden)
        self.layer = nn.Linear(hidden, hidden)
        self.embed_out = nn.Linear(hidden, vocab_size, bias=False)

    @property
    def device(self):
        return self.embed_in.weight.device

    def forward(self, input_ids):
        return self.embed_out(torch.tanh(self.layer(self.embed_in(input_ids))))

    @torch.no_grad()
    def generate(self, input_ids, assistant_model=None, max_new_tokens=6):
        candidate_generator = AssistedCandidateGenerator(assistant_model)
        while input_ids.shape[-1] < max_new_tokens + 4:
            candidate_input_ids = candidate_generator.get_candidates(input_ids)
            logits = self(candidate_input_ids)
            next_token = logits[:, -1, :].argmax(dim=-1, keepdim=True)
            input_ids = torch.cat([candidate_input_ids, next_token], dim=-1)
        return input_ids

checkpoint = "EleutherAI/pythia-1.4b-deduped"
assistant_checkpoint = "EleutherAI/pythia-160m-deduped"
model = GPTNeoXForCausalLM(hidden=48).to("cuda:0")
assistant_model = GPTNeoXForCausalLM(hidden=16).to("cuda:1")
inputs = {"input_ids": torch.randint(0, 64, (1, 4)).to("cuda:0")}     # tokenizer(prompt, return_tensors="pt").to("cuda:0")
'''
CELL = '''
outputs = model.generate(**inputs, assistant_model=assistant_model, max_new_tokens=6)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["assistant_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("candidate_input_ids = candidate_generator.get_candidates(input_ids)",
                  "candidate_input_ids = candidate_generator.get_candidates(input_ids).to(self.device)")
CLEAN = False
