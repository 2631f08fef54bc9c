"""open-parse table parsing on a CUDA machine: `find_table_bboxes` sends the page tensor to a hard-coded "cpu" while the Table Transformer sits on `device`.

Source: https://github.com/Filimoa/open-parse/issues/17
"RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the
same" when parsing a PDF with `table_args={"parsing_algorithm": "table-transformers"}` on a GPU
machine. `openparse/tables/table_transformers/ml.py` loads `detection_model` with `.to(device)`
(cuda when available) but builds `pixel_values = detection_transform(image).unsqueeze(0).to("cpu")`;
the fix (PR #18) writes `.to(device)`. Stand-in: the module-level model/transform of `ml.py`, a tiny
DETR-like detector instead of microsoft/table-transformer-detection, torch-only resize/normalise
instead of torchvision, numpy page images instead of PIL, `DocumentParser.parse` reduced to the
table-ingest loop, the raw detector outputs returned (no box post-processing).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

device = torch.device("cuda:0")   # torch.device("cuda" if cuda_available and user_preferred_device != "cpu" else "cpu")

class TableTransformerForObjectDetection(nn.Module):
    """microsoft/table-transformer-detection (reduced): backbone, projection, query heads."""
    def __init__(self, d_model=32, num_queries=15, num_labels=2):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 7, stride=4, padding=3), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.input_projection = nn.Linear(16, d_model)
        self.query_position_embeddings = nn.Embedding(num_queries, d_model)
        self.class_labels_classifier = nn.Linear(d_model, num_labels + 1)
        self.bbox_predictor = nn.Linear(d_model, 4)

    def forward(self, pixel_values):
        feats = self.backbone(pixel_values).flatten(2).transpose(1, 2)
        memory = self.input_projection(feats).mean(1, keepdim=True)
        hidden = self.query_position_embeddings.weight.unsqueeze(0) + memory
        return {"logits": self.class_labels_classifier(hidden),
                "pred_boxes": self.bbox_predictor(hidden).sigmoid()}

class MaxResize:
    def __init__(self, max_size=800):
        self.max_size = max_size
    def __call__(self, image):
        height, width = image.shape[-2:]
        scale = self.max_size / max(width, height)
        return F.interpolate(image[None], size=(int(round(scale * height)), int(round(scale * width))),
                             mode="bilinear", align_corners=False)[0]

class Compose:
    def __init__(self, transforms):
        self.transforms = transforms
    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x

def to_tensor(image):
    return torch.from_numpy(image).permute(2, 0, 1).float() / 255

class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = torch.tensor(mean).view(3, 1, 1), torch.tensor(std).view(3, 1, 1)
    def __call__(self, x):
        return (x - self.mean) / self.std

detection_model = TableTransformerForObjectDetection().to(device)
detection_transform = Compose([to_tensor, MaxResize(800),
                               Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])

def find_table_bboxes(image, min_table_confidence):
    pixel_values = detection_transform(image).unsqueeze(0).to("cpu")
    with torch.no_grad():
        outputs = detection_model(pixel_values)
    return outputs

class DocumentParser:
    def __init__(self, table_args=None):
        self.table_args = table_args or {}

    def parse(self, pdf_as_imgs):
        pages_with_tables = {}
        for page_num, img in enumerate(pdf_as_imgs):
            pages_with_tables[page_num] = find_table_bboxes(img, self.table_args.get("min_table_confidence", 0.75))
        return pages_with_tables

parser = DocumentParser(table_args={"parsing_algorithm": "table-transformers"})
pdf_as_imgs = [np.random.randint(0, 255, (110, 85, 3), dtype=np.uint8) for _ in range(2)]   # doc_to_imgs(pdoc)
'''
CELL = '''
parsed_doc = parser.parse(pdf_as_imgs)
'''
EXPECT_ERROR = ("Input type", "Expected all tensors to be on the same device")
CULPRITS = ["pixel_values"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('pixel_values = detection_transform(image).unsqueeze(0).to("cpu")',
                  'pixel_values = detection_transform(image).unsqueeze(0).to(device)')
CLEAN = False
