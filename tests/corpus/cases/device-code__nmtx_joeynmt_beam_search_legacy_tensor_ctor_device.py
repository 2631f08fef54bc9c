"""JoeyNMT beam search on the GPU: `topk_log_probs` is built with the legacy `torch.Tensor(..., device=...)` constructor, which only makes CPU tensors.

Source: https://github.com/joeynmt/joeynmt/pull/21
"Fixing the bug by beam search with cuda - the expected device matches the given one now": in
`joeynmt/search.py`, `beam_search` gave the first beam full probability with
`torch.Tensor([0.0] + [float("-inf")] * (size - 1), device=encoder_output.device)`; with the model and
the encoder output on CUDA the legacy constructor refuses a cuda device ("legacy constructor expects
device type: cpu but device type: cuda was passed"). The merged fix uses `torch.tensor(...)`.
Stand-in: `beam_search` as in joeynmt 0.0.1 up to its first decoding steps (a fixed number of steps,
no finished-hypothesis bookkeeping, which branches on tensor values), a one-layer recurrent-style
decoder built from Linear layers and the `tile` helper; `topk_ids.div(...)` is written with
`rounding_mode="floor"`, which is what integer `div` did in the torch of that time.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor

def tile(x, count, dim=0):
    """Tiles x on dimension dim count times (joeynmt.helpers.tile)."""
    perm = list(range(len(x.size())))
    if dim != 0:
        perm[0], perm[dim] = perm[dim], perm[0]
        x = x.permute(perm).contiguous()
    out_size = list(x.size())
    out_size[0] *= count
    batch = x.size(0)
    x = x.view(batch, -1).transpose(0, 1).repeat(count, 1).transpose(0, 1).contiguous().view(*out_size)
    if dim != 0:
        x = x.permute(perm).contiguous()
    return x

class RecurrentDecoder(nn.Module):
    """Stand-in for joeynmt.decoders.RecurrentDecoder (one step of a bridge + attention decoder)."""
    def __init__(self, emb_size=16, hidden_size=32, trg_vocab=40):
        super().__init__()
        self.bridge_layer = nn.Linear(hidden_size, hidden_size)
        self.rnn_in = nn.Linear(emb_size + hidden_size, hidden_size)
        self.att = nn.Linear(hidden_size, hidden_size, bias=False)
        self.output_layer = nn.Linear(hidden_size, trg_vocab, bias=False)
        self.output_size = trg_vocab

    def _init_hidden(self, encoder_final):
        return torch.tanh(self.bridge_layer(encoder_final)).unsqueeze(0)

    def forward(self, trg_embed, encoder_output, encoder_hidden, src_mask, unrol_steps, hidden=None,
                prev_att_vector=None):
        h = torch.tanh(self.rnn_in(torch.cat([trg_embed.squeeze(1), hidden[-1]], -1)))
        scores = torch.bmm(encoder_output, self.att(h).unsqueeze(2)).squeeze(2)
        scores = scores.masked_fill(src_mask.squeeze(1).logical_not(), float("-inf"))
        context = torch.bmm(F.softmax(scores, -1).unsqueeze(1), encoder_output).squeeze(1)
        att_vector = torch.tanh(h + context)
        out = self.output_layer(att_vector).unsqueeze(1)
        return out, h.unsqueeze(0), scores, att_vector

def beam_search(decoder, size, bos_index, eos_index, pad_index, encoder_output, encoder_hidden,
                src_mask, max_output_length, alpha, embed, n_best=1):
    """Beam search with size k. Follows OpenNMT-py implementation."""
    batch_size = src_mask.size(0)
    hidden = decoder._init_hidden(encoder_hidden)
    hidden = tile(hidden, size, dim=1)
    att_vectors = None
    encoder_output = tile(encoder_output.contiguous(), size, dim=0)
    src_mask = tile(src_mask, size, dim=0)

    batch_offset = torch.arange(batch_size, dtype=torch.long, device=encoder_output.device)
    beam_offset = torch.arange(0, batch_size * size, step=size, dtype=torch.long,
                               device=encoder_output.device)
    alive_seq = torch.full([batch_size * size, 1], bos_index, dtype=torch.long,
                           device=encoder_output.device)

    # Give full probability to the first beam on the first step.
    topk_log_probs = (torch.Tensor([0.0] + [float("-inf")] * (size - 1),
                                   device=encoder_output.device).repeat(batch_size))

    for step in range(max_output_length):
        decoder_input = alive_seq[:, -1].view(-1, 1)
        out, hidden, att_scores, att_vectors = decoder(
            encoder_output=encoder_output, encoder_hidden=encoder_hidden, src_mask=src_mask,
            trg_embed=embed(decoder_input), hidden=hidden, prev_att_vector=att_vectors,
            unrol_steps=1)
        log_probs = F.log_softmax(out, dim=-1).squeeze(1)
        log_probs = log_probs + topk_log_probs.view(-1).unsqueeze(1)
        curr_scores = log_probs
        if alpha > -1:
            length_penalty = ((5.0 + (step + 1)) / 6.0) ** alpha
            curr_scores = curr_scores / length_penalty
        curr_scores = curr_scores.reshape(-1, size * decoder.output_size)
        topk_scores, topk_ids = curr_scores.topk(size, dim=-1)
        if alpha > -1:
            topk_log_probs = topk_scores * length_penalty
        topk_beam_index = topk_ids.div(decoder.output_size, rounding_mode="floor")
        topk_ids = topk_ids.fmod(decoder.output_size)
        batch_index = topk_beam_index + beam_offset[:topk_beam_index.size(0)].unsqueeze(1)
        select_indices = batch_index.view(-1)
        alive_seq = torch.cat([alive_seq.index_select(0, select_indices), topk_ids.view(-1, 1)], -1)
        hidden = hidden.index_select(1, select_indices)
    return alive_seq

# a trained joeynmt model's parts, loaded for `python -m joeynmt test` with use_cuda: True
device = torch.device("cuda:0")
trg_embed = nn.Embedding(40, 16, padding_idx=1).to(device)
decoder = RecurrentDecoder().to(device)
encoder_output = torch.randn(2, 6, 32).to(device)     # batch x src_len x 2*hidden (bi-GRU)
encoder_hidden = torch.randn(2, 32).to(device)
src_mask = torch.ones(2, 1, 6, dtype=torch.bool).to(device)
'''
CELL = '''
stacked_output = beam_search(decoder=decoder, size=5, bos_index=2, eos_index=3, pad_index=1,
                             encoder_output=encoder_output, encoder_hidden=encoder_hidden,
                             src_mask=src_mask, max_output_length=4, alpha=1.0, embed=trg_embed)
'''
EXPECT_ERROR = "legacy constructor expects device type: cpu"
CULPRITS = ["beam_search"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("topk_log_probs = (torch.Tensor([0.0]", "topk_log_probs = (torch.tensor([0.0]")
CLEAN = False
