"""vLLM sampler: per-request temperatures / top-p / top-k are built as CPU tensors (pinned when possible) and copied to the logits' device before use.

Source: https://github.com/vllm-project/vllm/blob/v0.5.4/vllm/model_executor/sampling_metadata.py
`SamplingTensors.from_lists(...)` creates `temperatures_t = torch.tensor(temperatures, device="cpu",
dtype=dtype, pin_memory=pin_memory)` (same for `top_ps_t`, `top_ks_t`, ...) and returns
`cls(temperatures=temperatures_t.to(device=device, non_blocking=True), ...)`; the sampler then does
`logits.div_(sampling_tensors.temperatures.unsqueeze(dim=1))` and `_apply_top_k_top_p(logits,
sampling_tensors.top_ps, sampling_tensors.top_ks)` on the GPU. Look-alike: CPU-built request
parameters next to cuda logits, copied before use; it runs.
Stand-ins: a trimmed `SamplingTensors` (temperatures, top-p, top-k), `is_pin_memory_available()`
(False here, no CUDA), and vLLM's `_apply_top_k_top_p`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass
import torch

def is_pin_memory_available():
    return torch.cuda.is_available()

@dataclass
class SamplingTensors:
    temperatures: torch.Tensor
    top_ps: torch.Tensor
    top_ks: torch.Tensor

    @classmethod
    def from_lists(cls, temperatures, top_ps, top_ks, device, dtype):
        # Note that the performance will be very bad without pinned memory.
        pin_memory = is_pin_memory_available()
        temperatures_t = torch.tensor(temperatures, device="cpu", dtype=dtype, pin_memory=pin_memory)
        top_ps_t = torch.tensor(top_ps, device="cpu", dtype=dtype, pin_memory=pin_memory)
        top_ks_t = torch.tensor(top_ks, device="cpu", dtype=torch.int, pin_memory=pin_memory)
        return cls(
            temperatures=temperatures_t.to(device=device, non_blocking=True),
            top_ps=top_ps_t.to(device=device, non_blocking=True),
            top_ks=top_ks_t.to(device=device, non_blocking=True),
        )

def _apply_top_k_top_p(logits, p, k):
    logits_sort, logits_idx = logits.sort(dim=-1, descending=False)
    top_k_mask = logits_sort.size(1) - k.to(torch.long)
    top_k_mask = logits_sort.gather(1, top_k_mask.unsqueeze(dim=1))
    top_k_mask = logits_sort < top_k_mask
    logits_sort.masked_fill_(top_k_mask, -float("inf"))
    probs_sort = logits_sort.softmax(dim=-1)
    probs_sum = probs_sort.cumsum(dim=-1)
    top_p_mask = probs_sum <= 1 - p.unsqueeze(dim=1)
    # at least one
    top_p_mask[:, -1] = False
    logits_sort.masked_fill_(top_p_mask, -float("inf"))
    src = torch.arange(logits_idx.shape[-1], device=logits_idx.device).expand_as(logits_idx)
    logits_idx_inv = torch.empty_like(logits_idx).scatter_(dim=-1, index=logits_idx, src=src)
    return torch.gather(logits_sort, dim=-1, index=logits_idx_inv)

device = torch.device("cuda:0")
vocab_size = 128
logits = torch.randn(3, vocab_size, device=device)   # hidden_states -> LogitsProcessor output, on the GPU
temperatures, top_ps, top_ks = [0.7, 1.0, 0.2], [0.9, 1.0, 0.5], [50, vocab_size, 8]
'''
CELL = '''
sampling_tensors = SamplingTensors.from_lists(temperatures, top_ps, top_ks, device=logits.device, dtype=logits.dtype)
logits = logits.div_(sampling_tensors.temperatures.unsqueeze(dim=1))
logits = _apply_top_k_top_p(logits, sampling_tensors.top_ps, sampling_tensors.top_ks)
probs = torch.softmax(logits, dim=-1, dtype=torch.float)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
