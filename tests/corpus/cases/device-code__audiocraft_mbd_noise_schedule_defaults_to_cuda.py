"""audiocraft MultiBandDiffusion on the CPU of a GPU machine: each band's NoiseSchedule is built on its default 'cuda'.

Source: https://github.com/facebookresearch/audiocraft/issues/209
Decoding MusicGen tokens with `MultiBandDiffusion.get_mbd_musicgen(device=...)` failed with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!":
the band models and sample processors are moved to `device`, but
`schedule = NoiseSchedule(**cfgs[i].schedule, sample_processor=processors[i])` is built without
`device=device`, so its betas are created on NoiseSchedule's default 'cuda'. The reporter's fix
passes the device. Stand-in: NoiseSchedule / DiffusionProcess / MultiBandDiffusion with a tiny
band model instead of the DiffusionUnet and no checkpoint download; "meta" plays the GPU (the
schedule's default `device="cuda"` reads "meta").
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class SampleProcessor(nn.Module):
    def project_sample(self, x):
        return x

    def return_sample(self, z):
        return z

class NoiseSchedule:
    def __init__(self, beta_t0=1e-4, beta_t1=0.02, num_steps=1000, device="meta", beta_exp=1,
                 sample_processor=SampleProcessor(), noise_scale=1.0, **kwargs):
        self.num_steps = num_steps
        self.device = device
        self.sample_processor = sample_processor
        self.noise_scale = noise_scale
        self.betas = torch.linspace(beta_t0 ** (1 / beta_exp), beta_t1 ** (1 / beta_exp), num_steps,
                                    device=device, dtype=torch.float) ** beta_exp

    def get_alpha_bar(self, step):
        return (1 - self.betas[:step + 1]).prod()

    def generate_subsampled(self, model, initial, step_list, condition=None):
        current = initial * self.noise_scale
        for step in step_list:
            estimate = model(current, condition)
            alpha_bar = self.get_alpha_bar(step)
            current = (current - (1 - alpha_bar).sqrt() * estimate) / alpha_bar.sqrt()
        return self.sample_processor.return_sample(current)

class BandModel(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Conv1d(1 + dim, 1, 3, padding=1)

    def forward(self, x, condition):
        return self.net(torch.cat([x, condition], dim=1))

class DiffusionProcess:
    def __init__(self, model, noise_schedule):
        self.model = model
        self.schedule = noise_schedule

    def generate(self, condition, initial_noise, step_list):
        return self.schedule.generate_subsampled(self.model, initial_noise, step_list, condition)

class MultiBandDiffusion:
    def __init__(self, DPs, codec_dim=32):
        self.DPs = DPs

    @staticmethod
    def get_mbd_musicgen(device=None, n_bands=2):
        cfg_schedule = dict(beta_t0=1e-5, beta_t1=2.9e-2, beta_exp=7.5, num_steps=1000)
        DPs = []
        for i in range(n_bands):
            model = BandModel().to(device)
            processor = SampleProcessor().to(device)
            schedule = NoiseSchedule(**cfg_schedule, sample_processor=processor)
            DPs.append(DiffusionProcess(model=model, noise_schedule=schedule))
        return MultiBandDiffusion(DPs)

    def tokens_to_wav(self, emb, step_list=(999, 749, 499, 249, 0)):
        noise = torch.randn(emb.shape[0], 1, emb.shape[-1], device=emb.device)
        return sum(dp.generate(condition=emb, initial_noise=noise, step_list=list(step_list))
                   for dp in self.DPs)

device = "cpu"                                    # the user's choice on a machine with a GPU
mbd = MultiBandDiffusion.get_mbd_musicgen(device=device)
emb = torch.randn(1, 32, 200, device=device)      # codec latent of the generated tokens
'''
CELL = '''
wav_diffusion = mbd.tokens_to_wav(emb)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["mbd"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "schedule = NoiseSchedule(**cfg_schedule, sample_processor=processor)",
    "schedule = NoiseSchedule(**cfg_schedule, sample_processor=processor, device=device)",
)
CLEAN = False
