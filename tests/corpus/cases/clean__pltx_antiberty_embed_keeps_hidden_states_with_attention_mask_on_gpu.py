"""AntiBERTy 0.1.1 `AntiBERTyRunner.embed`: tokenizer output moved to the model's GPU, hidden states kept there and trimmed with the GPU attention mask.

Source: https://github.com/jeffreyruffolo/AntiBERTy/blob/main/antiberty/AntiBERTyRunner.py
The runner picks `self.device = cuda if available`, moves the model there, tokenizes on the CPU and
moves `input_ids` / `attention_mask` with `.to(self.device)`; after the forward pass it stacks the
hidden states and keeps them on the device (`list(embeddings.detach())`, the 0.1.1 version) so that the
per-sequence padding trim by `attention_mask` happens on one device. The CPU tokenizer output and a
per-sequence loop over masks look like the bug of IgFold issue #30, but nothing is left behind; it runs.
Stand-ins: a character tokenizer and a two-layer BERT-like encoder; the boolean trim `[:, a == 1]` is
written as a multiplication by the mask (the simulator cannot index fake GPU tensors).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

VOCAB = {c: i + 5 for i, c in enumerate("ACDEFGHIKLMNPQRSTVWY")}

class BertTokenizer:
    def __call__(self, sequences, return_tensors="pt", padding=True):
        seqs = [[2] + [VOCAB[c] for c in s.split()] + [3] for s in sequences]
        n = max(len(s) for s in seqs)
        ids = torch.tensor([s + [0] * (n - len(s)) for s in seqs])
        mask = torch.tensor([[1] * len(s) + [0] * (n - len(s)) for s in seqs])
        return {"input_ids": ids, "attention_mask": mask}

class AntiBERTy(nn.Module):
    def __init__(self, vocab=25, dim=32, layers=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(layers)])

    def forward(self, input_ids, attention_mask, output_hidden_states=True, output_attentions=False):
        h = self.embeddings(input_ids) * attention_mask.unsqueeze(-1)
        hidden_states = [h]
        for layer in self.layers:
            h = torch.tanh(layer(h))
            hidden_states.append(h)
        return {"hidden_states": tuple(hidden_states)}

class AntiBERTyRunner():
    def __init__(self):
        self.device = torch.device("cuda:0")
        self.model = AntiBERTy().to(self.device)
        self.model.eval()
        self.tokenizer = BertTokenizer()

    def embed(self, sequences, hidden_layer=-1):
        sequences = [" ".join(list(s)) for s in sequences]
        tokenizer_out = self.tokenizer(sequences, return_tensors="pt", padding=True)
        tokens = tokenizer_out["input_ids"].to(self.device)
        attention_mask = tokenizer_out["attention_mask"].to(self.device)
        with torch.no_grad():
            outputs = self.model(input_ids=tokens, attention_mask=attention_mask,
                                 output_hidden_states=True)
        embeddings = outputs["hidden_states"]
        embeddings = torch.stack(embeddings, dim=1)
        embeddings = list(embeddings.detach())
        for i, a in enumerate(attention_mask):
            embeddings[i] = embeddings[i] * (a == 1)[None, :, None]   # AntiBERTy: embeddings[i][:, a == 1]
        return embeddings

antiberty = AntiBERTyRunner()
sequences = [
    "EVQLVQSGPEVKKPGTSVKVSCKASGFTFMSSAVQWVRQARGQRLEWIGWIVIGSGNTNYAQKFQERVTITRDMSTSTAYMELSSLRSEDTAVYYCAAPYCSSISCNDGFDIWGQGTMVTVS",
    "DVVMTQTPFSLPVSLGDQASISCRSSQSLVHSNGNTYLHWYLQKPGQSPKLLIYKVSNRFSGVPDRFSGSGSGTDFTLKISRVEAEDLGVYFCSQSTHVPYTFGGGTKLEIK",
]
'''
CELL = '''
embeddings = antiberty.embed(sequences)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
