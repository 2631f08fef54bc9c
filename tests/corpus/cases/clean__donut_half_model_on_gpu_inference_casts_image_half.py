"""Look-alike: Donut on the GPU in half precision, `inference` casts the prepared image to half and moves it.

Source: https://github.com/clovaai/donut/issues/267
The CUDA branch of the reporter's script: `pretrained_model.half()`, `pretrained_model.to(device)`,
then `pretrained_model.inference(image=input_img, prompt=task_prompt)`. `DonutModel.inference` builds
the image tensor on the CPU in float32 with `encoder.prepare_input`, and because
`self.device.type == "cuda"` it casts it with `.half()` and moves it to `self.device` before the Swin
encoder runs; the prompt ids are created on the model's device. Nothing to report. Stand-in:
DonutModel / SwinEncoder / BARTDecoder reduced to the patch embedding and a one-step decode.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class SwinEncoder(nn.Module):
    def __init__(self, input_size=(64, 48), embed_dim=32):
        super().__init__()
        self.input_size = input_size
        self.patch_embed = nn.Conv2d(3, embed_dim, kernel_size=4, stride=4)
        self.norm = nn.LayerNorm(embed_dim)

    def prepare_input(self, img):
        x = img.permute(2, 0, 1).float() / 255.0
        x = nn.functional.interpolate(x[None], size=self.input_size, mode="bilinear", align_corners=False)[0]
        return (x - 0.5) / 0.5

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        return self.norm(x)

class BARTDecoder(nn.Module):
    def __init__(self, d_model=32, vocab=50):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.lm_head = nn.Linear(d_model, vocab)

    def forward(self, prompt_ids, encoder_outputs):
        h = self.embed(prompt_ids) + encoder_outputs.mean(1, keepdim=True).to(self.embed.weight.dtype)
        return self.lm_head(h)

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

pretrained_model = DonutModel()
pretrained_model.half()
device = torch.device("cuda:0")
pretrained_model.to(device)
pretrained_model.eval()
task_prompt = "<s_synthdog>"
input_img = torch.randint(0, 256, (120, 90, 3), dtype=torch.uint8)
'''
CELL = '''
output = pretrained_model.inference(image=input_img, prompt=task_prompt)["predictions"][0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
