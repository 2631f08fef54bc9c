"""SpeechBrain VAD with `run_opts={"device": "cuda"}`: `VAD.__init__` resets `self.device` to the yaml's `cpu`.

Source: https://github.com/speechbrain/speechbrain/pull/2117
Fixes issue #992 ("VAD.get_speech_prob_file does not respect CUDA"): loading
`speechbrain/vad-crdnn-libriparty` with `run_opts={'device': 'cuda'}` and running the VAD fails with
"Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!
(when checking argument for argument weight in method wrapper_CUDA__native_layer_norm)". The
maintainer: `VAD.__init__` did `self.device = self.hparams.device`, "forcing our VAD model to be on
self.hparams.device", bypassing the run_opts device that `Pretrained.__init__` had used to move
`self.mods`; the waveforms were then moved to the CPU. The fix removes that line. Stand-ins:
`Pretrained`/`VAD` reduced to the device handling and `get_speech_prob_chunk`; `from_hparams`
builds the modules in place of hyperpyyaml; the CRDNN reduced to LayerNorm/Linear blocks and the
Fbank to framed log energies; `torchaudio.load` replaced by a random 1 s chunk batch.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch

class Fbank(torch.nn.Module):
    """stand-in of speechbrain.lobes.features.Fbank: framed log energies, no parameters"""
    def forward(self, wavs):
        frames = wavs.unfold(-1, 400, 160)                      # (batch, time, 400)
        return torch.log(frames.pow(2).reshape(frames.shape[0], frames.shape[1], 40, 10).sum(-1) + 1e-6)

class InputNormalization(torch.nn.Module):
    def forward(self, x, lengths):
        return (x - x.mean(1, keepdim=True)) / (x.std(1, keepdim=True) + 1e-5)

class Pretrained(torch.nn.Module):
    """stand-in of speechbrain.pretrained.interfaces.Pretrained (device handling only)"""
    HPARAMS_NEEDED = []
    MODULES_NEEDED = []

    def __init__(self, modules=None, hparams=None, run_opts=None, freeze_params=True):
        super().__init__()
        run_opt_defaults = {"device": "cpu", "jit": False}
        for arg, default in run_opt_defaults.items():
            if run_opts is not None and arg in run_opts:
                setattr(self, arg, run_opts[arg])
            else:
                if hparams is not None and arg in hparams:
                    setattr(self, arg, hparams[arg])
                else:
                    setattr(self, arg, default)

        # Put modules on the right device, accessible with dot notation
        self.mods = torch.nn.ModuleDict(modules)
        for module in self.mods.values():
            if module is not None:
                module.to(self.device)

        for hp in self.HPARAMS_NEEDED:
            if hp not in hparams:
                raise ValueError(f"Need hparams['{hp}']")
        self.hparams = SimpleNamespace(**hparams)
        if freeze_params:
            self.mods.eval()
            for p in self.mods.parameters():
                p.requires_grad = False

    @classmethod
    def from_hparams(cls, source, savedir=None, run_opts=None):
        # hyperpyyaml.load_hyperpyyaml(hparams.yaml) of vad-crdnn-libriparty, reduced
        hparams = {
            "sample_rate": 16000,
            "time_resolution": 0.01,
            "device": "cpu",
            "compute_features": Fbank(),
            "mean_var_norm": InputNormalization(),
            "cnn": torch.nn.Sequential(torch.nn.LayerNorm(40), torch.nn.Linear(40, 64), torch.nn.LeakyReLU()),
            "rnn": torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.Tanh()),
            "dnn": torch.nn.Linear(64, 1),
        }
        modules = {k: hparams[k] for k in ("compute_features", "mean_var_norm", "cnn", "rnn", "dnn")}
        return cls(modules=modules, hparams=hparams, run_opts=run_opts)

class VAD(Pretrained):
    """stand-in of speechbrain.pretrained.interfaces.VAD (speechbrain 0.5.15)"""
    HPARAMS_NEEDED = ["sample_rate", "time_resolution", "device"]
    MODULES_NEEDED = ["compute_features", "mean_var_norm", "model"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.time_resolution = self.hparams.time_resolution
        self.sample_rate = self.hparams.sample_rate
        self.device = self.hparams.device

    def get_speech_prob_chunk(self, wavs, wav_lens=None):
        # Manage single waveforms in input
        if len(wavs.shape) == 1:
            wavs = wavs.unsqueeze(0)

        # Assign full length if wav_lens is not assigned
        if wav_lens is None:
            wav_lens = torch.ones(wavs.shape[0], device=self.device)

        # Storing waveform in the specified device
        wavs, wav_lens = wavs.to(self.device), wav_lens.to(self.device)
        wavs = wavs.float()

        # Computing features and embeddings
        feats = self.mods.compute_features(wavs)
        feats = self.mods.mean_var_norm(feats, wav_lens)
        outputs = self.mods.cnn(feats)
        outputs = self.mods.rnn(outputs)
        outputs = self.mods.dnn(outputs)
        output_prob = torch.sigmoid(outputs)
        return output_prob

VAD = VAD.from_hparams(source="speechbrain/vad-crdnn-libriparty",
                       savedir="pretrained_models/vad-crdnn-libriparty",
                       run_opts={"device": "cuda:0"})      # "cuda" in the report

small_chunks = torch.randn(3, 16000)       # 1 s chunks read with torchaudio.load: on the CPU
'''
CELL = '''
prob_chunks = VAD.get_speech_prob_chunk(small_chunks)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["VAD"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        self.sample_rate = self.hparams.sample_rate\n        self.device = self.hparams.device\n",
    "        self.sample_rate = self.hparams.sample_rate\n",
)
CLEAN = False
