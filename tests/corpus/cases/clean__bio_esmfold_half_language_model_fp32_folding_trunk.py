"""Look-alike: ESMFold with only its ESM-2 language model in fp16 (`model.esm = model.esm.half()`) and the folding trunk in fp32.

Source: https://github.com/huggingface/notebooks/blob/main/examples/protein_folding.ipynb
The Hugging Face protein-folding notebook loads `EsmForProteinFolding` and converts just the language
model stem to half to save memory, keeping the trunk in float32. This is safe because
`EsmForProteinFolding.forward` casts the LM representations to the dtype of `esm_s_combine`
(`esm_s.to(self.esm_s_combine.dtype)`) before the trunk. Stand-in: a tiny ESM-2 stem (embedding +
layer stack), the combine weights and a trunk; the half/float mix is deliberate.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class EsmModel(nn.Module):
    def __init__(self, vocab=33, dim=32, layers=3):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(layers)])
    def forward(self, input_ids):
        x = self.embed_tokens(input_ids)
        hidden = [x]
        for layer in self.layers:
            x = torch.tanh(layer(x))
            hidden.append(x)
        return torch.stack(hidden, dim=2)

class EsmForProteinFolding(nn.Module):
    def __init__(self, dim=32, layers=3, c_s=48):
        super().__init__()
        self.esm = EsmModel(dim=dim, layers=layers)
        self.esm_s_combine = nn.Parameter(torch.zeros(layers + 1))
        self.esm_s_mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, c_s), nn.ReLU(), nn.Linear(c_s, c_s))
        self.trunk = nn.Linear(c_s, 3)
    def forward(self, input_ids):
        esm_s = self.esm(input_ids)
        esm_s = esm_s.to(self.esm_s_combine.dtype)
        esm_s = (self.esm_s_combine.softmax(0).unsqueeze(0) @ esm_s).squeeze(2)
        s_s_0 = self.esm_s_mlp(esm_s)
        return {"positions": self.trunk(s_s_0)}

model = EsmForProteinFolding()
model.esm = model.esm.half()
tokenized_input = torch.randint(4, 24, (1, 30))     # tokenizer([test_protein], return_tensors="pt", add_special_tokens=False)["input_ids"]
'''
CELL = '''
with torch.no_grad():
    output = model(tokenized_input)
print(output["positions"].dtype, model.esm.embed_tokens.weight.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
