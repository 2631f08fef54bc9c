"""Torch-TensorRT `ts.compile` of a BERT model traced on the CPU: the compiler runs the graph with CUDA example inputs while the weights are still on the CPU.

Source: https://github.com/pytorch/TensorRT/issues/1401
"Compiling BERT model from transformers fails": the user loaded `BertModel.from_pretrained(...)`,
traced it with a CPU `inp` (`model = torch.jit.trace(model, inp)`, printing
`next(model.parameters()).is_cuda` -> False) and called `torch_tensorrt.ts.compile(model, inputs=...)`
with `torch_tensorrt.Input(..., dtype=torch.int32)`: "Expected all tensors to be on the same device,
... cpu and cuda:0 (... index_select)". Torch-TensorRT builds its inputs on the GPU; the module has
to be on the GPU before compiling (triaged "not a bug": move the model with `.cuda()`/`.eval()` first).
Stand-in: a 1-layer BERT-like encoder (embedding lookup + linear), the trace is the module itself,
`torch_tensorrt.ts.compile` a function that runs the module once on CUDA example inputs of the
requested shape (as the partitioning's shape analysis does).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
from types import SimpleNamespace

class BertModel(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.position_embeddings = nn.Embedding(256, hidden)
        self.encoder = nn.Linear(hidden, hidden)
        self.pooler = nn.Linear(hidden, hidden)

    def forward(self, input_ids):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        h = self.word_embeddings(input_ids) + self.position_embeddings(pos)
        h = torch.tanh(self.encoder(h))
        return h, torch.tanh(self.pooler(h[:, 0]))

class Input:
    def __init__(self, min_shape, opt_shape, max_shape, dtype):
        self.min_shape, self.opt_shape, self.max_shape, self.dtype = min_shape, opt_shape, max_shape, dtype

def _ts_compile(module, inputs, enabled_precisions):
    example = [torch.zeros(i.opt_shape, dtype=torch.long, device="cuda:0") for i in inputs]
    with torch.no_grad():
        module(*example)                        # partitioning: shape analysis on the GPU
    return module

torch_tensorrt = SimpleNamespace(Input=Input, ts=SimpleNamespace(compile=_ts_compile))

model = BertModel().eval()                      # BertModel.from_pretrained("bert-base-uncased")
inp = torch.randint(0, 100, (1, 256))
model = model                                   # torch.jit.trace(model, inp)
print(next(model.parameters()).is_cuda)
inputs = [torch_tensorrt.Input(min_shape=[1, 256], opt_shape=[1, 256], max_shape=[1, 256], dtype=torch.int32)]
enabled_precisions = {torch.float32}
'''
CELL = '''
trt_ts_module = torch_tensorrt.ts.compile(model, inputs=inputs, enabled_precisions=enabled_precisions)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
