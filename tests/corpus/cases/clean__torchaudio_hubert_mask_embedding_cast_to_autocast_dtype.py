"""Look-alike: torchaudio's HuBERT MaskGenerator after PR #2854 casts the fp32 mask embedding to the autocast features' dtype.

Source: https://github.com/pytorch/audio/pull/2854
The fix for "Index put requires the source and destination dtypes match" in mixed-precision HuBERT
pre-training writes `x[mask_indices] = self.mask_embedding.to(x.dtype)`: the Parameter stays
float32 (as the optimizer wants) while the autocast features are half precision, and the cast is
made where they meet. A float32 parameter next to low-precision activations under autocast is the
intended layout. CPU autocast in bfloat16 plays the GPU's fp16 autocast.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import Parameter

class MaskGenerator(nn.Module):
    def __init__(self, encoder_embed_dim, mask_prob=0.65, mask_length=3):
        super().__init__()
        self.mask_prob = mask_prob
        self.mask_length = mask_length
        self.mask_embedding = Parameter(torch.FloatTensor(encoder_embed_dim).uniform_())

    def forward(self, x, padding_mask=None):
        B, T, C = x.shape
        starts = torch.rand(B, T) < self.mask_prob / self.mask_length
        mask_indices = starts.clone()
        for k in range(1, self.mask_length):
            mask_indices[:, k:] |= starts[:, :-k]
        x[mask_indices] = self.mask_embedding.to(x.dtype)
        return x, mask_indices

class HuBERTPretrainModel(nn.Module):
    def __init__(self, conv_dim=32, embed_dim=64, num_classes=100):
        super().__init__()
        self.feature_extractor = nn.Conv1d(1, conv_dim, 400, stride=320)
        self.feature_projection = nn.Linear(conv_dim, embed_dim)
        self.mask_generator = MaskGenerator(embed_dim)
        self.encoder = nn.TransformerEncoderLayer(embed_dim, 4, 128, batch_first=True)
        self.logit_generator = nn.Linear(embed_dim, num_classes)

    def forward(self, waveforms, labels):
        x = self.feature_extractor(waveforms.unsqueeze(1)).transpose(1, 2)
        x = self.feature_projection(x)
        x, mask_m = self.mask_generator(x)
        x = self.encoder(x)
        logit_m = self.logit_generator(x[mask_m])
        return nn.functional.cross_entropy(logit_m.float(), labels[mask_m])

torch.manual_seed(0)
model = HuBERTPretrainModel()
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
waveforms = torch.randn(2, 16000)
labels = torch.randint(0, 100, (2, 49))
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):
    loss = model(waveforms, labels)
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
