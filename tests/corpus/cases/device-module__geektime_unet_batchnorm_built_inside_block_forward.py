"""geekTime-semantic-segmentation U-Net: `Block.forward` builds `nn.BatchNorm2d(...)` on every call, so its weights are on the CPU while the model and batch are on the GPU.

Source: https://github.com/syuu1987/geekTime-semantic-segmentation/issues/1
A reader running the column's cat-segmentation example (`train.py`, device cuda:0) got "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". `Block.forward`
does `x = nn.BatchNorm2d(num_features=self.features)(x)` after each conv: a fresh module, created
on the CPU inside forward, that `unet.to(device)` never saw. The reader's fix: create the
BatchNorm layers in `Block.__init__`. Reduced: 32x32 random images for the dataset, init_features=8,
one epoch without the `loss.item()` logging and checkpoint save; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset

class CatSegmentationDataset(Dataset):
    in_channels = 3
    out_channels = 1
    def __init__(self, n=8, image_size=32):
        rng = np.random.RandomState(0)          # JPEGImages / SegmentationClassPNG stand-in
        self.image_slices = [rng.randint(0, 255, (image_size, image_size, 3)) / 255. for _ in range(n)]
        self.mask_slices = [(rng.rand(image_size, image_size) > 0.5).astype(np.uint8) for _ in range(n)]
    def __len__(self):
        return len(self.image_slices)
    def __getitem__(self, idx):
        image = self.image_slices[idx].transpose(2, 0, 1)
        mask = self.mask_slices[idx][np.newaxis, :, :]
        return image.astype(np.float32), mask.astype(np.float32)

class DiceLoss(nn.Module):
    def __init__(self):
        super(DiceLoss, self).__init__()
        self.smooth = 1.0
    def forward(self, y_pred, y_true):
        y_pred = y_pred.contiguous().view(-1)
        y_true = y_true.contiguous().view(-1)
        intersection = (y_pred * y_true).sum()
        dsc = (2. * intersection + self.smooth) / (y_pred.sum() + y_true.sum() + self.smooth)
        return 1. - dsc

class Block(nn.Module):
    def __init__(self, in_channels, features):
        super(Block, self).__init__()
        self.features = features
        self.conv1 = nn.Conv2d(in_channels=in_channels, out_channels=features, kernel_size=3, padding='same')
        self.conv2 = nn.Conv2d(in_channels=features, out_channels=features, kernel_size=3, padding='same')

    def forward(self, input):
        x = self.conv1(input)
        x = nn.BatchNorm2d(num_features=self.features)(x)
        x = nn.ReLU(inplace=True)(x)
        x = self.conv2(x)
        x = nn.BatchNorm2d(num_features=self.features)(x)
        x = nn.ReLU(inplace=True)(x)
        return x

class UNet(nn.Module):
    def __init__(self, in_channels=3, out_channels=1, init_features=8):
        super(UNet, self).__init__()
        features = init_features
        self.conv_encoder_1 = Block(in_channels, features)
        self.conv_encoder_2 = Block(features, features * 2)
        self.bottleneck = Block(features * 2, features * 4)
        self.upconv2 = nn.ConvTranspose2d(features * 4, features * 2, kernel_size=2, stride=2)
        self.conv_decoder_2 = Block((features * 2) * 2, features * 2)
        self.upconv1 = nn.ConvTranspose2d(features * 2, features, kernel_size=2, stride=2)
        self.decoder1 = Block(features * 2, features)
        self.conv = nn.Conv2d(in_channels=features, out_channels=out_channels, kernel_size=1)

    def forward(self, x):
        conv_encoder_1_1 = self.conv_encoder_1(x)
        conv_encoder_1_2 = nn.MaxPool2d(kernel_size=2, stride=2)(conv_encoder_1_1)
        conv_encoder_2_1 = self.conv_encoder_2(conv_encoder_1_2)
        conv_encoder_2_2 = nn.MaxPool2d(kernel_size=2, stride=2)(conv_encoder_2_1)
        bottleneck = self.bottleneck(conv_encoder_2_2)
        conv_decoder_2_1 = self.upconv2(bottleneck)
        conv_decoder_2_2 = torch.cat((conv_decoder_2_1, conv_encoder_2_1), dim=1)
        conv_decoder_2_3 = self.conv_decoder_2(conv_decoder_2_2)
        conv_decoder_1_1 = self.upconv1(conv_decoder_2_3)
        conv_decoder_1_2 = torch.cat((conv_decoder_1_1, conv_encoder_1_1), dim=1)
        conv_decoder_1_3 = self.decoder1(conv_decoder_1_2)
        return torch.sigmoid(self.conv(conv_decoder_1_3))

device = torch.device('meta')                    # "cpu" if not torch.cuda.is_available() else args.device
loader_train = DataLoader(CatSegmentationDataset(), batch_size=4, shuffle=True, num_workers=0)
unet = UNet(in_channels=CatSegmentationDataset.in_channels, out_channels=CatSegmentationDataset.out_channels)
unet.to(device)
dsc_loss = DiceLoss()
optimizer = optim.Adam(unet.parameters(), lr=0.0001)
step = 0
'''
CELL = '''
unet.train()
for i, data in enumerate(loader_train):
    step += 1
    x, y_true = data
    x, y_true = x.to(device), y_true.to(device)
    y_pred = unet(x)
    optimizer.zero_grad()
    loss = dsc_loss(y_pred, y_true)
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["unet.conv_encoder_1"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        self.conv2 = nn.Conv2d(in_channels=features, out_channels=features, kernel_size=3, padding='same')

    def forward(self, input):
        x = self.conv1(input)
        x = nn.BatchNorm2d(num_features=self.features)(x)
        x = nn.ReLU(inplace=True)(x)
        x = self.conv2(x)
        x = nn.BatchNorm2d(num_features=self.features)(x)
""", """        self.conv2 = nn.Conv2d(in_channels=features, out_channels=features, kernel_size=3, padding='same')
        self.bn1 = nn.BatchNorm2d(num_features=features)
        self.bn2 = nn.BatchNorm2d(num_features=features)

    def forward(self, input):
        x = self.conv1(input)
        x = self.bn1(x)
        x = nn.ReLU(inplace=True)(x)
        x = self.conv2(x)
        x = self.bn2(x)
""")
CLEAN = False
