"""RSTNet evaluation: `BeamSearch.iter` computes the beam index with `/`, and the float index reaches `torch.gather`.

Source: https://github.com/zhangxuying1004/RSTNet/issues/29
Running `train_transformer.py`, the reporter hit "RuntimeError: gather(): Expected dtype int64
for index" (today: "gather(): Expected dtype int32/int64 for index") when the model is evaluated
with beam search. A later answer gives the cause and fix: with recent PyTorch, the index passed
to the `torch.gather()` calls of `models/beam_search/beam_search.py` must be made integer with
`.long()`; `selected_beam = selected_idx / candidate_logprob.shape[-1]` is a true division, so
`selected_beam` (and `selected_words`) are float.
Stand-in: RSTNet's `BeamSearch` (tensor-visual path, `return_probs=False`), the stateful
`containers.Module` (`register_state`, `statefulness`, `apply_to_states`) and `utils`
helpers; the captioning Transformer is replaced by a tiny stateful model with the same `step`
signature (one `running_seq` state, word embedding plus pooled grid features).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
from contextlib import contextmanager
import torch
from torch import nn
from torch.nn import functional as F


def get_batch_size(x):
    if isinstance(x, torch.Tensor):
        b_s = x.size(0)
    else:
        b_s = x[0].size(0)
    return b_s


def get_device(x):
    if isinstance(x, torch.Tensor):
        b_s = x.device
    else:
        b_s = x[0].device
    return b_s


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

    def apply_to_states(self, fn):
        for name in self._state_names:
            self._buffers[name] = fn(self._buffers[name])
        for m in self.children():
            if isinstance(m, Module):
                m.apply_to_states(fn)

    def _init_states(self, batch_size):
        for name in self._state_names:
            self._buffers[name] = self._state_defaults[name].clone().detach().to(self._buffers[name].device)
            self._buffers[name] = self._buffers[name].unsqueeze(0)
            self._buffers[name] = self._buffers[name].expand([batch_size, ] + list(self._buffers[name].shape[1:]))
            self._buffers[name] = self._buffers[name].contiguous()

    def _reset_states(self):
        for name in self._state_names:
            self._buffers[name] = self._state_defaults[name].clone().detach().to(self._buffers[name].device)

    def enable_statefulness(self, batch_size):
        for m in self.children():
            if isinstance(m, Module):
                m.enable_statefulness(batch_size)
        self._init_states(batch_size)
        self._is_stateful = True

    def disable_statefulness(self):
        for m in self.children():
            if isinstance(m, Module):
                m.disable_statefulness()
        self._reset_states()
        self._is_stateful = False

    @contextmanager
    def statefulness(self, batch_size):
        self.enable_statefulness(batch_size)
        try:
            yield
        finally:
            self.disable_statefulness()


class BeamSearch(object):
    def __init__(self, model, max_len, eos_idx, beam_size):
        self.model = model
        self.max_len = max_len
        self.eos_idx = eos_idx
        self.beam_size = beam_size
        self.b_s = None
        self.device = None
        self.seq_mask = None
        self.seq_logprob = None
        self.outputs = None
        self.log_probs = None
        self.selected_words = None
        self.all_log_probs = None

    def _expand_state(self, selected_beam, cur_beam_size):
        def fn(s):
            shape = [int(sh) for sh in s.shape]
            beam = selected_beam
            for _ in shape[1:]:
                beam = beam.unsqueeze(-1)
            s = torch.gather(s.view(*([self.b_s, cur_beam_size] + shape[1:])), 1,
                             beam.expand(*([self.b_s, self.beam_size] + shape[1:])))
            s = s.view(*([-1, ] + shape[1:]))
            return s

        return fn

    def _expand_visual(self, visual, cur_beam_size, selected_beam):
        visual_shape = visual.shape
        visual_exp_shape = (self.b_s, cur_beam_size) + visual_shape[1:]
        visual_red_shape = (self.b_s * self.beam_size,) + visual_shape[1:]
        selected_beam_red_size = (self.b_s, self.beam_size) + tuple(1 for _ in range(len(visual_exp_shape) - 2))
        selected_beam_exp_size = (self.b_s, self.beam_size) + visual_exp_shape[2:]
        visual_exp = visual.view(visual_exp_shape)
        selected_beam_exp = selected_beam.view(selected_beam_red_size).expand(selected_beam_exp_size)
        visual = torch.gather(visual_exp, 1, selected_beam_exp).view(visual_red_shape)
        return visual

    def apply(self, visual, out_size=1, return_probs=False, **kwargs):
        self.b_s = get_batch_size(visual)
        self.device = get_device(visual)
        self.seq_mask = torch.ones((self.b_s, self.beam_size, 1), device=self.device)
        self.seq_logprob = torch.zeros((self.b_s, 1, 1), device=self.device)
        self.log_probs = []
        self.selected_words = None

        outputs = []
        with self.model.statefulness(self.b_s):
            for t in range(self.max_len):
                visual, outputs = self.iter(t, visual, outputs, return_probs, **kwargs)

        # Sort result
        seq_logprob, sort_idxs = torch.sort(self.seq_logprob, 1, descending=True)
        outputs = torch.cat(outputs, -1)
        outputs = torch.gather(outputs, 1, sort_idxs.expand(self.b_s, self.beam_size, self.max_len))
        log_probs = torch.cat(self.log_probs, -1)
        log_probs = torch.gather(log_probs, 1, sort_idxs.expand(self.b_s, self.beam_size, self.max_len))

        outputs = outputs.contiguous()[:, :out_size]
        log_probs = log_probs.contiguous()[:, :out_size]
        if out_size == 1:
            outputs = outputs.squeeze(1)
            log_probs = log_probs.squeeze(1)
        return outputs, log_probs

    def select(self, t, candidate_logprob, **kwargs):
        selected_logprob, selected_idx = torch.sort(candidate_logprob.view(self.b_s, -1), -1, descending=True)
        selected_logprob, selected_idx = selected_logprob[:, :self.beam_size], selected_idx[:, :self.beam_size]
        return selected_idx, selected_logprob

    def iter(self, t, visual, outputs, return_probs, **kwargs):
        cur_beam_size = 1 if t == 0 else self.beam_size

        word_logprob = self.model.step(t, self.selected_words, visual, None, mode='feedback', **kwargs)
        word_logprob = word_logprob.view(self.b_s, cur_beam_size, -1)
        candidate_logprob = self.seq_logprob + word_logprob

        # Mask sequence if it reaches EOS
        if t > 0:
            mask = (self.selected_words.view(self.b_s, cur_beam_size) != self.eos_idx).float().unsqueeze(-1)
            self.seq_mask = self.seq_mask * mask
            word_logprob = word_logprob * self.seq_mask.expand_as(word_logprob)
            old_seq_logprob = self.seq_logprob.expand_as(candidate_logprob).contiguous()
            old_seq_logprob[:, :, 1:] = -999
            candidate_logprob = self.seq_mask * candidate_logprob + old_seq_logprob * (1 - self.seq_mask)

        selected_idx, selected_logprob = self.select(t, candidate_logprob, **kwargs)
        selected_beam = selected_idx / candidate_logprob.shape[-1]
        selected_words = selected_idx - selected_beam * candidate_logprob.shape[-1]

        self.model.apply_to_states(self._expand_state(selected_beam, cur_beam_size))
        visual = self._expand_visual(visual, cur_beam_size, selected_beam)

        self.seq_logprob = selected_logprob.unsqueeze(-1)
        self.seq_mask = torch.gather(self.seq_mask, 1, selected_beam.unsqueeze(-1))
        outputs = list(torch.gather(o, 1, selected_beam.unsqueeze(-1)) for o in outputs)
        outputs.append(selected_words.unsqueeze(-1))

        this_word_logprob = torch.gather(word_logprob, 1,
                                         selected_beam.unsqueeze(-1).expand(self.b_s, self.beam_size,
                                                                            word_logprob.shape[-1]))
        this_word_logprob = torch.gather(this_word_logprob, 2, selected_words.unsqueeze(-1))
        self.log_probs = list(
            torch.gather(o, 1, selected_beam.unsqueeze(-1).expand(self.b_s, self.beam_size, 1)) for o in self.log_probs)
        self.log_probs.append(this_word_logprob)
        self.selected_words = selected_words.view(-1, 1)

        return visual, outputs


class CaptioningModel(Module):
    def beam_search(self, visual, max_len, eos_idx, beam_size, out_size=1, return_probs=False, **kwargs):
        bs = BeamSearch(self, max_len, eos_idx, beam_size)
        return bs.apply(visual, out_size, return_probs, **kwargs)


class Transformer(CaptioningModel):
    """Tiny stand-in for RSTNet's Transformer: same step() signature, one stateful buffer."""

    def __init__(self, bos_idx, vocab_size=20, d_model=16, d_in=32):
        super().__init__()
        self.bos_idx = bos_idx
        self.proj = nn.Linear(d_in, d_model)
        self.word_emb = nn.Embedding(vocab_size, d_model)
        self.fc = nn.Linear(d_model, vocab_size, bias=False)
        self.register_state('running_seq', torch.zeros((1,)).long())

    def step(self, t, prev_output, visual, seq, mode='teacher_forcing', **kwargs):
        if t == 0:
            it = visual.new_full((visual.shape[0], 1), self.bos_idx).long()
        else:
            it = prev_output
        self.running_seq.add_(1)
        out = self.word_emb(it).squeeze(1) + self.proj(visual).mean(1)
        return F.log_softmax(self.fc(out), dim=-1)


torch.manual_seed(0)
model = Transformer(bos_idx=2).eval()
images = torch.randn(2, 49, 32)
eos_idx = 3
'''
CELL = '''
with torch.no_grad():
    out, _ = model.beam_search(images, 6, eos_idx, 5, out_size=1)
'''
EXPECT_ERROR = "Expected dtype int32/int64 for index"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "selected_beam = selected_idx / candidate_logprob.shape[-1]",
    "selected_beam = (selected_idx / candidate_logprob.shape[-1]).long()",
)
CLEAN = False
