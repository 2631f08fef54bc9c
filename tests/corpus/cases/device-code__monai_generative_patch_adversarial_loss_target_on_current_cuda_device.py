"""MONAI GenerativeModels PatchAdversarialLoss: the real/fake label tensor is built with `.type(input.type())`, which lands on the current CUDA device (cuda:0) while the discriminator runs on cuda:1.

Source: https://github.com/Project-MONAI/GenerativeModels/pull/371
"Fix CUDA device mismatch": "When using GPU devices other than "cuda" or "cuda:0", calling the loss
will raise a device mismatch error. The change makes the devices for zero or target tensors
consistent with inputs." `get_target_tensor` did `torch.tensor(1).fill_(self.real_label)
.type(input.type())`: the legacy type string ("torch.cuda.FloatTensor") carries no device index, so
the label goes to the current device, cuda:0, and MSELoss meets the cuda:1 discriminator logits.
Stand-ins: `.type(input.type())` is written out as what it does (a move to cuda:0 for a CUDA input,
this machine has no CUDA runtime); the autoencoder and PatchDiscriminator by small convs; the
generator-side adversarial term of one step, without backward.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def _legacy_type_as(t, input):
    """t.type(input.type()): 'torch.cuda.FloatTensor' has no index -> current CUDA device (cuda:0)"""
    return t.to("cuda:0" if input.is_cuda else "cpu", input.dtype)

class PatchAdversarialLoss(nn.Module):
    def __init__(self, reduction="mean", criterion="least_squares"):
        super().__init__()
        self.real_label, self.fake_label = 1.0, 0.0
        self.activation = nn.LeakyReLU(0.05)
        self.loss_fct = nn.MSELoss(reduction=reduction)
        self.criterion, self.reduction = criterion, reduction

    def get_target_tensor(self, input, target_is_real):
        filling_label = self.real_label if target_is_real else self.fake_label
        label_tensor = _legacy_type_as(torch.tensor(1).fill_(filling_label), input)
        label_tensor.requires_grad_(False)
        return label_tensor.expand_as(input)

    def forward(self, input, target_is_real, for_discriminator):
        if not for_discriminator:
            target_is_real = True
        if type(input) is not list:
            input = [input]
        target_ = [self.get_target_tensor(disc_out, target_is_real) for disc_out in input]
        loss = []
        for disc_ind, disc_out in enumerate(input):
            disc_out = self.activation(disc_out)
            loss.append(self.loss_fct(disc_out, target_[disc_ind]))
        return torch.mean(torch.stack(loss))

device = torch.device("cuda:1")
autoencoderkl = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 1, 3, padding=1)).to(device)
discriminator = nn.Sequential(nn.Conv2d(1, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                              nn.Conv2d(16, 1, 4, stride=1, padding=1)).to(device)      # PatchDiscriminator
adv_loss = PatchAdversarialLoss(criterion="least_squares")
adv_weight = 0.01
train_loader = [{"image": torch.rand(2, 1, 64, 64)}]
'''
CELL = '''
with torch.no_grad():
    for step, batch in enumerate(train_loader):
        images = batch["image"].to(device)
        reconstruction = autoencoderkl(images)
        logits_fake = discriminator(reconstruction.float())
        generator_loss = adv_loss(logits_fake, target_is_real=True, for_discriminator=False)
        loss_g = adv_weight * generator_loss
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["adv_loss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("label_tensor = _legacy_type_as(torch.tensor(1).fill_(filling_label), input)",
                  "label_tensor = torch.tensor(1).fill_(filling_label).to(input)")
CLEAN = False
