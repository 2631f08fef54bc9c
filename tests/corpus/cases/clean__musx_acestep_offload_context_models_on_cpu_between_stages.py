"""Look-alike: ACE-Step 1.5 `offload_to_cpu=True`: each model visits the GPU only inside `_load_model_context`.

Source: https://github.com/ace-step/ACE-Step-1.5/blob/main/acestep/handler.py (`AceStepHandler._load_model_context`, `_prepare_batch`)
With CPU offload the handler keeps the text encoder, the DiT and the VAE on the CPU and moves each one
to `self.device` only for the stage that uses it (`with self._load_model_context("model"): ...`),
offloading it again on exit; between stages and after generation every model is on the CPU while the
latents are on CUDA. `silence_latent`, which `_prepare_batch` uses outside any model context, is kept
on the GPU ("Do NOT offload silence_latent to CPU here!"). Stand-ins: a text encoder, a DiT with a
code detokenizer and a VAE decoder; latent slicing written with `narrow`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from contextlib import contextmanager
import torch
from torch import nn

class DiT(nn.Module):
    def __init__(self, dim=16, codebook=64):
        super().__init__()
        self.code_embed = nn.Embedding(codebook, dim)
        self.detokenizer = nn.Linear(dim, dim)
        self.decoder = nn.Linear(2 * dim, dim)

    def detokenize(self, codes):
        return self.detokenizer(self.code_embed(codes))

    def forward(self, src_latents, text_hidden_states):
        ctx = text_hidden_states.mean(1, keepdim=True).expand_as(src_latents)
        return self.decoder(torch.cat([src_latents, ctx], -1))

class AceStepHandler:
    def __init__(self, device="cuda:0", offload_to_cpu=True, dim=16):
        self.device, self.dtype, self.offload_to_cpu = device, torch.float32, offload_to_cpu
        self.model = DiT(dim)
        self.text_encoder = nn.Linear(8, dim)
        self.vae = nn.Linear(dim, 1920)
        # Always keep silence_latent on GPU - it's used in many places outside model context
        self.silence_latent = torch.zeros(1, 750, dim).to(device).to(self.dtype)

    @contextmanager
    def _load_model_context(self, model_name):
        model = getattr(self, model_name)
        if not self.offload_to_cpu:
            yield
            return
        model.to(self.device).to(self.dtype)
        try:
            yield
        finally:
            model.to("cpu")
            # NOTE: Do NOT offload silence_latent to CPU here!

    def _prepare_batch(self, hint_latents, expected_latent_length):
        src_latents = []
        for latent in hint_latents:
            pad_length = expected_latent_length - latent.shape[0]
            if pad_length > 0:
                latent = torch.cat([latent, self.silence_latent[0].narrow(0, 0, pad_length)], dim=0)
            src_latents.append(latent)
        return torch.stack(src_latents)

    def generate_music(self, captions, audio_code_hints, expected_latent_length=50):
        with self._load_model_context("text_encoder"):
            text_hidden_states = self.text_encoder(torch.randn(len(captions), 12, 8, device=self.device))
        with self._load_model_context("model"):
            hint_latents = [self.model.detokenize(codes.to(self.device)) for codes in audio_code_hints]
        src_latents = self._prepare_batch(hint_latents, expected_latent_length)
        with self._load_model_context("model"):
            latents = self.model(src_latents, text_hidden_states)
        with self._load_model_context("vae"):
            return self.vae(latents).flatten(1)

handler = AceStepHandler(device="cuda:0", offload_to_cpu=True)
audio_code_hints = [torch.randint(0, 64, (30,))]             # 5 Hz LM codes for one song
'''
CELL = '''
wav = handler.generate_music(["dreamy city pop, female vocal"], audio_code_hints)
wav2 = handler.generate_music(["dark techno, 130 bpm"], audio_code_hints)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
