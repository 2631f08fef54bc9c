"""fairseq's SequenceGenerator on cuda:1: the beam bookkeeping tensors are made with `torch.arange` on the CPU and then moved to `src_tokens.device`.

Source: https://github.com/facebookresearch/fairseq/blob/main/fairseq/sequence_generator.py
(`SequenceGenerator._generate`)
Look-alike: `new_order = torch.arange(bsz).view(-1, 1).repeat(1, beam_size).view(-1)` and
`bbsz_offsets = (torch.arange(0, bsz) * beam_size).unsqueeze(1).type_as(tokens)` start on the CPU,
which is what broke generation on a second GPU before (fairseq PR #2989); the current code moves
each of them with `.to(src_tokens.device)` before use, so a model and sample on cuda:1 (not the
default cuda:0) decode fine. Stand-in: `_generate` reduced to its tensor plumbing (encoder reorder,
fixed number of beam steps, no EOS finalisation), a tiny encoder-decoder with `reorder_encoder_out`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class TransformerEncoder(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d, padding_idx=1)
        self.proj = nn.Linear(d, d)

    def forward(self, src_tokens, src_lengths):
        return {"encoder_out": [torch.tanh(self.proj(self.embed_tokens(src_tokens))).transpose(0, 1)]}

    def reorder_encoder_out(self, encoder_out, new_order):
        return {"encoder_out": [encoder_out["encoder_out"][0].index_select(1, new_order)]}

class TransformerDecoder(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d, padding_idx=1)
        self.output_projection = nn.Linear(d, vocab, bias=False)

    def forward(self, prev_output_tokens, encoder_out):
        x = self.embed_tokens(prev_output_tokens[:, -1:]) + encoder_out["encoder_out"][0].mean(0).unsqueeze(1)
        return self.output_projection(x)

class TransformerModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = TransformerEncoder()
        self.decoder = TransformerDecoder()

class SequenceGenerator(nn.Module):
    def __init__(self, model, beam_size=3, max_len=4, eos=2):
        super().__init__()
        self.model = model
        self.beam_size = beam_size
        self.max_len = max_len
        self.eos = eos

    @torch.no_grad()
    def _generate(self, sample):
        net_input = sample["net_input"]
        src_tokens = net_input["src_tokens"]
        bsz, src_len = src_tokens.size()[:2]
        beam_size = self.beam_size
        encoder_outs = self.model.encoder(src_tokens, net_input["src_lengths"])
        # placeholder of indices for bsz * beam_size to hold tokens and accumulative scores
        new_order = torch.arange(bsz).view(-1, 1).repeat(1, beam_size).view(-1)
        new_order = new_order.to(src_tokens.device).long()
        encoder_outs = self.model.encoder.reorder_encoder_out(encoder_outs, new_order)
        scores = torch.zeros(bsz * beam_size, 1).to(src_tokens).float()
        tokens = torch.zeros(bsz * beam_size, 1).to(src_tokens).long().fill_(self.eos)
        cand_size = 2 * beam_size
        # offset arrays for converting between different indexing schemes
        bbsz_offsets = (
            (torch.arange(0, bsz) * beam_size)
            .unsqueeze(1)
            .type_as(tokens)
            .to(src_tokens.device)
        )
        cand_offsets = torch.arange(0, cand_size).type_as(tokens).to(src_tokens.device)
        for step in range(self.max_len):
            lprobs = torch.log_softmax(self.model.decoder(tokens, encoder_outs)[:, -1], -1)
            lprobs = lprobs + scores[:, -1:]
            top = torch.topk(lprobs.view(bsz, -1), k=cand_size)
            cand_scores, cand_indices = top
            cand_beams = torch.div(cand_indices, lprobs.size(-1), rounding_mode="trunc")
            cand_indices = cand_indices.fmod(lprobs.size(-1))
            cand_bbsz_idx = cand_beams.add(bbsz_offsets)
            active_hypos = cand_offsets[:beam_size].repeat(bsz, 1)
            active_bbsz_idx = torch.gather(cand_bbsz_idx, dim=1, index=active_hypos).view(-1)
            tokens = torch.cat([tokens.index_select(0, active_bbsz_idx),
                                torch.gather(cand_indices, 1, active_hypos).view(-1, 1)], 1)
            scores = torch.cat([scores.index_select(0, active_bbsz_idx),
                                torch.gather(cand_scores, 1, active_hypos).view(-1, 1)], 1)
            encoder_outs = self.model.encoder.reorder_encoder_out(encoder_outs, active_bbsz_idx)
        return tokens, scores

# fairseq-generate with the model and the batch on the second GPU (model.cuda(1), move_to_cuda(sample, 1))
device = torch.device("cuda:1")
model = TransformerModel().to(device)
generator = SequenceGenerator(model, beam_size=3)
sample = {"net_input": {"src_tokens": torch.tensor([[7, 9, 4, 2], [5, 8, 2, 1]]).to(device),
                        "src_lengths": torch.tensor([4, 3]).to(device)}}
'''
CELL = '''
hypos, hypo_scores = generator._generate(sample)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
