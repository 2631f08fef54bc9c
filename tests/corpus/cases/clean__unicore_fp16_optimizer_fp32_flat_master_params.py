"""Look-alike: Uni-Core's FP16Optimizer keeps a float32 flat master copy of a half model and syncs grads and weights by copy.

Source: https://github.com/dptech-corp/Uni-Core/blob/main/unicore/optim/fp16_optimizer.py
`build_fp32_params` allocates `fp32_params = params[0].new(0).float().new_zeros(total)` and copies
each fp16 parameter into it; the wrapped fp32 optimizer steps on that flat float32 Parameter;
`_sync_fp16_grads_to_fp32` copies the half grads into the fp32 grad buffer (`copy_` casts) and
`_sync_fp32_params_to_fp16` copies the updated float32 values back into the half parameters. A
float32 optimizer over a float16 model, by design. Stand-in: the mixin's build/sync/step with
Adam as the fp32 optimizer (no loss scaler); run on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class FP16Optimizer:
    def __init__(self, params, lr=1e-3):
        self.fp16_params = list(params)
        self.fp32_params = self.build_fp32_params(self.fp16_params)
        self.fp32_optimizer = torch.optim.Adam([self.fp32_params], lr=lr)

    @staticmethod
    def build_fp32_params(params):
        total_param_size = sum(p.data.numel() for p in params)
        fp32_params = params[0].new(0).float().new_zeros(total_param_size)
        offset = 0
        for p in params:
            numel = p.data.numel()
            fp32_params[offset:offset + numel].copy_(p.data.view(-1))
            offset += numel
        fp32_params = torch.nn.Parameter(fp32_params)
        fp32_params.grad = fp32_params.data.new(total_param_size)
        return fp32_params

    def _sync_fp16_grads_to_fp32(self):
        with torch.no_grad():
            offset = 0
            for p in self.fp16_params:
                numel = p.numel()
                self.fp32_params.grad.data[offset:offset + numel].copy_(p.grad.data.view(-1))
                offset += numel

    def _sync_fp32_params_to_fp16(self):
        offset = 0
        for p in self.fp16_params:
            numel = p.numel()
            p.data.copy_(self.fp32_params.data[offset:offset + numel].view_as(p.data))
            offset += numel

    def step(self):
        self._sync_fp16_grads_to_fp32()
        self.fp32_optimizer.step()
        self._sync_fp32_params_to_fp16()

model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4)).half()   # --fp16
optimizer = FP16Optimizer(model.parameters(), lr=1e-3)
x = torch.randn(8, 16).half()
loss = model(x).float().pow(2).mean()
loss.backward()
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
