"""Donut on the GPU without `.half()`: `inference` casts the image to half for a float32 model.

Source: https://github.com/clovaai/donut/issues/174
"When running the following code without using model.to(device), it works. But when using the device
(which is a GPU), I get the following error: RuntimeError: Input type (c10::Half) and bias type
(float) should be the same": `DonutModel.inference` casts the prepared image with `.half()` whenever
`self.device.type == "cuda"`, assuming the model was halved as in the repo's demo; the reporter only
did `pretrained_model.to(device)`. The fix given in the thread: `pretrained_model.half()` before
`.to(device)`. Stand-in: DonutModel / SwinEncoder / BARTDecoder reduced to the patch embedding
(with the Swin patch-embedding norm) and a one-step decode.
"""

SIM = "fake_cuda"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class PatchEmbed(nn.Module):
    def __init__(self, embed_dim=32, patch=4):
        super().__init__()
        self.proj = nn.Conv2d(3, embed_dim, kernel_size=patch, stride=patch)
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, x):
        return self.norm(self.proj(x).flatten(2).transpose(1, 2))

class SwinEncoder(nn.Module):
    def __init__(self, input_size=(64, 48), embed_dim=32):
        super().__init__()
        self.input_size = input_size
        self.patch_embed = PatchEmbed(embed_dim)
        self.head = nn.Linear(embed_dim, embed_dim)

    def prepare_input(self, img):
        x = img.permute(2, 0, 1).float() / 255.0
        x = nn.functional.interpolate(x[None], size=self.input_size, mode="bilinear", align_corners=False)[0]
        return (x - 0.5) / 0.5

    def forward(self, x):
        return self.head(self.patch_embed(x))

class BARTDecoder(nn.Module):
    def __init__(self, d_model=32, vocab=50):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.lm_head = nn.Linear(d_model, vocab)

    def forward(self, prompt_ids, encoder_outputs):
        return self.lm_head(self.embed(prompt_ids) + encoder_outputs.mean(1, keepdim=True))

class DonutModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = SwinEncoder()
        self.decoder = BARTDecoder()

    @property
    def device(self):
        return next(self.parameters()).device

    @torch.no_grad()
    def inference(self, image, prompt):
        image_tensors = self.encoder.prepare_input(image).unsqueeze(0)
        if self.device.type == "cuda":
            image_tensors = image_tensors.half()
            image_tensors = image_tensors.to(self.device)
        prompt_tensors = torch.tensor([[0, len(prompt) % 50]], device=self.device)
        last_hidden_state = self.encoder(image_tensors)
        logits = self.decoder(prompt_tensors, last_hidden_state)
        return {"predictions": [logits.argmax(-1)]}

device = torch.device("cuda:0")      # torch.device("cuda" if torch.cuda.is_available() else "cpu")
task_prompt = f"<s_cord-v2>"
image = torch.randint(0, 256, (120, 90, 3), dtype=torch.uint8)   # Image.open(".../receipt_00004.png")
pretrained_model = DonutModel()      # DonutModel.from_pretrained("naver-clova-ix/donut-base-finetuned-cord-v2")
pretrained_model.to(device)
pretrained_model.eval()
'''
CELL = '''
output = pretrained_model.inference(image=image, prompt=task_prompt)["predictions"][0]
'''
EXPECT_ERROR = ("Input type (c10::Half) and bias type (float)", "should be the same")
CULPRITS = ["pretrained_model"]
FIX = "namespace"
REFERENCE_FIX = '''
pretrained_model.half()
'''
REFERENCE_EDIT = None
CLEAN = False
