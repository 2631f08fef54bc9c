"""nnU-Net v2 sliding-window inference with `perform_everything_on_device=False`: fp16 result arrays on the CPU, patches on the GPU.

Source: https://github.com/MIC-DKFZ/nnUNet/blob/master/nnunetv2/inference/predict_from_raw_data.py
`nnUNetPredictor._internal_predict_sliding_window_return_logits(data, slicers, do_on_device=False)`
keeps the padded volume, the half-precision `predicted_logits` / `n_predictions` accumulators and the
Gaussian importance map on `results_device = torch.device('cpu')` (the fallback nnU-Net uses when the
GPU runs out of memory), copies each patch to `self.device` for the network, and brings the float32
prediction back with `.to(results_device)` before `prediction *= gaussian` and
`predicted_logits[sl] += prediction`. Look-alike: a GPU network next to CPU float16 accumulators and
float32 predictions added in place into float16; every crossing is explicit and it runs.
Stand-ins: the predictor's sliding-window method (tqdm, the inf check and the error clean-up left
out; the network output's `[0]` written `.squeeze(0)`, since the simulation cannot index a fake cuda
tensor), `compute_gaussian` built with torch instead of scipy, a two-layer 3-D network, and the slicers
for a 20^3 volume with 16^3 patches.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import itertools
import numpy as np
import torch
from torch import nn


def compute_gaussian(tile_size, sigma_scale=1. / 8, value_scaling_factor=1, dtype=torch.float16,
                     device=torch.device('cuda', 0)):
    axes = []
    for s in tile_size:
        x = np.arange(s) - (s - 1) / 2
        sigma = s * sigma_scale
        axes.append(np.exp(-x ** 2 / (2 * sigma ** 2)))
    gaussian_importance_map = torch.from_numpy(np.einsum('i,j,k->ijk', *axes).astype(np.float32))
    gaussian_importance_map /= (torch.max(gaussian_importance_map) / value_scaling_factor)
    gaussian_importance_map = gaussian_importance_map.to(device=device, dtype=dtype)
    return gaussian_importance_map


class nnUNetPredictor:
    def __init__(self, network, patch_size, num_segmentation_heads, device, use_gaussian=True,
                 perform_everything_on_device=False):
        self.network = network
        self.patch_size = patch_size
        self.num_segmentation_heads = num_segmentation_heads
        self.device = device
        self.use_gaussian = use_gaussian
        self.perform_everything_on_device = perform_everything_on_device

    def _internal_maybe_mirror_and_predict(self, x):
        return self.network(x)

    def _internal_predict_sliding_window_return_logits(self, data, slicers, do_on_device=True):
        results_device = self.device if do_on_device else torch.device('cpu')
        data = data.to(results_device)
        predicted_logits = torch.zeros((self.num_segmentation_heads, *data.shape[1:]),
                                       dtype=torch.half, device=results_device)
        n_predictions = torch.zeros(data.shape[1:], dtype=torch.half, device=results_device)
        if self.use_gaussian:
            gaussian = compute_gaussian(tuple(self.patch_size), sigma_scale=1. / 8,
                                        value_scaling_factor=10, device=results_device)
        for sl in slicers:
            workon = data[sl][None]
            workon = workon.to(self.device)

            prediction = self._internal_maybe_mirror_and_predict(workon).squeeze(0).to(results_device)

            if self.use_gaussian:
                prediction *= gaussian
            predicted_logits[sl] += prediction
            n_predictions[sl[1:]] += gaussian

        predicted_logits /= n_predictions
        return predicted_logits


device = torch.device('cuda', 0)
network = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.LeakyReLU(), nn.Conv3d(8, 3, 1)).to(device).eval()
patch_size = (16, 16, 16)
predictor = nnUNetPredictor(network, patch_size, num_segmentation_heads=3, device=device,
                            perform_everything_on_device=False)
data = torch.randn(1, 20, 20, 20)                      # preprocessed case, CPU
starts = [[0, 4]] * 3
slicers = [tuple([slice(None), *[slice(s, s + p) for s, p in zip(st, patch_size)]])
           for st in itertools.product(*starts)]
'''
CELL = '''
with torch.no_grad():
    predicted_logits = predictor._internal_predict_sliding_window_return_logits(
        data, slicers, predictor.perform_everything_on_device)
segmentation = predicted_logits.argmax(0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
