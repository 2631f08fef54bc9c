"""Look-alike: DeepCTR-Torch's `SequencePoolingLayer` builds its length mask from a CPU `arange` moved to the lengths' device and keeps `eps` as a plain tensor attribute.

Source: https://github.com/shenweichen/DeepCTR-Torch/blob/master/deepctr_torch/layers/sequence.py
For variable-length behaviour sequences (mean pooling without masking support), `_sequence_mask` does
`row_vector = torch.arange(0, maxlen, 1).to(lengths.device)`, and the layer divides by
`user_behavior_length + self.eps`, where `self.eps = torch.FloatTensor([1e-8]).to(device)` was created
in `__init__` on the device passed to the model (not a buffer). Both are on cuda:0 when the model is
built with `device="cuda:0"`: nothing to report. Stand-in: the layer in "mean" mode with a history
embedding in front of it.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class SequencePoolingLayer(nn.Module):
    def __init__(self, mode="mean", supports_masking=False, device="cpu"):
        super().__init__()
        self.supports_masking, self.mode = supports_masking, mode
        self.eps = torch.FloatTensor([1e-8]).to(device)
        self.to(device)

    def _sequence_mask(self, lengths, maxlen=None, dtype=torch.bool):
        row_vector = torch.arange(0, maxlen, 1).to(lengths.device)
        matrix = torch.unsqueeze(lengths, dim=-1)
        mask = row_vector < matrix
        mask.type(dtype)
        return mask

    def forward(self, seq_value_len_list):
        uiseq_embed_list, user_behavior_length = seq_value_len_list
        mask = self._sequence_mask(user_behavior_length, maxlen=uiseq_embed_list.shape[1], dtype=torch.float32)
        mask = torch.transpose(mask, 1, 2)
        embedding_size = uiseq_embed_list.shape[-1]
        mask = torch.repeat_interleave(mask, embedding_size, dim=2)
        hist = uiseq_embed_list * mask.float()
        hist = torch.sum(hist, dim=1, keepdim=False)
        if self.mode == "mean":
            hist = torch.div(hist, user_behavior_length.type(torch.float32) + self.eps)
        return torch.unsqueeze(hist, dim=1)

device = "cuda:0"
hist_emb = nn.Embedding(100, 8, padding_idx=0).to(device)
pooling = SequencePoolingLayer(mode="mean", device=device)
hist_item_id = torch.randint(1, 100, (16, 10)).to(device)
hist_len = torch.randint(1, 11, (16, 1)).to(device)
'''
CELL = '''
with torch.no_grad():
    pooled = pooling([hist_emb(hist_item_id), hist_len])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
