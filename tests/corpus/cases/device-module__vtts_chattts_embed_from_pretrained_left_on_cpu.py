"""ChatTTS (dev branch) loaded on cuda: the separately loaded `embed` module stays on the CPU.

Source: https://github.com/2noise/ChatTTS/pull/737
`Chat.load(device=...)` built the GPT on the requested device, but the text/audio embedding module
was created with `Embed(...).from_pretrained(path)`, which never moved it, so inference raised
"Expected all tensors to be on the same device" (CPU vs cuda). The PR passes the device to
`embed.from_pretrained()` and moves the embed model explicitly (related issues #603, #736).
Stand-in: a Chat object with `gpt` and `embed` (text embedding + head) and an `infer` that runs both.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Embed(nn.Module):
    def __init__(self, hidden=32, num_text_tokens=80, num_audio_tokens=64):
        super().__init__()
        self.emb_text = nn.Embedding(num_text_tokens, hidden)
        self.head_code = nn.Linear(hidden, num_audio_tokens, bias=False)

    def from_pretrained(self, filename):
        return self            # load_state_dict(...) in the library: no device

    def forward(self, input_ids):
        return self.emb_text(input_ids)

class GPT(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, hidden))

    def forward(self, emb):
        return self.layers(emb)

class Chat:
    def load(self, device="cuda:0"):
        self.device = torch.device(device)
        self.gpt = GPT().to(self.device).eval()
        self.embed = Embed().from_pretrained("asset/embed.safetensors")
        self.tokenizer = lambda text: torch.tensor([[ord(c) % 80 for c in text]])
        return True

    @torch.no_grad()
    def infer(self, text):
        input_ids = self.tokenizer(text).to(self.device)
        hidden = self.gpt(self.embed(input_ids))
        logits = self.embed.head_code(hidden)
        return logits.argmax(-1)

chat = Chat()
chat.load(device="cuda:0")
'''
CELL = '''
wavs = chat.infer("hello, this is chat tts on the gpu")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["chat.embed"]
FIX = "namespace"
REFERENCE_FIX = '''
chat.embed.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
