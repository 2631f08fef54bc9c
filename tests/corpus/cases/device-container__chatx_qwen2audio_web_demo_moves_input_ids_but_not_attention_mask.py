"""Qwen2-Audio's gradio web demo moves only `inputs["input_ids"]` to "cuda" before `model.generate(**inputs)`; the processor's `attention_mask` stays on the CPU.

Source: https://github.com/QwenLM/Qwen2-Audio/pull/70
"Move attention mask to device in web ui demo": `predict()` in demo/web_demo_audio.py ran
`inputs = processor(text=text, audios=audios, return_tensors="pt", padding=True)` and then, unless
`--cpu-only`, only `inputs["input_ids"] = inputs.input_ids.to("cuda")`; with the model loaded with
`device_map="auto"` the PR notes "Move attention_mask of inputs to device as well, otherwise it will
complain device not matching". The mask feeds the position ids that meet the rotary `inv_freq`
buffer on the GPU. Stand-ins: the processor (text only, `audios=None`) returning a BatchFeature, a
tiny Qwen2 causal LM whose `generate` is one greedy step with position ids from the mask, and
`args` in place of `_get_args()`; the model's `device_map="auto"` placement is cuda:0, and the
demo's `.to("cuda")` is spelled `.to("cuda:0")` for the simulation.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

class BatchFeature(dict):
    def __getattr__(self, name):
        return self[name]

class AutoProcessor:
    def apply_chat_template(self, task_history, add_generation_prompt=True, tokenize=False):
        text = "".join(f"<|im_start|>{m['role']} {m['content'][0]['text']}<|im_end|> " for m in task_history)
        return text + ("<|im_start|>assistant " if add_generation_prompt else "")
    def __call__(self, text, audios=None, return_tensors="pt", padding=True):
        ids = [3 + (hash(w) % 120) for w in text.split()]
        return BatchFeature(input_ids=torch.tensor([ids]),
                            attention_mask=torch.ones(1, len(ids), dtype=torch.long))
    def batch_decode(self, ids, skip_special_tokens=True, clean_up_tokenization_spaces=False):
        return ["<decoded>"]

class Qwen2RotaryEmbedding(nn.Module):
    def __init__(self, dim=16, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)

class Qwen2AudioForConditionalGeneration(nn.Module):
    def __init__(self, vocab=128, hidden=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.rotary_emb = Qwen2RotaryEmbedding(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
    def forward(self, input_ids, attention_mask):
        h = self.embed_tokens(input_ids)
        position_ids = attention_mask.long().cumsum(-1) - 1
        position_ids = position_ids.masked_fill(attention_mask == 0, 1)
        cos, sin = self.rotary_emb(h, position_ids)
        h = h * cos + h * sin
        return self.lm_head(h)
    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, max_length=256, **kwargs):
        logits = self(input_ids, attention_mask)
        next_token = logits[:, -1].argmax(-1, keepdim=True)
        return torch.cat([input_ids, next_token], dim=-1)

def predict(chatbot, task_history):
    """Generate a response from the model."""
    text = processor.apply_chat_template(task_history, add_generation_prompt=True, tokenize=False)
    audios = None
    inputs = processor(text=text, audios=audios, return_tensors="pt", padding=True)
    if not args.cpu_only:
        inputs["input_ids"] = inputs.input_ids.to("cuda:0")

    generate_ids = model.generate(**inputs, max_length=256)
    generate_ids = generate_ids[:, inputs.input_ids.size(1):]

    response = processor.batch_decode(generate_ids, skip_special_tokens=True, clean_up_tokenization_spaces=False)[0]
    task_history.append({"role": "assistant", "content": [{"type": "text", "text": response}]})
    chatbot.append((None, response))
    return chatbot, task_history

args = SimpleNamespace(cpu_only=False)
model = Qwen2AudioForConditionalGeneration().to("cuda:0").eval()     # device_map="auto"
processor = AutoProcessor()
chatbot = []
task_history = [{"role": "user", "content": [{"type": "text", "text": "What can you do with audio?"}]}]
'''
CELL = '''
chatbot, task_history = predict(chatbot, task_history)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["predict"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '        inputs["input_ids"] = inputs.input_ids.to("cuda:0")\n',
    '        inputs["input_ids"] = inputs.input_ids.to("cuda:0")\n'
    '        inputs["attention_mask"] = inputs.attention_mask.to("cuda:0")\n',
)
CLEAN = False
