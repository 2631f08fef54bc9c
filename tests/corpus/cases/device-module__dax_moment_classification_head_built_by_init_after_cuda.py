"""MOMENT loaded for classification, moved with `.to("cuda")`, then `model.init()` builds the classification head on the CPU.

Source: https://github.com/moment-timeseries-foundation-model/moment/issues/33
The user loaded `MOMENTPipeline.from_pretrained("AutonLab/MOMENT-1-large", model_kwargs={'task_name':
'classification', 'n_channels': 69, 'num_class': 2}).to("cuda").float()`, then called `model.init()` and
fed cuda batches; it failed in the classification head's linear layer with a device mismatch, and
"If I move this linear layer to 'cuda' device explicitly then the code works fine". `init()` creates
the task head (`self.head = self._get_head(...)`) after the move, so the new `nn.Linear` stays on the
CPU. Stand-in: a small patching encoder with MOMENT's init/ClassificationHead structure; fake cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
from types import SimpleNamespace

class ClassificationHead(nn.Module):
    def __init__(self, n_channels=1, d_model=32, n_classes=2, head_dropout=0.1, reduction="concat"):
        super().__init__()
        self.dropout = nn.Dropout(head_dropout)
        self.linear = nn.Linear(n_channels * d_model, n_classes)

    def forward(self, x, input_mask=None):
        x = torch.mean(x, dim=2)                    # [batch, n_channels, d_model]
        x = x.reshape(x.shape[0], -1)
        x = self.dropout(x)
        return self.linear(x)

class MOMENTPipeline(nn.Module):
    def __init__(self, model_kwargs, patch_len=8, d_model=32):
        super().__init__()
        self.task_name = "reconstruction"
        self.new_task_name = model_kwargs.get("task_name", "reconstruction")
        self.n_channels = model_kwargs.get("n_channels", 1)
        self.num_class = model_kwargs.get("num_class", 2)
        self.patch_len, self.d_model = patch_len, d_model
        self.patch_embedding = nn.Linear(patch_len, d_model)
        self.encoder = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, d_model), nn.GELU())
        self.head = nn.Linear(d_model, patch_len)       # pretraining (reconstruction) head

    @classmethod
    def from_pretrained(cls, name, model_kwargs):
        return cls(model_kwargs)

    def _get_head(self, task_name):
        if task_name == "classification":
            return ClassificationHead(self.n_channels, self.d_model, self.num_class)
        return nn.Linear(self.d_model, self.patch_len)

    def init(self):
        if self.new_task_name != "reconstruction":
            self.task_name = self.new_task_name
            self.head = self._get_head(self.new_task_name)

    def forward(self, x_enc, input_mask=None):
        b, c, t = x_enc.shape
        patches = x_enc.reshape(b, c, t // self.patch_len, self.patch_len)
        enc_out = self.encoder(self.patch_embedding(patches))   # [b, c, n_patches, d_model]
        return SimpleNamespace(logits=self.head(enc_out, input_mask=input_mask))

model = MOMENTPipeline.from_pretrained(
    "AutonLab/MOMENT-1-large",
    model_kwargs={'task_name': 'classification', 'n_channels': 4, 'num_class': 2},
).to("cuda:0").float()
model.init()
model.eval()
batch_x = torch.randn(8, 4, 64)
batch_masks = torch.ones(8, 64)
'''
CELL = '''
with torch.no_grad():
    batch_x = batch_x.to("cuda:0").float()
    batch_masks = batch_masks.to("cuda:0")
    output = model(batch_x, input_mask=batch_masks)
    logit = output.logits
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.head"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
