"""Look-alike: AST fine-tuning: fbank and multi-hot labels built on the CPU in the Dataset, moved with `non_blocking=True` in `train`.

Source: https://github.com/YuanGongND/ast (src/dataloader.py, src/traintest.py, src/models/ast_models.py)
`AudiosetDataset.__getitem__` computes `torchaudio.compliance.kaldi.fbank(...)` on the CPU, normalises
with the python floats `(fbank - self.norm_mean) / (self.norm_std * 2)` and returns a float
`label_indices` multi-hot vector; `train()` does `audio_input = audio_input.to(device, non_blocking=True)`
and `labels = labels.to(device, non_blocking=True)` before `audio_output = audio_model(audio_input)` and
`loss_fn(audio_output, labels)` (BCEWithLogitsLoss). `ASTModel` keeps `cls_token`, `dist_token` and
`pos_embed` as parameters, so they follow `audio_model.to(device)`. Stand-in: the ViT reduced to
patch embedding + tokens + positional embedding + mlp head.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class AudiosetDataset(torch.utils.data.Dataset):
    def __init__(self, n=4, target_length=128, num_mel_bins=64, label_num=10):
        self.n, self.target_length, self.num_mel_bins, self.label_num = n, target_length, num_mel_bins, label_num
        self.norm_mean, self.norm_std = -4.2677393, 4.5689974

    def _wav2fbank(self, idx):
        return torch.randn(self.target_length, self.num_mel_bins)   # kaldi.fbank(waveform, ...) on the CPU

    def __getitem__(self, index):
        label_indices = torch.eye(self.label_num)[index % self.label_num]     # multi-hot, float
        fbank = self._wav2fbank(index)
        fbank = (fbank - self.norm_mean) / (self.norm_std * 2)
        return fbank, label_indices

    def __len__(self):
        return self.n

class ASTModel(nn.Module):
    def __init__(self, label_dim=10, fstride=16, tstride=16, input_fdim=64, input_tdim=128, dim=32):
        super().__init__()
        self.patch_embed = nn.Conv2d(1, dim, kernel_size=(16, 16), stride=(fstride, tstride))
        num_patches = (input_fdim // fstride) * (input_tdim // tstride)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.dist_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + 2, dim))
        self.norm = nn.LayerNorm(dim)
        self.mlp_head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, label_dim))

    def forward(self, x):
        x = x.unsqueeze(1).transpose(2, 3)
        B = x.shape[0]
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        cls_tokens = self.cls_token.expand(B, -1, -1)
        dist_token = self.dist_token.expand(B, -1, -1)
        x = torch.cat((cls_tokens, dist_token, x), dim=1)
        x = x + self.pos_embed
        x = self.norm(x)
        x = (x[:, 0] + x[:, 1]) / 2
        return self.mlp_head(x)

device = torch.device("cuda:0")
audio_model = ASTModel(label_dim=10, input_tdim=128)
audio_model = audio_model.to(device)
loss_fn = nn.BCEWithLogitsLoss()
train_dataset = AudiosetDataset()
items = [train_dataset[i] for i in range(4)]                   # what the DataLoader collates
audio_input = torch.stack([fbank for fbank, _ in items])
labels = torch.stack([label for _, label in items])
'''
CELL = '''
audio_input = audio_input.to(device, non_blocking=True)
labels = labels.to(device, non_blocking=True)
with torch.no_grad():
    audio_output = audio_model(audio_input)
    loss = loss_fn(audio_output, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
