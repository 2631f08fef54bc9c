"""bark-voice-cloning-HuBERT-quantizer `prepare2`: HuBERT is built on the GPU, the loaded wav stays on the CPU.

Source: https://github.com/gitmylo/bark-voice-cloning-HuBERT-quantizer/pull/35
PR #33 made dataset preparation for Bark voice-cloning training use the GPU
(`hubert_model = CustomHubert(checkpoint_path=model, device=device)`), but each training wav is still
read with `torchaudio.load(input_path)` on the CPU and passed straight to `hubert_model.forward`, so
the feature extraction failed with a CPU/CUDA device mismatch. The follow-up PR #35 ("converting wav
tensor to cuda tensor", merged by the maintainer) adds `wav = wav.to(device)` after loading.
Stand-ins: CustomHubert with a framing + linear feature extractor instead of fairseq HuBERT, an
in-memory `prepared/` folder and `torchaudio_load` instead of the file system; features are kept in a
dict instead of `numpy.save`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")    # torch.device("cuda" if torch.cuda.is_available() else "cpu")

class CustomHubert(nn.Module):
    """bark_hubert_quantizer.pre_kmeans_hubert.CustomHubert (stand-in)."""
    def __init__(self, checkpoint_path, target_sample_hz=16000, output_layer=9, device=None):
        super().__init__()
        self.target_sample_hz = target_sample_hz
        self.frame = 320
        self.feature_extractor = nn.Linear(self.frame, 64)
        self.encoder = nn.Sequential(nn.GELU(), nn.Linear(64, 64))
        if device is not None:
            self.to(device)

    def forward(self, wav_input, flatten=True, input_sample_hz=None):
        frames = wav_input.reshape(wav_input.shape[0], -1, self.frame)
        embed = self.encoder(self.feature_extractor(frames))
        return embed.reshape(-1, embed.shape[-1]) if flatten else embed

PREPARED = {                                   # dataset/prepared/: wavs written by prepare()
    "0_wav.wav": (torch.randn(2, 16000), 16000),
    "0_semantic.npy": None,
}

def torchaudio_load(input_path):
    return PREPARED[input_path]

features = {}

def prepare2(path, model):
    hubert_model = CustomHubert(checkpoint_path=model, device=device)

    wav_string = '_wav.wav'
    sem_string = '_semantic.npy'

    for input_file in PREPARED:
        input_path = input_file
        if input_file.endswith(wav_string):
            file_num = int(input_file[:-len(wav_string)])
            fname = f'{file_num}_semantic_features.npy'
            print('Processing', input_file)
            wav, sr = torchaudio_load(input_path)

            if wav.shape[0] == 2:  # Stereo to mono if needed
                wav = wav.mean(0, keepdim=True)

            output = hubert_model.forward(wav, input_sample_hz=sr)
            features[fname] = output
        elif input_file.endswith(sem_string):
            continue
    print('All set! We\\'re ready to train!')
'''
CELL = '''
prepare2("dataset", "data/models/hubert/hubert.pt")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["prepare2"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            wav, sr = torchaudio_load(input_path)\n",
    "            wav, sr = torchaudio_load(input_path)\n            wav = wav.to(device)\n",
)
CLEAN = False
