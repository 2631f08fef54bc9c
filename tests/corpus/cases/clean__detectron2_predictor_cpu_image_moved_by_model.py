"""detectron2 DefaultPredictor: the image tensor is built on the CPU and GeneralizedRCNN moves it to its own device.

Source: https://github.com/facebookresearch/detectron2/pull/4132
The PR's description states the design: like GeneralizedRCNN, the model "casts the input to the
same device as this model, this makes it possible to take a cpu tensor as input when the model is
on GPU". DefaultPredictor makes `torch.as_tensor(image.astype("float32").transpose(2, 0, 1))` on the
CPU and calls `model([{"image": image, "height": h, "width": w}])`; `preprocess_image` moves each
image next to the `pixel_mean` buffer, and the tutorial then brings the result back with
`outputs["instances"].to("cpu")` for drawing. Stand-in: GeneralizedRCNN reduced to a conv backbone
and a dense box head, Instances as a small field container, ImageList's single-image F.pad path,
detector_postprocess without the empty-box filter (column picks written with select for the
fake-cuda simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class Instances:
    def __init__(self, image_size, **fields):
        self.image_size, self._fields = image_size, dict(fields)

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._fields:
            raise AttributeError(name)
        return self._fields[name]

    def to(self, *args, **kwargs):
        return Instances(self.image_size, **{k: v.to(*args, **kwargs) for k, v in self._fields.items()})

class GeneralizedRCNN(nn.Module):
    def __init__(self, pixel_mean=(103.53, 116.28, 123.675), pixel_std=(1.0, 1.0, 1.0), num_classes=5, topk=10):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.backbone.size_divisibility = 32
        self.cls_head = nn.Conv2d(32, num_classes, 1)
        self.box_head = nn.Conv2d(32, 4, 1)
        self.topk = topk
        self.register_buffer("pixel_mean", torch.tensor(pixel_mean).view(-1, 1, 1), False)
        self.register_buffer("pixel_std", torch.tensor(pixel_std).view(-1, 1, 1), False)

    @property
    def device(self):
        return self.pixel_mean.device

    def _move_to_current_device(self, x):
        return x.to(self.pixel_mean.device)

    def preprocess_image(self, batched_inputs):
        images = [self._move_to_current_device(x["image"]) for x in batched_inputs]
        images = [(x - self.pixel_mean) / self.pixel_std for x in images]
        image_size = tuple(images[0].shape[-2:])
        stride = self.backbone.size_divisibility
        max_h, max_w = [(s + stride - 1) // stride * stride for s in image_size]
        padded = F.pad(images[0], [0, max_w - image_size[1], 0, max_h - image_size[0]], value=0.0)
        return padded.unsqueeze(0), [image_size]

    def inference(self, images, image_sizes):
        feats = self.backbone(images)
        scores = self.cls_head(feats).sigmoid().flatten(2)               # (N, C, HW)
        boxes = self.box_head(feats).flatten(2).transpose(1, 2)          # (N, HW, 4)
        best, classes = scores.max(dim=1)
        top_scores, top_idx = best.topk(self.topk, dim=1)
        top_boxes = boxes.gather(1, top_idx.unsqueeze(-1).expand(-1, -1, 4)).sigmoid()
        top_classes = classes.gather(1, top_idx)
        results = []
        for i, (h, w) in enumerate(image_sizes):
            xyxy = top_boxes.select(0, i) * torch.tensor([w, h, w, h], device=top_boxes.device)
            results.append(Instances((h, w), pred_boxes=xyxy, scores=top_scores.select(0, i),
                                     pred_classes=top_classes.select(0, i)))
        return results

    def forward(self, batched_inputs):
        images, image_sizes = self.preprocess_image(batched_inputs)
        results = self.inference(images, image_sizes)
        processed = []
        for results_per_image, input_per_image, image_size in zip(results, batched_inputs, image_sizes):
            height = input_per_image.get("height", image_size[0])
            width = input_per_image.get("width", image_size[1])
            processed.append({"instances": detector_postprocess(results_per_image, height, width)})
        return processed

def detector_postprocess(results, output_height, output_width):
    scale_x, scale_y = output_width / results.image_size[1], output_height / results.image_size[0]
    boxes = results.pred_boxes * torch.tensor([scale_x, scale_y, scale_x, scale_y], device=results.pred_boxes.device)
    boxes = torch.stack([boxes.select(1, 0).clamp(0, output_width), boxes.select(1, 1).clamp(0, output_height),
                         boxes.select(1, 2).clamp(0, output_width), boxes.select(1, 3).clamp(0, output_height)], dim=1)
    return Instances((output_height, output_width), pred_boxes=boxes, scores=results.scores,
                     pred_classes=results.pred_classes)

class DefaultPredictor:
    def __init__(self, model, input_format="BGR", min_size=64):
        self.model = model.eval()
        self.input_format, self.min_size = input_format, min_size

    def __call__(self, original_image):
        with torch.no_grad():
            if self.input_format == "RGB":
                original_image = original_image[:, :, ::-1]
            height, width = original_image.shape[:2]
            # ResizeShortestEdge (reduced: nearest-neighbour index resize in numpy)
            scale = self.min_size / min(height, width)
            new_h, new_w = int(round(height * scale)), int(round(width * scale))
            ys = (np.arange(new_h) / scale).astype(int).clip(0, height - 1)
            xs = (np.arange(new_w) / scale).astype(int).clip(0, width - 1)
            image = original_image[ys][:, xs]
            image = torch.as_tensor(image.astype("float32").transpose(2, 0, 1))
            inputs = {"image": image, "height": height, "width": width}
            predictions = self.model([inputs])[0]
            return predictions

# cfg.MODEL.DEVICE = "cuda"; predictor = DefaultPredictor(cfg)
model = GeneralizedRCNN().to("cuda:0")
predictor = DefaultPredictor(model)
im = np.random.RandomState(0).randint(0, 256, (48, 80, 3)).astype(np.uint8)   # cv2.imread(...)
'''
CELL = '''
outputs = predictor(im)
instances = outputs["instances"].to("cpu")     # v.draw_instance_predictions(...) wants CPU tensors
n_people = (instances.pred_classes == 0).sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
