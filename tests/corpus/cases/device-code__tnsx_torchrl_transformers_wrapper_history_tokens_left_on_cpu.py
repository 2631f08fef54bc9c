"""TorchRL TransformersWrapper on a GPU model, history input: the chat-template tokens are never moved to the model's device.

Source: https://github.com/pytorch/rl/pull/3289
"Added a missing .to(device) call in _from_transformers_generate_history": after
`history.apply_chat_template(tokenizer=self.tokenizer, ...)` the token tensors stay on the CPU, "the
resulting token tensor is not on the correct device and an exception gets raised later in the
`result = self._generate_from_tokens(` call". The fix: `response_struct = response_struct.to(self._device)`
when `self._device` is set. Stand-ins: a character tokenizer, History.apply_chat_template, a tiny
causal LM with `generate`, and TransformersWrapper reduced to the history/generate path.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class TensorDict:
    """tensordict.TensorDict, reduced."""
    def __init__(self, source, batch_size=()):
        self._tensordict = dict(source)
        self.batch_size = torch.Size(batch_size)
    def get(self, key, default=None, as_padded_tensor=False, padding_side="left", padding_value=0):
        return self._tensordict.get(key, default)
    def set(self, key, value):
        self._tensordict[key] = value
        return self
    def to(self, device):
        return TensorDict({k: (v.to(device) if isinstance(v, torch.Tensor) else v)
                           for k, v in self._tensordict.items()}, self.batch_size)

class CharTokenizer:
    """A transformers tokenizer, reduced: one id per character, tensors made on the CPU."""
    pad_token_id = 0
    eos_token_id = 1
    def apply_chat_template(self, conversation, add_generation_prompt=True, return_tensors="pt", return_dict=True):
        text = "".join(f"<{m['role']}>{m['content']}" for m in conversation)
        if add_generation_prompt:
            text += "<assistant>"
        ids = torch.tensor([[2 + (ord(c) % 60) for c in text]])
        return {"input_ids": ids, "attention_mask": torch.ones_like(ids)}

class History:
    """torchrl.data.llm.History, reduced."""
    def __init__(self, role, content):
        self.role = role
        self.content = content
    def apply_chat_template(self, tokenizer, add_generation_prompt=True, **kwargs):
        out = tokenizer.apply_chat_template([{"role": self.role, "content": self.content}],
                                            add_generation_prompt=add_generation_prompt)
        return TensorDict(out, batch_size=(1,))

class TinyCausalLM(nn.Module):
    """A transformers AutoModelForCausalLM, reduced: embeddings, one masked self-attention, LM head."""
    def __init__(self, vocab_size=64, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.lm_head = nn.Linear(dim, vocab_size)
    def forward(self, input_ids, attention_mask):
        h = self.embed_tokens(input_ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = q @ k.transpose(-1, -2) / 32 ** 0.5
        scores = scores + (1.0 - attention_mask[:, None, :].float()) * -1e9
        h = torch.softmax(scores, dim=-1) @ v
        return self.lm_head(h)
    @torch.no_grad()
    def generate(self, input_ids, attention_mask, max_new_tokens=1, **kwargs):
        logits = self.forward(input_ids, attention_mask)
        return logits.select(1, -1).argmax(-1)

class TransformersWrapper(nn.Module):
    """torchrl.modules.llm.TransformersWrapper, reduced to input_mode="history", generate=True."""
    def __init__(self, model, tokenizer, input_mode="history", generate=True, device=None, generate_kwargs=None):
        super().__init__()
        self.model = model
        self.tokenizer = tokenizer
        self.input_mode = input_mode
        self.generate = generate
        self._device = torch.device(device) if device is not None else None
        self.generate_kwargs = generate_kwargs or {"max_new_tokens": 1}

    def forward(self, tensordict):
        history = tensordict.get("history")
        return self._from_transformers_generate_history(tensordict, history)

    def _from_transformers_generate_history(self, td, history):
        tokenizer_kwargs = {"add_generation_prompt": True}
        response_struct = history.apply_chat_template(
            tokenizer=self.tokenizer, **tokenizer_kwargs
        )
        tokens_prompt_padded = response_struct.get(
            "input_ids",
            as_padded_tensor=True,
            padding_value=self.tokenizer.pad_token_id,
            padding_side="left",
        )
        attention_mask_prompt_padded = response_struct.get(
            "attention_mask",
            as_padded_tensor=True,
            padding_value=0,
            padding_side="left",
        )
        result = self._generate_from_tokens(tokens_prompt_padded, attention_mask_prompt_padded)
        return td.set("tokens_response", result)

    def _generate_from_tokens(self, tokens, attention_mask):
        return self.model.generate(input_ids=tokens, attention_mask=attention_mask, **self.generate_kwargs)

device = torch.device("cuda:0")
model = TinyCausalLM().to(device)
tokenizer = CharTokenizer()
wrapper = TransformersWrapper(model, tokenizer=tokenizer, input_mode="history", generate=True, device=device)
history = History(role="user", content="What is 2+2?")
'''
CELL = '''
out = wrapper(TensorDict({"history": history}, batch_size=(1,)))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["wrapper"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        tokens_prompt_padded = response_struct.get(",
    "        if self._device is not None:\n"
    "            response_struct = response_struct.to(self._device)\n"
    "        tokens_prompt_padded = response_struct.get(",
)
CLEAN = False
