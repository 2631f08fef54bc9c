"""SpeechT5 text-to-speech pipeline in fp16: the x-vector speaker embedding is passed as float32.

Source: https://github.com/dkackman/diffusers-workflow/issues/223
`generate_speech` with `microsoft/speecht5_tts` loaded as an fp16 text-to-speech pipeline and a
`speaker_embedding` computed from a reference wav (a speechbrain x-vector, reshaped to (1, 512))
failed in `SpeechT5ForTextToSpeech.generate` with "mat1 and mat2 must have the same dtype, but got
Float and Half". The verification comment traced it: "the x-vector reaches SpeechT5's decoder
prenet as float32 while the pipe is fp16" - the prenet concatenates it with the half-precision
frame features (the result is promoted to float32) and feeds it to the fp16 `speaker_embeds_layer`.
The embedding has to be cast to the pipeline's dtype.
Stand-ins: a text-to-audio pipeline object around a reduced SpeechT5ForTextToSpeech (text encoder,
decoder prenet with `speaker_embeds_layer`, a few greedy decoding steps); CPU, dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class SpeechT5SpeechDecoderPrenet(nn.Module):
    def __init__(self, num_mel_bins=8, hidden=16, speaker_embedding_dim=12):
        super().__init__()
        self.layers = nn.Linear(num_mel_bins, hidden)
        self.speaker_embeds_layer = nn.Linear(speaker_embedding_dim + hidden, hidden)

    def forward(self, input_values, speaker_embeddings=None):
        inputs_embeds = nn.functional.relu(self.layers(input_values))
        if speaker_embeddings is not None:
            speaker_embeddings = nn.functional.normalize(speaker_embeddings)
            speaker_embeddings = speaker_embeddings.unsqueeze(1).expand(-1, inputs_embeds.size(1), -1)
            inputs_embeds = torch.cat([inputs_embeds, speaker_embeddings], dim=-1)
            inputs_embeds = nn.functional.relu(self.speaker_embeds_layer(inputs_embeds))
        return inputs_embeds

class SpeechT5ForTextToSpeech(nn.Module):
    def __init__(self, vocab=40, hidden=16, num_mel_bins=8):
        super().__init__()
        self.num_mel_bins = num_mel_bins
        self.encoder = nn.Embedding(vocab, hidden)
        self.prenet = SpeechT5SpeechDecoderPrenet(num_mel_bins, hidden)
        self.feat_out = nn.Linear(hidden, num_mel_bins)

    @torch.no_grad()
    def generate(self, input_ids, speaker_embeddings=None, maxlen=4):
        encoder_out = self.encoder(input_ids).mean(1, keepdim=True)
        output_sequence = encoder_out.new_zeros(input_ids.size(0), 1, self.num_mel_bins)
        spectrogram = []
        for _ in range(maxlen):
            decoder_hidden = self.prenet(output_sequence, speaker_embeddings) + encoder_out
            frame = self.feat_out(decoder_hidden[:, -1:])
            spectrogram.append(frame)
            output_sequence = torch.cat([output_sequence, frame], dim=1)
        return torch.cat(spectrogram, dim=1)

class TextToAudioPipeline:
    def __init__(self, model, torch_dtype=torch.float32):
        self.model = model.to(torch_dtype)
        self.torch_dtype = torch_dtype

    def preprocess(self, text):
        return {"input_ids": torch.tensor([[ord(c) % 40 for c in text]])}

    def __call__(self, text, forward_params=None):
        model_inputs = self.preprocess(text)
        speech = self.model.generate(**model_inputs, **(forward_params or {}))
        return {"audio": speech, "sampling_rate": 16000}

pipe = TextToAudioPipeline(SpeechT5ForTextToSpeech().eval(), torch_dtype=torch.float16)
speaker_embedding = torch.randn(12).reshape(1, -1)       # x-vector from the reference wav, (1, 512) in the report
text = "The quick brown fox jumps over the lazy dog near the river bank."
'''
CELL = '''
speech = pipe(text, forward_params={"speaker_embeddings": speaker_embedding})
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "same dtype")
CULPRITS = ["speaker_embedding"]
FIX = "namespace"
REFERENCE_FIX = '''
speaker_embedding = speaker_embedding.to(pipe.torch_dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
