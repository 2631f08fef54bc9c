"""Bark `generate_text_semantic`: the voice preset's semantic history is a NumPy array on the host, moved to the model's device inside.

Source: https://github.com/suno-ai/bark/blob/main/bark/generation.py
`generate_text_semantic` loads `semantic_history` from the `.npz` voice preset as NumPy, builds
`x = torch.from_numpy(np.hstack([encoded_text, semantic_history, [SEMANTIC_INFER_TOKEN]])...)` on
the CPU, and moves it with `x.to(device)` where `device = next(model.parameters()).device`.
Look-alike: CPU-born prompt data next to a cuda GPT, moved by the library, that runs.
Stand-in: a tiny GPT and the function's input-building and sampling loop.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

SEMANTIC_INFER_TOKEN = 63

class GPT(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.h = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)
    def forward(self, idx):
        return self.lm_head(torch.tanh(self.h(self.wte(idx))))

def generate_text_semantic(encoded_text, history_prompt, model, n_steps=4):
    semantic_history = history_prompt["semantic_prompt"]
    device = next(model.parameters()).device
    x = torch.from_numpy(np.hstack([encoded_text, semantic_history, [SEMANTIC_INFER_TOKEN]]).astype(np.int64))[None]
    x = x.to(device)
    with torch.inference_mode():
        for _ in range(n_steps):
            logits = model(x)[:, -1]
            item_next = torch.argmax(logits, dim=-1, keepdim=True)
            x = torch.cat((x, item_next), dim=1)
    return x

model = GPT().to("cuda:0").eval()
history_prompt = {"semantic_prompt": np.array([5, 9, 11, 2])}
encoded_text = np.array([1, 2, 3, 4, 5])
'''
CELL = '''
semantic_tokens = generate_text_semantic(encoded_text, history_prompt, model)
print(semantic_tokens.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
