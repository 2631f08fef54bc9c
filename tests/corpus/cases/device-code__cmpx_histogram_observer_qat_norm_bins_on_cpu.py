"""Quantization-aware training on the GPU with a `HistogramObserver`: the histogram follows the CUDA activations, the bin-edge tensors of the norm computation are made on the CPU.

Source: https://github.com/pytorch/pytorch/issues/59075
"Quantization-aware training: HistogramObserver raises 'tensors to be on the same device' error":
the user's QConfig used `FakeQuantize.with_args(observer=HistogramObserver, ...)` for activations and
trained on the GPU. The observer's histogram is computed from the input activation `x` (on the
GPU), while the other arguments of `_get_norm()` are built on the CPU in
`_compute_quantization_error`; the reporter's suggested fix: create them on the histogram's device
(`.to(self.histogram)`), which is what the observer does in later releases.
Stand-in: a trimmed `HistogramObserver` (histogram buffer, `_get_norm`, the error computation of the
non-linear parameter search) inside a fake-quant activation module of a small model; a GPU batch.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class HistogramObserver(nn.Module):
    def __init__(self, bins=16):
        super().__init__()
        self.bins = bins
        self.register_buffer("histogram", torch.zeros(bins))
        self.register_buffer("min_val", torch.tensor(-1.0))
        self.register_buffer("max_val", torch.tensor(1.0))

    def _get_norm(self, delta_begin, delta_end, density):
        norm = (delta_end * delta_end * delta_end - delta_begin * delta_begin * delta_begin) / 3
        return density * norm

    def _compute_quantization_error(self, next_start_bin, next_end_bin):
        bin_width = (self.max_val - self.min_val) / self.bins
        dst_bin_width = bin_width * (next_end_bin - next_start_bin + 1) / 256
        src_bin = torch.arange(self.bins)
        src_bin_begin = (src_bin - next_start_bin) * bin_width
        delta_begin = src_bin_begin - dst_bin_width / 2
        delta_end = delta_begin + bin_width
        density = self.histogram / bin_width
        return self._get_norm(delta_begin, delta_end, density).sum()

    def forward(self, x):
        x_det = x.detach()
        self.histogram = self.histogram + torch.histc(x_det, self.bins, min=-1.0, max=1.0)
        self.error = self._compute_quantization_error(0, self.bins - 1)
        return x

class FakeQuantize(nn.Module):
    def __init__(self, observer):
        super().__init__()
        self.activation_post_process = observer()

    def forward(self, x):
        self.activation_post_process(x)
        return x

class QATNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = FakeQuantize(HistogramObserver)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(self.quant(x))

model = QATNet().to("cuda:0")
images = torch.randn(16, 8, device="cuda:0")
'''
CELL = '''
output = model(images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.quant.activation_post_process"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("src_bin = torch.arange(self.bins)",
                  "src_bin = torch.arange(self.bins, device=self.histogram.device)")
CLEAN = False
