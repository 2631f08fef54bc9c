"""MobilePose webcam demo on GPU: the network is moved to CUDA, but `ResEstimator.inference` builds the image tensor on the CPU and feeds it as is.

Source: https://github.com/YuliangXiu/MobilePose/issues/28
"how to run run_webcam.py on gpu": the user changed the demo's `.to("cpu")` to `.to("cuda")` and got
"Expected object of backend CPU but got backend CUDA for argument #2 'weight'" (the 2019 wording of
today's device-mismatch error). Their own solution, acknowledged by the maintainer: 1. `net =
net.to('cuda')`, 2. move the network input inside the estimator, `keypoints = self.net(image.to("cuda"))`,
3. bring the output back with `.cpu()`. Stand-in: `CoordRegressionNetwork` with a small ResNet-style
backbone (conv/batch-norm blocks, 32 output channels), dsntnn's `flat_softmax`/`dsnt`, and the repo's
`ResEstimator` (to_tensor as in the repo, the cv2 letterbox resize replaced by a numpy pad of a frame
that already has the input size); the checkpoint load, the camera and the numpy keypoint
post-processing (`.cpu().numpy()`, `pose_fun`) are left out, so step 3 is not exercised.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def flat_softmax(inp):
    """dsntnn.flat_softmax"""
    orig_size = inp.size()
    flat = inp.view(-1, orig_size[-2] * orig_size[-1])
    flat = F.softmax(flat, -1)
    return flat.view(*orig_size)

def normalized_linspace(length, dtype=None, device=None):
    first = -(length - 1.0) / length
    return torch.arange(length, dtype=dtype, device=device) * (2.0 / length) + first

def dsnt(heatmaps):
    """dsntnn.dsnt: expected (x, y) under each normalized heatmap"""
    h, w = heatmaps.shape[-2:]
    xs = normalized_linspace(w, dtype=heatmaps.dtype, device=heatmaps.device)
    ys = normalized_linspace(h, dtype=heatmaps.dtype, device=heatmaps.device)
    x = (heatmaps.sum(-2) * xs).sum(-1, keepdim=True)
    y = (heatmaps.sum(-1) * ys).sum(-1, keepdim=True)
    return torch.cat([x, y], -1)

class BasicBlock(nn.Module):
    def __init__(self, inplanes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = nn.Sequential(nn.Conv2d(inplanes, planes, 1, stride, bias=False),
                                        nn.BatchNorm2d(planes))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.downsample(x))

class ResNetEd(nn.Module):
    """networks.resnet.resnet18_ed, shrunk: stem + two stages + a 32-channel output."""
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.layer1 = BasicBlock(16, 16)
        self.layer2 = BasicBlock(16, 32, stride=2)

    def forward(self, x):
        x = self.maxpool(F.relu(self.bn1(self.conv1(x))))
        return self.layer2(self.layer1(x))

class CoordRegressionNetwork(nn.Module):
    def __init__(self, n_locations, backbone):
        super(CoordRegressionNetwork, self).__init__()
        self.resnet = ResNetEd()
        self.outsize = 32
        self.hm_conv = nn.Conv2d(self.outsize, n_locations, kernel_size=1, bias=False)

    def forward(self, images):
        resnet_out = self.resnet(images)
        unnormalized_heatmaps = self.hm_conv(resnet_out)
        heatmaps = flat_softmax(unnormalized_heatmaps)
        coords = dsnt(heatmaps)
        return coords, heatmaps

class ResEstimator:
    def __init__(self, model_path, net, inp_dim=224):
        self.inp_dim = inp_dim
        self.net = net
        # self.net.load_state_dict(torch.load(model_path, map_location=lambda storage, loc: storage))
        self.net.eval()

    def rescale(self, image, output_size):
        image_ = image / 256.0
        h, w = image_.shape[:2]
        left_pad = int((output_size[1] - w) / 2.0)
        top_pad = int((output_size[0] - h) / 2.0)
        mean = np.array([0.485, 0.456, 0.406])
        pad = ((top_pad, top_pad), (left_pad, left_pad))
        image = np.stack([np.pad(image_[:, :, c], pad, mode='constant', constant_values=mean[c])
                          for c in range(3)], axis=2)
        return {'image': image}

    def to_tensor(self, image):
        mean = np.array([0.485, 0.456, 0.406])
        std = np.array([0.229, 0.224, 0.225])
        image = torch.from_numpy(((image - mean) / std).transpose((2, 0, 1))).float()
        return image

    def inference(self, in_npimg):
        rescale_out = self.rescale(in_npimg, (self.inp_dim, self.inp_dim))
        image = rescale_out['image']
        image = self.to_tensor(image)
        image = image.unsqueeze(0)
        with torch.no_grad():
            keypoints = self.net(image)
        return keypoints[0].detach()

inp_dim = 64
model_path = "./models/resnet18_%d_adam_best.t7" % inp_dim
net = CoordRegressionNetwork(n_locations=16, backbone="resnet18").to("cuda:0")
e = ResEstimator(model_path, net, inp_dim)
image = np.random.randint(0, 256, (inp_dim, inp_dim, 3)).astype(np.uint8)   # crop_camera(cam.read()[1])
'''
CELL = '''
humans = e.inference(image)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same", "is not on the expected device")
CULPRITS = ["e"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("keypoints = self.net(image)", "keypoints = self.net(image.to(\"cuda:0\"))")
CLEAN = False
