"""Look-alike: LayoutLMv2 takes the page image as a uint8 tensor and normalises it inside the model with `pixel_mean` / `pixel_std` buffers.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/layoutlmv2/modeling_layoutlmv2.py
The LayoutLMv2 image processor does not normalise (it only resizes to 224 and flips to BGR), so the
`image` input is a uint8 tensor; `LayoutLMv2VisualBackbone` registers `pixel_mean` and `pixel_std`
as (non-persistent) buffers, which follow `model.to(device)`, and its `forward` does
`images_input = ((images if torch.is_tensor(images) else images.tensor) - self.pixel_mean) / self.pixel_std`
before the backbone, so a uint8 image on the GPU next to float32 weights is the expected input.
Nothing to report. Stand-in: the detectron2 ResNeXt-FPN replaced by two conv layers; text
embeddings with 2D position embeddings, visual projection and a token-classification head.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LayoutLMv2VisualBackbone(nn.Module):
    def __init__(self, pixel_mean=(103.53, 116.28, 123.675), pixel_std=(57.375, 57.12, 58.395)):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 7, stride=4, padding=3), nn.ReLU(),
                                      nn.Conv2d(16, 16, 3, stride=2, padding=1))
        num_channels = len(pixel_mean)
        self.register_buffer("pixel_mean", torch.Tensor(pixel_mean).view(num_channels, 1, 1), persistent=False)
        self.register_buffer("pixel_std", torch.Tensor(pixel_std).view(num_channels, 1, 1), persistent=False)
        self.pool = nn.AdaptiveAvgPool2d((7, 7))

    def forward(self, images):
        images_input = ((images if torch.is_tensor(images) else images.tensor) - self.pixel_mean) / self.pixel_std
        features = self.backbone(images_input)
        return self.pool(features).flatten(start_dim=2).transpose(1, 2).contiguous()

class LayoutLMv2ForTokenClassification(nn.Module):
    def __init__(self, vocab_size=100, hidden_size=32, num_labels=7):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.x_position_embeddings = nn.Embedding(1024, hidden_size)
        self.y_position_embeddings = nn.Embedding(1024, hidden_size)
        self.visual = LayoutLMv2VisualBackbone()
        self.visual_proj = nn.Linear(16, hidden_size)
        self.encoder = nn.TransformerEncoderLayer(hidden_size, 4, 64, batch_first=True)
        self.classifier = nn.Linear(hidden_size, num_labels)

    def forward(self, input_ids, bbox, image, attention_mask):
        text = (self.word_embeddings(input_ids) + self.x_position_embeddings(bbox[:, :, 0])
                + self.y_position_embeddings(bbox[:, :, 1]))
        visual = self.visual_proj(self.visual(image))
        hidden = self.encoder(torch.cat([text, visual], dim=1))
        return {"logits": self.classifier(hidden[:, :input_ids.shape[1]])}

device = torch.device("cuda:0")                          # "cuda" if torch.cuda.is_available() else "cpu"
model = LayoutLMv2ForTokenClassification().to(device)    # from_pretrained("microsoft/layoutlmv2-base-uncased", num_labels=7)
model.eval()
encoding = {"input_ids": torch.randint(0, 100, (1, 10)),                 # processor(image, words, boxes=boxes, return_tensors="pt")
            "bbox": torch.randint(0, 1000, (1, 10, 4)),
            "image": torch.randint(0, 256, (1, 3, 224, 224), dtype=torch.uint8),
            "attention_mask": torch.ones(1, 10, dtype=torch.long)}
'''
CELL = '''
for k, v in encoding.items():
    encoding[k] = v.to(device)
with torch.no_grad():
    outputs = model(**encoding)
predictions = outputs["logits"].argmax(-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
