"""Look-alike: LangSAM runs GroundingDINO on the GPU, gets its boxes back on the CPU and scales them with a CPU tensor.

Source: https://github.com/luca-medeiros/lang-segment-anything/pull/60
lang_sam's `predict_dino` calls GroundingDINO's `predict(model, image, caption, ..., device=self.device)`,
which moves the model and image to the GPU and returns `outputs["pred_boxes"].cpu()`; `predict_dino`
then computes `box_cxcywh_to_xyxy(boxes) * torch.Tensor([W, H, W, H])` on the CPU. The PR reports a
failure only when another library had switched the default tensor type to CUDA; in the normal
setting the GPU model next to CPU boxes and a CPU scale is correct: no finding expected.
Stand-in: a tiny GroundingDINO (image/text projections, query head) and `predict` with top-k in
place of the threshold mask; the caption tokenizer by a fixed embedding.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def box_cxcywh_to_xyxy(x):
    x_c, y_c, w, h = x.unbind(-1)
    return torch.stack([x_c - 0.5 * w, y_c - 0.5 * h, x_c + 0.5 * w, y_c + 0.5 * h], dim=-1)

class GroundingDINO(nn.Module):
    def __init__(self, num_queries=20, d=32, max_text_len=16):
        super().__init__()
        self.backbone = nn.Linear(3 * 8 * 8, d)
        self.text_embed = nn.Embedding(100, d)
        self.query_embed = nn.Linear(d, num_queries * d)
        self.bbox_embed = nn.Linear(d, 4)
        self.num_queries, self.d = num_queries, d

    def forward(self, samples, captions=None):
        feat = self.backbone(nn.functional.adaptive_avg_pool2d(samples, 8).flatten(1))
        tokens = torch.arange(16, device=samples.device).unsqueeze(0)
        text = self.text_embed(tokens)
        hs = self.query_embed(feat).view(-1, self.num_queries, self.d)
        return {"pred_logits": hs @ text.transpose(1, 2), "pred_boxes": self.bbox_embed(hs).sigmoid()}

def predict(model, image, caption, box_threshold, text_threshold, device="cuda", remove_combined=False):
    model = model.to(device)
    image = image.to(device)
    with torch.no_grad():
        outputs = model(image.unsqueeze(0), captions=[caption])
    prediction_logits = outputs["pred_logits"].cpu().sigmoid()[0]
    prediction_boxes = outputs["pred_boxes"].cpu()[0]
    scores, keep = prediction_logits.max(dim=1)[0].topk(5)           # stands in for `> box_threshold`
    boxes = prediction_boxes[keep]
    return boxes, scores, ["object"] * 5

class LangSAM:
    def __init__(self, device="cuda:0"):
        self.device = device
        self.groundingdino = GroundingDINO()

    def predict_dino(self, image_pil, text_prompt, box_threshold, text_threshold):
        image_trans = image_pil["tensor"]                                 # transform_image(image_pil)
        boxes, logits, phrases = predict(model=self.groundingdino, image=image_trans, caption=text_prompt,
                                         box_threshold=box_threshold, text_threshold=text_threshold,
                                         device=self.device)
        W, H = image_pil["size"]
        boxes = box_cxcywh_to_xyxy(boxes) * torch.Tensor([W, H, W, H])
        return boxes, logits, phrases

model = LangSAM()
image_pil = {"tensor": torch.rand(3, 64, 96), "size": (96, 64)}          # Image.open(...).convert("RGB")
'''
CELL = '''
boxes, logits, phrases = model.predict_dino(image_pil, "wheel", box_threshold=0.3, text_threshold=0.25)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
