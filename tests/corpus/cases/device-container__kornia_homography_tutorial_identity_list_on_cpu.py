"""kornia homography tutorial: the chain of homographies starts from a CPU identity in a list.

Source: https://github.com/kornia/tutorials/issues/21
In `homography.ipynb`, `models_to_final = [torch.eye(3)[None]]` then
`models_to_final.append(m @ models_to_final[-1])` failed with "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu! (... mat2 in method wrapper_bmm)":
the estimated homographies `models` are on the GPU, the seed identity in the list is not. The
reporter's fix: `models_to_final = [torch.eye(3).to(device)[None]]` (written `[torch.eye(3)[None].to(device)]`
here: the simulator cannot index fake cuda tensors with `[]`). Stand-in: the per-pair
homographies as random (1, 3, 3) tensors on the device instead of kornia's estimator.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch

device = torch.device("cuda:0")

def estimate_homography(img_src, img_dst):
    # stand-in for the tutorial's kornia feature matching + find_homography_dlt
    return torch.eye(3, device=img_src.device).unsqueeze(0) + 0.01 * torch.randn(1, 3, 3, device=img_src.device)

imgs = [torch.rand(1, 1, 32, 32, device=device) for _ in range(4)]
models = [estimate_homography(imgs[i], imgs[i + 1]) for i in range(len(imgs) - 1)]
models_to_final = [torch.eye(3)[None]]
'''
CELL = '''
for m in models[::-1]:
    models_to_final.append(m @ models_to_final[-1])
models_to_final = models_to_final[::-1]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["models_to_final"]
FIX = "namespace"
REFERENCE_FIX = '''
models_to_final = [torch.eye(3)[None].to(device)]
'''
REFERENCE_EDIT = None
CLEAN = False
