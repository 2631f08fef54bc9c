"""Assisted decoding with the target on cuda and the assistant on the cpu: the min-length processor's eos tensor lives on the target's GPU.

Source: https://github.com/huggingface/transformers/pull/31401
"fix assisted decoding": `model = model.to("cuda")` then
`model.generate(**inputs, assistant_model=assistant_model.to("cpu"), min_new_tokens=...)` fails.
`generate` prepares the special tokens as tensors on the target model's device and builds the
logits processors from them; the candidate generator runs the assistant on the cpu and applies
the same `MinLengthLogitsProcessor`, whose `torch.isin(vocab_tensor, self.eos_token_id)` then mixes
the cpu scores with the cuda eos tensor. The PR moves it: `self.eos_token_id.to(vocab_tensor.device)`.
Stand-in: a tiny causal LM, the processor and a greedy assisted loop.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class MinLengthLogitsProcessor:
    def __init__(self, min_length, eos_token_id):
        self.min_length = min_length
        self.eos_token_id = eos_token_id

    def __call__(self, input_ids, scores):
        vocab_tensor = torch.arange(scores.shape[-1], device=scores.device)
        eos_token_mask = torch.isin(vocab_tensor, self.eos_token_id)
        if input_ids.shape[-1] < self.min_length:
            scores = torch.where(eos_token_mask, -float("inf"), scores)
        return scores

class AssistedCandidateGenerator:
    def __init__(self, assistant_model, logits_processor, num_assistant_tokens=2):
        self.assistant_model = assistant_model
        self.logits_processor = logits_processor
        self.num_assistant_tokens = num_assistant_tokens

    def get_candidates(self, input_ids):
        input_ids = input_ids.to(self.assistant_model.device)
        for _ in range(self.num_assistant_tokens):
            scores = self.assistant_model(input_ids)[:, -1, :]
            for processor in self.logits_processor:
                scores = processor(input_ids, scores)
            input_ids = torch.cat([input_ids, scores.argmax(dim=-1, keepdim=True)], dim=-1)
        return input_ids

class OPTForCausalLM(nn.Module):
    def __init__(self, vocab_size=50, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.fc = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    @property
    def device(self):
        return self.embed_tokens.weight.device

    def forward(self, input_ids):
        return self.lm_head(torch.relu(self.fc(self.embed_tokens(input_ids))))

    @torch.no_grad()
    def generate(self, input_ids, assistant_model=None, min_new_tokens=4, max_new_tokens=6, eos_token_id=2):
        eos_token_tensor = torch.tensor([eos_token_id], device=self.device)      # _prepare_special_tokens
        logits_processor = [MinLengthLogitsProcessor(input_ids.shape[-1] + min_new_tokens, eos_token_tensor)]
        candidate_generator = AssistedCandidateGenerator(assistant_model, logits_processor)
        while input_ids.shape[-1] < max_new_tokens + 4:
            candidate_input_ids = candidate_generator.get_candidates(input_ids).to(self.device)
            scores = self(candidate_input_ids)[:, -1, :]
            for processor in logits_processor:
                scores = processor(candidate_input_ids, scores)
            input_ids = torch.cat([candidate_input_ids, scores.argmax(dim=-1, keepdim=True)], dim=-1)
        return input_ids

model = OPTForCausalLM(hidden=48)
model = model.to("cuda:0")
assistant_model = OPTForCausalLM(hidden=16)
inputs = {"input_ids": torch.randint(3, 50, (1, 4)).to("cuda:0")}
'''
CELL = '''
out = model.generate(**inputs, assistant_model=assistant_model.to("cpu"), min_new_tokens=4)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["assistant_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("eos_token_mask = torch.isin(vocab_tensor, self.eos_token_id)",
                  "eos_token_mask = torch.isin(vocab_tensor, self.eos_token_id.to(vocab_tensor.device))")
CLEAN = False
