"""spikingjelly MemoryModule with a tensor reset value: after `.cuda()` and `reset()` the state comes back on the CPU.

Source: https://github.com/fangwei123456/spikingjelly/pull/743
"`MemoryModule._apply()` moves every tensor in `self._memories` when the module is cast with
`.to()` / `.cuda()` ... but it does not move the tensor reset values in `self._memories_rv`. A
later `reset()` then restores the state from a reset value that is still on the module's old
device": `.cuda()` then `reset()` gives a CPU state and the next forward raises "Expected all
tensors to be on the same device". The PR's reproduction: a `Node(base.MemoryModule)` registering
`self.register_memory("s", torch.zeros(4))` and computing `self.s = self.s + x`. The fix moves the
tensor reset values in `_apply` as well.
Stand-in: base.MemoryModule reduced to register_memory / reset / _apply; the PR's Node.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import copy
import torch
import torch.nn as nn

class MemoryModule(nn.Module):
    def __init__(self):
        super().__init__()
        self._memories = {}
        self._memories_rv = {}

    def register_memory(self, name, value):
        self._memories[name] = value
        self._memories_rv[name] = copy.deepcopy(value)

    def reset(self):
        for key in self._memories.keys():
            self._memories[key] = copy.deepcopy(self._memories_rv[key])

    def __getattr__(self, name):
        if "_memories" in self.__dict__ and name in self.__dict__["_memories"]:
            return self.__dict__["_memories"][name]
        return super().__getattr__(name)

    def __setattr__(self, name, value):
        if "_memories" in self.__dict__ and name in self.__dict__["_memories"]:
            self.__dict__["_memories"][name] = value
        else:
            super().__setattr__(name, value)

    def _apply(self, fn, *args, **kwargs):
        for key, value in self._memories.items():
            if isinstance(value, torch.Tensor):
                self._memories[key] = fn(value)
        return super()._apply(fn, *args, **kwargs)

class Node(MemoryModule):
    def __init__(self):
        super().__init__()
        self.register_memory("s", torch.zeros(4))

    def single_step_forward(self, x):
        self.s = self.s + x
        return self.s

    def forward(self, x):
        return self.single_step_forward(x)

net = Node().to("cuda:0")
x = torch.ones(4, device="cuda:0")
'''
CELL = '''
net.reset()
y = net(x)
print(y.device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                self._memories[key] = fn(value)
""", """                self._memories[key] = fn(value)
        for key, value in self._memories_rv.items():
            if isinstance(value, torch.Tensor):
                self._memories_rv[key] = fn(value)
""")
CLEAN = False
