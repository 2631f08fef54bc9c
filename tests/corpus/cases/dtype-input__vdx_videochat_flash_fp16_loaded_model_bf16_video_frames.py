"""VideoChat-Flash after fine-tuning: `load_pretrained_model` loads the checkpoint in float16 while the video frames are fed in bfloat16.

Source: https://github.com/OpenGVLab/VideoChat-Flash/issues/55
After stage-3 video SFT of `stage2-UMT-Qwen2.5-1.5B-tome16_mlp` on their own data, inference failed
with "Input type (BFloat16) and bias type (Half) should be the same"; casting the bias by hand only
moved the error. The reporter traced it to how the inputs were loaded and fixed it with
`model = model.to(torch.bfloat16)`: the repo's `load_pretrained_model` sets
`kwargs["torch_dtype"] = torch.float16` unless asked otherwise, while the LLaVA-style video path
preprocesses the frames `.to(device, dtype=torch.bfloat16)`, so the UMT vision tower's Conv3d patch
embedding (fp16) receives bf16 frames. Stand-in: a toy `LlavaQwenForCausalLM_Flash` (UMT patch embed,
mlp projector, Qwen embedding + lm head) built by a `load_pretrained_model` that keeps the fp16
default; the image processor is a resize/normalise over random uint8 frames; runs on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

IMAGE_TOKEN_INDEX = -200

class UMTVisionTower(nn.Module):
    def __init__(self, embed_dim=32, tubelet=1, patch=8):
        super().__init__()
        self.patch_embed = nn.Conv3d(3, embed_dim, (tubelet, patch, patch), stride=(tubelet, patch, patch))
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, video):                      # (T, 3, H, W) frames of one video
        x = video.permute(1, 0, 2, 3).unsqueeze(0)  # (1, 3, T, H, W)
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        return self.norm(x)

class LlavaQwenForCausalLM_Flash(nn.Module):
    def __init__(self, vocab=1000, hidden=64, vision_dim=32):
        super().__init__()
        self.vision_tower = UMTVisionTower(embed_dim=vision_dim)
        self.mm_projector = nn.Sequential(nn.Linear(vision_dim, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def get_vision_tower(self):
        return self.vision_tower

    def encode_video_image(self, images):
        return [self.mm_projector(self.get_vision_tower()(video)) for video in images]

    def forward(self, input_ids, images, modalities=("video",)):
        video_features = self.encode_video_image(images)
        text = input_ids[input_ids != IMAGE_TOKEN_INDEX].unsqueeze(0)
        embeds = torch.cat([video_features[0], self.embed_tokens(text)], dim=1)
        return self.lm_head(embeds)

def load_pretrained_model(model_path, model_base, model_name, load_8bit=False, load_4bit=False,
                          device_map="auto", **kwargs):
    if not (load_8bit or load_4bit):
        kwargs["torch_dtype"] = torch.float16
    model = LlavaQwenForCausalLM_Flash()            # from_pretrained(model_path, **kwargs)
    model = model.to(kwargs["torch_dtype"])
    tokenizer, image_processor, context_len = None, None, 32768
    return tokenizer, model, image_processor, context_len

def preprocess_frames(frames, size=32, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225)):
    x = torch.from_numpy(frames).permute(0, 3, 1, 2).float() / 255.0
    x = F.interpolate(x, size=(size, size), mode="bilinear", align_corners=False)
    return (x - torch.tensor(mean).view(1, 3, 1, 1)) / torch.tensor(std).view(1, 3, 1, 1)

model_path = "work_dirs/stage3-video_sft/videochat-flash-qwen2_5-1_5b_tome16_mlp"
tokenizer, model, image_processor, max_length = load_pretrained_model(
    model_path, None, "videochat-flash-qwen2_5-1_5b", device_map="auto")
model.eval()

frames = np.random.default_rng(0).integers(0, 256, (8, 64, 64, 3), dtype=np.uint8)   # decord frames
video = preprocess_frames(frames).to(dtype=torch.bfloat16)
input_ids = torch.tensor([[IMAGE_TOKEN_INDEX, 12, 45, 99, 7]])
'''
CELL = '''
with torch.inference_mode():
    logits = model(input_ids, images=[video], modalities=["video"])
'''
EXPECT_ERROR = ("should be the same", "must have the same dtype", "expected scalar type")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
