"""Look-alike: torchvision's classification reference resumes fine-tuning from a checkpoint loaded with `map_location="cpu"` into a model and optimizer already on the GPU.

Source: https://github.com/pytorch/vision/blob/main/references/classification/train.py
`main()` builds the model, calls `model.to(device)`, creates the optimizer and LR scheduler, and only
then, for `--resume`, does `checkpoint = torch.load(args.resume, map_location="cpu")`,
`model_without_ddp.load_state_dict(checkpoint["model"])` and
`optimizer.load_state_dict(checkpoint["optimizer"])`. CPU weights and CPU momentum buffers next to a
GPU model look like the stale-optimizer / CPU-checkpoint bug, but `load_state_dict` copies the weights
into the existing GPU parameters and `Optimizer.load_state_dict` casts the saved state to each
parameter's device, so `train_one_epoch` runs on the GPU. Stand-in: a small ResNet for
`torchvision.models.resnet18(num_classes=...)`, the checkpoint written to an in-memory buffer by a
previous CPU run, `train_one_epoch` without the metric logger; GPU simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import io
import argparse
import torch
from torch import nn

device = torch.device("meta")   # the GPU, simulated with meta

class ResNet(nn.Module):                             # torchvision.models.resnet18, reduced
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU(inplace=True)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.avgpool(self.relu(self.bn1(self.conv1(x)))), 1))

def train_one_epoch(model, criterion, optimizer, data_loader, device, epoch, args, model_ema=None, scaler=None):
    model.train()
    for i, (image, target) in enumerate(data_loader):
        image, target = image.to(device), target.to(device)
        output = model(image)
        optimizer.zero_grad()
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()

# an earlier run, saved with utils.save_on_master(checkpoint, "checkpoint.pth")
_prev = ResNet(num_classes=10)
_prev_opt = torch.optim.SGD(_prev.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
nn.functional.cross_entropy(_prev(torch.randn(4, 3, 32, 32)), torch.randint(0, 10, (4,))).backward()
_prev_opt.step()
_prev_sched = torch.optim.lr_scheduler.StepLR(_prev_opt, step_size=30, gamma=0.1)
checkpoint_file = io.BytesIO()
torch.save({"model": _prev.state_dict(), "optimizer": _prev_opt.state_dict(),
            "lr_scheduler": _prev_sched.state_dict(), "epoch": 4}, checkpoint_file)
checkpoint_file.seek(0)

args = argparse.Namespace(resume=checkpoint_file, test_only=False, start_epoch=0, epochs=6, lr=0.1,
                          momentum=0.9, weight_decay=1e-4, lr_step_size=30, lr_gamma=0.1, label_smoothing=0.0)
model = ResNet(num_classes=10)
model.to(device)
model_without_ddp = model
criterion = nn.CrossEntropyLoss(label_smoothing=args.label_smoothing)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum, weight_decay=args.weight_decay)
lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=args.lr_step_size, gamma=args.lr_gamma)
data_loader = [(torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))) for _ in range(2)]
'''
CELL = '''
if args.resume:
    checkpoint = torch.load(args.resume, map_location="cpu")
    model_without_ddp.load_state_dict(checkpoint["model"])
    if not args.test_only:
        optimizer.load_state_dict(checkpoint["optimizer"])
        lr_scheduler.load_state_dict(checkpoint["lr_scheduler"])
    args.start_epoch = checkpoint["epoch"] + 1

for epoch in range(args.start_epoch, args.epochs):
    train_one_epoch(model, criterion, optimizer, data_loader, device, epoch, args)
    lr_scheduler.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
