"""Look-alike: the TrOCR fine-tuning loop moves every item of the CPU batch dict to the device before the forward.

Source: https://github.com/NielsRogge/Transformers-Tutorials/issues/68
The native-PyTorch TrOCR tutorial loop quoted in the report: the IAM dataset returns `pixel_values`
and `labels` built on the CPU (padding tokens replaced by -100 in Python), and each step does
`for k, v in batch.items(): batch[k] = v.to(device)` before `outputs = model(**batch)`,
`loss.backward()`, `optimizer.step()`. Inside the model, the decoder inputs are derived from the
labels with `labels.new_zeros` (same device). (The report itself is a CUDA device-side assert from
a vocabulary mismatch, not a device problem.) Nothing to report. Stand-in: VisionEncoderDecoderModel
reduced to a patch encoder, a one-layer decoder and `shift_tokens_right`; in the meta simulation the
device is "meta".
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

def shift_tokens_right(input_ids, pad_token_id, decoder_start_token_id):
    shifted_input_ids = input_ids.new_zeros(input_ids.shape)
    shifted_input_ids[:, 1:] = input_ids[:, :-1].clone()
    shifted_input_ids[:, 0] = decoder_start_token_id
    shifted_input_ids.masked_fill_(shifted_input_ids == -100, pad_token_id)
    return shifted_input_ids

class VisionEncoderDecoderModel(nn.Module):
    def __init__(self, vocab=60, dim=32, pad_token_id=1, decoder_start_token_id=2):
        super().__init__()
        self.pad_token_id, self.decoder_start_token_id = pad_token_id, decoder_start_token_id
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=8, stride=8)
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.cross = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, pixel_values, labels=None):
        enc = self.patch_embed(pixel_values).flatten(2).transpose(1, 2)
        decoder_input_ids = shift_tokens_right(labels, self.pad_token_id, self.decoder_start_token_id)
        h = self.embed_tokens(decoder_input_ids) + self.cross(enc.mean(1, keepdim=True))
        logits = self.lm_head(h)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100)
        return {"loss": loss, "logits": logits}

class IAMDataset(torch.utils.data.Dataset):
    def __init__(self, n=8, max_target_length=12, pad_token_id=1):
        self.n, self.max_target_length, self.pad_token_id = n, max_target_length, pad_token_id

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        pixel_values = torch.rand(3, 32, 64)                      # processor(image).pixel_values
        labels = [5 + (idx + i) % 50 for i in range(6)] + [self.pad_token_id] * (self.max_target_length - 6)
        labels = [label if label != self.pad_token_id else -100 for label in labels]
        return {"pixel_values": pixel_values, "labels": torch.tensor(labels)}

device = torch.device("meta")          # torch.device("cuda") in the tutorial
model = VisionEncoderDecoderModel().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
train_dataloader = torch.utils.data.DataLoader(IAMDataset(), batch_size=4, shuffle=True)
batch = next(iter(train_dataloader))
'''
CELL = '''
model.train()
for k, v in batch.items():
    batch[k] = v.to(device)
outputs = model(**batch)
loss = outputs["loss"]
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
