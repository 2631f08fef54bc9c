"""ezflow `BasicEncoder(intermediate_features=True)`: the layers are kept in a plain Python list, so `.to(device)` never moves them and the feature pyramid hits CPU weights.

Source: https://github.com/neu-vi/ezflow/pull/173
"Fix device mismatch when using residual encoders to obtain intermediate features": `__init__`
collects the stem conv, norm, ReLU and residual stages in `layers = [...]` and, only when
`intermediate_features is False`, wraps them in `nn.Sequential`; otherwise `self.encoder = layers`
stays a list that `nn.Module` does not register, so `encoder.to(device)` leaves every layer on the
CPU and `forward` (`for layer in self.encoder: x = layer(x)`) feeds GPU images to CPU layers. The PR
builds `layers` as an `nn.ModuleList`. Stand-in: ezflow's BasicEncoder and BasicBlock (batch norm,
default config (64, 96, 128) reduced to (16, 24, 32)); the user keeps the encoder as a RAFT-style
`fnet` and asks it for the multi-scale features of a frame. (Fake GPU convolutions do not check
devices, so the simulation reports the mismatch at the first batch norm, where a real GPU stops at the
stem conv with "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor)".)
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class BasicBlock(nn.Module):
    """Basic residual block for ResNet-style architectures"""

    def __init__(self, in_channels, out_channels, stride=1, norm="group", activation="relu"):
        super(BasicBlock, self).__init__()
        if norm.lower() == "batch":
            norm1 = nn.BatchNorm2d(out_channels)
            norm2 = nn.BatchNorm2d(out_channels)
            if stride != 1:
                norm3 = nn.BatchNorm2d(out_channels)
        else:
            norm1 = nn.Identity()
            norm2 = nn.Identity()
            if stride != 1:
                norm3 = nn.Identity()
        self.activation = nn.ReLU(inplace=True)
        self.residual_fn = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1, stride=stride),
            norm1,
            self.activation,
            nn.Conv2d(out_channels, out_channels, kernel_size=3, padding=1),
            norm2,
        )
        self.shortcut = nn.Identity()
        if stride != 1:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=stride),
                norm3,
            )

    def forward(self, x):
        out = self.residual_fn(x)
        out = self.activation(out + self.shortcut(x))
        return out

class BasicEncoder(nn.Module):
    """ResNet-style encoder with basic residual blocks"""

    def __init__(
        self,
        in_channels=3,
        out_channels=128,
        norm="batch",
        p_dropout=0.0,
        layer_config=(64, 96, 128),
        intermediate_features=False,
    ):
        super(BasicEncoder, self).__init__()

        self.intermediate_features = intermediate_features

        norm = norm.lower()
        assert norm in ("group", "batch", "instance", "none")

        start_channels = layer_config[0]

        if norm == "batch":
            norm_fn = nn.BatchNorm2d(start_channels)
        else:
            norm_fn = nn.Identity()

        layers = [
            nn.Conv2d(in_channels, start_channels, kernel_size=7, stride=2, padding=3),
            norm_fn,
            nn.ReLU(inplace=True),
        ]

        for i in range(len(layer_config)):

            if i == 0:
                stride = 1
            else:
                stride = 2

            layers.append(
                self._make_layer(start_channels, layer_config[i], stride, norm)
            )
            start_channels = layer_config[i]

        layers.append(nn.Conv2d(layer_config[-1], out_channels, kernel_size=1))

        dropout = nn.Identity()
        if self.training and p_dropout > 0:
            dropout = nn.Dropout2d(p=p_dropout)
        layers.append(dropout)

        self.encoder = layers
        if self.intermediate_features is False:
            self.encoder = nn.Sequential(*self.encoder)

        self._init_weights()

    def _make_layer(self, in_channels, out_channels, stride, norm):

        layer1 = BasicBlock(in_channels, out_channels, stride, norm)
        layer2 = BasicBlock(out_channels, out_channels, stride=1, norm=norm)

        return nn.Sequential(*[layer1, layer2])

    def _init_weights(self):

        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, (nn.BatchNorm2d, nn.InstanceNorm2d, nn.GroupNorm)):
                if m.weight is not None:
                    nn.init.constant_(m.weight, 1)
                if m.bias is not None:
                    nn.init.constant_(m.bias, 0)

    def forward(self, x):

        if self.intermediate_features is True:

            features = []
            for layer in self.encoder:
                x = layer(x)

                if isinstance(layer, nn.Sequential):
                    features.append(x)

            return features

        else:

            out = self.encoder(x)
            return out

device = torch.device("cuda:0")
fnet = BasicEncoder(in_channels=3, out_channels=32, norm="batch", layer_config=(16, 24, 32),
                    intermediate_features=True).to(device).eval()
img1 = torch.rand(2, 3, 64, 96).to(device)
'''
CELL = '''
with torch.no_grad():
    feature_pyramid = fnet(img1)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input type")
CULPRITS = ["fnet"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        layers = [
            nn.Conv2d(in_channels, start_channels, kernel_size=7, stride=2, padding=3),
            norm_fn,
            nn.ReLU(inplace=True),
        ]""", """        layers = nn.ModuleList(
            [
                nn.Conv2d(in_channels, start_channels, kernel_size=7, stride=2, padding=3),
                norm_fn,
                nn.ReLU(inplace=True),
            ]
        )""")
CLEAN = False
