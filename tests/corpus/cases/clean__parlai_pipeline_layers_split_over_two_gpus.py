"""ParlAI's model-parallel transformer deliberately spreads its layers over cuda:0 and cuda:1.

Source: https://github.com/facebookresearch/ParlAI/pull/2481
"Model Parallel Transformers": `PipelineHelper.make_parallel` assigns each layer of a ModuleList
to a GPU (`layer._mp_gpu`, layer 0 on cuda:0, the rest spread over the others) and the forward
moves the hidden state to each layer's GPU before calling it. Look-alike: a model whose
parameters are on two devices by design, with the activations following them. Stand-in: the
layer split and the chunk-free forward.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class PipelineHelper:
    """parlai.utils.torch.PipelineHelper (stand-in: device assignment only)."""

    def __init__(self, num_gpus=2):
        self.num_gpus = num_gpus

    def make_parallel(self, submodules):
        num_layers = len(submodules)
        for layer_no, layer in enumerate(submodules):
            if layer_no == 0:
                mp_gpu = 'cuda:0'
            else:
                device_no = 1 + (layer_no - 1) // int(math.ceil((num_layers - 1) / (self.num_gpus - 1)))
                mp_gpu = f'cuda:{device_no}'
            layer._mp_gpu = mp_gpu
            layer.to(mp_gpu)
        return submodules

class TransformerLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.ReLU(), nn.Linear(4 * dim, dim))
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        return self.norm(x + self.ffn(x))

class TransformerEncoder(nn.Module):
    def __init__(self, dim=16, n_layers=4, vocab=100):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim).to('cuda:0')
        self.layers = nn.ModuleList([TransformerLayer(dim) for _ in range(n_layers)])
        PipelineHelper(num_gpus=2).make_parallel(self.layers)

    def forward(self, tokens):
        tensor = self.embeddings(tokens)
        for layer in self.layers:
            tensor = layer(tensor.to(layer._mp_gpu))
        return tensor.to('cuda:0')

encoder = TransformerEncoder()
tokens = torch.randint(0, 100, (2, 10)).to('cuda:0')
'''
CELL = '''
out = encoder(tokens)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
