"""DeepTrack2 Gaussian noise feature on a CUDA image tensor: the noise is `torch.randn(image.shape)` on the CPU.

Source: https://github.com/DeepTrackAI/DeepTrack2/pull/431
"Mg/update noises": the torch branch of the noise features drew `torch.randn(image.shape)` with no
device, so applying the noise to an image that lives on the GPU mixed a CPU noise tensor with the
CUDA image. The PR adds `device=image.device` to `torch.randn()` "to make the operation work
regardless which device `image` is on". Stand-in: the `Gaussian` noise feature reduced to its
`get` method and a call that resolves the properties (mu, sigma).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class Noise:
    def __init__(self, **properties):
        self.properties = properties

    def __call__(self, image):
        return self.get(image, **self.properties)

class Gaussian(Noise):
    def __init__(self, mu=0, sigma=1, **kwargs):
        super().__init__(mu=mu, sigma=sigma, **kwargs)

    def get(self, image, mu, sigma, **kwargs):
        if isinstance(image, torch.Tensor):
            noisy_image = mu + image + torch.randn(image.shape) * sigma
            return noisy_image
        raise TypeError("numpy branch not reproduced")

noise = Gaussian(mu=0.0, sigma=0.05)
image = torch.rand(4, 1, 64, 64, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    noisy = noise(image)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["noise"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.randn(image.shape) * sigma", "torch.randn(image.shape, device=image.device) * sigma")
CLEAN = False
