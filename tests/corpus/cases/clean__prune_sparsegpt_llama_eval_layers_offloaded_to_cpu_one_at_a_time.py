"""SparseGPT's llama_eval: the model stays on the CPU and each decoder layer visits the GPU in turn.

Source: https://github.com/IST-DASLab/sparsegpt/blob/master/llama.py
`llama_eval` (like `llama_sequential`) moves `embed_tokens` and `layers[0]` to `dev`, catches the first
layer's inputs into a GPU `inps` buffer, moves them back with `.cpu()`, then for every layer does
`layer = layers[i].to(dev)`, runs the cached inputs through it and puts it back with
`layers[i] = layer.cpu()`; finally `norm` and `lm_head` go to `dev` for the perplexity. Look-alike: most
of the model is on the CPU while the activations are on cuda:0, by design; it runs.
Stand-in: a tiny LLaMA-shaped model; the Catcher is replaced by calling `embed_tokens` directly and the
per-sample loops are written with `unbind`/`stack`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class DecoderLayer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.self_attn = nn.Linear(hidden, hidden)
        self.mlp = nn.Linear(hidden, hidden)

    def forward(self, x, attention_mask=None):
        h = x + self.self_attn(x)
        return (h + torch.relu(self.mlp(h)),)

class LlamaModel(nn.Module):
    def __init__(self, vocab=100, hidden=32, n_layers=3):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([DecoderLayer(hidden) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(hidden)

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.model = LlamaModel(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
        self.seqlen = 16

model = LlamaForCausalLM().eval()          # loaded on the CPU (torch_dtype='auto')
dev = torch.device("cuda:0")
testenc = torch.randint(0, 100, (1, 4 * model.seqlen))
nsamples = testenc.numel() // model.seqlen
'''
CELL = '''
with torch.no_grad():
    layers = model.model.layers
    model.model.embed_tokens = model.model.embed_tokens.to(dev)
    inps = torch.stack([model.model.embed_tokens(chunk.to(dev)).squeeze(0)
                        for chunk in testenc.split(model.seqlen, dim=1)])
    model.model.embed_tokens = model.model.embed_tokens.cpu()
    attention_mask = None
    for i in range(len(layers)):
        layer = layers[i].to(dev)
        outs = torch.stack([layer(x.unsqueeze(0), attention_mask=attention_mask)[0].squeeze(0) for x in inps.unbind(0)])
        layers[i] = layer.cpu()
        del layer
        inps, outs = outs, inps
    model.model.norm = model.model.norm.to(dev)
    model.lm_head = model.lm_head.to(dev)
    testenc = testenc.to(dev)
    nlls = []
    for i, hidden_states in enumerate(inps.unbind(0)):
        lm_logits = model.lm_head(model.model.norm(hidden_states.unsqueeze(0)))
        shift_logits = lm_logits.narrow(1, 0, model.seqlen - 1)
        shift_labels = testenc.narrow(1, i * model.seqlen + 1, model.seqlen - 1)
        loss = nn.CrossEntropyLoss()(shift_logits.reshape(-1, shift_logits.size(-1)), shift_labels.reshape(-1))
        nlls.append(loss.float() * model.seqlen)
    ppl = torch.exp(torch.stack(nlls).sum() / (nsamples * model.seqlen))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
