"""ignite.metrics.SSIM updated with float64 images: its Gaussian kernel is built once in the default float32 dtype.

Source: https://github.com/pytorch/ignite/pull/3034
"Fix: change the dtype of self._kernel when input args have a different dtype": if `y_pred`/`y`
are not of torch's default dtype (float64 here), `F.conv2d` in `SSIM.update` fails because
`self._kernel` is made by `_gaussian_or_uniform_kernel` in the default dtype and `update` only
moves it to the images' device. The fix casts the kernel to `y_pred.dtype` in `update` before the
convolution. Stand-in: ignite's SSIM as of 0.4.12 with a minimal `Metric` base (no engine
attachment, no distributed reduction); CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn.functional as F

class Metric:                                   # stand-in for ignite.metrics.Metric
    def __init__(self, output_transform=lambda x: x, device=torch.device("cpu")):
        self._output_transform = output_transform
        self._device = torch.device(device)
        self.reset()

class SSIM(Metric):
    def __init__(self, data_range, kernel_size=(11, 11), sigma=(1.5, 1.5), k1=0.01, k2=0.03,
                 gaussian=True, output_transform=lambda x: x, device=torch.device("cpu")):
        self.kernel_size = [kernel_size, kernel_size] if isinstance(kernel_size, int) else kernel_size
        self.sigma = [sigma, sigma] if isinstance(sigma, float) else sigma
        self.gaussian = gaussian
        super().__init__(output_transform=output_transform, device=device)
        self.c1 = (k1 * data_range) ** 2
        self.c2 = (k2 * data_range) ** 2
        self.pad_h = (self.kernel_size[0] - 1) // 2
        self.pad_w = (self.kernel_size[1] - 1) // 2
        self._kernel = self._gaussian_or_uniform_kernel(kernel_size=self.kernel_size, sigma=self.sigma)

    def reset(self):
        self._sum_of_ssim = torch.tensor(0.0, dtype=torch.float64, device=self._device)
        self._num_examples = 0
        self._kernel = self._gaussian_or_uniform_kernel(kernel_size=self.kernel_size, sigma=self.sigma)

    def _gaussian(self, kernel_size, sigma):
        ksize_half = (kernel_size - 1) * 0.5
        kernel = torch.linspace(-ksize_half, ksize_half, steps=kernel_size, device=self._device)
        gauss = torch.exp(-0.5 * (kernel / sigma).pow(2))
        return (gauss / gauss.sum()).unsqueeze(dim=0)  # (1, kernel_size)

    def _gaussian_or_uniform_kernel(self, kernel_size, sigma):
        kernel_x = self._gaussian(kernel_size[0], sigma[0])
        kernel_y = self._gaussian(kernel_size[1], sigma[1])
        return torch.matmul(kernel_x.t(), kernel_y)  # (kernel_size, 1) * (1, kernel_size)

    def update(self, output):
        y_pred, y = output[0].detach(), output[1].detach()
        if y_pred.dtype != y.dtype:
            raise TypeError(
                f"Expected y_pred and y to have the same data type. Got y_pred: {y_pred.dtype} and y: {y.dtype}."
            )
        channel = y_pred.size(1)
        if len(self._kernel.shape) < 4:
            self._kernel = self._kernel.expand(channel, 1, -1, -1).to(device=y_pred.device)

        y_pred = F.pad(y_pred, [self.pad_w, self.pad_w, self.pad_h, self.pad_h], mode="reflect")
        y = F.pad(y, [self.pad_w, self.pad_w, self.pad_h, self.pad_h], mode="reflect")

        input_list = [y_pred, y, y_pred * y_pred, y * y, y_pred * y]
        outputs = F.conv2d(torch.cat(input_list), self._kernel, groups=channel)
        batch_size = y_pred.size(0)
        output_list = [outputs[x * batch_size : (x + 1) * batch_size] for x in range(len(input_list))]
        mu_pred_sq = output_list[0].pow(2)
        mu_target_sq = output_list[1].pow(2)
        mu_pred_target = output_list[0] * output_list[1]
        sigma_pred_sq = output_list[2] - mu_pred_sq
        sigma_target_sq = output_list[3] - mu_target_sq
        sigma_pred_target = output_list[4] - mu_pred_target
        a1 = 2 * mu_pred_target + self.c1
        a2 = 2 * sigma_pred_target + self.c2
        b1 = mu_pred_sq + mu_target_sq + self.c1
        b2 = sigma_pred_sq + sigma_target_sq + self.c2
        ssim_idx = (a1 * a2) / (b1 * b2)
        self._sum_of_ssim += torch.mean(ssim_idx, (1, 2, 3), dtype=torch.float64).sum().to(self._device)
        self._num_examples += y.shape[0]

    def compute(self):
        return (self._sum_of_ssim / self._num_examples).item()

y_pred = torch.rand(4, 3, 32, 32, dtype=torch.float64)
y = y_pred * 0.8
ssim = SSIM(data_range=1.0, sigma=1.5)
'''
CELL = '''
ssim.update((y_pred, y))
print(ssim.compute())
'''
EXPECT_ERROR = ("expected scalar type Double but found Float", "should be the same")
CULPRITS = ["ssim"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        y = F.pad(y, [self.pad_w, self.pad_w, self.pad_h, self.pad_h], mode="reflect")
''', '''        y = F.pad(y, [self.pad_w, self.pad_w, self.pad_h, self.pad_h], mode="reflect")

        if y_pred.dtype != self._kernel.dtype:
            self._kernel = self._kernel.to(dtype=y_pred.dtype)
''')
CLEAN = False
