"""HF VitsModel (vits-vctk) on the GPU with an integer `speaker_id`: forward builds the speaker index on the CPU.

Source: https://github.com/huggingface/transformers/issues/26055
With `model.to('cuda')`, `inputs.to('cuda')` and `inputs['speaker_id'] = 3`, `model(**inputs)` failed
with "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cpu!": `VitsModel.forward` turns the int into `torch.full(size=(1,), fill_value=speaker_id)` without a
device and feeds it to `self.embed_speaker`, whose weight is on the GPU. PR #26115 passes
`device=self.device`. Stand-in: VitsModel's speaker-embedding path and a conditioned text encoder;
the tokenizer's BatchEncoding by a dict.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class VitsConfig:
    vocab_size = 40
    hidden_size = 64
    num_speakers = 109
    speaker_embedding_size = 32

class VitsModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.text_encoder = nn.Embedding(config.vocab_size, config.hidden_size)
        self.embed_speaker = nn.Embedding(config.num_speakers, config.speaker_embedding_size)
        self.cond = nn.Linear(config.speaker_embedding_size, config.hidden_size)
        self.decoder = nn.Linear(config.hidden_size, 256)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, input_ids, attention_mask=None, speaker_id=None):
        if self.config.num_speakers > 1 and speaker_id is not None:
            if not 0 <= speaker_id < self.config.num_speakers:
                raise ValueError(f"Set `speaker_id` in the range 0-{self.config.num_speakers - 1}.")
            if isinstance(speaker_id, int):
                speaker_id = torch.full(size=(1,), fill_value=speaker_id)
            speaker_embeddings = self.embed_speaker(speaker_id)
        else:
            speaker_embeddings = None
        hidden = self.text_encoder(input_ids)
        if speaker_embeddings is not None:
            hidden = hidden + self.cond(speaker_embeddings).unsqueeze(1)
        return {"waveform": self.decoder(hidden).flatten(1)}

model = VitsModel(VitsConfig())          # VitsModel.from_pretrained("Matthijs/vits-vctk")
model.to("cuda:0")
inputs = {"input_ids": torch.randint(0, 40, (1, 35)), "attention_mask": torch.ones(1, 35, dtype=torch.long)}
inputs = {k: v.to("cuda:0") for k, v in inputs.items()}     # inputs.to("cuda")
inputs["speaker_id"] = 3
'''
CELL = '''
with torch.no_grad():
    output = model(**inputs)["waveform"]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "speaker_id = torch.full(size=(1,), fill_value=speaker_id)",
    "speaker_id = torch.full(size=(1,), fill_value=speaker_id, device=self.device)",
)
CLEAN = False
