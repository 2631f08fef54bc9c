"""LLaVA fine-tuning with --bf16 but without DeepSpeed: float32 images reach the bfloat16 mm_projector.

Source: https://github.com/haotian-liu/LLaVA/issues/452
Running `python llava/train/train_mem.py ... --bf16 True` (no `deepspeed` launcher) raised
"RuntimeError: mat1 and mat2 must have the same dtype"; the reporter: "It's possible that the model
is bf16 and the images are fp32". `CLIPVisionTower.forward` runs the tower on
`images.to(device=self.device, dtype=self.dtype)` but returns
`self.feature_select(image_forward_outs).to(images.dtype)`, i.e. float32 again, and `encode_images`
feeds that to the bfloat16 `mm_projector`; under DeepSpeed's bf16 engine the batch's floating
tensors are cast, in a plain launch they are not. Stand-in: clip_encoder.py / llava_arch.py's
encode_images at toy size, the collated batch as a dict, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class CLIPVisionModel(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, hidden, kernel_size=8, stride=8)
        self.encoder = nn.Linear(hidden, hidden)

    @property
    def dtype(self):
        return self.patch_embedding.weight.dtype

    def forward(self, pixel_values):
        x = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        return self.encoder(x)

class CLIPVisionTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision_tower = CLIPVisionModel()
        self.vision_tower.requires_grad_(False)

    @property
    def dtype(self):
        return self.vision_tower.dtype

    @property
    def device(self):
        return self.vision_tower.patch_embedding.weight.device

    @torch.no_grad()
    def forward(self, images):
        image_forward_outs = self.vision_tower(images.to(device=self.device, dtype=self.dtype))
        image_features = image_forward_outs.to(images.dtype)
        return image_features

class LlavaLlamaModel(nn.Module):
    def __init__(self, hidden=32, vocab=100):
        super().__init__()
        self.vision_tower = CLIPVisionTower()
        self.mm_projector = nn.Sequential(nn.Linear(24, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.embed_tokens = nn.Embedding(vocab, hidden)

class LlavaLlamaForCausalLM(nn.Module):
    def __init__(self, vocab=100):
        super().__init__()
        self.model = LlavaLlamaModel(vocab=vocab)
        self.lm_head = nn.Linear(32, vocab, bias=False)

    def get_model(self):
        return self.model

    def encode_images(self, images):
        image_features = self.get_model().vision_tower(images)
        return self.get_model().mm_projector(image_features)

    def forward(self, input_ids, images, labels, attention_mask=None):
        image_features = self.encode_images(images)
        inputs_embeds = torch.cat([image_features, self.get_model().embed_tokens(input_ids)], dim=1)
        logits = self.lm_head(inputs_embeds)[:, image_features.shape[1]:]
        return nn.functional.cross_entropy(logits.flatten(0, 1).float(), labels.flatten(), ignore_index=-100)

# train.py with --bf16 True: from_pretrained(torch_dtype=torch.bfloat16), vision tower cast to bf16
model = LlavaLlamaForCausalLM().to(torch.bfloat16)
# DataCollatorForSupervisedDataset: images stacked as the image processor made them (float32)
input_ids = torch.randint(0, 100, (2, 10))
batch = dict(input_ids=input_ids, labels=input_ids.clone(), attention_mask=torch.ones_like(input_ids).bool(),
             images=torch.randn(2, 3, 32, 32))
'''
CELL = '''
loss = model(**batch)
loss.backward()
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype", "expected mat1 and mat2 to have the same dtype")
CULPRITS = ["batch['images']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["images"] = batch["images"].to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
