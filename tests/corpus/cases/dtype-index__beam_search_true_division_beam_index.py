"""Image-captioning beam search computes the beam index with `/`: a float index reaches torch.gather.

Source: https://github.com/luo3300612/image-captioning-DLCT/issues/14
Evaluating the model failed in `beam_search` -> `BeamSearch.iter` -> `model.apply_to_states(
self._expand_state(selected_beam, cur_beam_size))` with "gather_out_cuda(): Expected dtype int64
for index" (today: "gather(): Expected dtype int32/int64 for index"). The reporter found the cause:
`selected_beam = selected_idx / candidate_logprob.shape[-1]` is true division since PyTorch 1.5,
so the beam index is float; floor division (`//`) keeps it int64. Stand-in: the meshed-memory
BeamSearch (aimagelab/meshed-memory-transformer) reduced to its state expansion and a tiny
stateful captioning model.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn

class BeamSearch:
    def __init__(self, model, max_len, beam_size):
        self.model, self.max_len, self.beam_size = model, max_len, beam_size

    def _expand_state(self, selected_beam, cur_beam_size):
        def fn(s):
            shape = [int(sh) for sh in s.shape]
            beam = selected_beam
            for _ in shape[1:]:
                beam = beam.unsqueeze(-1)
            s = torch.gather(s.view(*([self.b_s, cur_beam_size] + shape[1:])), 1,
                             beam.expand(*([self.b_s, self.beam_size] + shape[1:])))
            return s.view(*([-1] + shape[1:]))
        return fn

    def apply(self, visual):
        self.b_s = visual.shape[0]
        self.seq_logprob = torch.zeros((self.b_s, 1, 1))
        self.selected_words = None
        outputs = []
        self.model.init_state(visual)
        for t in range(self.max_len):
            outputs = self.iter(t, outputs)
        return torch.cat(outputs, -1)

    def iter(self, t, outputs):
        cur_beam_size = 1 if t == 0 else self.beam_size
        word_logprob = self.model.step(self.selected_words).view(self.b_s, cur_beam_size, -1)
        candidate_logprob = self.seq_logprob + word_logprob
        selected_logprob, selected_idx = torch.sort(candidate_logprob.view(self.b_s, -1), -1, descending=True)
        selected_logprob, selected_idx = selected_logprob[:, :self.beam_size], selected_idx[:, :self.beam_size]
        selected_beam = selected_idx / candidate_logprob.shape[-1]
        selected_words = selected_idx - selected_beam * candidate_logprob.shape[-1]
        self.model.apply_to_states(self._expand_state(selected_beam, cur_beam_size))
        self.seq_logprob = selected_logprob.unsqueeze(-1)
        outputs = [torch.gather(o, 1, selected_beam.unsqueeze(-1)) for o in outputs]
        outputs.append(selected_words.unsqueeze(-1))
        self.selected_words = selected_words.view(-1, 1)
        return outputs

class CaptioningModel(nn.Module):
    def __init__(self, vocab=20, d=16):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)
        self.running_state = None

    def init_state(self, visual):
        self.running_state = self.proj(visual)

    def step(self, prev_words):
        return torch.log_softmax(self.out(self.running_state), -1)

    def apply_to_states(self, fn):
        self.running_state = fn(self.running_state)

    def beam_search(self, visual, max_len, beam_size):
        return BeamSearch(self, max_len, beam_size).apply(visual)

model = CaptioningModel().eval()
visual = torch.randn(2, 16)
'''
CELL = '''
with torch.no_grad():
    captions = model.beam_search(visual, max_len=5, beam_size=3)
'''
EXPECT_ERROR = "Expected dtype int32/int64 for index"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "selected_beam = selected_idx / candidate_logprob.shape[-1]",
    "selected_beam = selected_idx // candidate_logprob.shape[-1]",
)
CLEAN = False
