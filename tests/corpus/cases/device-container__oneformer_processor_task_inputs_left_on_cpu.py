"""OneFormerProcessor on a CUDA image: the fast image processor keeps pixel_values on the GPU, the tokenized task_inputs stay on the CPU.

Source: https://github.com/huggingface/transformers/issues/42722
"Ensure that OneFormerProcessor place text task_inputs to the same device as other inputs": fast
image processors return their outputs on the device of the input images, so loading an image,
moving it to cuda and calling `processor(images=image, task_inputs=["semantic"], return_tensors="pt")`
gives `pixel_values` on cuda:0 but `task_inputs` (from the tokenizer) on the CPU; `model(**inputs)`
then fails in the task encoder. Stand-ins: a processor with the same two halves returning a
`BatchFeature` (dict), and a small OneFormer-shaped model (pixel encoder + task token MLP).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class BatchFeature(dict):
    """transformers.BatchFeature: a dict of model inputs."""

class OneFormerImageProcessorFast:
    def __init__(self, size=32):
        self.size = size
        self.image_mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
        self.image_std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)

    def __call__(self, images):
        # works on the device of the input images (no copy back to the CPU)
        x = images.float() / 255.0
        x = (x - self.image_mean.to(x.device)) / self.image_std.to(x.device)
        return {"pixel_values": x.unsqueeze(0), "pixel_mask": torch.ones(1, self.size, self.size, device=x.device, dtype=torch.long)}

class CLIPTokenizer:
    vocab = {"the": 1, "task": 2, "is": 3, "semantic": 4, "instance": 5, "panoptic": 6}

    def __call__(self, texts, max_length=8):
        ids = [[self.vocab.get(w, 0) for w in t.split()] for t in texts]
        ids = [i + [0] * (max_length - len(i)) for i in ids]
        return {"input_ids": torch.tensor(ids)}

class OneFormerProcessor:
    def __init__(self):
        self.image_processor = OneFormerImageProcessorFast()
        self.tokenizer = CLIPTokenizer()

    def __call__(self, images, task_inputs, return_tensors="pt"):
        encoded = BatchFeature(self.image_processor(images))
        encoded["task_inputs"] = self.tokenizer([f"the task is {t}" for t in task_inputs])["input_ids"]
        return encoded

class OneFormerForUniversalSegmentation(nn.Module):
    def __init__(self, dim=16, num_labels=5):
        super().__init__()
        self.pixel_encoder = nn.Conv2d(3, dim, 3, padding=1)
        self.task_encoder = nn.Sequential(nn.Embedding(10, dim), nn.Linear(dim, dim))
        self.class_head = nn.Conv2d(dim, num_labels, 1)

    def forward(self, pixel_values, task_inputs, pixel_mask=None):
        feats = self.pixel_encoder(pixel_values)
        task = self.task_encoder(task_inputs).mean(1)          # [batch, dim]
        return self.class_head(feats * task.unsqueeze(-1).unsqueeze(-1))

device = torch.device("cuda:0")
processor = OneFormerProcessor()
model = OneFormerForUniversalSegmentation().to(device).eval()
image = torch.randint(0, 256, (3, 32, 32), dtype=torch.uint8).to(device)
inputs = processor(images=image, task_inputs=["semantic"], return_tensors="pt")
'''
CELL = '''
outputs = model(**inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs['task_inputs']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs["task_inputs"] = inputs["task_inputs"].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
