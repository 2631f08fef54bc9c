"""WhisperLiveKit streaming Sortformer diarization on CUDA: the chunk's `processed_signal_length` is made with a bare `torch.tensor([...])` on the CPU.

Source: https://github.com/QuentinFuxa/WhisperLiveKit/issues/206
After the #197 fix, diarization still failed: `SortformerDiarizationOnline.diarize` ->
`self.diar_model.forward_streaming_step(...)` -> `self.encoder.pre_encode(...)` with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". The model, the
mel preprocessor and the features are on CUDA, but the call passes
`processed_signal_length=torch.tensor([chunk_feat_seq_t.shape[1]])`, a CPU tensor that NeMo's masked
conv subsampling compares with a `torch.arange(..., device=x.device)`. The maintainer's fix (commit
4209d7f "Place all tensors on the same device in sortformer diarization", same day) builds it on
`self.diar_model.device`.
Stand-ins: NeMo's `SortformerEncLabelModel` reduced to a `ConvSubsampling` pre-encoder with its
`MaskedConvSequential` length mask, a linear speaker head and the running `total_preds`; the
`AudioToMelSpectrogramPreprocessor` reduced to a strided conv with its length computation. The
conversion of predictions to speaker segments (numpy) is left out, and `torch.inference_mode()`
is written `torch.no_grad()` (fake cuda tensors cannot be made inside inference mode).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import asyncio
import numpy as np
import torch
from torch import nn

def calculate_conv_output_size(input_size, kernel_size, stride, padding):
    return (input_size + padding[0] + padding[1] - kernel_size) // stride + 1

class MaskedConvSequential(nn.Sequential):
    """Stand-in for nemo.collections.asr.parts.submodules.subsampling.MaskedConvSequential."""
    def forward(self, x, lengths):
        x = x.unsqueeze(1)
        current_lengths = lengths.clone().float()
        mask = self._create_mask(x, current_lengths.long())
        for layer in self:
            x = x * mask.unsqueeze(1)
            x = layer(x)
            if hasattr(layer, "stride") and layer.stride != (1, 1):
                current_lengths = calculate_conv_output_size(current_lengths, layer.kernel_size[0], layer.stride[0], layer.padding)
                mask = self._create_mask(x, current_lengths.long())
        return x, current_lengths.long()

    def _create_mask(self, tensor, lengths):
        batch_size, channels, time, features = tensor.shape
        time_mask = torch.arange(time, device=tensor.device).expand(batch_size, time) < lengths.unsqueeze(1)
        return time_mask.unsqueeze(-1).expand(batch_size, time, features).to(tensor.dtype)

class ConvSubsampling(nn.Module):
    def __init__(self, feat_in=16, conv_channels=4, d_model=12):
        super().__init__()
        self.conv = MaskedConvSequential(
            nn.Conv2d(1, conv_channels, kernel_size=3, stride=2, padding=1), nn.ReLU())
        self.out = nn.Linear(conv_channels * (feat_in // 2), d_model)

    def forward(self, x, lengths):
        x, lengths = self.conv(x, lengths)
        b, c, t, f = x.size()
        return self.out(x.transpose(1, 2).reshape(b, t, -1)), lengths

class ConformerEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre_encode = ConvSubsampling()

class SortformerModules(nn.Module):
    def __init__(self, fc_d_model=12, n_spk=4):
        super().__init__()
        self.fc_d_model, self.n_spk = fc_d_model, n_spk
        self.chunk_len, self.subsampling_factor = 10, 10
        self.single_hidden_to_spks = nn.Linear(fc_d_model, n_spk)

class SortformerEncLabelModel(nn.Module):
    """Stand-in for nemo.collections.asr.models.SortformerEncLabelModel (streaming path)."""
    def __init__(self):
        super().__init__()
        self.encoder = ConformerEncoder()
        self.sortformer_modules = SortformerModules()

    @classmethod
    def from_pretrained(cls, model_name):
        return cls()

    @property
    def device(self):
        return next(self.parameters()).device

    def forward_streaming_step(self, processed_signal, processed_signal_length, streaming_state,
                               total_preds, left_offset=0, right_offset=0):
        chunk_pre_encode_embs, chunk_pre_encode_lengths = self.encoder.pre_encode(
            x=processed_signal, lengths=processed_signal_length)
        preds = torch.sigmoid(self.sortformer_modules.single_hidden_to_spks(chunk_pre_encode_embs))
        total_preds = torch.cat([total_preds, preds], dim=1)
        return streaming_state, total_preds

class AudioToMelSpectrogramPreprocessor(nn.Module):
    def __init__(self, features=16, hop=160):
        super().__init__()
        self.hop = hop
        self.featurizer = nn.Conv1d(1, features, 400, stride=hop, padding=200)

    def get_features(self, input_signal, length):
        seq_len = torch.floor_divide(length, self.hop) + 1
        return self.featurizer(input_signal.unsqueeze(1)), seq_len

class StreamingSortformerState:
    def __init__(self):
        self.spkcache = None
        self.fifo = None

class SortformerDiarization:
    def __init__(self, model_name="nvidia/diar_streaming_sortformer_4spk-v2"):
        self.diar_model = SortformerEncLabelModel.from_pretrained(model_name)
        self.diar_model.eval()
        self.diar_model.to(torch.device("cuda:0"))     # if torch.cuda.is_available()

class SortformerDiarizationOnline:
    def __init__(self, shared_model, sample_rate=16000):
        self.sample_rate = sample_rate
        self.buffer_audio = np.array([], dtype=np.float32)
        self.diar_model = shared_model.diar_model
        self.audio2mel = AudioToMelSpectrogramPreprocessor()
        self.audio2mel.to(self.diar_model.device)
        self.chunk_duration_seconds = 0.1 * 4
        self._previous_chunk_features = None
        self._chunk_index = 0
        device = self.diar_model.device
        self.streaming_state = StreamingSortformerState()
        self.streaming_state.spkcache = torch.zeros((1, 8, self.diar_model.sortformer_modules.fc_d_model), device=device)
        self.total_preds = torch.zeros((1, 0, self.diar_model.sortformer_modules.n_spk), device=device)

    async def diarize(self, pcm_array):
        threshold = int(self.chunk_duration_seconds * self.sample_rate)
        self.buffer_audio = np.concatenate([self.buffer_audio, pcm_array.copy()])
        if not len(self.buffer_audio) >= threshold:
            return
        audio = self.buffer_audio[:threshold]
        self.buffer_audio = self.buffer_audio[threshold:]

        audio_signal_chunk = torch.tensor(audio).unsqueeze(0).to(self.diar_model.device)
        audio_signal_length_chunk = torch.tensor([audio_signal_chunk.shape[1]]).to(self.diar_model.device)

        processed_signal_chunk, processed_signal_length_chunk = self.audio2mel.get_features(
            audio_signal_chunk, audio_signal_length_chunk
        )
        if self._previous_chunk_features is not None:
            n_prev = self._previous_chunk_features.size(2)
            to_add = self._previous_chunk_features.narrow(2, max(0, n_prev - 99), min(n_prev, 99))   # [:, :, -99:]
            total_features = torch.concat([to_add, processed_signal_chunk], dim=2)
        else:
            total_features = processed_signal_chunk
        self._previous_chunk_features = processed_signal_chunk
        chunk_feat_seq_t = torch.transpose(total_features, 1, 2)

        with torch.no_grad():   # torch.inference_mode() in WhisperLiveKit (not simulable on fake cuda)
            left_offset = 8 if self._chunk_index > 0 else 0
            right_offset = 8
            self.streaming_state, self.total_preds = self.diar_model.forward_streaming_step(
                processed_signal=chunk_feat_seq_t,
                processed_signal_length=torch.tensor([chunk_feat_seq_t.shape[1]]),
                streaming_state=self.streaming_state,
                total_preds=self.total_preds,
                left_offset=left_offset,
                right_offset=right_offset,
            )
        self._chunk_index += 1

shared_model = SortformerDiarization()
diarization_obj = SortformerDiarizationOnline(shared_model)
pcm_array = (np.random.default_rng(0).standard_normal(6400) * 0.1).astype(np.float32)
'''
CELL = '''
await diarization_obj.diarize(pcm_array)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["diarization_obj"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("processed_signal_length=torch.tensor([chunk_feat_seq_t.shape[1]]),",
                  "processed_signal_length=torch.tensor([chunk_feat_seq_t.shape[1]]).to(self.diar_model.device),")
CLEAN = False
