"""torchaudio HuBERT pre-training with AMP: the float32 `mask_embedding` is written into half-precision features.

Source: https://github.com/pytorch/audio/issues/2847
Training `hubert_pretrain_base` with the Lightning example and mixed precision failed with
"Index put requires the source and destination dtypes match, got Half for the destination and
Float for the source": `MaskGenerator.forward` does `x[mask_indices] = self.mask_embedding`, where
`x` comes out of the autocast feature projection in fp16 and the Parameter stays fp32. The
reporter proposed `self.mask_embedding.to(x.dtype)` (PR #2854). Stand-in: feature projection,
MaskGenerator and a linear encoder/logit head; CPU autocast in bfloat16 plays the GPU's fp16
autocast (same error, "BFloat16" for "Half").
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
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
        x[mask_indices] = self.mask_embedding
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
model = HuBERTPretrainModel()                    # torchaudio.models.hubert_pretrain_base(...)
waveforms = torch.randn(2, 16000)
labels = torch.randint(0, 100, (2, 49))          # k-means pseudo-labels of the 49 frames
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):      # Lightning Trainer(precision=16) on the GPUs
    loss = model(waveforms, labels)
loss.backward()
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model.mask_generator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("x[mask_indices] = self.mask_embedding", "x[mask_indices] = self.mask_embedding.to(x.dtype)")
CLEAN = False
