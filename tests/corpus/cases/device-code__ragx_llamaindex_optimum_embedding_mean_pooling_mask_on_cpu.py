"""llama_index `OptimumEmbedding` on a CUDA execution provider: mean pooling multiplies cuda token embeddings by the CPU attention mask.

Source: https://github.com/run-llama/llama_index/pull/9541
"add a device in optimum": with an ORT model backed by `CUDAExecutionProvider`, `_embed` tokenizes on the
CPU, the ORT model returns its `last_hidden_state` on the GPU, and `_mean_pooling(model_output,
encoded_input["attention_mask"])` fails at `torch.sum(token_embeddings * input_mask_expanded, 1)` with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". The PR
lets the user pass a `device` and moves the tokenizer's tensors there. Stand-ins: the ORT model is a
small module on cuda:0 that copies its inputs to its device (as ORT's IO binding does), a toy tokenizer,
and OptimumEmbedding's `_embed`/`_mean_pooling` as in the integration.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Tokenizer:
    def __call__(self, sentences, padding=True, max_length=512, truncation=True, return_tensors="pt"):
        ids = [[101] + [sum(map(ord, w)) % 9000 + 500 for w in s.split()] + [102] for s in sentences]
        n = max(len(i) for i in ids)
        return {"input_ids": torch.tensor([i + [0] * (n - len(i)) for i in ids]),
                "attention_mask": torch.tensor([[1] * len(i) + [0] * (n - len(i)) for i in ids])}

class ORTModelForFeatureExtraction(nn.Module):
    def __init__(self, vocab=10000, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.proj = nn.Linear(hidden, hidden)
    def forward(self, input_ids, attention_mask):
        device = self.proj.weight.device          # CUDAExecutionProvider: inputs copied to the GPU
        return (self.proj(self.emb(input_ids.to(device))),)

class OptimumEmbedding:
    def __init__(self, folder_name, pooling="mean", max_length=512):
        self._model = ORTModelForFeatureExtraction().to("cuda:0")
        self._tokenizer = Tokenizer()
        self.pooling = pooling
        self.max_length = max_length

    def _mean_pooling(self, model_output, attention_mask):
        token_embeddings = model_output[0]
        input_mask_expanded = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).float()
        return torch.sum(token_embeddings * input_mask_expanded, 1) / torch.clamp(
            input_mask_expanded.sum(1), min=1e-9)

    def _embed(self, sentences):
        encoded_input = self._tokenizer(sentences, padding=True, max_length=self.max_length,
                                        truncation=True, return_tensors="pt")
        model_output = self._model(**encoded_input)
        embeddings = self._mean_pooling(model_output, encoded_input["attention_mask"])
        return embeddings

    def get_text_embedding_batch(self, texts):
        with torch.no_grad():
            return self._embed(texts)

embed_model = OptimumEmbedding(folder_name="./bge_onnx")
texts = ["ONNX runtime on the GPU", "mean pooling over the tokens"]
'''
CELL = '''
embeddings = embed_model.get_text_embedding_batch(texts)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["embed_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('embeddings = self._mean_pooling(model_output, encoded_input["attention_mask"])',
                  'embeddings = self._mean_pooling(model_output, encoded_input["attention_mask"].to(model_output[0].device))')
CLEAN = False
