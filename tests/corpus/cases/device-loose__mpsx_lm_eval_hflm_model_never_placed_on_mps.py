"""lm-evaluation-harness HFLM with `device="mps"`: the model is only moved when CUDA GPUs are counted, so it stays on the CPU.

Source: https://github.com/EleutherAI/lm-evaluation-harness/issues/1131
`lm_eval --model hf --device mps` failed with "Placeholder storage has not been allocated on MPS
device!". HFLM sets `self._device = torch.device("mps")` and builds its input batches there, but
places the model with `self.model.to(self.device)` only under a `gpus >= 1` check, and
`gpus = torch.cuda.device_count()` is 0 on a Mac, so `self._model` stays on the CPU (fixed in PR
#1133). Stand-in: HFLM reduced to its device logic, a tiny causal LM and `_model_call`; cuda:0
stands in for mps (the simulation also counts no CUDA GPUs).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=128, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU())
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids):
        return self.lm_head(self.mlp(self.embed_tokens(input_ids)))

class HFLM:
    def __init__(self, pretrained="EleutherAI/pythia-70m", device="cuda", parallelize=False):
        gpus = torch.cuda.device_count()
        self._device = torch.device(device)
        self._model = TinyCausalLM()
        self._model.eval()
        if gpus >= 1 and not parallelize:
            self._model.to(self.device)

    @property
    def device(self):
        return self._device

    @property
    def model(self):
        return self._model

    def _model_call(self, inps):
        with torch.no_grad():
            return self.model(inps)

    def loglikelihood_rolling(self, token_lists):
        inps = torch.tensor(token_lists, dtype=torch.long, device=self.device)
        logits = torch.log_softmax(self._model_call(inps), dim=-1)
        return logits.sum()

lm = HFLM(pretrained="EleutherAI/pythia-70m", device="cuda:0")     # --device mps
requests = [[5, 17, 42, 9, 11, 3], [7, 8, 9, 10, 11, 12]]
'''
CELL = '''
ll = lm.loglikelihood_rolling(requests)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["lm._model"]
FIX = "namespace"
REFERENCE_FIX = '''
lm._model.to(lm.device)
'''
REFERENCE_EDIT = None
CLEAN = False
