"""Discriminator targets built with `torch.full(..., self.cover_label)` from an int label are int64.

Source: https://github.com/ando-khachatryan/HiDDeN/issues/28
Training HiDDeN failed inside BCEWithLogitsLoss with "result type Float can't be cast to the
desired output type Long". The class stores `self.cover_label = 1` / `self.encoded_label = 0` as
Python ints, and since PyTorch 1.7 `torch.full` infers int64 from an int fill value, so the
targets are Long; commenters fixed it by making the targets float. Stand-in: the discriminator
half of `Hidden.train_on_batch` with tiny networks.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

class Hidden:
    def __init__(self, device):
        self.encoder = nn.Sequential(nn.Conv2d(3 + 8, 3, 3, padding=1)).to(device)
        self.discriminator = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
            nn.Flatten(), nn.Linear(8, 1)).to(device)
        self.optimizer_discrim = torch.optim.Adam(self.discriminator.parameters())
        self.device = device
        self.bce_with_logits_loss = nn.BCEWithLogitsLoss()
        self.cover_label = 1
        self.encoded_label = 0

    def train_on_batch(self, batch):
        images, messages = batch
        batch_size = images.shape[0]
        self.optimizer_discrim.zero_grad()
        d_target_label_cover = torch.full((batch_size, 1), self.cover_label, device=self.device)
        d_on_cover = self.discriminator(images)
        d_loss_on_cover = self.bce_with_logits_loss(d_on_cover, d_target_label_cover)
        d_loss_on_cover.backward()

        msg = messages[:, :, None, None].expand(-1, -1, images.shape[2], images.shape[3])
        encoded_images = self.encoder(torch.cat([images, msg], dim=1))
        d_target_label_encoded = torch.full((batch_size, 1), self.encoded_label, device=self.device)
        d_on_encoded = self.discriminator(encoded_images.detach())
        d_loss_on_encoded = self.bce_with_logits_loss(d_on_encoded, d_target_label_encoded)
        d_loss_on_encoded.backward()
        self.optimizer_discrim.step()
        return d_loss_on_cover.item(), d_loss_on_encoded.item()

hidden = Hidden(torch.device("cpu"))
images = torch.randn(4, 3, 16, 16)
messages = torch.randint(0, 2, (4, 8)).float()
'''
CELL = '''
losses = hidden.train_on_batch([images, messages])
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["hidden.cover_label"]
FIX = "namespace"
REFERENCE_FIX = '''
hidden.cover_label = 1.0
hidden.encoded_label = 0.0
'''
REFERENCE_EDIT = None
CLEAN = False
