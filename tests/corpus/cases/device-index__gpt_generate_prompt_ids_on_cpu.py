"""Greedy generation with a GPU GPT model gets the prompt's token ids as a CPU tensor.

Source: https://github.com/rasbt/LLM-workshop-2024/issues/6
In the workshop notebook 04.ipynb the model was moved to the GPU, but the encoded prompt passed
as `idx` to `generate_text_simple` was not, giving "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu! (when checking argument for argument index in
method wrapper_CUDA__index_select)"; the fix (accepted by the author) is `.to(device)` on the ids.
Stand-in: a tiny GPT and a character tokenizer; the helper's slices are written with `if`/`select`
(same result) because fake cuda tensors cannot be sliced.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn

GPT_CONFIG = {"vocab_size": 128, "context_length": 16, "emb_dim": 32, "n_layers": 2}

class GPTModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
        self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
        self.trf_blocks = nn.Sequential(*[
            nn.Sequential(nn.LayerNorm(cfg["emb_dim"]), nn.Linear(cfg["emb_dim"], cfg["emb_dim"]), nn.GELU())
            for _ in range(cfg["n_layers"])])
        self.final_norm = nn.LayerNorm(cfg["emb_dim"])
        self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)

    def forward(self, in_idx):
        batch_size, seq_len = in_idx.shape
        tok_embeds = self.tok_emb(in_idx)
        pos_embeds = self.pos_emb(torch.arange(seq_len, device=in_idx.device))
        x = self.trf_blocks(tok_embeds + pos_embeds)
        return self.out_head(self.final_norm(x))

def generate_text_simple(model, idx, max_new_tokens, context_size):
    for _ in range(max_new_tokens):
        idx_cond = idx if idx.shape[1] <= context_size else idx[:, -context_size:]
        with torch.no_grad():
            logits = model(idx_cond)
        logits = logits.select(1, -1)
        probas = torch.softmax(logits, dim=-1)
        idx_next = torch.argmax(probas, dim=-1, keepdim=True)
        idx = torch.cat((idx, idx_next), dim=1)
    return idx

class CharTokenizer:
    def encode(self, text):
        return [ord(c) % 128 for c in text]

device = "cuda:0"
model = GPTModel(GPT_CONFIG).to(device)
tokenizer = CharTokenizer()

start_context = "Hello, I am"
encoded = tokenizer.encode(start_context)
encoded_tensor = torch.tensor(encoded).unsqueeze(0)
'''
CELL = '''
model.eval()
out = generate_text_simple(model=model, idx=encoded_tensor, max_new_tokens=4,
                           context_size=GPT_CONFIG["context_length"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encoded_tensor"]
FIX = "namespace"
REFERENCE_FIX = '''
encoded_tensor = encoded_tensor.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
