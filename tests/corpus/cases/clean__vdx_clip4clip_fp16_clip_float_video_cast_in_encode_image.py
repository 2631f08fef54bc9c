"""CLIP4Clip retrieval eval: the CLIP towers are converted to fp16 while the video batch stays float32; `encode_image` casts the frames and the outputs are cast back with `.float()`.

Source: https://github.com/ArrowLuo/CLIP4Clip/blob/master/modules/modeling.py
(with modules/module_clip.py). `CLIP4Clip.__init__` builds the CLIP module with `.float()` and then
calls `convert_weights(self.clip)`, which turns the conv, linear and attention weights (and the
`proj`/`text_projection` matrices) to half. The dataloader's video is float32:
`CLIP.encode_image` runs `self.visual(image.type(self.dtype), ...)` and `encode_text` does
`self.token_embedding(text).type(self.dtype)`, and `get_visual_output`/`get_sequence_output` return
`.float()` features, so the meanP similarity with the float video mask and the fp32 `logit_scale`
runs. Stand-in: CLIP at toy size (one residual attention block per tower, 4 frames of 32x32), the
text/video pooling and `_loose_similarity` meanP path as in the repo; runs on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class LayerNorm(nn.LayerNorm):
    def forward(self, x):
        orig_type = x.dtype
        ret = super().forward(x.type(torch.float32))
        return ret.type(orig_type)

class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_head)
        self.ln_1 = LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, d_model * 4), nn.GELU(), nn.Linear(d_model * 4, d_model))
        self.ln_2 = LayerNorm(d_model)

    def forward(self, x):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))

class VisualTransformer(nn.Module):
    def __init__(self, input_resolution=32, patch_size=16, width=32, heads=4, output_dim=16):
        super().__init__()
        scale = width ** -0.5
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn((input_resolution // patch_size) ** 2 + 1, width))
        self.ln_pre = LayerNorm(width)
        self.transformer = ResidualAttentionBlock(width, heads)
        self.ln_post = LayerNorm(width)
        self.proj = nn.Parameter(scale * torch.randn(width, output_dim))

    def forward(self, x, video_frame=-1):
        x = self.conv1(x).reshape(x.shape[0], self.conv1.out_channels, -1).permute(0, 2, 1)
        cls = self.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype, device=x.device)
        x = torch.cat([cls, x], dim=1) + self.positional_embedding.to(x.dtype)
        x = self.ln_pre(x).permute(1, 0, 2)
        x = self.transformer(x).permute(1, 0, 2)
        return x

class CLIP(nn.Module):
    def __init__(self, embed_dim=16, vocab_size=100, context_length=8, width=32, heads=4):
        super().__init__()
        self.visual = VisualTransformer(output_dim=embed_dim)
        self.transformer = ResidualAttentionBlock(width, heads)
        self.token_embedding = nn.Embedding(vocab_size, width)
        self.positional_embedding = nn.Parameter(torch.empty(context_length, width).normal_(std=0.01))
        self.ln_final = LayerNorm(width)
        self.text_projection = nn.Parameter(torch.empty(width, embed_dim).normal_(std=width ** -0.5))
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))

    @property
    def dtype(self):
        return self.visual.conv1.weight.dtype

    def encode_image(self, image, return_hidden=False, video_frame=-1):
        hidden = self.visual(image.type(self.dtype), video_frame=video_frame)
        hidden = self.visual.ln_post(hidden) @ self.visual.proj
        return hidden[:, 0, :]

    def encode_text(self, text, return_hidden=False):
        x = self.token_embedding(text).type(self.dtype)
        pos_emd = self.positional_embedding[:x.size(1), :].type(self.dtype)
        x = (x + pos_emd).permute(1, 0, 2)
        x = self.transformer(x).permute(1, 0, 2)
        hidden = self.ln_final(x).type(self.dtype) @ self.text_projection
        return hidden[torch.arange(hidden.shape[0]), text.argmax(dim=-1)]

def convert_weights(model):
    def _convert_weights_to_fp16(l):
        if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Linear)):
            l.weight.data = l.weight.data.half()
            if l.bias is not None:
                l.bias.data = l.bias.data.half()
        if isinstance(l, nn.MultiheadAttention):
            for attr in [*[f"{s}_proj_weight" for s in ["in", "q", "k", "v"]], "in_proj_bias", "bias_k", "bias_v"]:
                tensor = getattr(l, attr)
                if tensor is not None:
                    tensor.data = tensor.data.half()
            l.out_proj.weight.data = l.out_proj.weight.data.half()
            l.out_proj.bias.data = l.out_proj.bias.data.half()
        for name in ["text_projection", "proj"]:
            if hasattr(l, name):
                attr = getattr(l, name)
                if attr is not None:
                    attr.data = attr.data.half()
    model.apply(_convert_weights_to_fp16)

class CLIP4Clip(nn.Module):
    def __init__(self):
        super().__init__()
        self.clip = CLIP().float()
        convert_weights(self.clip)
        self.sim_header = 'meanP'
        self.loose_type = True

    def get_sequence_output(self, input_ids, token_type_ids, attention_mask, shaped=False):
        bs_pair = input_ids.size(0)
        sequence_hidden = self.clip.encode_text(input_ids).float()
        return sequence_hidden.view(bs_pair, -1, sequence_hidden.size(-1))

    def get_visual_output(self, video, video_mask, shaped=False, video_frame=-1):
        bs_pair = video_mask.size(0)
        visual_hidden = self.clip.encode_image(video, video_frame=video_frame).float()
        return visual_hidden.view(bs_pair, -1, visual_hidden.size(-1))

    def get_sequence_visual_output(self, input_ids, token_type_ids, attention_mask, video, video_mask):
        input_ids = input_ids.view(-1, input_ids.shape[-1])
        token_type_ids = token_type_ids.view(-1, token_type_ids.shape[-1])
        attention_mask = attention_mask.view(-1, attention_mask.shape[-1])
        video_mask = video_mask.view(-1, video_mask.shape[-1])
        video = torch.as_tensor(video).float()
        b, pair, bs, ts, channel, h, w = video.shape
        video = video.view(b * pair * bs * ts, channel, h, w)
        video_frame = bs * ts
        sequence_output = self.get_sequence_output(input_ids, token_type_ids, attention_mask, shaped=True)
        visual_output = self.get_visual_output(video, video_mask, shaped=True, video_frame=video_frame)
        return sequence_output, visual_output

    def _mean_pooling_for_similarity_visual(self, visual_output, video_mask):
        video_mask_un = video_mask.to(dtype=torch.float).unsqueeze(-1)
        visual_output = visual_output * video_mask_un
        video_mask_un_sum = torch.sum(video_mask_un, dim=1, dtype=torch.float)
        video_mask_un_sum[video_mask_un_sum == 0.] = 1.
        return torch.sum(visual_output, dim=1) / video_mask_un_sum

    def get_similarity_logits(self, sequence_output, visual_output, attention_mask, video_mask, shaped=False,
                              loose_type=False):
        attention_mask = attention_mask.view(-1, attention_mask.shape[-1])
        video_mask = video_mask.view(-1, video_mask.shape[-1])
        visual_output = visual_output / visual_output.norm(dim=-1, keepdim=True)
        visual_output = self._mean_pooling_for_similarity_visual(visual_output, video_mask)
        visual_output = visual_output / visual_output.norm(dim=-1, keepdim=True)
        sequence_output = sequence_output.squeeze(1)
        sequence_output = sequence_output / sequence_output.norm(dim=-1, keepdim=True)
        logit_scale = self.clip.logit_scale.exp()
        retrieve_logits = logit_scale * torch.matmul(sequence_output, visual_output.t())
        return retrieve_logits, ()

model = CLIP4Clip().eval()

# one MSRVTT test batch: 2 captions/videos, 4 frames each (float32 video from RawVideoExtractor)
input_ids = torch.tensor([[[49, 12, 33, 7, 99, 0, 0, 0]], [[49, 5, 71, 99, 0, 0, 0, 0]]])
segment_ids = torch.zeros_like(input_ids)
input_mask = (input_ids > 0).long()
video = np.random.default_rng(0).standard_normal((2, 1, 4, 1, 3, 32, 32)).astype(np.float32)
video_mask = torch.tensor([[[1, 1, 1, 1]], [[1, 1, 1, 0]]])
'''
CELL = '''
with torch.no_grad():
    sequence_output, visual_output = model.get_sequence_visual_output(input_ids, segment_ids, input_mask,
                                                                      video, video_mask)
    b1b2_logits, *_tmp = model.get_similarity_logits(sequence_output, visual_output, input_mask, video_mask,
                                                     loose_type=model.loose_type)
sim_matrix = b1b2_logits.cpu().numpy()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
