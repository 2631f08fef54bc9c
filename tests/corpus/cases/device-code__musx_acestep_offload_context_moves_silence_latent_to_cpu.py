"""ACE-Step 1.5 with `offload_to_cpu=True`: leaving the DiT's offload context also sends `silence_latent` to the CPU.

Source: https://github.com/ace-step/ACE-Step-1.5/pull/11
In offload mode generation failed with a device mismatch in `torch.cat` and friends. The PR's
"cause" section: when `offload_to_cpu` is enabled, `_load_model_context("model")` moves the DiT back
to the CPU on exit and with it `self.silence_latent`, but silence_latent is used in many places
outside the model context (`_prepare_batch` pads the decoded audio-code hints with it) while the
other tensors are still on CUDA. The fix keeps silence_latent on the GPU: the line that offloads it
in the context's exit path is removed (plus an `_ensure_silence_latent_on_device` guard). Stand-ins:
AceStepHandler reduced to the offload context, a text encoder, a DiT with a code detokenizer and
the batch preparation; slicing of the latent is written with `narrow`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
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
        return self.decoder(torch.cat([src_latents, text_hidden_states.mean(1, keepdim=True).expand_as(src_latents)], -1))

class AceStepHandler:
    def __init__(self, device="cuda:0", offload_to_cpu=True, dim=16):
        self.device = device
        self.dtype = torch.float32
        self.offload_to_cpu = offload_to_cpu
        self.model = DiT(dim)
        self.text_encoder = nn.Linear(8, dim)
        self.silence_latent = torch.zeros(1, 750, dim)        # torch.load(silence_latent.pt).transpose(1, 2)
        self.silence_latent = self.silence_latent.to(device).to(self.dtype)

    @contextmanager
    def _load_model_context(self, model_name):
        model = getattr(self, model_name)
        if not self.offload_to_cpu:
            yield
            return
        model.to(self.device).to(self.dtype)
        if model_name == "model" and hasattr(self, "silence_latent"):
            self.silence_latent = self.silence_latent.to(self.device).to(self.dtype)
        try:
            yield
        finally:
            model.to("cpu")
            if model_name == "model" and hasattr(self, "silence_latent"):
                self.silence_latent = self.silence_latent.to("cpu")

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
            return self.model(src_latents, text_hidden_states)

handler = AceStepHandler(device="cuda:0", offload_to_cpu=True)
audio_code_hints = [torch.randint(0, 64, (30,))]             # 5 Hz LM codes for one song
'''
CELL = '''
latents = handler.generate_music(["dreamy city pop, female vocal"], audio_code_hints)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["handler"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '''            model.to("cpu")
            if model_name == "model" and hasattr(self, "silence_latent"):
                self.silence_latent = self.silence_latent.to("cpu")
''',
    '''            model.to("cpu")
            # silence_latent is used outside the model context: keep it on the GPU
''',
)
CLEAN = False
