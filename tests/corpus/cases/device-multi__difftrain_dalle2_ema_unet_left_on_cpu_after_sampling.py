"""DALLE2 DecoderTrainer: after sampling with the EMA UNets, the next EMA update finds them on the CPU.

Source: https://github.com/lucidrains/DALLE2-pytorch/issues/87
"When after using decoder_trainer do sampling, the next train forward run will throw" "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and CPU" in
`EMA.update_moving_average` (`old * beta + new * (1 - beta)`). Sampling swaps the EMA UNets into the
decoder, whose `one_unet_in_gpu` context moves the UNets to the CPU and back off the GPU afterwards,
so the EMA copy stays on the CPU while the online UNet trains on the GPU; the EMA copy has to be
moved back to the online model's device after sampling. Stand-in: the
EMA wrapper, a Decoder with `one_unet_in_gpu` and the trainer's `sample`/`update`; GPU simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
from contextlib import contextmanager
import torch
from torch import nn

class EMA(nn.Module):
    def __init__(self, model, beta=0.99):
        super().__init__()
        self.beta = beta
        self.online_model = model
        self.ema_model = copy.deepcopy(model)

    def update(self):
        self.update_moving_average(self.ema_model, self.online_model)

    def update_moving_average(self, ma_model, current_model):
        def calculate_ema(beta, old, new):
            return old * beta + new * (1 - beta)
        for current_params, ma_params in zip(current_model.parameters(), ma_model.parameters()):
            old_weight, up_weight = ma_params.data, current_params.data
            ma_params.data = calculate_ema(self.beta, old_weight, up_weight)

class Unet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Conv2d(3, 3, 3, padding=1)
    def forward(self, x):
        return self.net(x)

class Decoder(nn.Module):
    def __init__(self, unets, device):
        super().__init__()
        self.unets = nn.ModuleList(unets)
        self.device = device

    @contextmanager
    def one_unet_in_gpu(self, unet):
        self.unets.cpu()
        unet.to(self.device)
        yield
        unet.cpu()

    @torch.no_grad()
    def sample(self, batch_size=1):
        img = torch.randn(batch_size, 3, 16, 16, device=self.device)
        for unet in self.unets:
            with self.one_unet_in_gpu(unet=unet):
                img = unet(img)
        return img

class DecoderTrainer(nn.Module):
    def __init__(self, decoder):
        super().__init__()
        self.decoder = decoder
        self.ema_unets = nn.ModuleList([EMA(unet) for unet in decoder.unets])

    def sample(self, *args, **kwargs):
        trainable_unets = self.decoder.unets
        self.decoder.unets = nn.ModuleList([ema.ema_model for ema in self.ema_unets])
        output = self.decoder.sample(*args, **kwargs)
        self.decoder.unets = trainable_unets
        return output

    def update(self, unet_number):
        index = unet_number - 1
        self.ema_unets[index].update()

device = torch.device("cuda:0")
decoder = Decoder([Unet()], device=device).to(device)
decoder_trainer = DecoderTrainer(decoder).to(device)
samples = decoder_trainer.sample(batch_size=1)        # a sampling step during training
'''
CELL = '''
decoder_trainer.update(unet_number=1)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["decoder_trainer.ema_unets[0].ema_model"]
FIX = "namespace"
REFERENCE_FIX = '''
for ema in decoder_trainer.ema_unets:
    ema.ema_model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
