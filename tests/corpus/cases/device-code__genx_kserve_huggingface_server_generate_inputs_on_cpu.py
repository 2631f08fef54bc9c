"""KServe huggingfaceserver, text generation on a GPU: the tokenized request stays on the CPU while the model is on cuda.

Source: https://github.com/kserve/kserve/pull/3657
"Assign device to input tensors in huggingface server with huggingface backend": serving Gemma on a
GPU, the generative model was placed on the GPU by accelerate but the request's input tensors
were "being stored in CPU instead of GPU", and `generate` failed with the device-mismatch error. The
PR moves the tokenized inputs to the model's device before generating. Stand-in: the
generative-model class of the server (load / preprocess / predict) around a toy causal LM.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ToyTokenizer:
    def __call__(self, texts, padding=True, return_tensors="pt"):
        rows = [[(sum(map(ord, w)) % 60) + 1 for w in t.split()] for t in texts]
        n = max(map(len, rows))
        ids = torch.tensor([[0] * (n - len(r)) + r for r in rows])
        return {"input_ids": ids, "attention_mask": (ids != 0).long()}

class GemmaForCausalLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.mlp = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    @property
    def device(self):
        return self.embed_tokens.weight.device

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, max_new_tokens=4):
        for _ in range(max_new_tokens):
            h = torch.tanh(self.mlp(self.embed_tokens(input_ids)))
            nxt = self.lm_head(h[:, -1]).argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, nxt], dim=-1)
        return input_ids

class HuggingfaceGenerativeModel:
    def __init__(self, model_id, device):
        self.model_id = model_id
        self._device = device

    def load(self):
        self._tokenizer = ToyTokenizer()
        self._model = GemmaForCausalLM().to(self._device)   # from_pretrained(..., device_map="auto")
        self.ready = True

    def preprocess(self, payload):
        return self._tokenizer(payload["instances"], padding=True, return_tensors="pt")

    def predict(self, input_batch):
        outputs = self._model.generate(**input_batch, max_new_tokens=4)
        return outputs

server_model = HuggingfaceGenerativeModel("gemmagpu", device="cuda:0")
server_model.load()
payload = {"instances": ["Write a poem about colors", "What is the capital of Spain?"]}
'''
CELL = '''
response = server_model.predict(server_model.preprocess(payload))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_batch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("outputs = self._model.generate(**input_batch, max_new_tokens=4)",
                  "input_batch = {k: v.to(self._model.device) for k, v in input_batch.items()}\n        outputs = self._model.generate(**input_batch, max_new_tokens=4)")
CLEAN = False
