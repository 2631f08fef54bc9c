"""Look-alike: Wav2Lip inference builds each face/mel batch on the CPU with `torch.FloatTensor(...)`, sends it to the device, and brings `pred` back with `.cpu()` for cv2.

Source: https://github.com/Rudrabha/Wav2Lip (inference.py, main loop over datagen)
`device = 'cuda' if torch.cuda.is_available() else 'cpu'`; `load_model` returns `model.to(device).eval()`;
for every `(img_batch, mel_batch, frames, coords)` from `datagen`, the numpy batches become
`torch.FloatTensor(np.transpose(img_batch, (0, 3, 1, 2))).to(device)` and likewise for the mel chunks;
`pred = model(mel_batch, img_batch)` runs under no_grad and `pred.cpu().numpy()` feeds the frame
writer. The frames and coords stay numpy on purpose. It runs.
Stand-ins: the Wav2Lip network reduced to a two-level face encoder, a mel encoder and a decoder with
the skip concatenations; a 24x24 face crop (96 px in the repo); `datagen` as one numpy batch;
the final `.numpy().transpose(...)*255` left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

device = 'cuda:0'   # 'cuda' if torch.cuda.is_available() else 'cpu'

class Wav2Lip(nn.Module):                     # models/wav2lip.py (reduced)
    def __init__(self):
        super(Wav2Lip, self).__init__()
        self.face_encoder_blocks = nn.ModuleList([
            nn.Sequential(nn.Conv2d(6, 8, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU()),
        ])
        self.audio_encoder = nn.Sequential(nn.Conv2d(1, 16, 3, stride=(2, 1), padding=1), nn.ReLU(),
                                           nn.AdaptiveAvgPool2d(1))
        self.face_decoder_blocks = nn.ModuleList([
            nn.Sequential(nn.ConvTranspose2d(16, 16, 12, stride=1), nn.ReLU()),
            nn.Sequential(nn.ConvTranspose2d(32, 8, 4, stride=2, padding=1), nn.ReLU()),
        ])
        self.output_block = nn.Sequential(nn.Conv2d(16, 3, 1), nn.Sigmoid())

    def forward(self, audio_sequences, face_sequences):
        audio_embedding = self.audio_encoder(audio_sequences)   # B, 16, 1, 1
        feats = []
        x = face_sequences
        for f in self.face_encoder_blocks:
            x = f(x)
            feats.append(x)
        x = audio_embedding
        for f in self.face_decoder_blocks:
            x = f(x)
            x = torch.cat((x, feats[-1]), dim=1)
            feats.pop()
        return self.output_block(x)

def load_model(path):
    model = Wav2Lip()
    # checkpoint = _load(path); model.load_state_dict(new_s)
    model = model.to(device)
    return model.eval()

model = load_model('checkpoints/wav2lip_gan.pth')
rng = np.random.default_rng(0)
# one batch from datagen(full_frames, mel_chunks): masked face + reference face, mel windows
img_batch = rng.integers(0, 256, (4, 24, 24, 3)).astype(np.uint8)
img_masked = img_batch.copy()
img_masked[:, 24 // 2:] = 0                   # img_masked[:, args.img_size//2:] = 0
img_batch = np.concatenate((img_masked, img_batch), axis=3) / 255.
mel_batch = rng.standard_normal((4, 80, 16, 1))
frames = [rng.integers(0, 256, (48, 48, 3), dtype=np.uint8) for _ in range(4)]
coords = [(8, 32, 8, 32)] * 4
'''
CELL = '''
img_batch = torch.FloatTensor(np.transpose(img_batch, (0, 3, 1, 2))).to(device)
mel_batch = torch.FloatTensor(np.transpose(mel_batch, (0, 3, 1, 2))).to(device)

with torch.no_grad():
    pred = model(mel_batch, img_batch)

pred = pred.cpu()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
