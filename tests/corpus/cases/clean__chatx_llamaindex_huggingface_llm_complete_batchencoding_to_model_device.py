"""Look-alike: LlamaIndex's `HuggingFaceLLM.complete` tokenizes on the CPU, then moves the whole BatchEncoding with `inputs.to(self._model.device)` and drops `token_type_ids` before `generate`.

Source: https://github.com/run-llama/llama_index/blob/main/llama-index-integrations/llms/llama-index-llms-huggingface/llama_index/llms/huggingface/base.py
`complete()` formats the prompt with `query_wrapper_prompt`/`system_prompt`, runs
`inputs = self._tokenizer(full_prompt, return_tensors="pt")`, `inputs = inputs.to(self._model.device)`,
pops the keys in `tokenizer_outputs_to_remove`, and calls `self._model.generate(**inputs, ...)`; the
completion is `tokens[0][inputs["input_ids"].size(1):]`. A CPU-made batch fed to a GPU model, moved
as a whole on the line before. Stand-ins: BatchEncoding (a dict with `.to`), a tokenizer that also
returns `token_type_ids`, and a one-step greedy `generate` on a fp16 model on cuda:0; the stopping
criteria (which read token values) are left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class AutoTokenizer:
    def __call__(self, text, return_tensors="pt"):
        ids = [1] + [3 + (hash(w) % 120) for w in text.split()]
        return BatchEncoding(input_ids=torch.tensor([ids]),
                             attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                             token_type_ids=torch.zeros(1, len(ids), dtype=torch.long))

class AutoModelForCausalLM(nn.Module):
    def __init__(self, vocab=128, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
    @property
    def device(self):
        return self.lm_head.weight.device
    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, max_new_tokens=1, **kwargs):
        h = self.embed_tokens(input_ids) * attention_mask.unsqueeze(-1).to(self.lm_head.weight.dtype)
        next_token = self.lm_head(h)[:, -1].argmax(-1, keepdim=True)
        return torch.cat([input_ids, next_token], dim=-1)

class HuggingFaceLLM:
    def __init__(self, model, tokenizer, system_prompt="", query_wrapper_prompt="{query_str}",
                 tokenizer_outputs_to_remove=None, max_new_tokens=1, generate_kwargs=None):
        self._model, self._tokenizer = model, tokenizer
        self.system_prompt, self.query_wrapper_prompt = system_prompt, query_wrapper_prompt
        self.tokenizer_outputs_to_remove = tokenizer_outputs_to_remove or []
        self.max_new_tokens = max_new_tokens
        self.generate_kwargs = generate_kwargs or {}

    def complete(self, prompt, formatted=False):
        full_prompt = prompt
        if not formatted:
            if self.query_wrapper_prompt:
                full_prompt = self.query_wrapper_prompt.format(query_str=prompt)
            if self.system_prompt:
                full_prompt = f"{self.system_prompt} {full_prompt}"
        inputs = self._tokenizer(full_prompt, return_tensors="pt")
        inputs = inputs.to(self._model.device)
        for key in self.tokenizer_outputs_to_remove:
            if key in inputs:
                inputs.pop(key, None)
        tokens = self._model.generate(**inputs, max_new_tokens=self.max_new_tokens, **self.generate_kwargs)
        completion_tokens = tokens[0][inputs["input_ids"].size(1):]
        return completion_tokens

llm = HuggingFaceLLM(
    model=AutoModelForCausalLM().half().to("cuda:0"),     # model_kwargs={"torch_dtype": torch.float16}, device_map="auto"
    tokenizer=AutoTokenizer(),
    system_prompt="You are a helpful assistant.",
    query_wrapper_prompt="<|USER|>{query_str}<|ASSISTANT|>",
    tokenizer_outputs_to_remove=["token_type_ids"],
)
'''
CELL = '''
completion_tokens = llm.complete("What did the author do growing up?")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
