"""Look-alike: DETR's `post_process_object_detection` gets `target_sizes` as a Python list while the outputs are on the GPU.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/detr/image_processing_detr.py
For a list of (height, width) pairs the image processor builds `img_h`/`img_w` with `torch.Tensor(...)` on
the CPU, but then stacks them into `scale_fct` and moves it with `.to(boxes.device)` before scaling the
GPU boxes (the fix of transformers PR #20304, now in the code). A CPU-side `target_sizes` list next to GPU
outputs is right here: no finding expected. Stand-in: DetrImageProcessor's post-processing and
DetrForObjectDetection reduced to query embeddings and the class/box heads over a pooled feature; the
threshold filter `s[s > threshold]` is returned as a `keep` mask (the simulator cannot index with a mask).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import List
import torch
import torch.nn as nn

def center_to_corners_format(bboxes_center):
    center_x, center_y, width, height = bboxes_center.unbind(-1)
    return torch.stack([(center_x - 0.5 * width), (center_y - 0.5 * height),
                        (center_x + 0.5 * width), (center_y + 0.5 * height)], dim=-1)

class DetrObjectDetectionOutput:
    def __init__(self, logits, pred_boxes):
        self.logits, self.pred_boxes = logits, pred_boxes

class DetrImageProcessor:
    def post_process_object_detection(self, outputs, threshold=0.5, target_sizes=None):
        out_logits, out_bbox = outputs.logits, outputs.pred_boxes
        if target_sizes is not None and len(out_logits) != len(target_sizes):
            raise ValueError("Make sure that you pass in as many target sizes as the batch dimension of the logits")
        prob = nn.functional.softmax(out_logits, -1)
        scores, labels = prob[..., :-1].max(-1)
        boxes = center_to_corners_format(out_bbox)
        if target_sizes is not None:
            if isinstance(target_sizes, List):
                img_h = torch.Tensor([i[0] for i in target_sizes])
                img_w = torch.Tensor([i[1] for i in target_sizes])
            else:
                img_h, img_w = target_sizes.unbind(1)
            scale_fct = torch.stack([img_w, img_h, img_w, img_h], dim=1).to(boxes.device)
            boxes = boxes * scale_fct[:, None, :]
        results = []
        for s, l, b in zip(scores, labels, boxes):
            keep = s > threshold
            results.append({"scores": s, "labels": l, "boxes": b, "keep": keep})
        return results

class DetrForObjectDetection(nn.Module):
    def __init__(self, num_labels=91, num_queries=20, d_model=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, d_model, 16, 16), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.query_position_embeddings = nn.Embedding(num_queries, d_model)
        self.class_labels_classifier = nn.Linear(d_model, num_labels + 1)
        self.bbox_predictor = nn.Linear(d_model, 4)

    def forward(self, pixel_values):
        hs = self.query_position_embeddings.weight[None] + self.backbone(pixel_values)[:, None]
        return DetrObjectDetectionOutput(self.class_labels_classifier(hs), self.bbox_predictor(hs).sigmoid())

device = torch.device("cuda:0")
processor = DetrImageProcessor()
model = DetrForObjectDetection().to(device).eval()
inputs = {"pixel_values": torch.rand(1, 3, 224, 224).to(device)}
image_size = (480, 640)                               # image.size[::-1] of the PIL image
with torch.no_grad():
    outputs = model(**inputs)
'''
CELL = '''
results = processor.post_process_object_detection(outputs, threshold=0.9, target_sizes=[image_size])[0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
