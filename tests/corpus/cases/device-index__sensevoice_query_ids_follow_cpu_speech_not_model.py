"""Streaming SenseVoice: the language/event/textnorm query ids are put on the device of the CPU feature chunk, not the model's.

Source: https://github.com/pengzhendong/streaming-sensevoice/issues/3
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when
checking argument for argument index in method wrapper_CUDA__index_select)": `SenseVoiceSmall.inference`
embeds the query ids created with `torch.LongTensor([[...]]).to(speech.device)`, while the streaming
loop keeps its rolling `chunk_feats` buffer on the CPU and the model was moved to the GPU, so the
embedding lookup gets CPU indices. Fixed in commit c077bf1 (move speech and ids to `self.device`).
Stand-ins: SenseVoiceSmall reduced (embedding, a small encoder, CTC head; `speech[None]` written
`unsqueeze(0)` and the final `[0, 4:]` with select/narrow, which the simulator needs on fake GPUs),
`torch.tensor(..., dtype=torch.long)` for the legacy `torch.LongTensor`, random LFR features.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn

class SenseVoiceSmall(nn.Module):
    def __init__(self, input_size=560, vocab_size=32, output_size=64):
        super().__init__()
        self.lid_dict = {"auto": 0, "zh": 3, "en": 4}
        self.textnorm_dict = {"withitn": 14, "woitn": 15}
        self.embed = nn.Embedding(7 + len(self.lid_dict) + len(self.textnorm_dict) + 4, input_size)
        self.encoder = nn.Sequential(nn.Linear(input_size, output_size), nn.ReLU(), nn.Linear(output_size, output_size))
        self.ctc = nn.Linear(output_size, vocab_size)

    @property
    def device(self):
        return self.embed.weight.device

    def inference(self, speech):
        speech = speech.unsqueeze(0)
        speech_lengths = torch.tensor([speech.shape[1]]).to(speech.device)

        textnorm_query = self.embed(
            torch.tensor([[self.textnorm_dict["woitn"] - 8]], dtype=torch.long).to(speech.device)
        ).repeat(speech.size(0), 1, 1)
        language_query = self.embed(
            torch.tensor([[self.lid_dict["zh"]]], dtype=torch.long).to(speech.device)
        ).repeat(speech.size(0), 1, 1)
        event_emo_query = self.embed(
            torch.tensor([[1, 2]], dtype=torch.long).to(speech.device)
        ).repeat(speech.size(0), 1, 1)
        speech = torch.cat((language_query, event_emo_query, textnorm_query, speech), dim=1)
        encoder_out = self.encoder(speech)
        log_probs = self.ctc(encoder_out).log_softmax(dim=-1)
        return log_probs.select(0, 0).narrow(0, 4, log_probs.shape[1] - 4)

device = "cuda:0"          # "cuda" in the original; the simulator needs an index
model = SenseVoiceSmall().to(device).eval()

chunk_size = 10
padding = 8
chunk_feats = torch.zeros((chunk_size + 2 * padding, 560))
feats = torch.randn(chunk_size + padding, 560)          # LFR features from OnlineFbank
for feat in torch.unbind(feats, dim=0):
    chunk_feats = torch.roll(chunk_feats, -1, dims=0)
    chunk_feats[-1, :] = feat
'''
CELL = '''
x = model.inference(chunk_feats)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["chunk_feats"]
FIX = "namespace"
REFERENCE_FIX = '''
chunk_feats = chunk_feats.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
