"""SpeechBrain ECAPA-TDNN in fp16: attentive statistics pooling casts the mask total with `.float()`, so its global context is float32.

Source: https://github.com/speechbrain/speechbrain/issues/2544
"If the model is trained with FP16 or BF16 mode, here will report dtype mismatch. So, one solution
is that it need add `.to(x.dtype)`." In `AttentiveStatisticsPooling.forward`,
`total = mask.sum(dim=2, keepdim=True).float()` makes `mean`/`std` float32; `torch.cat([x, mean, std])`
promotes the attention input to float32 and the half TDNN conv rejects it. Stand-in: ECAPA reduced
to two TDNN blocks, the unchanged pooling layer and the final conv, run in half precision.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def length_to_mask(length, max_len=None, dtype=None, device=None):
    if max_len is None:
        max_len = length.max().long().item()
    mask = torch.arange(max_len, device=length.device, dtype=length.dtype).expand(len(length), max_len) < length.unsqueeze(1)
    return mask

class TDNNBlock(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=1):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size)
        self.activation = nn.ReLU()

    def forward(self, x):
        return self.activation(self.conv(x))

class AttentiveStatisticsPooling(nn.Module):
    def __init__(self, channels, attention_channels=16, global_context=True):
        super().__init__()
        self.eps = 1e-12
        self.global_context = global_context
        self.tdnn = TDNNBlock(channels * 3 if global_context else channels, attention_channels)
        self.tanh = nn.Tanh()
        self.conv = nn.Conv1d(attention_channels, channels, kernel_size=1)

    def forward(self, x, lengths=None):
        L = x.shape[-1]

        def _compute_statistics(x, m, dim=2, eps=self.eps):
            mean = (m * x).sum(dim)
            std = torch.sqrt((m * (x - mean.unsqueeze(dim)).pow(2)).sum(dim).clamp(eps))
            return mean, std

        if lengths is None:
            lengths = torch.ones(x.shape[0], device=x.device)
        mask = length_to_mask(lengths * L, max_len=L, device=x.device)
        mask = mask.unsqueeze(1)
        if self.global_context:
            total = mask.sum(dim=2, keepdim=True).float()
            mean, std = _compute_statistics(x, mask / total)
            mean = mean.unsqueeze(2).repeat(1, 1, L)
            std = std.unsqueeze(2).repeat(1, 1, L)
            attn = torch.cat([x, mean, std], dim=1)
        else:
            attn = x
        attn = self.conv(self.tanh(self.tdnn(attn)))
        attn = attn.masked_fill(mask == 0, float("-inf"))
        attn = F.softmax(attn, dim=2)
        mean, std = _compute_statistics(x, attn)
        return torch.cat((mean, std), dim=1).unsqueeze(2)

class ECAPA_TDNN(nn.Module):
    def __init__(self, input_size=24, channels=32, lin_neurons=16):
        super().__init__()
        self.blocks = nn.ModuleList([TDNNBlock(input_size, channels, 5), TDNNBlock(channels, channels, 3)])
        self.asp = AttentiveStatisticsPooling(channels)
        self.fc = nn.Conv1d(channels * 2, lin_neurons, kernel_size=1)

    def forward(self, x, lengths=None):
        x = x.transpose(1, 2)
        for layer in self.blocks:
            x = layer(x)
        x = self.asp(x, lengths=lengths)
        return self.fc(x).transpose(1, 2)

embedding_model = ECAPA_TDNN().half().eval()
feats = torch.randn(2, 50, 24).half()          # Fbank features of two utterances
wav_lens = torch.tensor([1.0, 0.8]).half()
'''
CELL = '''
with torch.no_grad():
    embeddings = embedding_model(feats, wav_lens)
'''
EXPECT_ERROR = "Input type (float) and bias type (c10::Half) should be the same"
CULPRITS = ["embedding_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "total = mask.sum(dim=2, keepdim=True).float()",
    "total = mask.sum(dim=2, keepdim=True).to(x.dtype)",
)
CLEAN = False
