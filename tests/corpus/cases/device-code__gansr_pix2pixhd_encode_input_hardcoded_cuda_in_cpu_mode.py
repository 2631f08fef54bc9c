"""pix2pixHD (Detailed3DFace) in CPU mode: `encode_input` hard-codes `label_map.data.cuda()` while the generator stays on the CPU.

Source: https://github.com/yanght321/Detailed3DFace/issues/4
Running the test with `--gpu_ids -1` keeps `netG` on the CPU, but `Pix2PixHDModel.encode_input` always
does `input_label = label_map.data.cuda()`, so `inference` feeds a cuda tensor to a CPU generator and
fails with a RuntimeError. The user's fix: add `input_concat = input_concat.to(torch.device("cpu"))`
in `inference`. The global generator is a small stand-in (conv + instance norm + resnet-style tail);
`.cuda()` is written `.to("cuda:0")` (the simulator refuses a bare `.cuda()`), and the instance
norm is affine (the simulated conv does not check devices; the norm's weight surfaces the mismatch).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Variable

class GlobalGenerator(nn.Module):
    def __init__(self, input_nc, output_nc, ngf=8):
        super(GlobalGenerator, self).__init__()
        self.model = nn.Sequential(nn.ReflectionPad2d(3), nn.Conv2d(input_nc, ngf, kernel_size=7, padding=0),
                                   nn.InstanceNorm2d(ngf, affine=True), nn.ReLU(True),
                                   nn.ReflectionPad2d(3), nn.Conv2d(ngf, output_nc, kernel_size=7, padding=0), nn.Tanh())
    def forward(self, input):
        return self.model(input)

class BaseModel(torch.nn.Module):
    def initialize(self, opt):
        self.opt = opt
        self.gpu_ids = opt["gpu_ids"]

class Pix2PixHDModel(BaseModel):
    def name(self):
        return 'Pix2PixHDModel'

    def initialize(self, opt):
        BaseModel.initialize(self, opt)
        input_nc = opt["input_nc"]
        netG_input_nc = input_nc
        self.netG = GlobalGenerator(netG_input_nc, 1)
        if len(self.gpu_ids) > 0:
            self.netG.to("cuda:0")

    def encode_input(self, label_map, inst_map=None, real_image=None, feat_map=None):
        input_label = label_map.data.to("cuda:0")      # label_map.data.cuda()
        input_label = Variable(input_label)
        return input_label, inst_map, real_image, feat_map

    def inference(self, label, inst, image=None):
        # Encode Inputs
        image = Variable(image) if image is not None else None
        input_label, inst_map, real_image, _ = self.encode_input(Variable(label), Variable(inst), image)
        input_concat = input_label
        with torch.no_grad():
            fake_image = self.netG.forward(input_concat)
        return fake_image

opt = {"gpu_ids": [], "input_nc": 3}      # test.py --gpu_ids -1
model = Pix2PixHDModel()
model.initialize(opt)
data = {"label": torch.rand(1, 3, 32, 32), "inst": torch.zeros(1)}
'''
CELL = '''
generated = model.inference(data['label'], data['inst'])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        input_concat = input_label\n",
                  "        input_concat = input_label\n        input_concat = input_concat.to(torch.device(\"cpu\"))\n")
CLEAN = False
