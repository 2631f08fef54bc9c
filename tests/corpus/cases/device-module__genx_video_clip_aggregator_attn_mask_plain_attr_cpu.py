"""Video-CLIP embedding aggregator: the CLIP text tower's `attn_mask` is copied as a plain attribute and stays on the CPU after `model_video.to(device)`.

Source: https://github.com/LAION-AI/temporal-embedding-aggregation/pull/58
In the review of `aggregator_wrapper.py`, the author explains: "the clip.attn_mask is not a parameter
of the VideoCLIP module and so when the model_video.to(device) is called the attn_mask stays on
CPU"; the wrapper copies `clip.transformer`, `clip.ln_final`, `clip.text_projection` and
`clip.attn_mask` from an open_clip model, and the PR moves the mask to the device of the
transformer's parameters in `forward`. Stand-in: the wrapper around a tiny CLIP-shaped text tower
(its `attn_mask` a plain tensor, as open_clip's was), inside a VideoCLIP module.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def build_attention_mask(context_length):
    mask = torch.empty(context_length, context_length)
    mask.fill_(float("-inf"))
    return mask.triu_(1)

class TinyCLIP(nn.Module):
    def __init__(self, vocab=100, width=32, context_length=8):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, width)
        self.positional_embedding = nn.Parameter(torch.zeros(context_length, width))
        self.transformer = nn.MultiheadAttention(width, 4, batch_first=True)
        self.ln_final = nn.LayerNorm(width)
        self.text_projection = nn.Parameter(torch.randn(width, 16) * 0.02)
        self.attn_mask = build_attention_mask(context_length)

class TextEncoderWrapper(nn.Module):
    def __init__(self, clip):
        super().__init__()
        self.token_embedding = clip.token_embedding
        self.positional_embedding = clip.positional_embedding
        self.transformer = clip.transformer
        self.ln_final = clip.ln_final
        self.text_projection = clip.text_projection
        self.attn_mask = clip.attn_mask

    def forward(self, text):
        x = self.token_embedding(text) + self.positional_embedding
        x = x + self.transformer(x, x, x, attn_mask=self.attn_mask, need_weights=False)[0]
        x = self.ln_final(x)
        return x[:, -1] @ self.text_projection

class VideoCLIP(nn.Module):
    def __init__(self, clip):
        super().__init__()
        self.text_encoder = TextEncoderWrapper(clip)
        self.aggregator = nn.Linear(16, 16)

    def encode_text(self, text):
        return self.text_encoder(text)

    def encode_video(self, frame_embeddings):
        return self.aggregator(frame_embeddings.mean(1))

device = "cuda:0"
model_video = VideoCLIP(TinyCLIP()).to(device).eval()
text = torch.randint(0, 100, (2, 8)).to(device)
'''
CELL = '''
text_embeddings = model_video.encode_text(text)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model_video.text_encoder.attn_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
model_video.text_encoder.attn_mask = model_video.text_encoder.attn_mask.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
