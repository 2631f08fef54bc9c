"""MIC-DKFZ basic_unet_example: the training loop logs `torch.argmax(pred, ...)` (int64) as an image grid, and the grid saver's in-place `add_(0.5)` cannot write a float into a Long tensor.

Source: https://github.com/MIC-DKFZ/basic_unet_example/issues/10
Running the example UNetExperiment on the hippocampus data stopped with "result type Float can't be
cast to the desired output type Long". The maintainer traced it to the plotting: `show_image_grid`
is given `torch.argmax(pred.cpu(), dim=1, keepdim=True)`, an int64 map, and the image saver converts
the grid with `grid.mul(255).add_(0.5).clamp_(0, 255)`; commenting out the `show_image_grid` lines
let training run. Stand-ins: trixi's `clog.show_image_grid` (make_grid + torchvision's save_image
conversion), a two-conv 2D U-Net, the soft dice term left out (CE only), one batch.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def make_grid(tensor, nrow=8, padding=2, normalize=False, scale_each=False):
    tensor = tensor.clone()
    if normalize:
        for t in tensor.unbind(0):
            low, high = float(t.min()), float(t.max())
            t.clamp_(min=low, max=high)
            t.sub_(low).div_(max(high - low, 1e-5))
    return torch.cat(list(tensor), dim=-1)        # one row

class PytorchExperimentLogger:                    # trixi clog.show_image_grid -> save_image
    def __init__(self):
        self.saved = {}

    @torch.no_grad()
    def show_image_grid(self, tensor, name, title=None, n_iter=None, normalize=False, scale_each=False):
        grid = make_grid(tensor, normalize=normalize, scale_each=scale_each)
        ndarr = grid.mul(255).add_(0.5).clamp_(0, 255).permute(1, 2, 0).to("cpu", torch.uint8)
        self.saved[name] = ndarr

class UNet(nn.Module):
    def __init__(self, num_classes=3, in_channels=1):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(in_channels, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, num_classes, 1))

    def forward(self, x):
        return self.net(x)

class UNetExperiment:
    def __init__(self, device="cpu", plot_freq=1):
        self.device = torch.device(device)
        self.model = UNet(num_classes=3, in_channels=1).to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)
        self.ce_loss = nn.CrossEntropyLoss()
        self.clog = PytorchExperimentLogger()
        self.plot_freq = plot_freq
        self.train_data_loader = [{"data": torch.rand(1, 4, 1, 32, 32), "seg": torch.randint(0, 3, (1, 4, 1, 32, 32))}]

    def train(self, epoch):
        self.model.train()
        batch_counter = 0
        for data_batch in self.train_data_loader:
            self.optimizer.zero_grad()
            data = data_batch["data"][0].float().to(self.device)
            target = data_batch["seg"][0].long().to(self.device)
            pred = self.model(data)
            loss = self.ce_loss(pred, target.squeeze())
            loss.backward()
            self.optimizer.step()
            if (batch_counter % self.plot_freq) == 0:
                self.clog.show_image_grid(data.float().cpu(), name="data", normalize=True, scale_each=True, n_iter=epoch)
                self.clog.show_image_grid(target.float().cpu(), name="mask", title="Mask", n_iter=epoch)
                self.clog.show_image_grid(torch.argmax(pred.cpu(), dim=1, keepdim=True), name="unt_argmax", title="Unet", n_iter=epoch)
                self.clog.show_image_grid(pred.cpu()[:, 1:2, ], name="unt", normalize=True, scale_each=True, n_iter=epoch)
            batch_counter += 1

    def run(self, n_epochs=1):
        for epoch in range(n_epochs):
            self.train(epoch)

exp = UNetExperiment(device="cpu", plot_freq=1)
'''
CELL = '''
exp.run()
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["exp"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('self.clog.show_image_grid(torch.argmax(pred.cpu(), dim=1, keepdim=True), name="unt_argmax"',
                  'self.clog.show_image_grid(torch.argmax(pred.cpu(), dim=1, keepdim=True).float(), name="unt_argmax"')
CLEAN = False
