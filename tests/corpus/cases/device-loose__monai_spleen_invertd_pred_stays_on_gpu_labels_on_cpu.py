"""MONAI spleen tutorial, evaluation on original spacing: inverted predictions stay on cuda, labels are loaded on the CPU.

Source: https://github.com/Project-MONAI/tutorials/issues/1139
"Tensors on different device causes a bug when running the last code cell in
3d_segmentation/spleen_segmentation_3d_visualization_basic.ipynb" (MONAI 1.1): inside the
evaluation loop `dice_metric(y_pred=val_outputs, y=val_labels)` failed. The predictions come out of
`sliding_window_inference` on the GPU and the notebook's `Invertd` (unlike the main spleen
notebook's) had no `device="cpu"`, so they stayed there, while the original-spacing labels were
never moved off the CPU. The notebook was fixed by inverting onto the CPU. Stand-ins: `Invertd`
(resize back, optional device), `AsDiscreted`, `decollate_batch`, `from_engine`, `DiceMetric` and a
one-window `sliding_window_inference`, reduced to what the loop uses.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Invertd:
    def __init__(self, keys, orig_keys, nearest_interp=False, to_tensor=True, device=None):
        self.keys, self.orig_keys, self.device = keys, orig_keys, device

    def __call__(self, d):
        orig = d[self.orig_keys + "_orig_shape"]
        pred = F.interpolate(d[self.keys].unsqueeze(0), size=orig, mode="trilinear").squeeze(0)
        d[self.keys] = pred.to(self.device) if self.device is not None else pred
        return d

class AsDiscreted:
    def __init__(self, keys, argmax=False, to_onehot=None):
        self.keys, self.argmax, self.to_onehot = keys, argmax, to_onehot

    def __call__(self, d):
        x = d[self.keys]
        x = x.argmax(0, keepdim=True) if self.argmax else x.long()
        d[self.keys] = F.one_hot(x.squeeze(0), self.to_onehot).permute(3, 0, 1, 2).float()
        return d

class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, d):
        for t in self.transforms:
            d = t(d)
        return d

def decollate_batch(batch):
    n = batch["image"].shape[0]
    out = [dict() for _ in range(n)]
    for k, v in batch.items():
        items = v.unbind(0) if isinstance(v, torch.Tensor) else [v] * n
        for d, item in zip(out, items):
            d[k] = item
    return out

def from_engine(keys):
    return lambda data: tuple([d[k] for d in data] for k in keys)

def sliding_window_inference(inputs, roi_size, sw_batch_size, predictor):
    return predictor(inputs)                                   # one window covers the volume

class DiceMetric:
    def __init__(self, include_background=False, reduction="mean"):
        self.include_background = include_background
        self._buffer = []

    def __call__(self, y_pred, y):
        y_pred, y = torch.stack(y_pred), torch.stack(y)
        if not self.include_background:
            y_pred, y = y_pred.narrow(1, 1, y_pred.shape[1] - 1), y.narrow(1, 1, y.shape[1] - 1)
        inter = torch.sum(y * y_pred, dim=(2, 3, 4))
        denom = torch.sum(y, dim=(2, 3, 4)) + torch.sum(y_pred, dim=(2, 3, 4))
        self._buffer.append(2.0 * inter / denom)

    def aggregate(self):
        return torch.cat(self._buffer).mean()

    def reset(self):
        self._buffer = []

class UNet(nn.Module):
    def __init__(self, in_channels=1, out_channels=2):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(in_channels, 8, 3, padding=1), nn.PReLU(),
                                 nn.Conv3d(8, out_channels, 1))

    def forward(self, x):
        return self.net(x)

device = torch.device("cuda:0")
model = UNet(1, 2).to(device)
dice_metric = DiceMetric(include_background=False, reduction="mean")
post_transforms = Compose([
    Invertd(keys="pred", orig_keys="image", nearest_interp=False, to_tensor=True),
    AsDiscreted(keys="pred", argmax=True, to_onehot=2),
    AsDiscreted(keys="label", to_onehot=2),
])
# val_org_loader: the image resampled for the network, the label at its original spacing (CPU)
val_org_loader = [{"image": torch.rand(1, 1, 24, 24, 16),
                   "image_orig_shape": (32, 32, 20),
                   "label": (torch.rand(1, 1, 32, 32, 20) > 0.9).float()}]
'''
CELL = '''
model.eval()
with torch.no_grad():
    for val_data in val_org_loader:
        val_inputs = val_data["image"].to(device)
        roi_size = (160, 160, 160)
        sw_batch_size = 4
        val_data["pred"] = sliding_window_inference(val_inputs, roi_size, sw_batch_size, model)
        val_data = [post_transforms(i) for i in decollate_batch(val_data)]
        val_outputs, val_labels = from_engine(["pred", "label"])(val_data)
        dice_metric(y_pred=val_outputs, y=val_labels)
    metric_org = dice_metric.aggregate()
    dice_metric.reset()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["val_outputs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('Invertd(keys="pred", orig_keys="image", nearest_interp=False, to_tensor=True)',
                  'Invertd(keys="pred", orig_keys="image", nearest_interp=False, to_tensor=True, device="cpu")')
CLEAN = False
