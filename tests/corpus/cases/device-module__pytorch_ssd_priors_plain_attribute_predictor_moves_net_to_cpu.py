"""pytorch-ssd live demo (mb2-ssd-lite): the SSD's `priors` are a plain attribute made on cuda:0, and the predictor moves the net to the CPU.

Source: https://github.com/qfgaohao/pytorch-ssd/issues/183
"runtime error mobillenet-ssd-v2": `python run_ssd_live_demo.py mb2-ssd-lite ...` failed in
`convert_locations_to_boxes` (`locations[..., :2] * center_variance * priors[..., 2:] + priors[..., :2]`)
with "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
`SSD.__init__(is_test=True)` sets `self.priors = config.priors.to(self.device)` with the device defaulting
to cuda:0 when CUDA is available, while `create_mobilenetv2_ssd_lite_predictor(net, ...)` defaults to
`device=torch.device('cpu')` and its Predictor calls `self.net.to(self.device)` - which never moves a
plain tensor attribute. Stand-in: a small SSD (base net, two heads, priors), the config module, the
Predictor's transform/forward/decode; NMS by top-k. The GPU is meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def convert_locations_to_boxes(locations, priors, center_variance, size_variance):
    if priors.dim() + 1 == locations.dim():
        priors = priors.unsqueeze(0)
    return torch.cat([
        locations[..., :2] * center_variance * priors[..., 2:] + priors[..., :2],
        torch.exp(locations[..., 2:] * size_variance) * priors[..., 2:]
    ], dim=locations.dim() - 1)

def center_form_to_corner_form(locations):
    return torch.cat([locations[..., :2] - locations[..., 2:] / 2,
                      locations[..., :2] + locations[..., 2:] / 2], locations.dim() - 1)

xy = torch.rand(4 * 4 * 6, 2)
config = SimpleNamespace(image_size=64, image_mean=np.array([127, 127, 127]), image_std=128.0,
                         iou_threshold=0.45, center_variance=0.1, size_variance=0.2,
                         priors=torch.cat([xy, torch.full_like(xy, 0.2)], 1))   # generate_ssd_priors(specs, image_size)

class SSD(nn.Module):
    def __init__(self, num_classes, is_test=False, config=None, device=None):
        super().__init__()
        self.num_classes = num_classes
        self.base_net = nn.Sequential(nn.Conv2d(3, 16, 3, 4, 1), nn.ReLU6(), nn.Conv2d(16, 32, 3, 4, 1), nn.ReLU6())
        self.classification_header = nn.Conv2d(32, 6 * num_classes, 3, padding=1)
        self.regression_header = nn.Conv2d(32, 6 * 4, 3, padding=1)
        self.is_test = is_test
        self.config = config
        if device:
            self.device = device
        else:
            self.device = torch.device("meta")           # "cuda:0" if torch.cuda.is_available() else "cpu"
        if is_test:
            self.config = config
            self.priors = config.priors.to(self.device)

    def forward(self, x):
        x = self.base_net(x)
        confidences = self.classification_header(x).permute(0, 2, 3, 1).reshape(x.size(0), -1, self.num_classes)
        locations = self.regression_header(x).permute(0, 2, 3, 1).reshape(x.size(0), -1, 4)
        if self.is_test:
            confidences = F.softmax(confidences, dim=2)
            boxes = convert_locations_to_boxes(locations, self.priors, self.config.center_variance, self.config.size_variance)
            boxes = center_form_to_corner_form(boxes)
            return confidences, boxes
        return confidences, locations

class Predictor:
    def __init__(self, net, size, mean=0.0, std=1.0, iou_threshold=0.45, candidate_size=200, device=None):
        self.net = net
        self.size, self.mean, self.std = size, mean, std
        self.candidate_size = candidate_size
        if device:
            self.device = device
        else:
            self.device = torch.device("meta")           # "cuda:0" if torch.cuda.is_available() else "cpu"
        self.net.to(self.device)
        self.net.eval()

    def transform(self, image):
        image = (image.astype(np.float32) - np.array(self.mean, dtype=np.float32)) / np.float32(self.std)
        return torch.from_numpy(image).permute(2, 0, 1)

    def predict(self, image, top_k=-1, prob_threshold=None):
        cpu_device = torch.device("cpu")
        height, width, _ = image.shape
        image = self.transform(image)
        images = image.unsqueeze(0)
        images = images.to(self.device)
        with torch.no_grad():
            scores, boxes = self.net.forward(images)
        boxes = boxes[0].to(cpu_device)
        scores = scores[0].to(cpu_device)
        probs, labels = scores[:, 1:].max(dim=1)
        keep = probs.topk(top_k).indices                        # hard_nms stand-in
        boxes = boxes[keep] * torch.tensor([width, height, width, height])
        return boxes, labels[keep] + 1, probs[keep]

def create_mobilenetv2_ssd_lite(num_classes, is_test=False):
    return SSD(num_classes, is_test=is_test, config=config)

def create_mobilenetv2_ssd_lite_predictor(net, candidate_size=200, nms_method=None, sigma=0.5, device=torch.device('cpu')):
    return Predictor(net, config.image_size, config.image_mean, config.image_std,
                     iou_threshold=config.iou_threshold, candidate_size=candidate_size, device=device)

class_names = ["BACKGROUND", "person", "car"]
net = create_mobilenetv2_ssd_lite(len(class_names), is_test=True)
# net.load(model_path)
predictor = create_mobilenetv2_ssd_lite_predictor(net, candidate_size=200)
image = np.random.randint(0, 256, (64, 64, 3), dtype=np.uint8)   # cv2.cvtColor(orig_image, cv2.COLOR_BGR2RGB)
'''
CELL = '''
boxes, labels, probs = predictor.predict(image, 10, 0.4)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["net.priors"]
FIX = "namespace"
REFERENCE_FIX = '''
net.priors = config.priors.to(predictor.device)
'''
REFERENCE_EDIT = None
CLEAN = False
