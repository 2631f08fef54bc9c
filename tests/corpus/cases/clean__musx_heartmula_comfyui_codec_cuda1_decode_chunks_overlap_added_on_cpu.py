"""Look-alike: HeartMuLa (ComfyUI node's heartlib) decoding on cuda:1: codec device taken from its parameters, chunks overlap-added on the CPU with a NumPy window.

Source: https://github.com/benjiyaya/HeartMuLa_ComfyUI/blob/main/util/heartlib/heartcodec/modeling_heartcodec.py (`HeartCodec.detokenize`) and util/heartlib/pipelines/music_generation.py
The pipeline calls `self.audio_codec.detokenize(frames.to(self.device), device=self.device)`;
`detokenize` falls back to `next(self.parameters()).device` when no device is given, creates its
noise with `device=device, dtype=target_dtype`, decodes each segment on the GPU and then moves it to
the CPU (`cur_output[:, 0:min_samples].detach().cpu()`) where segments are cross-faded with a window
from `torch.from_numpy(np.linspace(0, 1, ovlp_samples))` (float64) into a float32 CPU buffer.
Stand-ins: a flow-matching step and scalar decoder; short segments.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class FlowMatching(nn.Module):
    def __init__(self, codebook_size=64, num_quantizers=2, dim=16):
        super().__init__()
        self.vq_embed = nn.Embedding(codebook_size * num_quantizers, dim)
        self.estimator = nn.Linear(2 * dim, dim)

    def inference_codes(self, codes_input, latent, num_steps=2):
        emb = self.vq_embed(codes_input[0]).sum(dim=1)
        for _ in range(num_steps):
            latent = latent + self.estimator(torch.cat([latent, emb], dim=-1)) / num_steps
        return latent

class HeartCodec(nn.Module):
    def __init__(self, dim=16, samples_per_frame=40):
        super().__init__()
        self.flow_matching = FlowMatching(dim=dim)
        self.scalar_model = nn.Linear(dim, samples_per_frame)
        self.samples_per_frame = samples_per_frame

    @torch.no_grad()
    def detokenize(self, codes, seg_frames=20, ovlp_frames=4, num_steps=2, device=None):
        target_dtype = next(self.parameters()).dtype
        if device is None:
            device = next(self.parameters()).device
        codes = codes.unsqueeze(0).to(device)
        hop = seg_frames - ovlp_frames
        ovlp_samples = ovlp_frames * self.samples_per_frame
        output = None
        for start in range(0, codes.shape[-1] - ovlp_frames, hop):
            seg = codes.narrow(-1, start, seg_frames)
            first_latent = torch.randn(1, seg_frames, 16, device=device, dtype=target_dtype)
            latents = self.flow_matching.inference_codes([seg], first_latent, num_steps=num_steps)
            cur_output = self.scalar_model(latents).reshape(1, -1).detach().cpu()
            if output is None:
                output = cur_output
            else:
                ov_win = torch.from_numpy(np.linspace(0, 1, ovlp_samples)[None, :])
                ov_win = torch.cat([ov_win, 1 - ov_win], -1)
                output[:, -ovlp_samples:] = (output[:, -ovlp_samples:] * ov_win[:, -ovlp_samples:]
                                             + cur_output[:, 0:ovlp_samples] * ov_win[:, 0:ovlp_samples])
                output = torch.cat([output, cur_output[:, ovlp_samples:]], -1)
        return output

class HeartMuLaGenPipeline:
    def __init__(self, audio_codec, device):
        self.audio_codec = audio_codec
        self.device = device
        if str(next(self.audio_codec.parameters()).device) != str(self.device):
            self.audio_codec.to(self.device)

    def decode(self, frames):
        return self.audio_codec.detokenize(frames.to(self.device), device=self.device)

device = torch.device("cuda:1")                       # the node's "cuda:1" choice
pipe = HeartMuLaGenPipeline(HeartCodec(), device)
frames = torch.randint(0, 64, (2, 52), device=device) # (num_quantizers, T) tokens from HeartMuLa
'''
CELL = '''
wav = pipe.decode(frames)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
