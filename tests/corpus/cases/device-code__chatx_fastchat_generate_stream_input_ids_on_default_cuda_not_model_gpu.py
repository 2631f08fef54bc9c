"""FastChat `generate_stream` builds the prompt tensor on the CLI's `device` ("cuda" = cuda:0) while the model sits on GPU 6.

Source: https://github.com/lm-sys/FastChat/issues/2286
"[Bug] Expected all tensors to be on the same device, but found at least two devices, cuda:6 and
cuda:0!": running the LLM on a chosen GPU (gpu 6), the reporter found "the input tensors located at
the different gpu from the model" and changed fastchat/serve/inference.py so that the inputs are made
on the model's GPU. `generate_stream` made its prefill tensor with
`torch.as_tensor([input_ids], device=device)`, `device` being the "cuda" string the CLI passes; the
function now uses `device=model.device`. Stand-ins: a tiny causal LM (embedding + one linear head,
a `.device` property and a `config`) and a whitespace tokenizer; the decoding loop is cut to the
prefill forward.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from types import SimpleNamespace

class Tokenizer:
    """Stand-in for the Vicuna tokenizer: one id per word."""
    eos_token_id = 2
    def __call__(self, text):
        return SimpleNamespace(input_ids=[1] + [3 + (hash(w) % 90) for w in text.split()])

class CausalLM(nn.Module):
    """Stand-in for LlamaForCausalLM loaded onto one chosen GPU."""
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.config = SimpleNamespace(is_encoder_decoder=False)
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
    @property
    def device(self):
        return self.lm_head.weight.device
    def forward(self, input_ids, use_cache=True):
        h = self.embed_tokens(input_ids)
        return SimpleNamespace(logits=self.lm_head(h), past_key_values=None)

@torch.inference_mode()
def generate_stream(model, tokenizer, params, device, context_len=2048, stream_interval=2):
    prompt = params["prompt"]
    max_new_tokens = int(params.get("max_new_tokens", 256))
    input_ids = tokenizer(prompt).input_ids
    max_src_len = context_len - max_new_tokens - 1
    input_ids = input_ids[-max_src_len:]
    out = model(torch.as_tensor([input_ids], device=device), use_cache=True)
    logits = out.logits
    last_token_logits = logits[0, -1, :]
    return last_token_logits

device = "cuda"                              # fastchat.serve.cli --device cuda
model = CausalLM().to("cuda:6")              # the model placed on the chosen GPU 6
tokenizer = Tokenizer()
gen_params = {"prompt": "USER: Hello, who are you? ASSISTANT:", "max_new_tokens": 32}
'''
CELL = '''
last_token_logits = generate_stream(model, tokenizer, gen_params, device, context_len=2048)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["generate_stream"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "out = model(torch.as_tensor([input_ids], device=device), use_cache=True)",
    "out = model(torch.as_tensor([input_ids], device=model.device), use_cache=True)",
)
CLEAN = False
