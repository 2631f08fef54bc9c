"""`gpt_generate.py` moves the GPT to the GPU but passes the encoded prompt to `generate` on the CPU.

Source: https://github.com/rasbt/LLMs-from-scratch/issues/435
In chapter 5's `gpt_generate.py`, `main()` loads the OpenAI weights into `gpt`, calls
`gpt.to(device)`, and then `generate(model=gpt, idx=text_to_token_ids(input_prompt, tokenizer), ...)`.
On a GPU machine: "Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select)".
The reporter's fix, merged: `text_to_token_ids(input_prompt, tokenizer).to(device)`. Stand-in: a
small GPTModel, a character tokenizer for tiktoken, no weight loading; the book's `generate` with
`idx[:, -context_size:]` / `logits[:, -1, :]` written with `narrow` / `select` (the simulator cannot
index fake GPU tensors with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class GPTModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
        self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
        self.trf_blocks = nn.Sequential(*[nn.Sequential(nn.LayerNorm(cfg["emb_dim"]),
                                                        nn.Linear(cfg["emb_dim"], cfg["emb_dim"]), nn.GELU())
                                          for _ in range(cfg["n_layers"])])
        self.final_norm = nn.LayerNorm(cfg["emb_dim"])
        self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)

    def forward(self, in_idx):
        batch_size, seq_len = in_idx.shape
        x = self.tok_emb(in_idx) + self.pos_emb(torch.arange(seq_len, device=in_idx.device))
        return self.out_head(self.final_norm(self.trf_blocks(x)))

class CharTokenizer:
    # stand-in for tiktoken.get_encoding("gpt2")
    def encode(self, text, allowed_special=None):
        return [ord(c) % 256 for c in text]
    def decode(self, ids):
        return "".join(chr(i) for i in ids)

def text_to_token_ids(text, tokenizer):
    encoded = tokenizer.encode(text, allowed_special={"<|endoftext|>"})
    return torch.tensor(encoded).unsqueeze(0)   # add batch dimension

def generate(model, idx, max_new_tokens, context_size, temperature=0.0, top_k=None, eos_id=None):
    for _ in range(max_new_tokens):
        idx_cond = idx.narrow(1, max(idx.shape[1] - context_size, 0), min(idx.shape[1], context_size))
        with torch.no_grad():
            logits = model(idx_cond)
        logits = logits.select(1, -1)
        if top_k is not None:
            top_logits, _ = torch.topk(logits, top_k)
            min_val = top_logits.narrow(1, top_k - 1, 1)
            logits = torch.where(logits < min_val, torch.tensor(float("-inf")).to(logits.device), logits)
        if temperature > 0.0:
            probs = torch.softmax(logits / temperature, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
        else:
            idx_next = torch.argmax(logits, dim=-1, keepdim=True)
        idx = torch.cat((idx, idx_next), dim=1)
    return idx

def main(gpt_config, input_prompt, model_size):
    device = torch.device("cuda:0")
    gpt = GPTModel(gpt_config)
    gpt.to(device)
    gpt.eval()
    tokenizer = CharTokenizer()
    torch.manual_seed(123)
    token_ids = generate(
        model=gpt,
        idx=text_to_token_ids(input_prompt, tokenizer),
        max_new_tokens=25,
        context_size=gpt_config["context_length"],
        top_k=50,
        temperature=1.0
    )
    return token_ids

GPT_CONFIG = {"vocab_size": 256, "context_length": 64, "emb_dim": 32, "n_layers": 2}
'''
CELL = '''
token_ids = main(GPT_CONFIG, "Every effort moves you", "gpt2-small (124M)")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["idx"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("idx=text_to_token_ids(input_prompt, tokenizer),",
                  "idx=text_to_token_ids(input_prompt, tokenizer).to(device),")
CLEAN = False
