"""MONAI RetinaNetDetector: with a sliding-window inferer that collects outputs on the CPU, the head outputs meet anchors built on the GPU.

Source: https://github.com/Project-MONAI/tutorials/issues/783
"Detection bug": running the detection tutorial's validation raised "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument min
in method wrapper_clamp__Tensor)". "The output variable of the use_inferer mode and the not use_inferer
mode are of different types, one is CPU and the other GPU": the tutorial sets
`detector.set_sliding_window_inferer(..., device="cpu")` to save GPU memory, so `predict_with_inferer`
returns CPU head outputs, while `generate_anchors(images, ...)` builds the anchors on the images' GPU;
decoding and clipping then mix the two (MONAI patched the detector). Stand-in: 2D RetinaNetDetector
reduced to the network, the sliding-window inferer, anchor generation and box decoding/clipping.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class RetinaNet(nn.Module):
    def __init__(self, num_classes=1, num_anchors=1):
        super().__init__()
        self.feature_extractor = nn.Sequential(nn.Conv2d(1, 8, 3, 2, 1), nn.ReLU(), nn.Conv2d(8, 8, 3, 2, 1), nn.ReLU())
        self.cls_head = nn.Conv2d(8, num_anchors * num_classes, 3, padding=1)
        self.box_head = nn.Conv2d(8, num_anchors * 4, 3, padding=1)

    def forward(self, images):
        f = self.feature_extractor(images)
        return {"classification": self.cls_head(f), "box_regression": self.box_head(f)}

class SlidingWindowInferer:
    def __init__(self, roi_size, sw_batch_size=1, overlap=0.25, mode="constant", device=None):
        self.roi_size, self.device = roi_size, device

    def __call__(self, inputs, network):
        windows = inputs.split(self.roi_size[1], dim=-1)
        outs = [network(w) for w in windows]
        result = {k: torch.cat([o[k] for o in outs], dim=-1) for k in outs[0]}
        if self.device is not None:
            result = {k: v.to(self.device) for k, v in result.items()}
        return result

class RetinaNetDetector(nn.Module):
    def __init__(self, network, stride=4, anchor_size=8.0):
        super().__init__()
        self.network = network
        self.stride, self.anchor_size = stride, anchor_size
        self.use_inferer = False

    def set_sliding_window_inferer(self, roi_size, sw_batch_size=1, overlap=0.5, mode="constant", device=None):
        self.inferer = SlidingWindowInferer(roi_size, sw_batch_size, overlap, mode, device=device)

    def set_box_selector_parameters(self, score_thresh=0.02, topk_candidates_per_level=1000, nms_thresh=0.22, detections_per_img=300):
        self.score_thresh = score_thresh

    def generate_anchors(self, images, head_outputs):
        h, w = head_outputs["box_regression"].shape[-2:]
        ys = (torch.arange(h, device=images.device, dtype=torch.float32) + 0.5) * self.stride
        xs = (torch.arange(w, device=images.device, dtype=torch.float32) + 0.5) * self.stride
        cy, cx = torch.meshgrid(ys, xs, indexing="ij")
        wh = torch.full_like(cx, self.anchor_size)
        self.anchors = torch.stack([cx, cy, wh, wh], dim=-1).reshape(-1, 4)

    def decode(self, box_regression, anchors):
        anchor_ctr, anchor_wh = anchors.split(2, dim=-1)
        dxy, dwh = box_regression.split(2, dim=-1)
        pred_ctr = dxy * anchor_wh + anchor_ctr
        pred_wh = torch.exp(dwh) * anchor_wh
        return torch.cat([pred_ctr - pred_wh / 2, pred_ctr + pred_wh / 2], dim=-1)

    def forward(self, input_images, use_inferer=False):
        images = input_images
        if self.training:
            raise NotImplementedError
        if use_inferer:
            head_outputs = self.inferer(images, self.network)
        else:
            head_outputs = self.network(images)
        self.generate_anchors(images, head_outputs)
        box_regression = head_outputs["box_regression"].permute(0, 2, 3, 1).reshape(images.shape[0], -1, 4)
        boxes = self.decode(box_regression, self.anchors)
        image_size = torch.tensor([images.shape[-1], images.shape[-2]] * 2, dtype=torch.float32, device=images.device)
        boxes = torch.clamp(boxes, min=torch.zeros_like(image_size), max=image_size)
        scores = torch.sigmoid(head_outputs["classification"]).flatten(1)
        return boxes, scores

device = torch.device("cuda:0")
detector = RetinaNetDetector(RetinaNet()).to(device)
detector.set_box_selector_parameters(score_thresh=0.02)
detector.set_sliding_window_inferer(roi_size=(64, 32), overlap=0.25, sw_batch_size=1, mode="constant", device="cpu")
detector.eval()
val_inputs = torch.rand(1, 1, 64, 64).to(device)
'''
CELL = '''
with torch.no_grad():
    val_outputs = detector(val_inputs, use_inferer=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["detector"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            head_outputs = self.inferer(images, self.network)\n",
                  "            head_outputs = self.inferer(images, self.network)\n            head_outputs = {k: v.to(images.device) for k, v in head_outputs.items()}\n")
CLEAN = False
