"""heartlib HeartMuLa music generation on a second GPU: `HeartCodec.detokenize` falls back to its default "cuda".

Source: https://github.com/HeartMuLa/heartlib/pull/3
With `device` other than "cuda:0" (e.g. "cuda:1", several GPUs visible), generation raised a
RuntimeError at the end: `HeartMuLaGenPipeline.from_pretrained` loads the codec with
`device_map=device`, but `_forward` decodes with `self.audio_codec.detokenize(frames)`, and
`detokenize(..., device="cuda")` then puts the codes and its initial latent on the default GPU 0. The
PR's fix passes the pipeline's device: `self.audio_codec.detokenize(frames, device=self.device)`.
Stand-ins: a tiny HeartMuLa token generator, a HeartCodec with a flow-matching step (codebook
embedding + estimator) and a scalar decoder; the default "cuda" is written "cuda:0", what it resolves
to on a real machine.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class FlowMatching(nn.Module):
    def __init__(self, codebook_size=64, num_quantizers=2, dim=16):
        super().__init__()
        self.vq_embed = nn.Embedding(codebook_size * num_quantizers, dim)
        self.estimator = nn.Linear(2 * dim, dim)

    def inference_codes(self, codes_input, first_latent, num_steps=2, guidance_scale=1.25):
        emb = self.vq_embed(codes_input[0]).sum(dim=1)            # (B, T, dim)
        x = first_latent
        for _ in range(num_steps):
            x = x + self.estimator(torch.cat([x, emb], dim=-1)) / num_steps
        return x

class HeartCodec(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.flow_matching = FlowMatching(dim=dim)
        self.scalar_model = nn.Linear(dim, 1920)                  # latent frame -> 40 ms of 48 kHz audio

    def detokenize(self, codes, duration=29.76, num_steps=2, disable_progress=False,
                   guidance_scale=1.25, device="cuda:0"):
        codes = codes.unsqueeze(0).to(device)
        first_latent = torch.randn(codes.shape[0], codes.shape[-1], 16).to(device)
        latents = self.flow_matching.inference_codes([codes], first_latent, num_steps=num_steps,
                                                     guidance_scale=guidance_scale)
        return self.scalar_model(latents).reshape(1, -1)

class HeartMuLa(nn.Module):
    def __init__(self, dim=32, num_quantizers=2, codebook_size=64):
        super().__init__()
        self.num_quantizers = num_quantizers
        self.backbone = nn.Linear(dim, dim)
        self.heads = nn.Linear(dim, num_quantizers * codebook_size)

    def generate_frames(self, prompt_embeds):
        logits = self.heads(self.backbone(prompt_embeds))          # (T, nq * card)
        return logits.reshape(logits.shape[0], self.num_quantizers, -1).argmax(-1)   # (T, nq)

class HeartMuLaGenPipeline:
    def __init__(self, model, audio_codec, device, dtype):
        self.model = model
        self.audio_codec = audio_codec
        self.device = device
        self.dtype = dtype

    @classmethod
    def from_pretrained(cls, pretrained_path, device, dtype, version="3B"):
        heartcodec = HeartCodec().to(device)                       # from_pretrained(..., device_map=device)
        heartmula = HeartMuLa().to(device)
        return cls(heartmula, heartcodec, device, dtype)

    def _forward(self, prompt_embeds, max_audio_length_ms=2000):
        frames = self.model.generate_frames(prompt_embeds)
        frames = frames.permute(1, 0)                              # (nq, T)
        wav = self.audio_codec.detokenize(frames)
        return {"wav": wav}

    def __call__(self, inputs, max_audio_length_ms=2000):
        prompt_embeds = torch.randn(25, 32, device=self.device)    # preprocess(): tags + lyrics
        return self._forward(prompt_embeds, max_audio_length_ms=max_audio_length_ms)

pipe = HeartMuLaGenPipeline.from_pretrained("./ckpt", device=torch.device("cuda:1"), dtype=torch.float32)
'''
CELL = '''
out = pipe({"lyrics": "[Verse]\\nwe ride the midnight line", "tags": "piano,happy"}, max_audio_length_ms=2000)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pipe"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        wav = self.audio_codec.detokenize(frames)\n",
    "        wav = self.audio_codec.detokenize(frames, device=self.device)\n",
)
CLEAN = False
