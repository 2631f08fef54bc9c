"""Look-alike: FastChat's `generate_stream` builds every tensor on `model.device` / `logits.device`, so the CLI's `device="cuda"` string never meets the model on GPU 6.

Source: https://github.com/lm-sys/FastChat/blob/main/fastchat/serve/inference.py
The prefill input is `torch.as_tensor([input_ids], device=model.device)`; with a repetition penalty
the history is `tmp_output_ids = torch.as_tensor([output_ids], device=logits.device)` before the
`LogitsProcessorList` (temperature, repetition penalty, top-p) runs; the `device` argument is only
compared with "mps"/"xpu". The model sits on cuda:6 while `device` is "cuda" (cuda:0): nothing
wrong. Stand-ins: a tiny causal LM with `.device`/`config`, a whitespace tokenizer, and the three
logits processors reduced to their tensor ops; the loop is cut before `indices.tolist()`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

class Tokenizer:
    eos_token_id = 2
    def __call__(self, text):
        return SimpleNamespace(input_ids=[1] + [3 + (hash(w) % 90) for w in text.split()])

class CausalLM(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.config = SimpleNamespace(is_encoder_decoder=False)
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
    @property
    def device(self):
        return self.lm_head.weight.device
    def forward(self, input_ids, use_cache=True):
        return SimpleNamespace(logits=self.lm_head(self.embed_tokens(input_ids)), past_key_values=None)

class TemperatureLogitsWarper:
    def __init__(self, temperature):
        self.temperature = temperature
    def __call__(self, input_ids, scores):
        return scores / self.temperature

class RepetitionPenaltyLogitsProcessor:
    def __init__(self, penalty):
        self.penalty = penalty
    def __call__(self, input_ids, scores):
        score = torch.gather(scores, 1, input_ids)
        score = torch.where(score < 0, score * self.penalty, score / self.penalty)
        return scores.scatter(1, input_ids, score)

class TopPLogitsWarper:
    def __init__(self, top_p, filter_value=-float("inf")):
        self.top_p, self.filter_value = top_p, filter_value
    def __call__(self, input_ids, scores):
        sorted_logits, sorted_indices = torch.sort(scores, descending=False)
        cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
        sorted_indices_to_remove = cumulative_probs <= (1 - self.top_p)
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        return scores.masked_fill(indices_to_remove, self.filter_value)

class LogitsProcessorList(list):
    def __call__(self, input_ids, scores):
        for processor in self:
            scores = processor(input_ids, scores)
        return scores

def prepare_logits_processor(temperature, repetition_penalty, top_p, top_k):
    processor_list = LogitsProcessorList()
    if temperature >= 1e-5 and temperature != 1.0:
        processor_list.append(TemperatureLogitsWarper(temperature))
    if repetition_penalty > 1.0:
        processor_list.append(RepetitionPenaltyLogitsProcessor(repetition_penalty))
    if 1e-8 <= top_p < 1.0:
        processor_list.append(TopPLogitsWarper(top_p))
    return processor_list

@torch.inference_mode()
def generate_stream(model, tokenizer, params, device, context_len=2048, stream_interval=2):
    prompt = params["prompt"]
    temperature = float(params.get("temperature", 1.0))
    repetition_penalty = float(params.get("repetition_penalty", 1.0))
    top_p = float(params.get("top_p", 1.0))
    max_new_tokens = int(params.get("max_new_tokens", 256))
    logits_processor = prepare_logits_processor(temperature, repetition_penalty, top_p, -1)
    input_ids = tokenizer(prompt).input_ids
    max_src_len = context_len - max_new_tokens - 1
    input_ids = input_ids[-max_src_len:]
    output_ids = list(input_ids)

    out = model(torch.as_tensor([input_ids], device=model.device), use_cache=True)
    logits = out.logits
    if logits_processor:
        if repetition_penalty > 1.0:
            tmp_output_ids = torch.as_tensor([output_ids], device=logits.device)
        else:
            tmp_output_ids = None
        last_token_logits = logits_processor(tmp_output_ids, logits[:, -1, :])[0]
    else:
        last_token_logits = logits[0, -1, :]
    if device == "mps":
        last_token_logits = last_token_logits.float().to("cpu")
    if temperature < 1e-5 or top_p < 1e-8:
        _, indices = torch.topk(last_token_logits, 2)
    else:
        probs = torch.softmax(last_token_logits, dim=-1)
        _, indices = torch.topk(probs, 2)
    return indices

device = "cuda"                            # fastchat.serve.cli --device cuda
model = CausalLM().to("cuda:6")            # the model on the chosen GPU
tokenizer = Tokenizer()
gen_params = {"prompt": "USER: Hello, who are you? ASSISTANT:", "temperature": 0.7,
              "repetition_penalty": 1.2, "top_p": 0.9, "max_new_tokens": 32}
'''
CELL = '''
indices = generate_stream(model, tokenizer, gen_params, device, context_len=2048)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
