"""Whisper fine-tuning under Lightning's ColossalAI strategy: the model is half precision, the collated `input_features` float32.

Source: https://github.com/hpcaitech/ColossalAI/issues/2392
A LightningModule builds `AutoModelForSpeechSeq2Seq.from_pretrained("openai/whisper-tiny")` in
`configure_sharded_model` and trains it with the ColossalAI strategy and CPUAdam; the strategy keeps
the weights in fp16, while `DataCollatorSpeechSeq2SeqWithPadding` pads the log-mel
`input_features` as float32. `training_step` -> `self(**batch)` failed in the encoder's first conv with
"Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same".
Stand-in: the Whisper encoder conv stem + a decoder head, the collator's batch dict; CPU half
precision (PyTorch words the error "Input type (float) and bias type (c10::Half)").
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class WhisperTiny(nn.Module):
    def __init__(self, n_mels=80, d_model=64, vocab=512):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, d_model, 3, padding=1)
        self.conv2 = nn.Conv1d(d_model, d_model, 3, stride=2, padding=1)
        self.embed_tokens = nn.Embedding(vocab, d_model)
        self.proj_out = nn.Linear(d_model, vocab, bias=False)

    def forward(self, input_features, labels):
        x = nn.functional.gelu(self.conv2(nn.functional.gelu(self.conv1(input_features))))
        enc = x.mean(dim=-1, keepdim=True).transpose(1, 2)
        logits = self.proj_out(self.embed_tokens(labels) + enc)
        return nn.functional.cross_entropy(logits.float().view(-1, logits.shape[-1]), labels.view(-1))

class lightningmodel(nn.Module):
    def configure_sharded_model(self):
        self.model = WhisperTiny()

    def forward(self, **inputs):
        return self.model(**inputs)

    def training_step(self, batch, batch_idx):
        loss = self(**batch)
        return loss

def data_collator(features):
    return {"input_features": torch.tensor(np.stack([f["input_features"] for f in features])),
            "labels": torch.tensor(np.stack([f["labels"] for f in features]))}

plmodel = lightningmodel()
plmodel.configure_sharded_model()
plmodel.half()                                   # ColossalAI strategy: fp16 weights
vectorized = [{"input_features": np.random.randn(80, 300).astype(np.float32),
               "labels": np.random.randint(0, 512, 12)} for _ in range(4)]
batch = data_collator(vectorized)
'''
CELL = '''
loss = plmodel.training_step(batch, 0)
'''
EXPECT_ERROR = ("should be the same", "Input type")
CULPRITS = ["batch['input_features']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["input_features"] = batch["input_features"].half()
'''
REFERENCE_EDIT = None
CLEAN = False
