"""baktfold `--half_precision`: the ProstT5 encoder and the 3Di CNN head are both cast to fp16 before prediction.

Source: https://github.com/gbouras13/baktfold/blob/main/src/baktfold/features/predict_3Di.py
`get_embeddings(..., half_precision=True)` loads the T5 encoder and the CNN predictor in float32 and
then casts both (`model = model.half(); predictor = predictor.half()`), so the Half residue
embeddings meet Half conv weights. Half embeddings multiplied by the tokenizer's int64 attention mask
(which keeps them Half) look like the dtype bug of issue #28, but both halves agree here; it runs.
Stand-ins: a small T5-like encoder, baktfold's CNN with 64 input features, a character tokenizer.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class CNN(nn.Module):
    def __init__(self, features=64):
        super(CNN, self).__init__()
        self.classifier = nn.Sequential(
            nn.Conv2d(features, 32, kernel_size=(7, 1), padding=(3, 0)),
            nn.ReLU(),
            nn.Dropout(0.0),
            nn.Conv2d(32, 20, kernel_size=(7, 1), padding=(3, 0)),
        )

    def forward(self, x):
        x = x.permute(0, 2, 1).unsqueeze(dim=-1)
        return self.classifier(x).squeeze(dim=-1)

class T5EncoderModel(nn.Module):
    def __init__(self, vocab=30, d_model=64):
        super().__init__()
        self.shared = nn.Embedding(vocab, d_model)
        self.block = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(2)])
        self.final_layer_norm = nn.LayerNorm(d_model)

    def forward(self, input_ids, attention_mask=None):
        h = self.shared(input_ids)
        for layer in self.block:
            h = h + torch.relu(layer(h))
        return self.final_layer_norm(h)

def encode(seqs):
    toks = [[3] + [4 + (ord(c) % 25) for c in s] + [1] for s in seqs]
    n = max(len(t) for t in toks)
    input_ids = torch.tensor([t + [0] * (n - len(t)) for t in toks])
    attention_mask = torch.tensor([[1] * len(t) + [0] * (n - len(t)) for t in toks])
    return input_ids, attention_mask

half_precision = True
model = T5EncoderModel().eval()
predictor = CNN().eval()
if half_precision:
    model = model.half()
    predictor = predictor.half()

seqs = ["MKTAYIAKQRQISFVKSHFSRQ", "MSLEQKKGADIISKILQIQNS"]
'''
CELL = '''
input_ids, attention_mask = encode(seqs)
with torch.no_grad():
    residue_embedding = model(input_ids, attention_mask=attention_mask)
    residue_embedding = residue_embedding * attention_mask.unsqueeze(dim=-1)
    residue_embedding = residue_embedding[:, 1:]
    prediction = predictor(residue_embedding)
    probabilities = torch.max(F.softmax(prediction, dim=1), dim=1, keepdim=True)[0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
