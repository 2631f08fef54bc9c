"""DS-NeRF test-set evaluation: `torch.Tensor(rgbs)` turns the rendered NumPy frames into a CPU tensor and compares it with the GPU images.

Source: https://github.com/dunbar12138/DSNeRF/pull/56
"Add `to(device)` to avoid device missmatch error": "`images[i_test]` is defined on GPU, but
`torch.Tensor(rgbs)` is defined on CPU without `to(device)`", fixed by
`test_loss = img2mse(torch.Tensor(rgbs).to(device), images[i_test])` in run_nerf.py (the same crash is
issue #93: "Expected all tensors to be on the same device ... cuda:0 and cpu!" in `img2mse`).
`render_path` returns the rendered frames as NumPy arrays (`rgb.cpu().numpy()`), so the tensor built
from them lives on the host while the training images were moved to the device. Stand-ins: `train()`
reduced to the `i_testset` branch of its loop, `render_path` reduced to returning NumPy frames of the
right shape (the simulated accelerator holds no data to copy back), `img2mse` as in run_nerf_helpers.py.
Simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch

img2mse = lambda x, y : torch.mean((x - y) ** 2)

class Args:
    i_testset = 5000
    chunk = 1024 * 32
    basedir, expname = "./logs", "fern_test"
args = Args()
device = torch.device("meta")

def render_path(render_poses, hwf, chunk, render_kwargs, gt_imgs=None, savedir=None):
    H, W, focal = hwf
    rgbs, disps = [], []
    for i, c2w in enumerate(render_poses):
        # rgb, disp, acc, _ = render(H, W, focal, chunk=chunk, c2w=c2w[:3,:4], **render_kwargs)
        rgbs.append(np.zeros((H, W, 3), dtype=np.float32))        # rgb.cpu().numpy()
        disps.append(np.zeros((H, W), dtype=np.float32))          # disp.cpu().numpy()
    return np.stack(rgbs, 0), np.stack(disps, 0)

def train(i, images, poses, i_test, hwf, render_kwargs_test):
    if i % args.i_testset == 0 and i > 0:
        testsavedir = "%s/%s/testset_%06d" % (args.basedir, args.expname, i)
        with torch.no_grad():
            rgbs, disps = render_path(torch.Tensor(poses[i_test]).to(device), hwf, args.chunk, render_kwargs_test,
                                      gt_imgs=images[i_test], savedir=testsavedir)
        print('Saved test set')
        test_loss = img2mse(torch.Tensor(rgbs), images[i_test])
        return test_loss

H, W, focal = 24, 32, 30.0
hwf = [H, W, focal]
poses = np.tile(np.eye(4, dtype=np.float32)[None, :3, :4], (8, 1, 1))
i_test = np.array([0, 4])
images = torch.Tensor(np.random.rand(8, H, W, 3).astype(np.float32)).to(device)
render_kwargs_test = {"perturb": False, "raw_noise_std": 0.0}
'''
CELL = '''
test_loss = train(5000, images, poses, i_test, hwf, render_kwargs_test)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["rgbs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("test_loss = img2mse(torch.Tensor(rgbs), images[i_test])",
                  "test_loss = img2mse(torch.Tensor(rgbs).to(device), images[i_test])")
CLEAN = False
