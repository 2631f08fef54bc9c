"""Beam search on a recent PyTorch: `top_score_ids / vocabulary_size` is a float tensor passed to `index_select`.

Source: https://github.com/dreamgonfly/transformer-pytorch/issues/2
"RuntimeError: index_select(): Expected dtype int64 for index" in `beam.py` at
`prev_attention = current_attention.index_select(dim=0, index=prev_k)`: since `/` became true
division, `prev_k = top_score_ids / vocabulary_size` is float. The reporter's fix: "Changing '/' to
'//' in line 60 of beam.py". Stand-in: the repository's `Beam` (constructor and the first
`advance`), with the decoder's log-probabilities and attention for one step.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch

class Beam:
    def __init__(self, beam_size=8, min_length=0, n_top=1, start_token_id=2, end_token_id=3):
        self.beam_size = beam_size
        self.min_length = min_length
        self.end_token_id = end_token_id
        self.top_sentence_ended = False
        self.prev_ks = []
        self.next_ys = [torch.LongTensor(beam_size).fill_(start_token_id)]
        self.current_scores = torch.FloatTensor(beam_size).zero_()
        self.all_scores = []
        self.all_attentions = []
        self.finished = []
        self.n_top = n_top

    def advance(self, next_log_probs, current_attention):
        vocabulary_size = next_log_probs.size(1)
        current_length = len(self.next_ys)
        if current_length < self.min_length:
            for beam_index in range(len(next_log_probs)):
                next_log_probs[beam_index][self.end_token_id] = -1e10
        if len(self.prev_ks) > 0:
            beam_scores = next_log_probs + self.current_scores.unsqueeze(1).expand_as(next_log_probs)
        else:
            beam_scores = next_log_probs[0]
        flat_beam_scores = beam_scores.view(-1)
        top_scores, top_score_ids = flat_beam_scores.topk(k=self.beam_size, dim=0, largest=True, sorted=True)
        self.current_scores = top_scores
        self.all_scores.append(self.current_scores)

        prev_k = top_score_ids / vocabulary_size  # (beam_size, )
        next_y = top_score_ids - prev_k * vocabulary_size  # (beam_size, )
        self.prev_ks.append(prev_k)
        self.next_ys.append(next_y)
        prev_attention = current_attention.index_select(dim=0, index=prev_k)
        self.all_attentions.append(prev_attention)
        for beam_index, last_token_id in enumerate(next_y):
            if last_token_id == self.end_token_id:
                self.finished.append((self.current_scores[beam_index], len(self.next_ys) - 1, beam_index))
        if next_y[0] == self.end_token_id:
            self.top_sentence_ended = True

beam_size, vocab_size, source_len = 4, 50, 9
beam = Beam(beam_size=beam_size, min_length=2)
next_log_probs = torch.log_softmax(torch.randn(beam_size, vocab_size), dim=-1)
current_attention = torch.softmax(torch.randn(beam_size, 1, source_len), dim=-1)
'''
CELL = '''
beam.advance(next_log_probs, current_attention)
'''
EXPECT_ERROR = ("index_select(): Expected dtype int32 or int64 for index",
                "index_select(): Expected dtype int64 for index")
CULPRITS = ["prev_k"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "prev_k = top_score_ids / vocabulary_size",
    "prev_k = top_score_ids // vocabulary_size",
)
CLEAN = False
