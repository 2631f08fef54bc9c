"""Assisted generation with the assistant model on cuda:1 and the target on cuda:0: the candidate generator moves `input_ids` to the assistant, and the candidates come back to the target's device.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/generation/candidate_generator.py
`AssistedCandidateGenerator.get_candidates` starts with `input_ids = input_ids.to(self.assistant_model.device)`
and lets the assistant draft `num_assistant_tokens` greedily, returning its sequences and the stacked
scores; `GenerationMixin._assisted_decoding` (generation/utils.py) then does
`candidate_input_ids = candidate_input_ids.to(self.device)` and `candidate_logits =
candidate_logits.to(self.device)` before the target scores all candidates in one forward and counts
the greedy matches. Look-alike: two models on two GPUs inside one `generate` call, every hand-off moved;
it runs.
Stand-ins: tiny causal LMs with a `device` property, the candidate generator, and one greedy verification
step of `_assisted_decoding` (the per-token match mask; the match count and cache cropping are left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.block = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    @property
    def device(self):
        return self.lm_head.weight.device

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.block(self.embed(input_ids))))

    @torch.no_grad()
    def greedy_draft(self, input_ids, max_new_tokens):
        scores = []
        for _ in range(max_new_tokens):
            logits = self(input_ids)[:, -1, :]
            scores.append(logits)
            next_tokens = torch.argmax(logits, dim=-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_tokens], dim=-1)
        return input_ids, scores

class AssistedCandidateGenerator:
    def __init__(self, assistant_model, num_assistant_tokens=4):
        self.assistant_model = assistant_model
        self.num_assistant_tokens = num_assistant_tokens

    def get_candidates(self, input_ids):
        input_ids = input_ids.to(self.assistant_model.device)
        sequences, scores = self.assistant_model.greedy_draft(input_ids, self.num_assistant_tokens)
        candidate_logits = torch.stack(scores, dim=1)
        return sequences, candidate_logits

@torch.no_grad()
def assisted_decoding_step(self, input_ids, candidate_generator):
    cur_len = input_ids.shape[-1]
    candidate_input_ids, candidate_logits = candidate_generator.get_candidates(input_ids)
    candidate_input_ids = candidate_input_ids.to(self.device)
    if candidate_logits is not None:
        candidate_logits = candidate_logits.to(self.device)
    candidate_length = candidate_input_ids.shape[1] - input_ids.shape[1]
    new_logits = self(candidate_input_ids)[:, -candidate_length - 1:]
    selected_tokens = new_logits.argmax(dim=-1)
    candidate_new_tokens = candidate_input_ids[:, cur_len:]
    matches = candidate_new_tokens == selected_tokens[:, :-1]   # n_matches = (~matches).cumsum(-1) < 1 ...
    return candidate_input_ids, selected_tokens, matches

model = TinyCausalLM().to("cuda:0")                 # AutoModelForCausalLM("EleutherAI/pythia-1.4b-deduped")
assistant_model = TinyCausalLM().to("cuda:1")       # pythia-160m-deduped on the second card
model.eval(); assistant_model.eval()
inputs = {"input_ids": torch.randint(0, 50, (1, 6)).to("cuda:0")}
candidate_generator = AssistedCandidateGenerator(assistant_model, num_assistant_tokens=4)
'''
CELL = '''
candidate_input_ids, selected_tokens, matches = assisted_decoding_step(model, inputs["input_ids"], candidate_generator)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
