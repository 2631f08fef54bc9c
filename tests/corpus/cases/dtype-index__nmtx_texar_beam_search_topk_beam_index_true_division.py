"""texar-pytorch beam search: `topk_beam_index = topk_ids / vocab_size` is a float tensor under true division, and the gather coordinates built from it break `gather_nd`.

Source: https://github.com/asyml/texar-pytorch/issues/327
Running the beam-search decoder failed with "RuntimeError: expected scalar type Long but found
Float"; the reporter pointed at `texar/torch/utils/beam_search.py` line 490 and said it should be
`topk_beam_index = topk_ids // vocab_size`, which is the fix merged in PR #330. Since true division,
`topk_ids / vocab_size` is float, `torch.stack([batch_pos, topk_beam_index])` promotes the coordinates
to float and `gather_nd`'s `index_select` refuses them. Stand-in: texar's `beam_search` with
`gather_nd`/`compute_batch_indices` and `grow_topk` as in that file, run for a fixed number of steps
(the alive/finished bookkeeping left out), and a toy `symbols_to_logits_fn`.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn as nn

def gather_nd(params, indices):
    if not isinstance(params, torch.Tensor):
        return params
    assert len(indices.size()) == 3
    orig_size = params.size()
    index = indices[:, :, 1].view(-1) + indices[:, :, 0].view(-1) * orig_size[1]
    ret = torch.index_select(params.view(-1, *params.size()[2:]), dim=0, index=index)
    ret = ret.view(orig_size[0], indices.size(1), *orig_size[2:])
    return ret

def compute_batch_indices(batch_size, beam_size):
    batch_pos = torch.arange(batch_size)
    batch_pos = batch_pos.view(-1, 1).expand(batch_size, beam_size)
    return batch_pos

def log_prob_from_logits(logits):
    return logits - torch.logsumexp(logits, dim=-1, keepdim=True)

def beam_search(symbols_to_logits_fn, initial_ids, beam_size, decode_length, vocab_size, alpha,
                eos_id, states=None, stop_early=True):
    """Beam search with length penalties (texar.torch.utils.beam_search, alive path only)."""
    batch_size = initial_ids.size(0)
    initial_log_probs = torch.tensor([[0.0] + [-float("inf")] * (beam_size - 1)])
    alive_log_probs = initial_log_probs.repeat(batch_size, 1)
    alive_seq = initial_ids.view(batch_size, 1, 1).repeat(1, beam_size, 1)      # _expand_to_beam_size

    def grow_topk(i, alive_seq, alive_log_probs, states):
        flat_ids = alive_seq.reshape(batch_size * beam_size, -1)
        flat_logits = symbols_to_logits_fn(flat_ids)
        logits = flat_logits.view(batch_size, beam_size, -1)
        candidate_log_probs = log_prob_from_logits(logits)
        log_probs = candidate_log_probs + alive_log_probs.unsqueeze(dim=2)
        length_penalty = ((5.0 + float(i + 1)) / 6.0) ** alpha
        curr_scores = log_probs / length_penalty
        flat_curr_scores = curr_scores.view(-1, beam_size * vocab_size)
        topk_scores, topk_ids = torch.topk(flat_curr_scores, k=beam_size * 2)
        topk_log_probs = topk_scores * length_penalty
        # Work out what beam the top probabilities are in.
        topk_beam_index = topk_ids / vocab_size
        topk_ids %= vocab_size  # Un-flatten the ids
        batch_pos = compute_batch_indices(batch_size, beam_size * 2)
        batch_pos = batch_pos.to(device=topk_beam_index.device)
        topk_coordinates = torch.stack([batch_pos, topk_beam_index], dim=2)
        topk_seq = gather_nd(alive_seq, topk_coordinates)
        topk_seq = torch.cat([topk_seq, topk_ids.unsqueeze(dim=2)], dim=2)
        topk_finished = topk_ids == eos_id
        return topk_seq, topk_log_probs, topk_scores, topk_finished, states

    for i in range(decode_length):
        topk_seq, topk_log_probs, topk_scores, topk_finished, states = grow_topk(
            i, alive_seq, alive_log_probs, states)
        curr_scores = topk_scores + topk_finished.float() * -1e7
        _, top_idx = torch.topk(curr_scores, k=beam_size)
        batch_pos = compute_batch_indices(batch_size, beam_size)
        coords = torch.stack([batch_pos, top_idx], dim=2)
        alive_seq = gather_nd(topk_seq, coords)
        alive_log_probs = gather_nd(topk_log_probs, coords)
    return alive_seq, alive_log_probs

# a trained Transformer decoder's next-token scorer (vocab 30), greedy start tokens for 2 sentences
vocab_size = 30
embedder = nn.Embedding(vocab_size, 16)
output_layer = nn.Linear(16, vocab_size)

def _symbols_to_logits_fn(ids):
    with torch.no_grad():
        return output_layer(embedder(ids).mean(1))

start_tokens = torch.full((2,), 1, dtype=torch.long)
'''
CELL = '''
outputs, log_probs = beam_search(_symbols_to_logits_fn, start_tokens, beam_size=4, decode_length=5,
                                 vocab_size=vocab_size, alpha=0.6, eos_id=2)
'''
EXPECT_ERROR = ("Expected dtype int32 or int64 for index", "expected scalar type Long but found Float")
CULPRITS = ["beam_search"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("topk_beam_index = topk_ids / vocab_size", "topk_beam_index = topk_ids // vocab_size")
CLEAN = False
