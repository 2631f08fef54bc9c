"""OWL-ViT zero-shot detection on the GPU: `processor.post_process` gets a CPU `target_sizes` next to GPU outputs.

Source: https://github.com/google-research/scenic/issues/413
Running the Hugging Face OWL-ViT example with the model and inputs on CUDA, `processor.post_process(
outputs=outputs, target_sizes=target_sizes)` fails with "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!". The user points at the cause: `target_sizes =
torch.Tensor([image.size[::-1]])` is made on the CPU while the model outputs are still on the GPU;
`post_process` scales the GPU boxes by a factor stacked from `target_sizes`. Putting the two on one
device (here `target_sizes` on the GPU) makes it run.
Stand-in: OwlViTProcessor/OwlViTForObjectDetection reduced to a patch embedding, a text embedding and
the class/box heads; `post_process` follows transformers 4.24. The image is a numpy array instead of
PIL (`image.size[::-1]` is `image.shape[:2]`).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def center_to_corners_format(x):
    x_c, y_c, w, h = x.unbind(-1)
    b = [(x_c - 0.5 * w), (y_c - 0.5 * h), (x_c + 0.5 * w), (y_c + 0.5 * h)]
    return torch.stack(b, dim=-1)

class OwlViTObjectDetectionOutput:
    def __init__(self, logits, pred_boxes):
        self.logits, self.pred_boxes = logits, pred_boxes

class OwlViTProcessor:
    def __init__(self, vocab_size=100, patch=32, size=96):
        self.vocab_size, self.patch, self.size = vocab_size, patch, size

    def __call__(self, text=None, images=None, return_tensors="pt"):
        input_ids = torch.tensor([[hash(w) % self.vocab_size for w in t.split()][:4] + [0] * (4 - len(t.split()[:4]))
                                  for t in text])
        pixel_values = torch.rand(1, 3, self.size, self.size)   # resize + normalize of `images`
        return {"input_ids": input_ids, "attention_mask": (input_ids > 0).long(), "pixel_values": pixel_values}

    def post_process(self, outputs, target_sizes):
        logits, boxes = outputs.logits, outputs.pred_boxes
        if len(logits) != len(target_sizes):
            raise ValueError("Make sure that you pass in as many target sizes as the batch dimension of the logits")
        if target_sizes.shape[1] != 2:
            raise ValueError("Each element of target_sizes must contain the size (h, w) of each image of the batch")
        probs = torch.max(logits, dim=-1)
        scores = torch.sigmoid(probs.values)
        labels = probs.indices
        boxes = center_to_corners_format(boxes)
        img_h, img_w = target_sizes.unbind(1)
        scale_fct = torch.stack([img_w, img_h, img_w, img_h], dim=1)
        boxes = boxes * scale_fct[:, None, :]
        return [{"scores": s, "labels": l, "boxes": b} for s, l, b in zip(scores, labels, boxes)]

class OwlViTForObjectDetection(nn.Module):
    def __init__(self, vocab_size=100, dim=32, patch=32):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        self.token_embedding = nn.Embedding(vocab_size, dim)
        self.class_head = nn.Linear(dim, dim)
        self.box_head = nn.Linear(dim, 4)

    def forward(self, input_ids, attention_mask, pixel_values):
        image_embeds = self.patch_embed(pixel_values).flatten(2).transpose(1, 2)      # (1, patches, dim)
        mask = attention_mask.unsqueeze(-1).float()
        query_embeds = (self.token_embedding(input_ids) * mask).sum(1) / mask.sum(1).clamp(min=1)
        logits = self.class_head(image_embeds) @ query_embeds.t()                      # (1, patches, queries)
        pred_boxes = torch.sigmoid(self.box_head(image_embeds))
        return OwlViTObjectDetectionOutput(logits=logits, pred_boxes=pred_boxes)

device = torch.device("cuda:0")
processor = OwlViTProcessor()
model = OwlViTForObjectDetection().to(device)
model.eval()
image = np.zeros((480, 640, 3), dtype=np.uint8)       # Image.open(requests.get(url, stream=True).raw)
texts = [["a photo of a cat", "a photo of a dog"]]
inputs = processor(text=texts[0], images=image, return_tensors="pt")
inputs = {k: v.to(device) for k, v in inputs.items()}
with torch.no_grad():
    outputs = model(**inputs)
# Target image sizes (height, width) to rescale box predictions [batch_size, 2]
target_sizes = torch.Tensor([image.shape[:2]])          # torch.Tensor([image.size[::-1]])
'''
CELL = '''
# Convert outputs (bounding boxes and class logits) to COCO API
results = processor.post_process(outputs=outputs, target_sizes=target_sizes)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["target_sizes"]
FIX = "namespace"
REFERENCE_FIX = '''
target_sizes = target_sizes.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
