"""InternLM-XComposer2-VL in float16 without autocast: the image built from a path stays float32.

Source: https://github.com/InternLM/InternLM-XComposer/issues/317
Loading internlm-xcomposer2-vl-7b with `torch_dtype=torch.float16, device_map="auto"` and calling
`model.chat(query=text, image=path, tokenizer=tokenizer, history=[])` raised "mat1 and mat2 must
have the same dtype, but got Float and Half". `encode_img` opens the path and makes
`self.vis_processor(image).unsqueeze(0).to(self.device)`, float32; the CLIP tower runs it in its own
dtype but hands the features back as `.to(images.dtype)` (float32), and the float16 `vision_proj`
fails. The README's examples run chat under `torch.cuda.amp.autocast()`, which hides it; the
reporter's script did not. Stand-in: encode_img / img2emb at toy size on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class CLIPVisionTower(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, hidden, kernel_size=8, stride=8)

    def forward(self, images):
        feats = self.patch_embedding(images.to(dtype=self.patch_embedding.weight.dtype))
        return feats.flatten(2).transpose(1, 2).to(images.dtype)

class InternLMXComposer2ForCausalLM(nn.Module):
    def __init__(self, hidden=32, vocab=100):
        super().__init__()
        self.vit = CLIPVisionTower()
        self.vision_proj = nn.Sequential(nn.Linear(24, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.tok_embeddings = nn.Embedding(vocab, hidden)
        self.output = nn.Linear(hidden, vocab, bias=False)

    @property
    def device(self):
        return self.output.weight.device

    def vis_processor(self, image):
        return image                       # Resize/ToTensor/Normalize: a float32 CHW tensor

    def img2emb(self, image):
        img_embeds = self.vision_proj(self.vit(image.to(self.device)))
        atts_img = torch.ones(img_embeds.size()[:-1], dtype=torch.long).to(img_embeds.device)
        return img_embeds, atts_img, None

    def encode_img(self, image):
        if image is None:
            return None
        if isinstance(image, str):
            image = self.load_image(image)
            image = self.vis_processor(image).unsqueeze(0).to(self.device)
        img_embeds, atts_img, img_target = self.img2emb(image)
        return img_embeds

    def load_image(self, path):
        return torch.rand(3, 32, 32)       # Image.open(path).convert("RGB")

    @torch.no_grad()
    def chat(self, tokenizer, query, image=None, history=[], **kwargs):
        image = self.encode_img(image)
        text_embeds = self.tok_embeddings(tokenizer(query))
        inputs_embeds = torch.cat([image, text_embeds], dim=1)
        return self.output(inputs_embeds)[:, -1].argmax(-1), history

def tokenizer(text):
    return torch.tensor([[ord(c) % 100 for c in text[:20]]])

# AutoModelForCausalLM.from_pretrained(ckpt_path, torch_dtype=torch.float16, trust_remote_code=True, device_map="auto")
model = InternLMXComposer2ForCausalLM().half().eval()
model.tokenizer = tokenizer
text = "任务：你需要理解图片内容，理解图片中哪些文字是标题"
image_path = "体检有结节会癌变吗_1.jpg"
'''
CELL = '''
response, history = model.chat(query=text, image=image_path, tokenizer=tokenizer, history=[])
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype", "expected mat1 and mat2 to have the same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "image = self.vis_processor(image).unsqueeze(0).to(self.device)",
    "image = self.vis_processor(image).unsqueeze(0).to(self.device, dtype=self.output.weight.dtype)",
)
CLEAN = False
