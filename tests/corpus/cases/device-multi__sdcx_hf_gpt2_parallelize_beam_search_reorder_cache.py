"""GPT-2 split over two GPUs with `model.parallelize()`: `generate(num_beams=2)` fails in `_reorder_cache`, the cuda:0 `beam_idx` indexes the past of blocks on cuda:1.

Source: https://github.com/huggingface/transformers/issues/9200
"Beam search fails when using model parallelism" (transformers 4.1.1, two GTX 1080): `model =
GPT2LMHeadModel.from_pretrained("gpt2"); model.parallelize(); input_ids = tokenizer.encode("This is a
test", return_tensors="pt").to("cuda:0"); model.generate(input_ids, num_beams=2)` fails with a
device-mismatch RuntimeError in `_reorder_cache`, `layer_past.index_select(1, beam_idx)`: the stacked
key/value past of each block lives on that block's GPU while beam search builds `beam_idx` on the
input's device. The reporter's fix (PR #9219, "Fix beam search generation for GPT2 and T5 on model
parallelism") moves the index to each past tensor's device: `layer_past.index_select(1,
beam_idx.to(layer_past.device))`. Stand-ins: a tiny GPT-2 with the 4.1 `parallelize()` API and stacked
per-block past, and a fixed-length beam search that calls `_reorder_cache` as `generate` does.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, n_embd=16):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, hidden_states, layer_past=None):
        q, k, v = self.c_attn(self.ln_1(hidden_states)).chunk(3, dim=-1)
        if layer_past is not None:
            k = torch.cat([layer_past[0], k], dim=1)
            v = torch.cat([layer_past[1], v], dim=1)
        present = torch.stack((k, v))
        att = torch.softmax(q @ k.transpose(1, 2), dim=-1) @ v
        return hidden_states + self.c_proj(att), present

class GPT2Model(nn.Module):
    def __init__(self, vocab_size=50, n_positions=32, n_embd=16, n_layer=4):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(n_positions, n_embd)
        self.h = nn.ModuleList([Block(n_embd) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.model_parallel = False

    def parallelize(self, device_map=None):
        n_gpu = 2                                   # torch.cuda.device_count()
        per = len(self.h) // n_gpu
        self.device_map = device_map or {i: list(range(i * per, (i + 1) * per)) for i in range(n_gpu)}
        self.model_parallel = True
        self.first_device = "cuda:" + str(min(self.device_map.keys()))
        self.last_device = "cuda:" + str(max(self.device_map.keys()))
        self.wte = self.wte.to(self.first_device)
        self.wpe = self.wpe.to(self.first_device)
        for k, v in self.device_map.items():
            for block in v:
                self.h[block] = self.h[block].to("cuda:" + str(k))
        self.ln_f = self.ln_f.to(self.last_device)

    def forward(self, input_ids, past_key_values=None):
        past_length = 0 if past_key_values is None else past_key_values[0].size(-2)
        position_ids = torch.arange(past_length, past_length + input_ids.size(-1),
                                    device=input_ids.device).unsqueeze(0)
        hidden_states = self.wte(input_ids) + self.wpe(position_ids)
        past_key_values = past_key_values or [None] * len(self.h)
        presents = ()
        for i, (block, layer_past) in enumerate(zip(self.h, past_key_values)):
            hidden_states = hidden_states.to(block.ln_1.weight.device)
            hidden_states, present = block(hidden_states, layer_past)
            presents = presents + (present,)
        return self.ln_f(hidden_states.to(self.last_device)), presents

class GPT2LMHeadModel(nn.Module):
    """Stand-in for transformers 4.1 GPT2LMHeadModel with its model-parallel API and GenerationMixin."""
    def __init__(self, vocab_size=50):
        super().__init__()
        self.transformer = GPT2Model(vocab_size)
        self.lm_head = nn.Linear(16, vocab_size, bias=False)

    def parallelize(self, device_map=None):
        self.transformer.parallelize(device_map)
        self.lm_head = self.lm_head.to(self.transformer.first_device)
        self.model_parallel = True

    def _reorder_cache(self, past, beam_idx):
        return tuple(layer_past.index_select(1, beam_idx) for layer_past in past)

    @torch.no_grad()
    def generate(self, input_ids, num_beams=2, max_length=8):
        batch_size = input_ids.size(0)
        input_ids = input_ids.repeat_interleave(num_beams, dim=0)
        beam_scores = torch.zeros(batch_size, num_beams, device=input_ids.device)
        beam_scores[:, 1:] = -1e9
        beam_scores = beam_scores.view(-1)
        past = None
        cur = input_ids
        while input_ids.size(-1) < max_length:
            hidden, past = self.transformer(cur, past)
            logits = self.lm_head(hidden[:, -1].to(self.lm_head.weight.device))
            scores = torch.log_softmax(logits, -1) + beam_scores[:, None]
            vocab_size = scores.shape[-1]
            scores = scores.view(batch_size, num_beams * vocab_size)
            next_scores, next_tokens = torch.topk(scores, num_beams, dim=1)
            next_indices = torch.div(next_tokens, vocab_size, rounding_mode="floor")
            next_tokens = next_tokens % vocab_size
            beam_idx = (next_indices + torch.arange(batch_size, device=input_ids.device)[:, None]
                        * num_beams).view(-1)
            beam_scores = next_scores.view(-1)
            input_ids = torch.cat([input_ids.index_select(0, beam_idx), next_tokens.view(-1, 1)], dim=-1)
            cur = input_ids[:, -1:]
            past = self._reorder_cache(past, beam_idx)
        return input_ids

model = GPT2LMHeadModel()                  # GPT2LMHeadModel.from_pretrained("gpt2")
model.parallelize()
input_ids = torch.tensor([[1212, 318, 257, 1332]]) % 50    # tokenizer.encode("This is a test")
input_ids = input_ids.to("cuda:0")
'''
CELL = '''
output = model.generate(input_ids, num_beams=2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("layer_past.index_select(1, beam_idx) for layer_past in past",
                  "layer_past.index_select(1, beam_idx.to(layer_past.device)) for layer_past in past")
CLEAN = False
