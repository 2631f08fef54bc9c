"""Look-alike: XLNet builds its relative positional encoding on the CPU inside forward and moves it to the hidden states' device.

Source: https://github.com/huggingface/transformers/pull/44822
"fix: XLNet relative_positional_encoding device placement": `relative_positional_encoding` creates
its `torch.arange` ranges without `device=`, so the sinusoid is computed on the CPU every forward
pass; "only the final result was moved to GPU via `.to(output_h.device)`". A performance issue, not
a failure: the CPU tensors are moved before they meet the GPU activations. Stand-in: XLNetModel
reduced to the word embedding, the relative positional encoding and a projection that uses it.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class XLNetModel(nn.Module):
    def __init__(self, vocab=100, d_model=32, clamp_len=-1, bi_data=False):
        super().__init__()
        self.d_model, self.clamp_len, self.bi_data = d_model, clamp_len, bi_data
        self.word_embedding = nn.Embedding(vocab, d_model)
        self.r_proj = nn.Linear(d_model, d_model, bias=False)

    @staticmethod
    def positional_embedding(pos_seq, inv_freq, bsz=None):
        sinusoid_inp = torch.einsum("i,d->id", pos_seq, inv_freq)
        pos_emb = torch.cat([torch.sin(sinusoid_inp), torch.cos(sinusoid_inp)], dim=-1)
        pos_emb = pos_emb[:, None, :]
        if bsz is not None:
            pos_emb = pos_emb.expand(-1, bsz, -1)
        return pos_emb

    def relative_positional_encoding(self, qlen, klen, bsz=None):
        freq_seq = torch.arange(0, self.d_model, 2.0, dtype=torch.int64).float()
        inv_freq = 1 / torch.pow(10000, (freq_seq / self.d_model))
        beg, end = klen, -qlen
        fwd_pos_seq = torch.arange(beg, end, -1.0, dtype=torch.int64).float()
        if self.clamp_len > 0:
            fwd_pos_seq = fwd_pos_seq.clamp(-self.clamp_len, self.clamp_len)
        return self.positional_embedding(fwd_pos_seq, inv_freq, bsz)

    def forward(self, input_ids):
        input_ids = input_ids.transpose(0, 1).contiguous()
        qlen, bsz = input_ids.shape
        output_h = self.word_embedding(input_ids)
        pos_emb = self.relative_positional_encoding(qlen, qlen, bsz=bsz)
        pos_emb = pos_emb.to(output_h.device)
        return output_h, self.r_proj(pos_emb)

model = XLNetModel().to("cuda:0")
input_ids = torch.randint(0, 100, (2, 9)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    output_h, r = model(input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
