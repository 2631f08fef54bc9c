"""Look-alike: mixtral-offloading's ExpertCache keeps most experts as CPU storages and copies them into GPU buffer modules on demand.

Source: https://github.com/dvmazur/mixtral-offloading/blob/master/src/expert_cache.py
`ExpertCache` holds `main_modules` (experts resident on the GPU), `offloaded_storages` (pinned CPU
storages) and spare `device_expert_buffers`; `load_experts(*uids)` yields resident experts directly and,
for an offloaded one, `_swap` copies its CPU storage into a free GPU buffer with `copy_(...,
non_blocking=True)` while the evicted expert's weights are copied back into a CPU buffer. The MoE block
then runs only GPU modules. Expert weights on the CPU beside a cuda model, by design.
Stand-in: experts as modules over one flat `storage` tensor (the library's MixtralExpertWrapper views an
UntypedStorage), CPU storages without pinning and the storage copies as `.to()` re-assignments of
`.data`, one eviction group, and a dense weighted expert mix in the
MoE block instead of the top-2 gather.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict, deque
from dataclasses import dataclass
import torch
from torch import nn
import torch.nn.functional as F

HIDDEN, FFN = 16, 32

class MixtralExpertWrapper(nn.Module):
    def __init__(self, device="cpu"):
        super().__init__()
        self.storage = nn.Parameter(torch.randn(3 * HIDDEN * FFN) * 0.05, requires_grad=False)

    def forward(self, x):
        w1, w3, w2 = self.storage.split(HIDDEN * FFN)
        w1, w3, w2 = w1.view(FFN, HIDDEN), w3.view(FFN, HIDDEN), w2.view(HIDDEN, FFN)
        return F.linear(F.silu(F.linear(x, w1)) * F.linear(x, w3), w2)

@dataclass
class ExpertInfo:
    uid: int
    offloaded: bool
    index: int

class ExpertCache:
    def __init__(self, make_module, main_size, offload_size, buffer_size, device):
        self.main_modules = [make_module().to(device) for _ in range(main_size)]
        self.main_infos = [None] * main_size
        self.offloaded_storages = [torch.zeros(3 * HIDDEN * FFN) for _ in range(offload_size)]
        self.offloaded_infos = [None] * offload_size
        self.device_expert_buffers = deque([make_module().to(device) for _ in range(buffer_size)])
        self.offloaded_storage_buffers = deque([torch.zeros(3 * HIDDEN * FFN) for _ in range(buffer_size)])
        self.registered_experts = {}
        self.device = device
        self.lru = OrderedDict()

    def add_expert(self, uid, module, offload=None):
        if not offload:
            for i in range(len(self.main_modules)):
                if self.main_infos[i] is None:
                    self.main_modules[i].storage.data = module.storage.data.to(self.device)
                    self.registered_experts[uid] = self.main_infos[i] = ExpertInfo(uid, False, i)
                    self.lru[uid] = True
                    return
        for i in range(len(self.offloaded_storages)):
            if self.offloaded_infos[i] is None:
                self.offloaded_storages[i].copy_(module.storage.data)
                self.registered_experts[uid] = self.offloaded_infos[i] = ExpertInfo(uid, True, i)
                return
        raise ValueError("Cache is full")

    def _swap(self, info_to_load, info_to_evict):
        offloaded_storage_buffer = self.offloaded_storage_buffers.popleft()
        device_expert_buffer = self.device_expert_buffers.popleft()
        device_expert_buffer.storage.data = self.offloaded_storages[info_to_load.index].to(self.device, non_blocking=True)
        offloaded_storage_buffer = self.main_modules[info_to_evict.index].storage.data.to("cpu")
        self.device_expert_buffers.append(self.main_modules[info_to_evict.index])
        self.main_modules[info_to_evict.index] = device_expert_buffer
        self.offloaded_storage_buffers.append(self.offloaded_storages[info_to_load.index])
        self.offloaded_storages[info_to_load.index] = offloaded_storage_buffer
        self.main_infos[info_to_evict.index] = info_to_load
        self.offloaded_infos[info_to_load.index] = info_to_evict
        info_to_evict.offloaded, info_to_load.offloaded = True, False
        info_to_evict.index, info_to_load.index = info_to_load.index, info_to_evict.index
        self.lru.pop(info_to_evict.uid)
        self.lru[info_to_load.uid] = True
        return device_expert_buffer

    def load_experts(self, *uids, unordered=False):
        if unordered:
            uids = sorted(uids, key=lambda uid: self.registered_experts[uid].offloaded)
        for uid in uids:
            info = self.registered_experts[uid]
            if not info.offloaded:
                self.lru.move_to_end(uid)
                yield uid, self.main_modules[info.index]
            else:
                victim = self.registered_experts[next(iter(self.lru))]      # least recently used
                yield uid, self._swap(info, victim)

class SparseMoeWrapper(nn.Module):
    def __init__(self, gate, experts):
        super().__init__()
        self.gate = gate
        self.experts = experts          # an ExpertCache, not a Module

    def forward(self, hidden_states):
        b, s, h = hidden_states.shape
        x = hidden_states.view(-1, h)
        routing_weights = F.softmax(self.gate(x), dim=1, dtype=torch.float)
        out = torch.zeros_like(x)
        for uid, expert in self.experts.load_experts(0, 1, 2, 3, unordered=True):
            out = out + expert(x) * routing_weights[:, uid:uid + 1].to(x.dtype)
        return out.view(b, s, h)

cache = ExpertCache(MixtralExpertWrapper, main_size=2, offload_size=4, buffer_size=2, device="cuda:0")
for uid in range(6):
    cache.add_expert(uid, MixtralExpertWrapper(), offload=uid >= 2)
moe_block = SparseMoeWrapper(nn.Linear(HIDDEN, 6, bias=False).to("cuda:0"), cache)
hidden_states = torch.randn(2, 5, HIDDEN).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    out = moe_block(hidden_states)
print(out.device, [m.storage.device for m in cache.main_modules], cache.offloaded_storages[0].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
