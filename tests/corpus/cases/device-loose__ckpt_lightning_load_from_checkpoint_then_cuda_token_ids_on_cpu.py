"""A LightningModule restored with load_from_checkpoint, then moved to the GPU by hand; the token ids for predict stay on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/17304
"I want to load a trained checkpoint to gpu in colab, but ... the device of the model is cpu"
(`load_from_checkpoint(..., map_location="cuda")` returned a CPU model at the time). After
`model.to(torch.device('cuda'))`, the next prediction failed with "Expected all tensors to be on the
same device, ... cuda:0 and cpu! (when checking argument for argument index in method
wrapper_CUDA__index_select)": the encoded inputs were still built on the CPU, as they had been while
the model was there. Stand-in: a small embedding + mean-pooled MLP text classifier as the LightningModule.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class LitTextClassifier(nn.Module):          # pl.LightningModule
    def __init__(self, vocab_size=1000, hidden=32, num_classes=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())
        self.classifier = nn.Linear(hidden, num_classes)

    def forward(self, input_ids):
        out = self.encoder(self.embedding(input_ids))
        return self.classifier(out.mean(1))

    @classmethod
    def load_from_checkpoint(cls, checkpoint_path, map_location=None):
        model = cls()
        model.load_state_dict(cls().state_dict())   # checkpoint["state_dict"]; the model itself stays on the CPU
        return model

def encode(texts, max_len=12):
    return torch.tensor([[hash(w) % 1000 for w in t.split()][:max_len] + [0] * (max_len - len(t.split()[:max_len]))
                         for t in texts])

model = LitTextClassifier.load_from_checkpoint("lightning_logs/version_0/checkpoints/best.ckpt", map_location="cuda")
model.to(torch.device("cuda:0"))
model.eval()
input_ids = encode(["the movie was great", "terrible plot and acting"])
'''
CELL = '''
with torch.no_grad():
    preds = model(input_ids).argmax(-1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_ids"]
FIX = "namespace"
REFERENCE_FIX = '''
input_ids = input_ids.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
