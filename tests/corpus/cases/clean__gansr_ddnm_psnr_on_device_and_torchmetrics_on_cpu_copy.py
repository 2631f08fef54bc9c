"""Look-alike: DDNM super-resolution evaluation computes PSNR on the GPU and again with a CPU metric on CPU copies.

Source: https://github.com/wyhuai/DDNM/issues/42
DDNM's restoration loop keeps the sampled images on the CPU (`x`) and the ground truth `orig` on the
device; its own PSNR moves the sample back (`mse = torch.mean((x[0].to(self.device) - orig) ** 2)`),
and the reporter compared it with torchmetrics' `PeakSignalNoiseRatio()` called as
`psnr_calculator(x[0], orig.cpu())`, i.e. on CPU copies. Both computations mix devices deliberately
and run; the thread is about the 0.03 dB difference (data range), not an error. The diffusion sampler
and torchmetrics' class are small stand-ins.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class PeakSignalNoiseRatio:          # torchmetrics.PeakSignalNoiseRatio (data_range inferred from target)
    def __call__(self, preds, target):
        data_range = target.max() - target.min()
        mse = torch.mean((preds - target) ** 2)
        return 10 * torch.log10(data_range ** 2 / mse)

class Diffusion:
    def __init__(self, device):
        self.device = device
    def sample(self, y):
        x0 = torch.nn.functional.interpolate(y, scale_factor=4, mode="nearest").clamp(0, 1)
        return [x0.to("cpu")]          # the sampler returns its images on the CPU

runner = Diffusion(torch.device("cuda:0"))
orig = torch.rand(1, 3, 32, 32).to(runner.device)       # ground truth on the device
y = torch.nn.functional.avg_pool2d(orig, 4)            # sr_averagepooling degradation
x = runner.sample(y)
psnr_calculator = PeakSignalNoiseRatio()
'''
CELL = '''
mse = torch.mean((x[0].to(runner.device) - orig) ** 2)
psnr = 10 * torch.log10(1 / mse)
psnr_tm = psnr_calculator(x[0], orig.cpu())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
