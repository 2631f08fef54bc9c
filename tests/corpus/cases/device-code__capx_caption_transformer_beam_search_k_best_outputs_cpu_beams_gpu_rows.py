"""caption-transformer beam search: the beam token buffer `ys` is built on the CPU and `k_best_outputs` indexes it with the GPU `row` indices.

Source: https://github.com/kaylode/caption-transformer/issues/3
'You may meet "RuntimeError: indices should be either on cpu or on the same device as the indexed
tensor (cpu)" in beam_search.k_best_ouputs Function': `init_vars` makes
`ys = torch.zeros(batch_size, k, max_len).long()` with no device, the per-image `ys_k` stays on the
CPU, and `k_best_outputs` does `outputs[:, :i] = outputs[row, :i]` with `row = k_ix // k` from a
`topk` over the GPU scores. The reporter's fix: "add `outputs = outputs.to(device)` at this place"
(in `k_best_outputs`) and make `device` available to the function. Stand-in: `beam_search` from
models/transformer/search.py and `Transformer.predict` (k=3, alpha=0.7) around a toy image-patch
encoder and one-layer decoder; the `[...]` lookups and writes on tensors are written
`select`/`narrow`/`index_select`/`gather`/`index_copy_`, the two writes in `k_best_outputs` as one
out-of-place `torch.cat` (the simulator cannot index or `copy_` into fake GPU tensors, and its
`index_select` reports the mismatch as "Expected all tensors to be on the same device"); `device`,
set in `beam_search`, reaches the nested `k_best_outputs` as a closure variable; the decoder
flattens the `(1, k, N, d)` beam memory, and token ids are returned instead of words
(`.numpy()` and the tokenizer's id-to-word step are left out).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

# --- models/transformer/search.py -----------------------------------------------------------------------
def subsequent_mask(batch_size, size):
    attn_shape = (batch_size, size, size)
    subsequent_mask = np.triu(np.ones(attn_shape), k=1).astype('uint8')
    return torch.from_numpy(subsequent_mask) == 0

def beam_search(model, src, src_mask, tokenizer, src_loc=None, max_len=None, k=5, alpha=0.6):

    def init_vars(model, src_text, src_loc, src_mask, tgt_tokenizer, max_len=64, k=5, device = None):
        batch_size = src_text.shape[0]
        start_symbol = tgt_tokenizer.cls_token_id

        # Encoded inputs
        if src_loc is not None:
            memory = model.encoder(src_text, src_loc)
        else:
            memory = model.encoder(src_text)

        # Result tokens
        ys = torch.ones(batch_size, 1).fill_(start_symbol).long()

        # Target masks
        ys_mask = subsequent_mask(batch_size, ys.size(1)).type_as(src_mask.data)

        # Decoder output
        out = model.decoder(Variable(ys).to(device),
                            memory, src_mask,
                            Variable(ys_mask).to(device))

        # Probability
        prob = model.out(out.select(1, -1))                       # out[:, -1]
        out = F.softmax(prob, dim=-1)
        probs, ix = out.data.topk(k, dim=1)
        log_scores = torch.log(probs)

        # Result beam
        ys = torch.zeros(batch_size, k, max_len).long()
        memorys = torch.zeros(batch_size, k, memory.size(-2),memory.size(-1)).to(device)

        # Copy data to beam
        for index in range(batch_size):
            ys[index, :, 0] = start_symbol
            ys[index, :, 1] = ix.select(0, index).select(0, 0)   # ix[index, 0]
            memorys.index_copy_(0, torch.tensor([index], device=device), memory.select(0, index).expand(1, k, -1, -1))   # memorys[index, :, :] = memory[index]

        return ys, memorys, log_scores

    def k_best_outputs(outputs, out, log_scores, i, k):
        """
        Get best beams by top k
        """

        # Get top k score
        probs, ix = out.data.topk(k, dim=1)
        log_probs = torch.log(probs) + log_scores.transpose(0,1)
        k_probs, k_ix = log_probs.view(-1).topk(k)

        # row and column of scores
        row = k_ix // k
        col = k_ix % k

        # outputs[:, :i] = outputs[row, :i]; outputs[:, i] = ix[row, col]  (written out of place)
        outputs = torch.cat([outputs.index_select(0, row).narrow(1, 0, i),
                             ix.index_select(0, row).gather(1, col.unsqueeze(1)),
                             outputs.narrow(1, i + 1, outputs.shape[1] - i - 1)], dim=1)

        log_scores = k_probs.unsqueeze(0)

        return outputs, log_scores

    # Main function of beam search

    # Initialize variables
    model.eval()
    batch_size = src.shape[0]
    device = next(model.parameters()).device
    if max_len is None:
        max_len = src.shape[-1]

    ys, memorys, log_scores = init_vars(
        model, src, src_loc, src_mask, tokenizer,
        max_len=max_len, k=k, device=device)

    results = []
    for batch_id in range(batch_size):
        # Iterrate through batch
        ys_k = ys[batch_id]
        memorys_k = memorys.select(0, batch_id).unsqueeze(0)
        log_scores_k = log_scores.select(0, batch_id).unsqueeze(0)
        src_mask_k = src_mask.select(0, batch_id).unsqueeze(0)
        for i in range(2, max_len):

            # Target masks
            trg_mask = subsequent_mask(1, i).type_as(src_mask.data)
            out = model.decoder(
                ys_k.narrow(1, 0, i).to(device),
                memorys_k.to(device),
                src_mask_k.to(device),
                trg_mask.to(device))
            prob = model.out(out.select(1, -1))
            out = F.softmax(prob, dim=-1)
            ys_k, log_scores_k = k_best_outputs(ys_k, out, log_scores_k, i, k)

            # Length penalty
            length_penalty = ((5.0 + (i + 1)) / 6.0) ** alpha

            # Flatten probs into a list of possibilities.
            log_scores_k = log_scores_k / length_penalty

        # Only get beam with highest prob
        highest_prob, highest_prob_id = torch.max(log_scores_k, dim=1)
        highest_prob_sent = ys_k.index_select(0, highest_prob_id)
        token_ids_k = highest_prob_sent.detach().cpu()
        results.append(token_ids_k)

    return results

# --- models/transformer/__init__.py (Transformer) at toy size ----------------------------------------------
class Encoder(nn.Module):
    def __init__(self, patch_size=16, d_model=32):
        super().__init__()
        self.patch = nn.Conv2d(3, d_model, patch_size, stride=patch_size)
        self.norm = nn.LayerNorm(d_model)
    def forward(self, src):
        return self.norm(self.patch(src).flatten(2).transpose(1, 2))

class Decoder(nn.Module):
    def __init__(self, vocab, d_model=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.self_qkv = nn.Linear(d_model, 3 * d_model)
        self.cross_q = nn.Linear(d_model, d_model)
        self.cross_kv = nn.Linear(d_model, 2 * d_model)
        self.norm = nn.LayerNorm(d_model)
    def forward(self, trg, e_outputs, src_mask, trg_mask):
        if e_outputs.dim() == 4:                              # (1, k, N, d) beam memory
            e_outputs = e_outputs.flatten(0, 1)
            src_mask = src_mask.flatten(0, 1).expand(e_outputs.shape[0], -1, -1)
        x = self.embed(trg)
        q, kk, v = self.self_qkv(x).chunk(3, dim=-1)
        att = q @ kk.transpose(1, 2) / q.shape[-1] ** 0.5
        att = att + (1.0 - trg_mask.to(att.dtype)) * -10000.0
        x = x + att.softmax(-1) @ v
        ck, cv = self.cross_kv(e_outputs).chunk(2, dim=-1)
        catt = self.cross_q(x) @ ck.transpose(1, 2) / x.shape[-1] ** 0.5
        catt = catt + (1.0 - src_mask.to(catt.dtype)) * -10000.0
        return self.norm(x + catt.softmax(-1) @ cv)

class Transformer(nn.Module):
    def __init__(self, trg_vocab, d_model=32, patch_size=16):
        super().__init__()
        self.name = "Transformer"
        self.encoder = Encoder(patch_size, d_model)
        self.decoder = Decoder(trg_vocab, d_model)
        self.out = nn.Linear(d_model, trg_vocab)

    def predict(self, src_inputs, src_masks, tokenizer, max_len=None, top_k=5, top_p=0.9, temperature=0.9, *args, **kwargs):
        if max_len is None:
            max_len = src_inputs.shape[-1]
        outputs = beam_search(
            self,
            src=src_inputs,
            src_mask=src_masks,
            tokenizer=tokenizer,
            max_len=max_len, k=3, alpha=0.7)
        return outputs

class Tokenizer:                        # AutoTokenizer.from_pretrained(...) (BERT-style special ids)
    cls_token_id = 101
    sep_token_id = 102

# --- the user's inference -----------------------------------------------------------------------------
device = torch.device("cuda:0")
tokenizer = Tokenizer()
model = Transformer(trg_vocab=200).to(device)
images = torch.rand(2, 3, 64, 64).to(device)
masks = torch.ones(2, 1, 16, dtype=torch.bool).to(device)    # one mask entry per image patch
'''
CELL = '''
with torch.no_grad():
    captions = model.predict(images, masks, tokenizer, max_len=6)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["outputs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '''        """
        Get best beams by top k
        """
''',
    '''        """
        Get best beams by top k
        """
        outputs = outputs.to(device)
''',
)
CLEAN = False
