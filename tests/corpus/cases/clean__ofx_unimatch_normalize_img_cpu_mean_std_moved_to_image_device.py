"""unimatch `normalize_img`: the ImageNet mean/std are built on the CPU with `torch.tensor(...)` and moved with `.to(img1.device)` before normalising GPU frames.

Source: https://github.com/autonomousvision/unimatch/blob/master/unimatch/utils.py
`normalize_img(img0, img1)` (called first thing in `UniMatch.forward` on the [0, 255] frames) does
`mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1).to(img1.device)` and the same for `std`,
then `(img0 / 255. - mean) / std`. Look-alike: constants created without a device inside a GPU
model's forward path, moved to the input's device on the same line. Stand-in: `normalize_img` as in
the file and a UniMatch-shaped module cut to the normalisation, the shared CNN backbone
(`extract_feature`) and a one-conv flow head; frames are float [0, 255] on cuda:0 as in
`evaluate_flow.py` (`torch.from_numpy(image).permute(2, 0, 1).float()` then `.to(device)`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def normalize_img(img0, img1):
    # loaded images are in [0, 255]
    # normalize by ImageNet mean and std
    mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1).to(img1.device)
    std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1).to(img1.device)
    img0 = (img0 / 255. - mean) / std
    img1 = (img1 / 255. - mean) / std

    return img0, img1

class UniMatch(nn.Module):
    def __init__(self, feature_channels=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, feature_channels, 7, stride=2, padding=3),
                                      nn.ReLU(),
                                      nn.Conv2d(feature_channels, feature_channels, 3, stride=2, padding=1))
        self.flow_head = nn.Conv2d(2 * feature_channels, 2, 3, padding=1)

    def extract_feature(self, img0, img1):
        concat = torch.cat((img0, img1), dim=0)  # [2B, C, H, W]
        features = self.backbone(concat)
        feature0, feature1 = features.chunk(chunks=2, dim=0)
        return feature0, feature1

    def forward(self, img0, img1, task='flow'):
        img0, img1 = normalize_img(img0, img1)  # [B, 3, H, W]
        feature0, feature1 = self.extract_feature(img0, img1)
        flow = self.flow_head(torch.cat((feature0, feature1), dim=1))
        return {'flow_preds': [flow]}

device = torch.device('cuda:0')
model = UniMatch().to(device).eval()
image1 = (torch.rand(1, 3, 64, 96) * 255).to(device)
image2 = (torch.rand(1, 3, 64, 96) * 255).to(device)
'''
CELL = '''
with torch.no_grad():
    results_dict = model(image1, image2, task='flow')
flow_pr = results_dict['flow_preds'][-1]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
