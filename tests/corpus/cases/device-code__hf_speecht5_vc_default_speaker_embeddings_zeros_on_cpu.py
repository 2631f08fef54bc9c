"""HF SpeechT5 voice conversion on the GPU without `speaker_embeddings`: generate_speech builds the default zeros on the CPU.

Source: https://github.com/huggingface/transformers/pull/21460
The SpeechT5ForSpeechToSpeech integration test failed on GPU: calling
`model.generate_speech(input_values)` with the model and inputs on `torch_device` and no speaker
embeddings, `generate_speech` substitutes `speaker_embeddings = torch.zeros((1, 512))` with no device,
and the decoder prenet concatenates it with its CUDA hidden states. The reviewer (hollance) pointed at
that line in modeling_speecht5 and the PR changed it to `.to(input_values.device)`. Stand-in: the
speech encoder prenet, the decoder prenet's speaker-embedding concat and a fixed-length decoding
loop (the stop-probability check left out); "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class SpeechT5DecoderPrenet(nn.Module):
    def __init__(self, num_mel_bins=80, hidden_size=64, speaker_embedding_dim=512):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(num_mel_bins, 64), nn.ReLU())
        self.speaker_embeds_layer = nn.Linear(speaker_embedding_dim + 64, hidden_size)

    def forward(self, input_values, speaker_embeddings=None):
        inputs_embeds = self.layers(input_values)
        if speaker_embeddings is not None:
            speaker_embeddings = nn.functional.normalize(speaker_embeddings)
            speaker_embeddings = speaker_embeddings.unsqueeze(1).expand(-1, inputs_embeds.size(1), -1)
            inputs_embeds = torch.cat([inputs_embeds, speaker_embeddings], dim=-1)
            inputs_embeds = nn.functional.relu(self.speaker_embeds_layer(inputs_embeds))
        return inputs_embeds

class SpeechT5ForSpeechToSpeech(nn.Module):
    def __init__(self, num_mel_bins=80, hidden_size=64):
        super().__init__()
        self.num_mel_bins = num_mel_bins
        self.encoder_prenet = nn.Conv1d(1, hidden_size, 400, stride=320)
        self.decoder_prenet = SpeechT5DecoderPrenet(num_mel_bins, hidden_size)
        self.feat_out = nn.Linear(hidden_size, num_mel_bins)

    def generate_speech(self, input_values, speaker_embeddings=None, maxlen=8):
        if speaker_embeddings is None:
            speaker_embeddings = torch.zeros((1, 512))
        encoder_out = self.encoder_prenet(input_values.unsqueeze(1)).transpose(1, 2).mean(dim=1, keepdim=True)
        output_sequence = input_values.new_zeros(input_values.size(0), 1, self.num_mel_bins)
        spectrogram = []
        for _ in range(maxlen):
            decoder_hidden = self.decoder_prenet(output_sequence, speaker_embeddings) + encoder_out
            spectrum = self.feat_out(decoder_hidden[:, -1:])
            spectrogram.append(spectrum)
            output_sequence = torch.cat((output_sequence, spectrum), dim=1)
        return torch.cat(spectrogram, dim=1).squeeze(0)

torch_device = torch.device("meta")
model = SpeechT5ForSpeechToSpeech().to(torch_device)      # from_pretrained("microsoft/speecht5_vc")
input_speech = torch.randn(1, 16000 * 2)                   # processor(audio=..., sampling_rate=16000).input_values
'''
CELL = '''
input_values = input_speech.to(torch_device)
generated_speech = model.generate_speech(input_values)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("speaker_embeddings = torch.zeros((1, 512))", "speaker_embeddings = torch.zeros((1, 512)).to(input_values.device)")
CLEAN = False
