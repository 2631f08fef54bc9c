"""AnoGAN training (book notebook 6-2): the real/fake labels come from `torch.full(..., 1)`, an int64 tensor on PyTorch >= 1.7.

Source: https://github.com/YutaroOgawa/pytorch_advanced/issues/144
`train_model(G, D, dataloader=train_dataloader, num_epochs=300)` raised "result type Float can't be
cast to the desired output type Long" in `binary_cross_entropy_with_logits`; the reporter notes
5-1-2_DCGAN fails the same way. `label_real = torch.full((mini_batch_size,), 1).to(device)` infers
int64 from the fill value since PyTorch 1.7, and BCEWithLogitsLoss needs float targets.
Stand-in: fully connected G and D instead of the conv nets.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
from torch import nn

device = torch.device("cpu")

class Generator(nn.Module):
    def __init__(self, z_dim=20, image_size=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 64), nn.ReLU(), nn.Linear(64, image_size * image_size), nn.Tanh())
        self.image_size = image_size

    def forward(self, z):
        return self.net(z.view(z.shape[0], -1)).view(-1, 1, self.image_size, self.image_size)

class Discriminator(nn.Module):
    def __init__(self, image_size=16):
        super().__init__()
        self.features = nn.Sequential(nn.Flatten(), nn.Linear(image_size * image_size, 64), nn.LeakyReLU(0.1))
        self.last = nn.Linear(64, 1)

    def forward(self, x):
        feature = self.features(x)
        return self.last(feature), feature

class GAN_Img_Dataset(torch.utils.data.Dataset):
    def __init__(self, n=8, image_size=16):
        self.images = [torch.rand(1, image_size, image_size) * 2 - 1 for _ in range(n)]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return self.images[index]

def train_model(G, D, dataloader, num_epochs):
    g_optimizer = torch.optim.Adam(G.parameters(), 0.0001, [0.0, 0.9])
    d_optimizer = torch.optim.Adam(D.parameters(), 0.0004, [0.0, 0.9])
    criterion = nn.BCEWithLogitsLoss(reduction='mean')
    z_dim = 20
    G.to(device)
    D.to(device)
    G.train()
    D.train()
    for epoch in range(num_epochs):
        for imges in dataloader:
            imges = imges.to(device)
            mini_batch_size = imges.size()[0]
            label_real = torch.full((mini_batch_size,), 1).to(device)
            label_fake = torch.full((mini_batch_size,), 0).to(device)
            d_out_real, _ = D(imges)
            input_z = torch.randn(mini_batch_size, z_dim).to(device).view(mini_batch_size, z_dim, 1, 1)
            fake_images = G(input_z)
            d_out_fake, _ = D(fake_images)
            d_loss_real = criterion(d_out_real.view(-1), label_real)
            d_loss_fake = criterion(d_out_fake.view(-1), label_fake)
            d_loss = d_loss_real + d_loss_fake
            d_optimizer.zero_grad()
            d_loss.backward()
            d_optimizer.step()
            input_z = torch.randn(mini_batch_size, z_dim).to(device).view(mini_batch_size, z_dim, 1, 1)
            fake_images = G(input_z)
            d_out_fake, _ = D(fake_images)
            g_loss = criterion(d_out_fake.view(-1), label_real)
            g_optimizer.zero_grad()
            g_loss.backward()
            g_optimizer.step()
    return G, D

G = Generator()
D = Discriminator()
train_dataloader = torch.utils.data.DataLoader(GAN_Img_Dataset(), batch_size=4, shuffle=True)
'''
CELL = '''
G_update, D_update = train_model(G, D, dataloader=train_dataloader, num_epochs=1)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["label_real"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """            label_real = torch.full((mini_batch_size,), 1).to(device)
            label_fake = torch.full((mini_batch_size,), 0).to(device)""",
    """            label_real = torch.full((mini_batch_size,), 1.0).to(device)
            label_fake = torch.full((mini_batch_size,), 0.0).to(device)""",
)
CLEAN = False
