"""transformers DETR post-processing: with `target_sizes` given as a list, the box scale is built with `torch.Tensor(...)` on the CPU while the model's boxes are on the GPU.

Source: https://github.com/huggingface/transformers/pull/20304
"fix device issue": in `post_process_object_detection`, when `target_sizes` is a List the code does
`img_h = torch.Tensor([i[0] for i in target_sizes])`, `img_w = ...`, so `scale_fct` "is always on cpu"
and `boxes * scale_fct[:, None, :]` fails for a model running on CUDA ("We need to put it on the proper
device"). The PR adds `.to(boxes.device)`. Stand-in: a DetrForObjectDetection-shaped model returning
logits/pred_boxes and DetrImageProcessor.post_process_object_detection; the score threshold by top-k
(no boolean masks in the simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
from typing import List
import torch
import torch.nn as nn

def center_to_corners_format(x):
    center_x, center_y, width, height = x.unbind(-1)
    return torch.stack([center_x - 0.5 * width, center_y - 0.5 * height,
                        center_x + 0.5 * width, center_y + 0.5 * height], dim=-1)

class DetrForObjectDetection(nn.Module):
    def __init__(self, num_labels=91, num_queries=10, d_model=32):
        super().__init__()
        self.backbone = nn.Conv2d(3, d_model, 16, 16)
        self.query_position_embeddings = nn.Embedding(num_queries, d_model)
        self.class_labels_classifier = nn.Linear(d_model, num_labels + 1)
        self.bbox_predictor = nn.Linear(d_model, 4)

    def forward(self, pixel_values):
        memory = self.backbone(pixel_values).flatten(2).mean(-1)
        hs = self.query_position_embeddings.weight.unsqueeze(0) + memory.unsqueeze(1)
        return SimpleNamespace(logits=self.class_labels_classifier(hs), pred_boxes=self.bbox_predictor(hs).sigmoid())

class DetrImageProcessor:
    def post_process_object_detection(self, outputs, threshold=0.5, target_sizes=None, top_k=5):
        out_logits, out_bbox = outputs.logits, outputs.pred_boxes
        prob = nn.functional.softmax(out_logits, -1)
        scores, labels = prob.narrow(-1, 0, prob.shape[-1] - 1).max(-1)
        boxes = center_to_corners_format(out_bbox)
        if target_sizes is not None:
            if isinstance(target_sizes, List):
                img_h = torch.Tensor([i[0] for i in target_sizes])
                img_w = torch.Tensor([i[1] for i in target_sizes])
            else:
                img_h, img_w = target_sizes.unbind(1)
            scale_fct = torch.stack([img_w, img_h, img_w, img_h], dim=1)
            boxes = boxes * scale_fct.unsqueeze(1)               # scale_fct[:, None, :]
        results = []
        for s, l, b in zip(scores.unbind(0), labels.unbind(0), boxes.unbind(0)):
            keep = s.topk(top_k).indices                    # stands in for `s > threshold`
            results.append({"scores": s.gather(0, keep), "labels": l.gather(0, keep),
                            "boxes": b.gather(0, keep.unsqueeze(-1).expand(-1, 4))})
        return results

device = torch.device("cuda:0")
image_processor = DetrImageProcessor()                 # DetrImageProcessor.from_pretrained("facebook/detr-resnet-50")
model = DetrForObjectDetection().to(device)            # DetrForObjectDetection.from_pretrained(...).to(device)
inputs = {"pixel_values": torch.rand(1, 3, 64, 96).to(device)}
image_size = (480, 640)                                 # image.size[::-1]
'''
CELL = '''
with torch.no_grad():
    outputs = model(**inputs)
results = image_processor.post_process_object_detection(outputs, threshold=0.9, target_sizes=[image_size])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["image_processor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            scale_fct = torch.stack([img_w, img_h, img_w, img_h], dim=1)\n",
                  "            scale_fct = torch.stack([img_w, img_h, img_w, img_h], dim=1).to(boxes.device)\n")
CLEAN = False
