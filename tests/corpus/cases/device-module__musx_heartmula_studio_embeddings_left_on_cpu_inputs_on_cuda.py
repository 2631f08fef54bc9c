"""HeartMuLa-Studio music generation: prompt tokens are moved to CUDA, the small embedding layers stay on the CPU.

Source: https://github.com/fspecii/HeartMuLa-Studio/issues/32
After an update, song generation failed in `HeartMuLa._embed_tokens` (`self.text_embeddings(text_tokens)`)
with "Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!
(... argument index in method wrapper_CUDA__index_select)". With the mmgp memory manager the big blocks
are loaded lazily, but `text_embeddings`, `audio_embeddings`, ... stay on the CPU; `generate` moves the
model inputs to CUDA and the pipeline's `_move_embeddings_to_device` "already existed but was never
invoked". The fix (commit 0ba7bf5, "Fixes #32") calls `self._move_embeddings_to_device(target_device)`
right after `_move_model_inputs`. Stand-ins: a tiny HeartMuLa (embeddings, backbone, codebook-0 head)
and the pipeline's device logic; "mmgp" is reduced to the backbone and head being placed on cuda:0,
and `torch.cuda.is_available()` to a flag.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

CUDA_AVAILABLE = True                     # torch.cuda.is_available() on the user's machine

class HeartMuLa(nn.Module):
    def __init__(self, text_vocab=512, audio_vocab=256, n_codebooks=4, dim=32):
        super().__init__()
        self.n_codebooks = n_codebooks
        self.text_embeddings = nn.Embedding(text_vocab, dim)
        self.audio_embeddings = nn.Embedding(audio_vocab * n_codebooks, dim)
        self.backbone = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.codebook0_head = nn.Linear(dim, audio_vocab)

    def _embed_tokens(self, tokens, uncond_mask=None):
        audio_tokens, text_tokens = torch.split(tokens, [self.n_codebooks, 1], dim=-1)
        text_embeds = self.text_embeddings(text_tokens)
        audio_embeds = self.audio_embeddings(audio_tokens)
        return torch.cat([audio_embeds, text_embeds], dim=-2)

    def generate_frame(self, tokens, tokens_mask, input_pos=None, temperature=1.0, topk=50, cfg_scale=1.5):
        embeds = self._embed_tokens(tokens)
        h = self.backbone((embeds * tokens_mask.unsqueeze(-1)).sum(dim=2))
        return self.codebook0_head(h).argmax(-1)

class HeartMuLaPipeline:
    def __init__(self, mula):
        self.mula = mula

    def _build_model_inputs(self, lyrics, tags, cfg_scale=1.5):
        n = self.mula.n_codebooks + 1
        tokens = torch.randint(0, 256, (2, 24, n))
        return {"tokens": tokens, "tokens_mask": torch.ones(2, 24, n), "pos": torch.arange(24)}

    def _get_mula_device(self):
        text_embed = getattr(self.mula, "text_embeddings", None)
        if text_embed is not None and hasattr(text_embed, "weight"):
            return text_embed.weight.device
        return next(self.mula.parameters()).device

    def _move_model_inputs(self, model_inputs, device):
        non_blocking = device.type == "cuda"
        for key, value in model_inputs.items():
            if torch.is_tensor(value) and value.device != device:
                model_inputs[key] = value.to(device, non_blocking=non_blocking)
        return model_inputs

    def _move_embeddings_to_device(self, device):
        """Move small embedding layers to CUDA manually."""
        non_blocking = device.type == "cuda"
        for name in ["text_embeddings", "audio_embeddings", "unconditional_text_embedding",
                     "muq_linear", "projection", "codebook0_head"]:
            module = getattr(self.mula, name, None)
            if module is not None and hasattr(module, "to"):
                first_param = next(module.parameters(), None)
                if first_param is not None and first_param.device != device:
                    module.to(device, non_blocking=non_blocking)

    def _forward(self, model_inputs, temperature=1.0, topk=50, cfg_scale=1.5):
        return self.mula.generate_frame(tokens=model_inputs["tokens"], tokens_mask=model_inputs["tokens_mask"],
                                        input_pos=model_inputs["pos"], temperature=temperature, topk=topk,
                                        cfg_scale=cfg_scale)

    def generate(self, input_prompt, alt_prompt, temperature=1.0, **kwargs):
        model_inputs = self._build_model_inputs(input_prompt, alt_prompt)

        target_device = self._get_mula_device()
        if target_device.type != "cuda" and CUDA_AVAILABLE:
            target_device = torch.device("cuda:0")

        model_inputs = self._move_model_inputs(model_inputs, target_device)

        return self._forward(model_inputs, temperature=temperature)

mula = HeartMuLa()
mula.backbone.to("cuda:0")               # mmgp loads the large blocks onto the GPU on demand
pipeline = HeartMuLaPipeline(mula)
'''
CELL = '''
result = pipeline.generate("[Verse]\\nneon rain on my screen", "synthwave, female vocals, 110 bpm")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pipeline"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        model_inputs = self._move_model_inputs(model_inputs, target_device)\n",
    "        model_inputs = self._move_model_inputs(model_inputs, target_device)\n"
    "        self._move_embeddings_to_device(target_device)\n",
)
CLEAN = False
