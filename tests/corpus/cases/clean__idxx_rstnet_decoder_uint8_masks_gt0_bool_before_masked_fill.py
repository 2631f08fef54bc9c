"""Look-alike: RSTNet's decoder builds its self-attention mask from uint8 pieces, then turns it to bool with `.gt(0)` (and the byte running state with `.type_as`) before `masked_fill`.

Source: https://github.com/zhangxuying1004/RSTNet/blob/d308459ad1c28e0f4c2c3e4a9986ae76870e3c72/models/rstnet/decoders.py
`forward` makes `torch.triu(torch.ones(..., dtype=torch.uint8), diagonal=1)`, adds the padding
mask `.byte()`, then `mask_self_attention.gt(0)`; in stateful (beam search) decoding the
running mask registered as `torch.zeros((1, 1, 0)).byte()` is concatenated after
`.type_as(mask_self_attention)`. `ScaledDotProductAttention` (models/rstnet/attention.py) then
calls `att.masked_fill(attention_mask, -np.inf)`. uint8 masks are everywhere, as in the byte-mask
`masked_fill` failures, but only bool masks reach `masked_fill`; `seq.masked_fill(...)` is given
a comparison (bool) as well.
Stand-in: RSTNet's stateful `containers.Module`, `ScaledDotProductAttention` and the decoder's
mask and position code; the decoder layers, language model and grid features are replaced by
one masked self-attention over word plus position embeddings.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from contextlib import contextmanager
import numpy as np
import torch
from torch import nn


class Module(nn.Module):
    """Stand-in for RSTNet models/containers.Module."""

    def __init__(self):
        super(Module, self).__init__()
        self._is_stateful = False
        self._state_names = []
        self._state_defaults = dict()

    def register_state(self, name, default):
        self._state_names.append(name)
        self._state_defaults[name] = default.clone().detach()
        self.register_buffer(name, default)

    def _init_states(self, batch_size):
        for name in self._state_names:
            self._buffers[name] = self._state_defaults[name].clone().detach().to(self._buffers[name].device)
            self._buffers[name] = self._buffers[name].unsqueeze(0)
            self._buffers[name] = self._buffers[name].expand([batch_size, ] + list(self._buffers[name].shape[1:]))
            self._buffers[name] = self._buffers[name].contiguous()

    def _reset_states(self):
        for name in self._state_names:
            self._buffers[name] = self._state_defaults[name].clone().detach().to(self._buffers[name].device)

    @contextmanager
    def statefulness(self, batch_size):
        self._init_states(batch_size)
        self._is_stateful = True
        try:
            yield
        finally:
            self._reset_states()
            self._is_stateful = False


class ScaledDotProductAttention(nn.Module):
    def __init__(self, d_model, d_k, d_v, h):
        super(ScaledDotProductAttention, self).__init__()
        self.fc_q = nn.Linear(d_model, h * d_k)
        self.fc_k = nn.Linear(d_model, h * d_k)
        self.fc_v = nn.Linear(d_model, h * d_v)
        self.fc_o = nn.Linear(h * d_v, d_model)
        self.d_model, self.d_k, self.d_v, self.h = d_model, d_k, d_v, h

    def forward(self, queries, keys, values, attention_mask=None, attention_weights=None):
        b_s, nq = queries.shape[:2]
        nk = keys.shape[1]
        q = self.fc_q(queries).view(b_s, nq, self.h, self.d_k).permute(0, 2, 1, 3)
        k = self.fc_k(keys).view(b_s, nk, self.h, self.d_k).permute(0, 2, 3, 1)
        v = self.fc_v(values).view(b_s, nk, self.h, self.d_v).permute(0, 2, 1, 3)
        att = torch.matmul(q, k) / np.sqrt(self.d_k)
        if attention_weights is not None:
            att = att * attention_weights
        if attention_mask is not None:
            att = att.masked_fill(attention_mask, -np.inf)
        att = torch.softmax(att, -1)
        out = torch.matmul(att, v).permute(0, 2, 1, 3).contiguous().view(b_s, nq, self.h * self.d_v)
        return self.fc_o(out)


class TransformerDecoderLayer(Module):
    def __init__(self, vocab_size, max_len, padding_idx, d_model=32, d_k=8, d_v=8, h=4):
        super().__init__()
        self.word_emb = nn.Embedding(vocab_size, d_model, padding_idx=padding_idx)
        self.pos_emb = nn.Embedding(max_len + 1, d_model, padding_idx=0)
        self.self_att = ScaledDotProductAttention(d_model, d_k, d_v, h)
        self.fc = nn.Linear(d_model, vocab_size, bias=False)
        self.max_len = max_len
        self.padding_idx = padding_idx
        self.register_state('running_mask_self_attention', torch.zeros((1, 1, 0)).byte())
        self.register_state('running_seq', torch.zeros((1,)).long())

    def forward(self, input):
        # input (b_s, seq_len)
        b_s, seq_len = input.shape[:2]
        mask_queries = (input != self.padding_idx).unsqueeze(-1).float()  # (b_s, seq_len, 1)
        mask_self_attention = torch.triu(torch.ones((seq_len, seq_len), dtype=torch.uint8, device=input.device),
                                         diagonal=1)
        mask_self_attention = mask_self_attention.unsqueeze(0).unsqueeze(0)  # (1, 1, seq_len, seq_len)
        mask_self_attention = mask_self_attention + (input == self.padding_idx).unsqueeze(1).unsqueeze(1).byte()
        mask_self_attention = mask_self_attention.gt(0)  # (b_s, 1, seq_len, seq_len)
        if self._is_stateful:
            self.running_mask_self_attention = torch.cat([self.running_mask_self_attention.type_as(mask_self_attention), mask_self_attention], -1)
            mask_self_attention = self.running_mask_self_attention

        seq = torch.arange(1, seq_len + 1).view(1, -1).expand(b_s, -1).to(input.device)  # (b_s, seq_len)
        seq = seq.masked_fill(mask_queries.squeeze(-1) == 0, 0)
        if self._is_stateful:
            self.running_seq.add_(1)
            seq = self.running_seq

        out = self.word_emb(input) + self.pos_emb(seq)
        if self._is_stateful:
            keys = getattr(self, "_keys", None)
            keys = out if keys is None else torch.cat([keys, out], 1)
            self._keys = keys
        else:
            keys = out
        out = self.self_att(out, keys, keys, mask_self_attention)
        return torch.log_softmax(self.fc(out), dim=-1)


torch.manual_seed(0)
decoder = TransformerDecoderLayer(vocab_size=20, max_len=10, padding_idx=0).eval()
captions = torch.tensor([[2, 5, 7, 9, 3, 0, 0], [2, 4, 4, 6, 8, 11, 3]])
'''
CELL = '''
with torch.no_grad():
    log_probs = decoder(captions)                      # teacher forcing
    with decoder.statefulness(2):                      # step-by-step decoding
        decoder._keys = None
        it = captions[:, :1]
        for t in range(3):
            step_log_probs = decoder(it)
            it = step_log_probs[:, -1].argmax(-1, keepdim=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
