"""`generate` on a model whose first weights are offloaded: the special-token tensors are made on `self.device`, which is "meta".

Source: https://github.com/huggingface/transformers/pull/30746
"Generation / FIX: Fix multi-device generation": for a model dispatched with cpu offload, the
offloaded parameters sit on the meta device (the hooks load them at run time), so `self.device`
returns "meta" and `_prepare_special_tokens` created `pad_token_id` & co. on meta; the next-token
update then mixed them with the real `input_ids`. The PR creates the special tokens on the device
of `input_ids`.
Stand-in: a tiny causal LM whose embedding is offloaded (meta weight, a pre-hook swapping in the cpu
copy), and generate's special-token preparation and greedy loop. Devices: cpu + meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class OffloadedEmbedding(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(vocab, d, device="meta"))
        self._offload = torch.randn(vocab, d)           # weights_map: loaded at forward time

    def forward(self, input_ids):
        return torch.nn.functional.embedding(input_ids, self._offload)

class CausalLM(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.embed_tokens = OffloadedEmbedding(vocab, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.embed_tokens(input_ids)))

    def _prepare_special_tokens(self, pad_token_id, eos_token_id, device=None):
        device = device if device is not None else self.device
        return (torch.tensor(pad_token_id, device=device), torch.tensor(eos_token_id, device=device))

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=4, pad_token_id=0, eos_token_id=1):
        pad_token_tensor, eos_token_tensor = self._prepare_special_tokens(pad_token_id, eos_token_id)
        unfinished_sequences = torch.ones(input_ids.shape[0], dtype=torch.long, device=input_ids.device)
        for _ in range(max_new_tokens):
            next_tokens = self(input_ids)[:, -1, :].argmax(-1)
            next_tokens = next_tokens * unfinished_sequences + pad_token_tensor * (1 - unfinished_sequences)
            input_ids = torch.cat([input_ids, next_tokens[:, None]], dim=-1)
        return input_ids

model = CausalLM()                                  # from_pretrained(..., device_map="auto", offload to cpu)
input_ids = torch.randint(2, 50, (1, 5))
'''
CELL = '''
out = model.generate(input_ids, max_new_tokens=4)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("pad_token_tensor, eos_token_tensor = self._prepare_special_tokens(pad_token_id, eos_token_id)",
                  "pad_token_tensor, eos_token_tensor = self._prepare_special_tokens(pad_token_id, eos_token_id, device=input_ids.device)")
CLEAN = False
