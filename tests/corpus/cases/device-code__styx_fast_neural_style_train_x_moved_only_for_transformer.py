"""fast_neural_style training on CUDA: `transformer(x.to(device))` leaves `x` itself on the CPU for the VGG loss.

Source: https://github.com/pytorch/examples/issues/347
Training a new style model with `--cuda 1` (PyTorch 0.4) failed in `train` at `features_x = vgg(x)`
with "Expected object of type torch.FloatTensor but found type torch.cuda.FloatTensor for argument #2
'weight'". The loop did `y = transformer(x.to(device))`, so only a copy went to the GPU and `x` was
normalized and fed to the (GPU) VGG from the CPU. The fix merged for it (pytorch/examples PR #392,
"fix fast neural transfer on cuda") rebinds `x = x.to(device)` before `y = transformer(x)`.
TransformerNet and Vgg16 are small stand-ins in the example's names (the simulated conv does not
check devices, so the mismatch surfaces at the content loss); the DataLoader is a list of CPU
batches; the optimizer step is left out (no autograd on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from collections import namedtuple
from types import SimpleNamespace

class ConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        self.reflection_pad = torch.nn.ReflectionPad2d(kernel_size // 2)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        return self.conv2d(self.reflection_pad(x))

class TransformerNet(torch.nn.Module):
    """Stand-in for fast_neural_style's TransformerNet (conv + InstanceNorm(affine) blocks)."""
    def __init__(self):
        super(TransformerNet, self).__init__()
        self.conv1 = ConvLayer(3, 8, kernel_size=9, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(8, affine=True)
        self.conv2 = ConvLayer(8, 8, kernel_size=3, stride=1)
        self.in2 = torch.nn.InstanceNorm2d(8, affine=True)
        self.deconv3 = ConvLayer(8, 3, kernel_size=9, stride=1)
        self.relu = torch.nn.ReLU()

    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.relu(self.in2(self.conv2(y)))
        return self.deconv3(y)

class Vgg16(torch.nn.Module):
    """Stand-in for fast_neural_style's Vgg16 feature slices (relu1_2 .. relu4_3)."""
    def __init__(self, requires_grad=False):
        super(Vgg16, self).__init__()
        self.slice1 = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU())
        self.slice2 = torch.nn.Sequential(torch.nn.MaxPool2d(2), torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.ReLU())
        self.slice3 = torch.nn.Sequential(torch.nn.MaxPool2d(2), torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.ReLU())
        self.slice4 = torch.nn.Sequential(torch.nn.MaxPool2d(2), torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.ReLU())
        if not requires_grad:
            for param in self.parameters():
                param.requires_grad = False

    def forward(self, X):
        h_relu1_2 = self.slice1(X)
        h_relu2_2 = self.slice2(h_relu1_2)
        h_relu3_3 = self.slice3(h_relu2_2)
        h_relu4_3 = self.slice4(h_relu3_3)
        vgg_outputs = namedtuple("VggOutputs", ['relu1_2', 'relu2_2', 'relu3_3', 'relu4_3'])
        return vgg_outputs(h_relu1_2, h_relu2_2, h_relu3_3, h_relu4_3)

def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    return features.bmm(features_t) / (ch * h * w)

def normalize_batch(batch):
    mean = torch.tensor([0.485, 0.456, 0.406], device=batch.device).view(-1, 1, 1)   # batch.new_tensor([...])
    std = torch.tensor([0.229, 0.224, 0.225], device=batch.device).view(-1, 1, 1)    # batch.new_tensor([...])
    batch = batch.div_(255.0)
    return (batch - mean) / std

utils = SimpleNamespace(gram_matrix=gram_matrix, normalize_batch=normalize_batch)   # neural_style/utils.py

args = SimpleNamespace(cuda=1, batch_size=2, content_weight=1e5, style_weight=1e10)
device = torch.device("cuda:0" if args.cuda else "cpu")     # torch.device("cuda" if args.cuda else "cpu")

transformer = TransformerNet().to(device)
mse_loss = torch.nn.MSELoss()
vgg = Vgg16(requires_grad=False).to(device)

style = (torch.rand(3, 32, 32) * 255).repeat(args.batch_size, 1, 1, 1).to(device)
features_style = vgg(utils.normalize_batch(style))
gram_style = [utils.gram_matrix(y) for y in features_style]

train_loader = [(torch.rand(args.batch_size, 3, 32, 32) * 255, torch.zeros(args.batch_size))]   # ImageFolder batches (CPU)

def train(args):
    for batch_id, (x, _) in enumerate(train_loader):
        n_batch = len(x)

        y = transformer(x.to(device))

        y = utils.normalize_batch(y)
        x = utils.normalize_batch(x)

        features_y = vgg(y)
        features_x = vgg(x)

        content_loss = args.content_weight * mse_loss(features_y.relu2_2, features_x.relu2_2)

        style_loss = 0.
        for ft_y, gm_s in zip(features_y, gram_style):
            gm_y = utils.gram_matrix(ft_y)
            style_loss += mse_loss(gm_y, gm_s[:n_batch, :, :])
        style_loss *= args.style_weight

        total_loss = content_loss + style_loss
    return total_loss
'''
CELL = '''
total_loss = train(args)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["train"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        y = transformer(x.to(device))""",
                  """        x = x.to(device)
        y = transformer(x)""")
CLEAN = False
