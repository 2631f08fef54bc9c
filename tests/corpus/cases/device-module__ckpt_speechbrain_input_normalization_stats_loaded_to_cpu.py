"""SpeechBrain InputNormalization: evaluating right after a checkpoint is recovered; the global feature statistics come back on the CPU.

Source: https://github.com/speechbrain/speechbrain/pull/1841
"Fix InputNormalization device": the device error appeared "right away after loading a checkpoint"
during evaluation. `InputNormalization` keeps `glob_mean`/`glob_std` as plain tensor attributes (not
buffers); its checkpoint loader does `stats = torch.load(path, map_location="cpu")` and assigns them,
after the Brain has already moved the modules to the GPU, so `x - self.glob_mean` mixes devices when
the statistics are not being updated (eval). The fix moves the statistics to the input's device in
forward. Stand-in: the module's global-normalisation path without the per-sentence length loop.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch

class InputNormalization(torch.nn.Module):
    def __init__(self, mean_norm=True, std_norm=True, norm_type="global"):
        super().__init__()
        self.mean_norm, self.std_norm, self.norm_type = mean_norm, std_norm, norm_type
        self.glob_mean = torch.tensor([0])
        self.glob_std = torch.tensor([0])
        self.count = 0

    def forward(self, x, lengths, epoch=0):
        if self.training:
            current_mean = x.mean(dim=(0, 1)).detach()
            current_std = x.std(dim=(0, 1)).detach().clamp(min=1e-10)
            if self.count == 0:
                self.glob_mean, self.glob_std = current_mean, current_std
            self.count += 1
        return (x - self.glob_mean.data) / self.glob_std.data

    def to(self, device):
        self = super().to(device)
        self.glob_mean = self.glob_mean.to(device)
        self.glob_std = self.glob_std.to(device)
        return self

    def _load_statistics_dict(self, state):
        self.count = state["count"]
        self.glob_mean = state["glob_mean"]
        self.glob_std = state["glob_std"]

    def _load(self, stats):
        # stats = torch.load(path, map_location="cpu")
        self._load_statistics_dict(stats)

device = "cuda:0"
normalize = InputNormalization(norm_type="global").to(device)
compute_features = torch.nn.Linear(160, 40).to(device)           # Fbank stand-in
# checkpointer.recover_if_possible(): the saved normalizer.ckpt, mapped to the CPU
normalize._load({"count": 1450, "glob_mean": torch.randn(40), "glob_std": torch.rand(40) + 0.5})
normalize.eval()
wavs = torch.randn(4, 50, 160, device=device)
wav_lens = torch.ones(4, device=device)
'''
CELL = '''
feats = compute_features(wavs)
feats = normalize(feats, wav_lens)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["normalize"]
FIX = "namespace"
REFERENCE_FIX = '''
normalize.glob_mean = normalize.glob_mean.to(device)
normalize.glob_std = normalize.glob_std.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
