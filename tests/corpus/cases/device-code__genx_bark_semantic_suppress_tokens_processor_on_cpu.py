"""Bark semantic generation on the GPU: the `SuppressTokensLogitsProcessor` built inside `generate` keeps its token tensor on the CPU.

Source: https://github.com/huggingface/transformers/pull/31416
"Fix Bark logits processors device misplacement": after #29804 gave logits processors a `device`
argument (default CPU), Bark's custom `BarkSemanticModel.generate` kept constructing
`SuppressTokensLogitsProcessor(tokens_to_suppress)` without it, so on a GPU the processor's
`suppress_tokens` tensor stayed on the CPU while the scores were on cuda ("the logits processors'
tensors were misplaced on CPU"). The PR passes `device=input_ids.device`. Stand-in: the processor
(as in transformers) and a tiny semantic model with a greedy generate loop.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class SuppressTokensLogitsProcessor:
    def __init__(self, suppress_tokens, device="cpu"):
        self.suppress_tokens = torch.tensor(list(suppress_tokens), device=device)

    def __call__(self, input_ids, scores):
        vocab_tensor = torch.arange(scores.shape[-1], device=scores.device)
        suppress_token_mask = torch.isin(vocab_tensor, self.suppress_tokens)
        return torch.where(suppress_token_mask, -float("inf"), scores)

class BarkSemanticModel(nn.Module):
    def __init__(self, vocab=80, d=32, text_vocab=60):
        super().__init__()
        self.input_embeds_layer = nn.Embedding(vocab, d)
        self.layer = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.semantic_vocab_size, self.text_vocab_size = 40, text_vocab

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=6):
        tokens_to_suppress = list(range(self.semantic_vocab_size, self.text_vocab_size))
        suppress_tokens_logits_processor = SuppressTokensLogitsProcessor(tokens_to_suppress)
        for _ in range(max_new_tokens):
            h = torch.tanh(self.layer(self.input_embeds_layer(input_ids)))
            scores = suppress_tokens_logits_processor(input_ids, self.lm_head(h[:, -1]))
            input_ids = torch.cat([input_ids, scores.argmax(-1, keepdim=True)], dim=-1)
        return input_ids

semantic = BarkSemanticModel().to("cuda:0").eval()
inputs = torch.randint(0, 40, (1, 10)).to("cuda:0")   # processor("Hello, my dog is cute")["input_ids"].to(device)
'''
CELL = '''
semantic_output = semantic.generate(inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["suppress_tokens_logits_processor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("SuppressTokensLogitsProcessor(tokens_to_suppress)\n",
                  "SuppressTokensLogitsProcessor(tokens_to_suppress, device=input_ids.device)\n")
CLEAN = False
