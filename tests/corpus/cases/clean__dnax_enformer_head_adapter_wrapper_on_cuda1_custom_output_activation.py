"""Look-alike: enformer-pytorch HeadAdapterWrapper fine-tuned on `cuda:1` with a custom output head; seq indices one-hot encoded inside forward.

Source: https://github.com/lucidrains/enformer-pytorch/blob/5a5974d2821c728f93294731c50b55f1f55fd86d/enformer_pytorch/finetune.py
with the usage posted in https://github.com/lucidrains/enformer-pytorch/pull/23 (binarized ATAC head:
`Rearrange('b t c -> b c t'), nn.AvgPool1d(8), Rearrange('... () -> ...'), nn.Sigmoid()` passed as
`output_activation`, then `model = model.to('cuda:1')`). `Enformer.forward` turns long seq indices
into a float one-hot (`seq_indices_to_one_hot`, padding filled with 0.25) on the input's device and
runs the discarded `x.to(self.device)` no-op; `target.shape[-2]` sets the crop length. Everything
lives on cuda:1, so nothing is wrong. Stand-ins: a reduced Enformer trunk (stem conv, six pooling conv blocks,
TargetLengthCrop, pointwise), einops' Rearrange as a small module, the wrapper as in finetune.py
(without the discrete key-value bottleneck and the freezing helpers). `type(x) == torch.Tensor` is
written `isinstance(x, torch.Tensor)`, since a simulated tensor's type is a subclass.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def exists(val):
    return val is not None

def Sequential(*modules):
    return nn.Sequential(*filter(exists, modules))

class Rearrange(nn.Module):
    """einops.layers.torch.Rearrange for the two patterns used here."""
    def __init__(self, pattern):
        super().__init__()
        self.pattern = pattern
    def forward(self, x):
        if self.pattern == 'b t c -> b c t':
            return x.transpose(1, 2)
        if self.pattern == '... () -> ...':
            assert x.shape[-1] == 1
            return x.squeeze(-1)
        raise ValueError(self.pattern)

def seq_indices_to_one_hot(t, padding = -1):
    is_padding = t == padding
    t = t.clamp(min = 0)
    one_hot = F.one_hot(t, num_classes = 5)
    out = one_hot[..., :4].float()
    out = out.masked_fill(is_padding[..., None], 0.25)
    return out

def poisson_loss(pred, target):
    return (pred - target * torch.log(pred.clamp(min = 1e-20))).mean()

class TargetLengthCrop(nn.Module):
    def __init__(self, target_length):
        super().__init__()
        self.target_length = target_length
    def forward(self, x):
        seq_len, target_len = x.shape[-2], self.target_length
        if target_len == -1:
            return x
        trim = (target_len - seq_len) // 2
        if trim == 0:
            return x
        return x[:, -trim:trim]

class Enformer(nn.Module):
    """enformer_pytorch.Enformer, reduced (dim 32, 128 bp per output position)."""
    def __init__(self, dim = 32, target_length = 896):
        super().__init__()
        self.dim = dim
        self.stem = nn.Sequential(nn.Conv1d(4, dim // 2, 15, padding = 7), nn.MaxPool1d(2))
        filters = [dim // 2] * 6 + [dim]                   # 2 x 2**6 = 128 bp per position
        self.conv_tower = nn.Sequential(*[
            nn.Sequential(nn.BatchNorm1d(d_in), nn.GELU(),
                          nn.Conv1d(d_in, d_out, 5, padding = 2), nn.MaxPool1d(2))
            for d_in, d_out in zip(filters[:-1], filters[1:])])
        self.crop_final = TargetLengthCrop(target_length)
        self.final_pointwise = nn.Sequential(nn.Linear(dim, dim * 2), nn.Dropout(0.05), nn.GELU())

    @property
    def device(self):
        return self.stem[0].weight.device

    def set_target_length(self, target_length):
        self.crop_final.target_length = target_length

    def _trunk(self, x):
        x = x.transpose(1, 2)
        x = self.stem(x)
        x = self.conv_tower(x)
        x = x.transpose(1, 2)
        x = self.crop_final(x)
        return self.final_pointwise(x)

    def forward(self, x, return_only_embeddings = False, target_length = None):
        if isinstance(x, torch.Tensor) and x.dtype == torch.long:
            x = seq_indices_to_one_hot(x)
        x.to(self.device)
        if exists(target_length):
            self.set_target_length(target_length)
        x = self._trunk(x)
        if return_only_embeddings:
            return x
        raise NotImplementedError("human / mouse heads are not part of this look-alike")

class HeadAdapterWrapper(nn.Module):
    """enformer_pytorch.finetune.HeadAdapterWrapper, reduced."""
    def __init__(self, *, enformer, num_tracks, output_activation = nn.Softplus(),
                 auto_set_target_length = True):
        super().__init__()
        assert isinstance(enformer, Enformer)
        enformer_hidden_dim = enformer.dim * 2
        self.enformer = enformer
        self.auto_set_target_length = auto_set_target_length
        self.to_tracks = Sequential(
            nn.Linear(enformer_hidden_dim, num_tracks),
            output_activation
        )

    def forward(self, seq, *, target = None, freeze_enformer = False):
        enformer_kwargs = dict()
        if exists(target) and self.auto_set_target_length:
            enformer_kwargs = dict(target_length = target.shape[-2])
        context = torch.no_grad() if freeze_enformer else torch.enable_grad()
        with context:
            embeddings = self.enformer(seq, return_only_embeddings = True, **enformer_kwargs)
        preds = self.to_tracks(embeddings)
        if not exists(target):
            return preds
        return poisson_loss(preds, target)

num_tracks = 8
model = Enformer(dim = 32, target_length = -1)
head_out = nn.Sequential(
    Rearrange('b t c -> b c t'),
    nn.AvgPool1d(8),
    Rearrange('... () -> ...'),
    nn.Sigmoid()
)
model = HeadAdapterWrapper(enformer = model, num_tracks = num_tracks, output_activation = head_out)
model = model.to('cuda:1')
model.eval()

seq = torch.randint(-1, 4, (2, 1024)).to('cuda:1')        # -1 = padding
'''
CELL = '''
preds = model(seq, freeze_enformer = True)
labels = (preds > 0.5).float()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
