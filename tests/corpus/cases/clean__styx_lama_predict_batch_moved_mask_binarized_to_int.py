"""Look-alike: LaMa `predict.py` moves the collated batch dict with `move_to_device`, then binarizes the mask to int64.

Source: https://github.com/advimman/lama/blob/main/bin/predict.py
Inference collates one sample (`image`, `mask`, `unpad_to_size`) on the CPU, moves the whole dict with
`saicinpainting.evaluation.utils.move_to_device` (recursing into the list of sizes), then rebinds
`batch['mask'] = (batch['mask'] > 0) * 1`, which makes the mask an int64 tensor on the GPU. In
`DefaultInpaintingTrainingModule.forward` the int mask meets the float image in `img * (1 - mask)` and
`torch.cat([masked_img, mask], dim=1)`, both of which promote to float32, so nothing is mismatched;
the result is taken back with `.cpu()` for writing. The generator is a small stand-in for the FFC
ResNet; `move_to_device` and `forward` are the repository's.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from types import SimpleNamespace

def move_to_device(obj, device):
    if isinstance(obj, nn.Module):
        return obj.to(device)
    if torch.is_tensor(obj):
        return obj.to(device)
    if isinstance(obj, (tuple, list)):
        return [move_to_device(el, device) for el in obj]
    if isinstance(obj, dict):
        return {name: move_to_device(val, device) for name, val in obj.items()}
    raise ValueError(f'Unexpected type {type(obj)}')

class DefaultInpaintingTrainingModule(nn.Module):
    """Stand-in for LaMa's training module in predict_only mode (generator only)."""
    def __init__(self, concat_mask=True):
        super().__init__()
        self.concat_mask = concat_mask
        self.generator = nn.Sequential(nn.ReflectionPad2d(3), nn.Conv2d(4, 16, 7), nn.BatchNorm2d(16), nn.ReLU(True),
                                       nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(True),
                                       nn.ReflectionPad2d(3), nn.Conv2d(16, 3, 7), nn.Sigmoid())

    def forward(self, batch):
        img = batch['image']
        mask = batch['mask']

        masked_img = img * (1 - mask)

        if self.concat_mask:
            masked_img = torch.cat([masked_img, mask], dim=1)

        batch['predicted_image'] = self.generator(masked_img)
        batch['inpainted'] = mask * batch['predicted_image'] + (1 - mask) * batch['image']
        return batch

predict_config = SimpleNamespace(device='cuda:0', out_key='inpainted')   # configs/prediction/default.yaml
device = torch.device(predict_config.device)
model = DefaultInpaintingTrainingModule()
model.eval()
model.to(device)

# default_collate([dataset[img_i]]): float image, float {0,1} mask, and the unpadded size
batch = {'image': torch.rand(1, 3, 64, 64),
         'mask': (torch.rand(1, 1, 64, 64) > 0.8).float(),
         'unpad_to_size': [torch.tensor([60]), torch.tensor([62])]}
'''
CELL = '''
with torch.no_grad():
    batch = move_to_device(batch, device)
    batch['mask'] = (batch['mask'] > 0) * 1
    batch = model(batch)
    cur_res = batch[predict_config.out_key][0].permute(1, 2, 0).detach().cpu()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
