"""Look-alike: pytorch-fid runs InceptionV3 on the GPU batch by batch and copies every activation into a CPU array on purpose.

Source: https://github.com/mseitzer/pytorch-fid (src/pytorch_fid/fid_score.py, `get_activations`)
`calculate_fid_given_paths` builds `model = InceptionV3([block_idx]).to(device)`; `get_activations`
moves each batch with `batch = batch.to(device)`, pools the feature map if needed, and stores
`pred.squeeze(3).squeeze(2).cpu().numpy()` into the preallocated CPU `pred_arr`; the statistics
(`mu`, `sigma`) are then computed on the CPU. GPU model, CPU images and a CPU result buffer are the
intended layout. Stand-in: a small conv net returning a one-block list like InceptionV3, the
DataLoader is a split of a CPU image tensor, and the numpy buffer is a CPU torch tensor (the
simulator cannot hand fake tensors to numpy); statistics as a torch mean and covariance.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn.functional import adaptive_avg_pool2d

class InceptionV3(nn.Module):                   # stand-in: returns [pool3-like features]
    DEFAULT_BLOCK_INDEX = 3
    def __init__(self, output_blocks=(3,), dims=64):
        super().__init__()
        self.blocks = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
                                    nn.Conv2d(32, dims, 3, stride=2, padding=1), nn.ReLU())
    def forward(self, inp):
        return [self.blocks(inp)]

def get_activations(files, model, batch_size=50, dims=2048, device='cpu', num_workers=1):
    model.eval()
    pred_arr = torch.empty((len(files), dims))       # np.empty((len(files), dims))
    start_idx = 0
    for batch in files.split(batch_size):            # DataLoader(ImagePathDataset(files, ...))
        batch = batch.to(device)
        with torch.no_grad():
            pred = model(batch)[0]
        # If model output is not scalar, apply global spatial average pooling.
        if pred.size(2) != 1 or pred.size(3) != 1:
            pred = adaptive_avg_pool2d(pred, output_size=(1, 1))
        pred = pred.squeeze(3).squeeze(2).cpu()      # .cpu().numpy()
        pred_arr[start_idx:start_idx + pred.shape[0]] = pred
        start_idx = start_idx + pred.shape[0]
    return pred_arr

def calculate_activation_statistics(files, model, batch_size=50, dims=2048, device='cpu', num_workers=1):
    act = get_activations(files, model, batch_size, dims, device, num_workers)
    mu = torch.mean(act, dim=0)
    act_c = act - mu
    sigma = act_c.T @ act_c / (act.shape[0] - 1)     # np.cov(act, rowvar=False)
    return mu, sigma

device = torch.device('cuda:0')                 # --device cuda:0
dims = 64
model = InceptionV3([InceptionV3.DEFAULT_BLOCK_INDEX], dims=dims).to(device)
files1 = torch.rand(10, 3, 64, 64)              # decoded images of path 1, on the CPU
files2 = torch.rand(10, 3, 64, 64)
'''
CELL = '''
m1, s1 = calculate_activation_statistics(files1, model, batch_size=4, dims=dims, device=device)
m2, s2 = calculate_activation_statistics(files2, model, batch_size=4, dims=dims, device=device)
diff = m1 - m2
print(diff.device, s1.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
