"""CLIP Interrogator in low-VRAM mode: the CLIP model is parked on the CPU while BLIP captions on the GPU, and swapped back for CLIP scoring.

Source: https://github.com/pharmapsychotic/clip-interrogator/blob/main/clip_interrogator/clip_interrogator.py
With `caption_offload`/`clip_offload` set (`Config.apply_low_vram_defaults()`), `Interrogator` keeps
only one of its two models on the GPU: `_prepare_caption()` moves `self.clip_model` to 'cpu' and the
caption model to `self.device`; `_prepare_clip()` does the reverse before `image_to_features` and
`similarities`, which move the preprocessed image and the tokens to `self.device`. Look-alike: a VLM
pipeline where one model sits on the CPU on purpose while the other runs on cuda; every call first
swaps the model it needs onto the GPU, and it runs.
Stand-ins: toy BLIP captioner and open_clip model, the processor/preprocess/tokenizer; `device` is
'cuda:0' (the repo uses 'cuda'); `similarities` returns the score column (its `.tolist()` is left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Config:
    caption_model_name = "blip-large"
    caption_max_length = 32
    caption_offload = False
    clip_model_name = "ViT-L-14/openai"
    clip_offload = False
    device = "cuda:0"

    def apply_low_vram_defaults(self):
        self.caption_model_name = "blip-base"
        self.caption_offload = True
        self.clip_offload = True

class BlipForConditionalGeneration(nn.Module):      # toy captioner
    def __init__(self):
        super().__init__()
        self.vision = nn.Linear(3 * 8 * 8, 32)
        self.lm_head = nn.Linear(32, 100)

    def generate(self, pixel_values, max_new_tokens=20):
        return self.lm_head(self.vision(pixel_values.flatten(1))).argmax(-1, keepdim=True)

class BlipProcessor:
    def __call__(self, images, return_tensors="pt"):
        return BatchFeature({"pixel_values": torch.as_tensor(images, dtype=torch.float32).unsqueeze(0)})

    def batch_decode(self, tokens, skip_special_tokens=True):
        return ["a photo of a lighthouse at sunset"]

class BatchFeature(dict):
    def to(self, arg):
        if isinstance(arg, torch.dtype):
            return BatchFeature({k: v.to(arg) if v.is_floating_point() else v for k, v in self.items()})
        return BatchFeature({k: v.to(arg) for k, v in self.items()})

class OpenCLIP(nn.Module):                          # toy open_clip model
    def __init__(self, d=32):
        super().__init__()
        self.visual = nn.Linear(3 * 8 * 8, d)
        self.token_embedding = nn.Embedding(100, d)
        self.text_projection = nn.Linear(d, d)

    def encode_image(self, image):
        return self.visual(image.flatten(1))

    def encode_text(self, text):
        return self.text_projection(self.token_embedding(text).mean(1))

class Interrogator():
    def __init__(self, config: Config):
        self.config = config
        self.device = config.device
        self.dtype = torch.float16 if self.device.startswith('cuda') else torch.float32
        self.caption_offloaded = True
        self.clip_offloaded = True
        self.load_caption_model()
        self.load_clip_model()

    def load_caption_model(self):
        caption_model = BlipForConditionalGeneration().to(self.dtype)
        self.caption_processor = BlipProcessor()
        caption_model.eval()
        if not self.config.caption_offload:
            caption_model = caption_model.to(self.config.device)
        self.caption_model = caption_model

    def load_clip_model(self):
        # open_clip.create_model_and_transforms(..., precision='fp16', device=config.device)
        self.clip_model = OpenCLIP().to(device=self.config.device, dtype=self.dtype)
        self.clip_preprocess = lambda image: torch.as_tensor(image, dtype=torch.float32)
        self.tokenize = lambda texts: torch.randint(0, 100, (len(texts), 77))
        self.clip_model.eval()

    def generate_caption(self, pil_image) -> str:
        assert self.caption_model is not None, "No caption model loaded."
        self._prepare_caption()
        inputs = self.caption_processor(images=pil_image, return_tensors="pt").to(self.device)
        if not self.config.caption_model_name.startswith('git-'):
            inputs = inputs.to(self.dtype)
        tokens = self.caption_model.generate(**inputs, max_new_tokens=self.config.caption_max_length)
        return self.caption_processor.batch_decode(tokens, skip_special_tokens=True)[0].strip()

    def image_to_features(self, image) -> torch.Tensor:
        self._prepare_clip()
        images = self.clip_preprocess(image).unsqueeze(0).to(device=self.device, dtype=self.dtype)
        with torch.no_grad():
            image_features = self.clip_model.encode_image(images)
            image_features /= image_features.norm(dim=-1, keepdim=True)
        return image_features

    def similarities(self, image_features, text_array):
        self._prepare_clip()
        text_tokens = self.tokenize([text for text in text_array]).to(self.device)
        with torch.no_grad():
            text_features = self.clip_model.encode_text(text_tokens)
            text_features /= text_features.norm(dim=-1, keepdim=True)
            similarity = text_features @ image_features.T
        return similarity.T[0]

    def _prepare_caption(self):
        if self.config.clip_offload and not self.clip_offloaded:
            self.clip_model = self.clip_model.to('cpu')
            self.clip_offloaded = True
        if self.caption_offloaded:
            self.caption_model = self.caption_model.to(self.device)
            self.caption_offloaded = False

    def _prepare_clip(self):
        if self.config.caption_offload and not self.caption_offloaded:
            self.caption_model = self.caption_model.to('cpu')
            self.caption_offloaded = True
        if self.clip_offloaded:
            self.clip_model = self.clip_model.to(self.device)
            self.clip_offloaded = False

config = Config()
config.apply_low_vram_defaults()
ci = Interrogator(config)
image = torch.rand(3, 8, 8)                         # PIL image stand-in
flavors = ["oil painting", "long exposure", "golden hour", "trending on artstation"]
'''
CELL = '''
with torch.no_grad():
    caption = ci.generate_caption(image)
    image_features = ci.image_to_features(image)
    scores = ci.similarities(image_features, [f"{caption}, {f}" for f in flavors])
    next_caption = ci.generate_caption(image)       # parks CLIP on the CPU again
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
