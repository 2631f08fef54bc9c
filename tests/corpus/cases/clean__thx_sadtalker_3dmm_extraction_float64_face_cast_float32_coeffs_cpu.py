"""Look-alike: SadTalker's CropAndExtract turns the aligned face (a float64 numpy array after `/255.`) into a float32 tensor explicitly and copies the 3DMM coefficients back for savemat.

Source: https://github.com/OpenTalker/SadTalker (src/utils/preprocess.py, CropAndExtract.generate)
In the 3DMM extraction loop `im_t = torch.tensor(np.array(im1) / 255., dtype=torch.float32).permute(2, 0,
1).to(self.device).unsqueeze(0)`: `np.array(im1) / 255.` is float64, the `dtype=torch.float32` cast
makes it match the ResNet-50 `net_recon`; `split_coeff` slices the 257 coefficients and
`coeffs[key].cpu().numpy()` feeds `savemat`; `trans_params` is cast `.astype(np.float32)` too. Runs
(here with `--cpu`, so `device = 'cpu'`).
Stand-ins: `net_recon` as a small conv net ending in a 257-wide linear; `align_img` replaced by a given
aligned face array (64x64 instead of 224x224) and fixed trans params; one frame of the loop, `savemat`
left out.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def split_coeff(coeffs):
    id_coeffs = coeffs[:, :80]
    exp_coeffs = coeffs[:, 80: 144]
    tex_coeffs = coeffs[:, 144: 224]
    angles = coeffs[:, 224: 227]
    gammas = coeffs[:, 227: 254]
    translations = coeffs[:, 254:]
    return {'id': id_coeffs, 'exp': exp_coeffs, 'tex': tex_coeffs,
            'angle': angles, 'gamma': gammas, 'trans': translations}

class ReconNetWrapper(nn.Module):          # src/face3d/models/networks.py define_net_recon (reduced)
    def __init__(self, net_recon='resnet50', use_last_fc=False, init_path=''):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 7, stride=4, padding=3), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.final_layers = nn.Linear(16, 257)

    def forward(self, x):
        return self.final_layers(self.backbone(x).flatten(1))

class CropAndExtract():                    # src/utils/preprocess.py (3DMM part)
    def __init__(self, sadtalker_path, device):
        self.net_recon = ReconNetWrapper(net_recon='resnet50', use_last_fc=False, init_path='').to(device)
        # self.net_recon.load_state_dict(load_x_from_safetensor(checkpoint, 'face_3drecon'))
        self.net_recon.eval()
        self.device = device

device = "cpu"                              # inference.py --cpu
preprocess_model = CropAndExtract({'use_safetensor': True}, device)
rng = np.random.default_rng(0)
im1 = rng.integers(0, 256, (64, 64, 3)).astype(np.uint8)          # align_img(frame, lm1, lm3d_std)[1]
trans_params = np.array([256., 256., 1.02, 128.3, 127.9])          # align_img(...)[0]
# np.array([float(item) for item in np.hsplit(trans_params, 5)]).astype(np.float32) in the repo
trans_params = trans_params.astype(np.float32)
video_coeffs, full_coeffs = [], []
'''
CELL = '''
im_t = torch.tensor(np.array(im1) / 255., dtype=torch.float32).permute(2, 0, 1).to(
    preprocess_model.device).unsqueeze(0)

with torch.no_grad():
    full_coeff = preprocess_model.net_recon(im_t)
    coeffs = split_coeff(full_coeff)

pred_coeff = {key: coeffs[key].cpu().numpy() for key in coeffs}
pred_coeff = np.concatenate([
    pred_coeff['exp'],
    pred_coeff['angle'],
    pred_coeff['trans'],
    trans_params[2:][None],
], 1)
video_coeffs.append(pred_coeff)
full_coeffs.append(full_coeff.cpu().numpy())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
