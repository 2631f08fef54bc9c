"""Look-alike: the FSDP checkpoint handler gathers a FULL_STATE_DICT with `offload_to_cpu=True`, so `cpu_state` holds CPU tensors while the training model stays on the GPU; it is loaded into a CPU copy for export.

Source: https://github.com/pytorch/examples/blob/main/distributed/FSDP/model_checkpointing/checkpoint_handler.py
`save_model_checkpoint`: `fullstate_save_policy = FullStateDictConfig(offload_to_cpu=True,
rank0_only=True)`, `with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, fullstate_save_policy):
cpu_state = model.state_dict()`, then rank 0 saves `cpu_state`. Every tensor of the state dict is on
the CPU on purpose (to not hold the full model in GPU memory); loading it into a model built on the CPU
(for export or evaluation) is consistent.
Stand-ins: a small transformer-ish block for the T5 model; FSDP as a holder of the GPU module whose
`state_dict()` under the FULL_STATE_DICT/offload_to_cpu policy returns CPU copies; the state dict is
loaded into a fresh CPU model instead of written to disk.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import contextlib
import torch
import torch.nn as nn

class StateDictType:
    FULL_STATE_DICT = "FULL_STATE_DICT"

class FullStateDictConfig:
    def __init__(self, offload_to_cpu=False, rank0_only=False):
        self.offload_to_cpu, self.rank0_only = offload_to_cpu, rank0_only

class FSDP(nn.Module):
    # stand-in: holds the module on the compute device; full state dict gathered per the policy
    def __init__(self, module, device_id):
        super().__init__()
        self.module = module.to(torch.device("cuda", device_id))
        self._sd_config = None

    @staticmethod
    @contextlib.contextmanager
    def state_dict_type(model, state_dict_type, config):
        model._sd_config = config
        try:
            yield
        finally:
            model._sd_config = None

    def state_dict(self, *args, **kwargs):
        sd = self.module.state_dict()
        if self._sd_config is not None and self._sd_config.offload_to_cpu:
            sd = {k: v.detach().cpu() for k, v in sd.items()}
        return sd

class Block(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))
    def forward(self, x):
        return x + self.ff(self.norm(x))

rank = 0
model = FSDP(Block(), device_id=rank)
fullstate_save_policy = FullStateDictConfig(offload_to_cpu=True, rank0_only=True)
'''
CELL = '''
with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, fullstate_save_policy):
    cpu_state = model.state_dict()
export_model = Block()
export_model.load_state_dict(cpu_state)
with torch.no_grad():
    y = export_model(torch.randn(2, 5, 32))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
