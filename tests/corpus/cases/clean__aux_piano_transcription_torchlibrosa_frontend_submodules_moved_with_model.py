"""Look-alike: piano_transcription's CRNN builds its torchlibrosa spectrogram/log-mel front end on the CPU, as submodules moved by `model.to(device)`.

Source: https://github.com/bytedance/piano_transcription/blob/master/pytorch/models.py (`Regress_onset_offset_frame_velocity_CRNN`)
The front end (`Spectrogram` with frozen DFT conv kernels, `LogmelFilterBank` with a frozen `melW`
Parameter) is created in `__init__` next to the acoustic models; `PianoTranscription` in
`pytorch/inference.py` calls `self.model.to(self.device)` and moves each audio segment to the same
device, so the fixed kernels follow the model. Stand-ins: torchlibrosa `STFT`/`Spectrogram`/
`LogmelFilterBank` reduced (random DFT and mel matrices), one small conv + linear head for the four
CRNN acoustic models (no GRU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class Spectrogram(nn.Module):
    """torchlibrosa.stft.Spectrogram (stand-in): DFT kernels as frozen Conv1d weights."""
    def __init__(self, n_fft=256, hop_length=64, win_length=None, window="hann", center=True,
                 pad_mode="reflect", freeze_parameters=True):
        super().__init__()
        self.n_fft, self.center, self.pad_mode = n_fft, center, pad_mode
        out_channels = n_fft // 2 + 1
        self.conv_real = nn.Conv1d(1, out_channels, n_fft, stride=hop_length, bias=False)
        self.conv_imag = nn.Conv1d(1, out_channels, n_fft, stride=hop_length, bias=False)
        if freeze_parameters:
            for param in self.parameters():
                param.requires_grad = False

    def forward(self, input):                      # (batch_size, data_length)
        x = input.unsqueeze(1)
        if self.center:
            x = F.pad(x, pad=(self.n_fft // 2, self.n_fft // 2), mode=self.pad_mode)
        real = self.conv_real(x).unsqueeze(1).transpose(2, 3)
        imag = self.conv_imag(x).unsqueeze(1).transpose(2, 3)
        return real ** 2 + imag ** 2                # (batch_size, 1, time_steps, freq_bins)

class LogmelFilterBank(nn.Module):
    """torchlibrosa.stft.LogmelFilterBank (stand-in): melW as a frozen Parameter."""
    def __init__(self, sr=16000, n_fft=256, n_mels=64, fmin=30, fmax=8000, ref=1.0, amin=1e-10,
                 top_db=None, freeze_parameters=True):
        super().__init__()
        self.ref, self.amin, self.top_db = ref, amin, top_db
        self.melW = nn.Parameter(torch.rand(n_fft // 2 + 1, n_mels))
        if freeze_parameters:
            for param in self.parameters():
                param.requires_grad = False

    def forward(self, input):
        mel_spectrogram = torch.matmul(input, self.melW)
        log_spec = 10.0 * torch.log10(torch.clamp(mel_spectrogram, min=self.amin, max=math.inf))
        log_spec -= 10.0 * math.log10(max(self.amin, self.ref))
        return log_spec

class Regress_onset_offset_frame_velocity_CRNN(nn.Module):
    def __init__(self, frames_per_second=100, classes_num=88):
        super().__init__()
        sample_rate, window_size = 16000, 256
        hop_size = sample_rate // frames_per_second
        mel_bins, momentum = 64, 0.01
        self.spectrogram_extractor = Spectrogram(n_fft=window_size, hop_length=hop_size,
            win_length=window_size, window="hann", center=True, pad_mode="reflect", freeze_parameters=True)
        self.logmel_extractor = LogmelFilterBank(sr=sample_rate, n_fft=window_size, n_mels=mel_bins,
            fmin=30, fmax=sample_rate // 2, ref=1.0, amin=1e-10, top_db=None, freeze_parameters=True)
        self.bn0 = nn.BatchNorm2d(mel_bins, momentum)
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.frame_fc = nn.Linear(8 * mel_bins, classes_num)

    def forward(self, input):
        x = self.spectrogram_extractor(input)   # (batch_size, 1, time_steps, freq_bins)
        x = self.logmel_extractor(x)            # (batch_size, 1, time_steps, mel_bins)
        x = x.transpose(1, 3)
        x = self.bn0(x)
        x = x.transpose(1, 3)
        x = F.relu(self.conv(x)).transpose(1, 2).flatten(2)
        return {"frame_output": torch.sigmoid(self.frame_fc(x))}

device = torch.device("cuda:0")
model = Regress_onset_offset_frame_velocity_CRNN(frames_per_second=100, classes_num=88)
model.eval()
model.to(device)                                   # PianoTranscription: self.model.to(self.device)
segments = torch.randn(2, 16000)                   # enframed audio, from librosa on the CPU
'''
CELL = '''
with torch.no_grad():
    batch_output_dict = model(segments.to(device))
frame_output = batch_output_dict["frame_output"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
