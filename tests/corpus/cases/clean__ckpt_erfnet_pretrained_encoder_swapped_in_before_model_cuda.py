"""ERFNet training: an ImageNet-pretrained encoder (possibly saved on the GPU) is loaded, swapped into a new Net, and the assembled model is moved to the GPU.

Source: https://github.com/Eromera/erfnet_pytorch/blob/master/train/main.py
With `--pretrainedEncoder`, main.py builds `pretrainedEnc = torch.nn.DataParallel(ERFNet_imagenet(1000))`,
loads `torch.load(args.pretrainedEncoder)['state_dict']`, takes `next(pretrainedEnc.children()).features.encoder`
(`.cpu()` when not using CUDA, "because loaded encoder is probably saved in cuda"), then
`model = model_file.Net(NUM_CLASSES, encoder=pretrainedEnc)` and only afterwards
`model = torch.nn.DataParallel(model).cuda()` - the swap happens before the move, so encoder and decoder
end up together. Look-alike: a pretrained backbone loaded separately and swapped into a model, with the
loaded checkpoint dict still around. Stand-in: small encoder/decoder; DataParallel left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU(),
                                    nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU())

    def forward(self, x):
        return self.layers(x)

class Features(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()

class ERFNet_imagenet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.features = Features()
        self.classifier = nn.Linear(32, num_classes)

class Decoder(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.up = nn.Sequential(nn.Upsample(scale_factor=4), nn.Conv2d(32, num_classes, 1))

    def forward(self, x):
        return self.up(x)

class Net(nn.Module):
    def __init__(self, num_classes, encoder=None):
        super().__init__()
        self.encoder = encoder if encoder is not None else Encoder()
        self.decoder = Decoder(num_classes)

    def forward(self, input):
        return self.decoder(self.encoder(input))

NUM_CLASSES = 20
cuda = True
pretrainedEnc = ERFNet_imagenet(1000)
checkpoint = {"state_dict": ERFNet_imagenet(1000).state_dict()}   # torch.load(args.pretrainedEncoder)
pretrainedEnc.load_state_dict(checkpoint["state_dict"])
pretrainedEnc = pretrainedEnc.features.encoder
if not cuda:
    pretrainedEnc = pretrainedEnc.cpu()
model = Net(NUM_CLASSES, encoder=pretrainedEnc)
if cuda:
    model = model.to("cuda:0")                 # torch.nn.DataParallel(model).cuda()
model.eval()                                   # validation pass of the training loop
images = torch.randn(2, 3, 64, 64)
'''
CELL = '''
inputs = images.to("cuda:0") if cuda else images
outputs = model(inputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
