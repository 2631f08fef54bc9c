"""ctransformers `hf=True`: the prompt is moved to cuda, but the HF-wrapped GGUF model's torch side is on the cpu.

Source: https://github.com/marella/ctransformers/issues/199
The user loaded a GGUF model with `AutoModelForCausalLM.from_pretrained(..., hf=True, gpu_layers=100,
device_map='cuda')` and called `llm.generate(**model_inputs, ...)` with `model_inputs` moved to cuda:
"You are calling .generate() with the `input_ids` being on a device type different than your model's
device. `input_ids` is on cuda, whereas the model is on cpu", then the error. GPU offload happens
inside llama.cpp (`gpu_layers`); the torch-facing `CTransformersModel` stays on the cpu, so the
inputs must stay on the cpu too.
Stand-in: a cpu `CTransformersModel` whose forward runs a small torch LM in place of llama.cpp, and a
greedy `generate`.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class LLMBackend(nn.Module):                    # what llama.cpp computes, seen from torch
    def __init__(self, vocab_size=100, hidden=32):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, hidden)
        self.out = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids):
        return self.out(torch.tanh(self.tok(input_ids)))

class CTransformersModel(nn.Module):
    def __init__(self, gpu_layers=0):
        super().__init__()
        self._llm = LLMBackend()
        self.gpu_layers = gpu_layers

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, max_new_tokens=6, **kwargs):
        for _ in range(max_new_tokens):
            logits = self._llm(input_ids)[:, -1, :]
            input_ids = torch.cat([input_ids, logits.argmax(-1, keepdim=True)], dim=-1)
        return input_ids

def tokenizer(texts, return_tensors="pt"):
    ids = torch.tensor([[sum(map(ord, w)) % 97 for w in texts[0].split()]])
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids)}

llm = CTransformersModel(gpu_layers=100)        # from_pretrained(..., hf=True, gpu_layers=100, device_map='cuda')
prompt = "Xin chao, hay gioi thieu ve Viet Nam"
model_inputs = tokenizer([prompt], return_tensors="pt")
model_inputs = {k: v.to("cuda:0") for k, v in model_inputs.items()}
'''
CELL = '''
generated_ids = llm.generate(**model_inputs, max_new_tokens=6, repetition_penalty=1.1, do_sample=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model_inputs['input_ids']"]
FIX = "namespace"
REFERENCE_FIX = '''
model_inputs = tokenizer([prompt], return_tensors="pt")
'''
REFERENCE_EDIT = None
CLEAN = False
