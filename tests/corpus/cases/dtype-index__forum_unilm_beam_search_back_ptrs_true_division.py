"""UniLM seq2seq beam search: `back_ptrs = torch.div(k_ids, K)` is now a float tensor fed to gather.

Source: https://github.com/YunwenTechnology/Unilm/issues/30
Decoding with the repo's modeling_unilm.py on a recent PyTorch raised "RuntimeError: gather():
Expected dtype int64 for index". The reporter's working fix: "in modeling_unilm.py, add
`back_ptrs = back_ptrs.type(torch.int64)` before `step_back_ptrs.append(back_ptrs)`":
`torch.div` on two integer tensors became true division (float), and the beam pointers go into
`torch.gather` in `select_beam_items`. Stand-in: the repo's beam_search loop (topk, back pointers,
first_expand/select_beam_items) over a toy embedding+linear decoder instead of the BERT stack.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class UnilmForSeq2SeqDecode(nn.Module):
    def __init__(self, vocab_size=50, hidden=16, beam_size=3, eos_id=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.cls = nn.Linear(hidden, vocab_size)
        self.beam_size = beam_size
        self.eos_id = eos_id

    def beam_search(self, input_ids, max_steps=3):
        batch_size = input_ids.size(0)
        K = self.beam_size
        total_scores, beam_masks, step_ids, step_back_ptrs = [], [], [], []
        prev_embedding = None
        curr_ids = input_ids[:, -1:]

        def first_expand(x):
            input_shape = list(x.size())
            expanded_shape = input_shape[:1] + [1] + input_shape[1:]
            x = torch.reshape(x, expanded_shape)
            repeat_count = [1, K] + [1] * (len(input_shape) - 1)
            x = x.repeat(*repeat_count)
            x = torch.reshape(x, [input_shape[0] * K] + input_shape[1:])
            return x

        def select_beam_items(x, ids):
            id_shape = list(ids.size())
            id_rank = len(id_shape)
            assert len(id_shape) == 2
            x_shape = list(x.size())
            x = torch.reshape(x, [batch_size, K] + x_shape[1:])
            x_rank = len(x_shape) + 1
            assert x_rank >= 2
            if id_rank < x_rank:
                ids = torch.reshape(ids, id_shape + [1] * (x_rank - id_rank))
                ids = ids.expand(id_shape + x_shape[1:])
            y = torch.gather(x, 1, ids)
            y = torch.reshape(y, x_shape)
            return y

        for _ in range(max_steps):
            new_embedding = self.embeddings(curr_ids)
            prediction_scores = self.cls(new_embedding[:, -1:, :])
            log_scores = F.log_softmax(prediction_scores, dim=-1)
            if len(total_scores) > 0:
                log_scores = torch.reshape(log_scores, [batch_size, K, -1])
            kk_scores, kk_ids = torch.topk(log_scores, k=K)
            if len(total_scores) == 0:
                k_ids = torch.reshape(kk_ids, [batch_size, K])
                back_ptrs = torch.zeros(batch_size, K, dtype=torch.long)
                k_scores = torch.reshape(kk_scores, [batch_size, K])
            else:
                last_eos = torch.reshape(beam_masks[-1], [batch_size, K, 1])
                last_seq_scores = torch.reshape(total_scores[-1], [batch_size, K, 1])
                kk_scores += last_eos * (-10000.0) + last_seq_scores
                kk_scores = torch.reshape(kk_scores, [batch_size, K * K])
                k_scores, k_ids = torch.topk(kk_scores, k=K)
                back_ptrs = torch.div(k_ids, K)
                kk_ids = torch.reshape(kk_ids, [batch_size, K * K])
                k_ids = torch.gather(kk_ids, 1, k_ids)
            step_back_ptrs.append(back_ptrs)
            step_ids.append(k_ids)
            beam_masks.append(torch.eq(k_ids, self.eos_id).float())
            total_scores.append(k_scores)

            if prev_embedding is None:
                prev_embedding = first_expand(new_embedding)
            else:
                prev_embedding = torch.cat((prev_embedding, new_embedding), dim=1)
                prev_embedding = select_beam_items(prev_embedding, back_ptrs)
            curr_ids = torch.reshape(k_ids, [batch_size * K, 1])
        return step_ids, step_back_ptrs

model = UnilmForSeq2SeqDecode().eval()
input_ids = torch.randint(3, 50, (2, 7))
'''
CELL = '''
with torch.no_grad():
    traces = model.beam_search(input_ids)
'''
EXPECT_ERROR = ("Expected dtype int32/int64 for index", "Expected dtype int64 for index")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "                back_ptrs = torch.div(k_ids, K)\n",
    "                back_ptrs = torch.div(k_ids, K)\n                back_ptrs = back_ptrs.type(torch.int64)\n",
)
CLEAN = False
