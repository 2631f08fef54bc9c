"""IgFold on a GPU: AntiBERTyRunner.embed moves the hidden states to the CPU, then masks them with the GPU attention mask.

Source: https://github.com/Graylab/IgFold/issues/30
Running the IgFold demo (`IgFoldRunner().fold(...)`, "Using device: cuda:0") failed inside
`antiberty.embed` at `embeddings[i] = embeddings[i][:, a == 1]` with "indices should be either on
cpu or on the same device as the indexed tensor (cpu)". AntiBERTy 0.1.0 stacked the hidden states and
did `list(embeddings.detach().cpu())`, while `attention_mask` stayed on the model's GPU; the fix
(AntiBERTy 0.1.1, commit "dont move outputs to cpu") drops the `.cpu()` so both stay on the device.
Stand-ins: AntiBERTyRunner / IgFoldRunner / a character tokenizer, a two-layer BERT-like encoder that
returns its hidden states; the boolean selection `[:, a == 1]` is written as a multiplication by the
mask (the simulator cannot index fake GPU tensors), which mixes the same two devices.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

VOCAB = {c: i + 5 for i, c in enumerate("ACDEFGHIKLMNPQRSTVWY")}

class BertTokenizer:                                   # stand-in: returns CPU tensors, padded
    def __call__(self, sequences, return_tensors="pt", padding=True):
        seqs = [[2] + [VOCAB[c] for c in s.split()] + [3] for s in sequences]
        n = max(len(s) for s in seqs)
        ids = torch.tensor([s + [0] * (n - len(s)) for s in seqs])
        mask = torch.tensor([[1] * len(s) + [0] * (n - len(s)) for s in seqs])
        return {"input_ids": ids, "attention_mask": mask}

class AntiBERTy(nn.Module):                            # stand-in for the BERT encoder
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

        # gather embeddings
        embeddings = outputs["hidden_states"]
        embeddings = torch.stack(embeddings, dim=1)
        embeddings = list(embeddings.detach().cpu())

        for i, a in enumerate(attention_mask):
            embeddings[i] = embeddings[i] * (a == 1)[None, :, None]   # AntiBERTy: embeddings[i][:, a == 1]

        for i in range(len(embeddings)):
            embeddings[i] = embeddings[i][hidden_layer]
        return embeddings

class IgFoldRunner():
    def __init__(self, num_models=1):
        device = torch.device("cuda:0")
        print(f"Using device: {device}")
        self.models = [nn.Linear(32, 64).eval().to(device) for _ in range(num_models)]
        self.antiberty = AntiBERTyRunner()
        self.antiberty.model.eval()
        self.antiberty.model.to(device)

    def fold(self, pdb_file, sequences):
        embeddings = self.antiberty.embed(list(sequences.values()))
        return [model(e) for model in self.models for e in embeddings]

sequences = {
    "H": "EVQLVQSGPEVKKPGTSVKVSCKASGFTFMSSAVQWVRQARGQRLEWIGWIVIGSGNTNYAQKFQERVTITRDMSTSTAYMELSSLRSEDTAVYYCAAPYCSSISCNDGFDIWGQGTMVTVS",
    "L": "DVVMTQTPFSLPVSLGDQASISCRSSQSLVHSNGNTYLHWYLQKPGQSPKLLIYKVSNRFSGVPDRFSGSGSGTDFTLKISRVEAEDLGVYFCSQSTHVPYTFGGGTKLEIK",
}
pred_pdb = "my_antibody.pdb"
igfold = IgFoldRunner()
'''
CELL = '''
out = igfold.fold(pred_pdb, sequences=sequences)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["igfold.antiberty"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("embeddings = list(embeddings.detach().cpu())",
                  "embeddings = list(embeddings.detach())")
CLEAN = False
