"""PPQ post-training quantization on the GPU: the calibration batches reach the executor still on the CPU.

Source: https://github.com/OpenPPL/ppq/issues/261
Calibration failed in PPQ's `Conv_forward` -> `ASSERT_ALL_TENSORS_AT_SAME_DEVICE` with "Input tensors
do not share a same device. (['cpu', 'cuda', 'cuda'])": the graph's weight and bias were on the
executing device, the calibration input was not. PPQ leaves moving the batches to the user's
`collate_fn` (its examples use `collate_fn=lambda x: x.to(EXECUTING_DEVICE)`); here the batches
were passed through unchanged. Stand-in: PPQ's TorchExecutor reduced to a Conv/ReLU/Gemm graph with
its device assertion.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn.functional as F

def ASSERT_ALL_TENSORS_AT_SAME_DEVICE(op, values):
    devices = [str(v.device.type) for v in values]
    if len(set(devices)) > 1:
        raise ValueError(f"Input tensors do not share a same device. ({devices})")

class TorchExecutor:
    """Stand-in for ppq.executor.TorchExecutor running an imported graph."""
    def __init__(self, params, device):
        self.params = {k: v.to(device) for k, v in params.items()}

    def forward(self, inputs):
        x = inputs
        values = [x, self.params["conv.w"], self.params["conv.b"]]
        ASSERT_ALL_TENSORS_AT_SAME_DEVICE("Conv", values)
        x = F.relu(F.conv2d(*values, padding=1))
        x = x.mean(dim=(2, 3))
        values = [x, self.params["fc.w"], self.params["fc.b"]]
        ASSERT_ALL_TENSORS_AT_SAME_DEVICE("Gemm", values)
        return F.linear(*values)

EXECUTING_DEVICE = "cuda:0"
graph_params = {"conv.w": torch.randn(8, 3, 3, 3), "conv.b": torch.zeros(8),
                "fc.w": torch.randn(10, 8), "fc.b": torch.zeros(10)}
executor = TorchExecutor(graph_params, EXECUTING_DEVICE)
calibration_dataloader = [torch.randn(1, 3, 32, 32) for _ in range(4)]
collate_fn = lambda x: x
'''
CELL = '''
for batch in calibration_dataloader:
    outputs = executor.forward(inputs=collate_fn(batch))
'''
EXPECT_ERROR = "Input tensors do not share a same device"
CULPRITS = ["calibration_dataloader"]
FIX = "namespace"
REFERENCE_FIX = '''
collate_fn = lambda x: x.to(EXECUTING_DEVICE)
'''
REFERENCE_EDIT = None
CLEAN = False
