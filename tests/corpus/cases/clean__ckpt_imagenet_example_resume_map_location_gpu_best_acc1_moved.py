"""pytorch/examples ImageNet: resuming with the checkpoint mapped to this process's GPU and best_acc1 moved there.

Source: https://github.com/pytorch/examples/blob/main/imagenet/main.py
The resume branch does `loc = 'cuda:{}'.format(args.gpu); checkpoint = torch.load(args.resume,
map_location=loc)`, then `best_acc1 = checkpoint['best_acc1']` and `if args.gpu is not None:
best_acc1 = best_acc1.to(args.gpu)` ("best_acc1 may be from a checkpoint from a different GPU"),
and restores model, optimizer and scheduler state. Look-alike: a checkpoint dict of CPU tensors in
the namespace, a tensor best_acc1 compared with the new accuracy, and an optimizer restored from a
state dict. Simulated with meta as the GPU (the checkpoint as written is on the CPU); a small ResNet
stand-in and one training step.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class TinyResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.fc(torch.relu(self.bn1(self.conv1(x))).mean((2, 3)))

# the checkpoint saved by save_checkpoint() in an earlier run
_old = TinyResNet()
_old_opt = torch.optim.SGD(_old.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
_old(torch.randn(2, 3, 8, 8)).sum().backward()
_old_opt.step()
_old_sched = torch.optim.lr_scheduler.StepLR(_old_opt, step_size=30, gamma=0.1)
_saved = {"epoch": 5, "arch": "resnet18", "state_dict": _old.state_dict(), "best_acc1": torch.tensor(41.7),
          "optimizer": _old_opt.state_dict(), "scheduler": _old_sched.state_dict()}

device = torch.device("meta")           # torch.device('cuda', args.gpu)
model = TinyResNet().to(device)
criterion = nn.CrossEntropyLoss().to(device)
optimizer = torch.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.1)

checkpoint = _saved                     # torch.load(args.resume, map_location=loc)
start_epoch = checkpoint["epoch"]
best_acc1 = checkpoint["best_acc1"]
best_acc1 = best_acc1.to(device)        # best_acc1 may be from a checkpoint from a different GPU
model.load_state_dict(checkpoint["state_dict"])
optimizer.load_state_dict(checkpoint["optimizer"])
scheduler.load_state_dict(checkpoint["scheduler"])
images = torch.randn(4, 3, 8, 8).to(device, non_blocking=True)
target = torch.randint(0, 10, (4,)).to(device, non_blocking=True)
'''
CELL = '''
output = model(images)
loss = criterion(output, target)
optimizer.zero_grad()
loss.backward()
optimizer.step()
acc1 = (output.argmax(1) == target).float().mean() * 100
best_acc1 = torch.maximum(acc1, best_acc1)
scheduler.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
