"""baktfold on a CPU: the ProstT5_fp16 encoder stays in half precision and its embeddings hit the float32 3Di CNN.

Source: https://github.com/gbouras13/baktfold/issues/28
Running `baktfold ... --cpu` (log: "Rostlab/ProstT5_fp16 loaded", "Using models in full-precision") died
at `prediction = predictor(residue_embedding)` with "Input type (c10::Half) and bias type (float) should
be the same". `T5EncoderModel.from_pretrained("Rostlab/ProstT5_fp16")` keeps the checkpoint's fp16
weights, so the residue embeddings are Half, while the CNN head loaded by `load_predictor` is float32
(only `--half_precision` casts both). The fix (commit "fix #28") forces the encoder to fp32 on the CPU:
`model = model.float()`.
Stand-ins: `get_T5_model` returning a small fp16 T5-like encoder (as `from_pretrained` does for a fp16
checkpoint), a character tokenizer, and baktfold's CNN with 64 input features instead of 1024.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class CNN(nn.Module):
    def __init__(self, features=64):
        super(CNN, self).__init__()
        self.classifier = nn.Sequential(
            nn.Conv2d(features, 32, kernel_size=(7, 1), padding=(3, 0)),  # 7x32
            nn.ReLU(),
            nn.Dropout(0.0),
            nn.Conv2d(32, 20, kernel_size=(7, 1), padding=(3, 0)),
        )

    def forward(self, x):
        x = x.permute(0, 2, 1).unsqueeze(dim=-1)
        Yhat = self.classifier(x)
        return Yhat.squeeze(dim=-1)

class T5EncoderModel(nn.Module):                 # stand-in: embedding + two blocks + final norm
    def __init__(self, vocab=30, d_model=64):
        super().__init__()
        self.shared = nn.Embedding(vocab, d_model)
        self.block = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(2)])
        self.final_layer_norm = nn.LayerNorm(d_model)

    @classmethod
    def from_pretrained(cls, name):
        model = cls()
        return model.half() if name.endswith("_fp16") else model   # checkpoint dtype is kept

    def forward(self, input_ids, attention_mask=None):
        h = self.shared(input_ids)
        for layer in self.block:
            h = h + torch.relu(layer(h))
        class Out: pass
        out = Out()
        out.last_hidden_state = self.final_layer_norm(h)
        return out

class T5Tokenizer:
    def __call__(self, seqs, add_special_tokens=True, padding="longest", truncation=False, return_tensors="pt"):
        toks = [[3] + [4 + (ord(c) % 25) for c in s.split(" ")[1:]] + [1] for s in seqs]
        n = max(len(t) for t in toks)
        class Enc: pass
        enc = Enc()
        enc.input_ids = torch.tensor([t + [0] * (n - len(t)) for t in toks])
        enc.attention_mask = torch.tensor([[1] * len(t) + [0] * (n - len(t)) for t in toks])
        return enc

device = torch.device("cpu")                     # baktfold --cpu

def get_T5_model(model_dir, model_name, cpu, threads):
    model = T5EncoderModel.from_pretrained(model_name).to(device)
    model = model.eval()
    return model, T5Tokenizer()

def load_predictor(checkpoint_path):
    model = CNN()
    return model.eval().to(device)

model, vocab = get_T5_model("prostt5", "Rostlab/ProstT5_fp16", cpu=True, threads=4)
predictor = load_predictor("cnn_chkpnt/model.pt")

prostt5_prefix = "<AA2fold>"
seqs = [prostt5_prefix + " " + " ".join(list("MKTAYIAKQRQISFVKSHFSRQ")),
        prostt5_prefix + " " + " ".join(list("MSLEQKKGADIISKILQIQNS"))]
seq_lens = [22, 21]
'''
CELL = '''
token_encoding = vocab(seqs, add_special_tokens=True, padding="longest", return_tensors="pt")
with torch.no_grad():
    embedding_repr = model(token_encoding.input_ids, attention_mask=token_encoding.attention_mask)
    for idx, s_len in enumerate(seq_lens):
        token_encoding.attention_mask[idx, s_len + 1] = 0
    residue_embedding = embedding_repr.last_hidden_state.detach()
    residue_embedding = residue_embedding * token_encoding.attention_mask.unsqueeze(dim=-1)
    residue_embedding = residue_embedding[:, 1:]
    prediction = predictor(residue_embedding)
    probabilities = torch.max(F.softmax(prediction, dim=1), dim=1, keepdim=True)[0]
'''
EXPECT_ERROR = "Input type (c10::Half) and bias type (float) should be the same"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.float()   # FORCE FP32 on the CPU (baktfold #28)
'''
REFERENCE_EDIT = None
CLEAN = False
