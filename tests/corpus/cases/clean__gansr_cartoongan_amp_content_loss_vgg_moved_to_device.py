"""Look-alike: CartoonGAN's generator step under autocast: fp32 VGG content loss and BCE on low-precision activations, all modules on the training device.

Source: https://github.com/FilipAndersson245/cartoon-gan/issues/15
The reporter's notebook failed in `content_loss(generated_data, real_data)` ("Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor)"): its `ContentLoss` (a frozen VGG16
prefix) was not on the GPU. The repository's `train.py` builds `content_loss = ContentLoss().to(device)`
and runs the generator loss inside autocast, where the activations are low precision while the VGG
and the label tensors stay fp32 on purpose; that path runs. Reproduced on the CPU with bfloat16
autocast (CUDA amp in the repo); networks and the VGG prefix are small stand-ins.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class ContentLoss(nn.Module):
    def __init__(self, omega=10):
        super(ContentLoss, self).__init__()
        self.base_loss = nn.L1Loss()
        self.omega = omega
        perception = [nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True)]
        self.perception = nn.Sequential(*perception).eval()
        for param in self.perception.parameters():
            param.requires_grad = False
    def forward(self, x1, x2):
        x1 = self.perception(x1)
        x2 = self.perception(x2)
        return self.omega * self.base_loss(x1, x2)

device = torch.device("cpu")          # "cuda" if torch.cuda.is_available() else "cpu"
batch_size, image_size = 2, 16
netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh()).to(device)
netD = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 4, 2, 1)).to(device)
optimizerG = torch.optim.AdamW(netG.parameters(), lr=1e-4, betas=(.5, .99), weight_decay=1e-4)
scaler = torch.amp.GradScaler("cpu")
cartoon_labels = torch.ones(batch_size, 1, image_size // 4, image_size // 4).to(device)
content_loss = ContentLoss().to(device)
BCE_loss = nn.BCEWithLogitsLoss().to(device)
real_data = torch.rand(batch_size, 3, image_size, image_size).to(device) * 2 - 1
'''
CELL = '''
netG.zero_grad()
with torch.autocast("cpu", dtype=torch.bfloat16):
    generated_data = netG(real_data)
    generated_pred = netD(generated_data)
    errG = BCE_loss(generated_pred, cartoon_labels) + content_loss(generated_data, real_data)
scaler.scale(errG).backward()
scaler.step(optimizerG)
scaler.update()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
