"""Look-alike: Opacus computes per-sample Embedding gradients by scatter-adding float backprops at int64 token indices.

Source: https://github.com/meta-pytorch/opacus/blob/main/opacus/grad_sample/embedding.py
`compute_embedding_grad_sample(layer, activations, backprops)` takes the int64 token ids captured by
GradSampleModule's forward hook, expands them into an index of shape (batch, seq, dim), allocates
`grad_sample = torch.zeros(batch_size, *layer.weight.shape, device=layer.weight.device)` and
`scatter_add_`s the float32 backprops into it. Integer indices next to float gradients, all on the
embedding's GPU. Stand-in: the function as in Opacus (registration decorator dropped), a text
classifier's embedding on cuda:0, and the per-sample norms DPOptimizer computes from the result.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def compute_embedding_grad_sample(layer, activations, backprops):
    activations = activations[0]
    ret = {}
    if layer.weight.requires_grad:
        saved = torch.backends.cudnn.deterministic
        torch.backends.cudnn.deterministic = True

        batch_size = activations.shape[0]
        if batch_size == 0:
            ret[layer.weight] = torch.zeros_like(layer.weight).unsqueeze(0)
            return ret

        index = (
            activations.unsqueeze(-1)
            .expand(*activations.shape, layer.embedding_dim)
            .reshape(batch_size, -1, layer.embedding_dim)
        )
        grad_sample = torch.zeros(batch_size, *layer.weight.shape, device=layer.weight.device)
        grad_sample.scatter_add_(1, index, backprops.reshape(batch_size, -1, layer.embedding_dim))
        torch.backends.cudnn.deterministic = saved
        ret[layer.weight] = grad_sample
    return ret

class TextClassifier(nn.Module):
    def __init__(self, vocab_size=100, embed_dim=16, num_classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, embed_dim)
        self.fc = nn.Linear(embed_dim, num_classes)

    def forward(self, input_ids):
        return self.fc(self.emb(input_ids).mean(1))

model = TextClassifier().to("cuda:0")
input_ids = torch.randint(0, 100, (4, 7), device="cuda:0")
backprops = torch.randn(4, 7, 16, device="cuda:0")       # dL/d(embedding output) from the backward hook
'''
CELL = '''
grad_samples = compute_embedding_grad_sample(model.emb, [input_ids], backprops)
gs = grad_samples[model.emb.weight]
per_sample_norms = gs.reshape(len(gs), -1).norm(2, dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
