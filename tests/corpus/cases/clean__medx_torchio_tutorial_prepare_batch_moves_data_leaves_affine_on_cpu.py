"""TorchIO tutorial (IXI brain segmentation): `prepare_batch` moves only `batch['mri'][tio.DATA]` / `batch['brain'][tio.DATA]` to the GPU; affines and paths stay in the CPU batch.

Source: https://github.com/TorchIO-project/torchio-notebooks/blob/main/notebooks/TorchIO_tutorial.ipynb
The tutorial's training loop gets a collated `Subject` batch (a dict per image with the `data` tensor,
the float64 `affine`, `path`, ...) from a `DataLoader` on the CPU and calls
`inputs, targets = prepare_batch(batch, device)` with
`inputs = batch['mri'][tio.DATA].to(device)` and `targets = batch['brain'][tio.DATA].to(device)`, then
`logits = model(inputs)`, `probabilities = F.softmax(logits, dim=CHANNELS_DIMENSION)` and
`get_dice_loss(probabilities, targets)`. Look-alike: a nested batch whose other tensors (the
double-precision affines) are left on the CPU on purpose; only what the model uses is moved and it runs.
Stand-ins: `tio` reduced to its `DATA`/`AFFINE` keys, the collated batch, and a two-conv network in
place of `unet.UNet(dimensions=3, out_classes=2, ...)`; the `.item()` logging is left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import enum
import types
import torch
import torch.nn.functional as F
from torch import nn

tio = types.SimpleNamespace(DATA='data', AFFINE='affine')
CHANNELS_DIMENSION = 1
SPATIAL_DIMENSIONS = 2, 3, 4


class Action(enum.Enum):
    TRAIN = 'Training'
    VALIDATE = 'Validation'


def prepare_batch(batch, device):
    inputs = batch['mri'][tio.DATA].to(device)
    targets = batch['brain'][tio.DATA].to(device)
    return inputs, targets


def get_dice_score(output, target, epsilon=1e-9):
    p0 = output
    g0 = target
    p1 = 1 - p0
    g1 = 1 - g0
    tp = (p0 * g0).sum(dim=SPATIAL_DIMENSIONS)
    fp = (p0 * g1).sum(dim=SPATIAL_DIMENSIONS)
    fn = (p1 * g0).sum(dim=SPATIAL_DIMENSIONS)
    num = 2 * tp
    denom = 2 * tp + fp + fn + epsilon
    dice_score = num / denom
    return dice_score


def get_dice_loss(output, target):
    return 1 - get_dice_score(output, target)


device = torch.device('cuda:0')
model = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.PReLU(), nn.Conv3d(8, 2, 1)).to(device)
labels = torch.randint(0, 2, (2, 1, 24, 24, 24))
batch = {
    'mri': {tio.DATA: torch.randn(2, 1, 24, 24, 24), tio.AFFINE: torch.eye(4, dtype=torch.float64).repeat(2, 1, 1),
            'path': ['IXI002-Guys-0828_image.nii.gz', 'IXI012-HH-1211_image.nii.gz']},
    'brain': {tio.DATA: torch.cat([1 - labels, labels], dim=1).float(),
              tio.AFFINE: torch.eye(4, dtype=torch.float64).repeat(2, 1, 1)},
}
loader = [batch]
'''
CELL = '''
action = Action.VALIDATE
model.train(action == Action.TRAIN)
for batch_idx, batch in enumerate(loader):
    inputs, targets = prepare_batch(batch, device)
    with torch.no_grad():
        logits = model(inputs)
        probabilities = F.softmax(logits, dim=CHANNELS_DIMENSION)
        batch_losses = get_dice_loss(probabilities, targets)
        batch_loss = batch_losses.mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
