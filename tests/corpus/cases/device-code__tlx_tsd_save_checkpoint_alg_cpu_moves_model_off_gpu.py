"""Fine-tuning an ImageNet-pretrained ResNet with TSD's `train.py`: `save_checkpoint` calls `alg.cpu()`, so training breaks after the first checkpoint.

Source: https://github.com/SakurajimaMaiii/TSD/issues/6
"When run the code I get this error: the model is not loaded into cuda": training ERM (a pretrained
torchvision ResNet featurizer plus a new linear classifier) on a domain-generalization benchmark
failed in `algorithm.update` with "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same", although `algorithm = algorithm_class(args).cuda()` ran at
the start. The maintainer's fix (commit "fix bug, #6") is in `utils.save_checkpoint`, which built
the saved dict from `alg.cpu().state_dict()`: `Module.cpu()` moves the live model in place, so every
update after the first checkpoint feeds CUDA batches to a CPU network. Fixed to `alg.state_dict()`.
Stand-in: ResBase reduced to conv/pool layers without BatchNorm (fake cuda cannot run training-mode
batch_norm), the checkpoint kept in a dict instead of `torch.save`, `.cuda()` written as
`.to("cuda:0")` and no backward/step or `loss.item()` (no autograd in this simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import os
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F

class ResBase(nn.Module):                       # torchvision resnet50(pretrained=True), cut before fc
    def __init__(self, res_name="resnet50"):
        super(ResBase, self).__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, stride=2, padding=3, bias=False)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.layer1 = nn.Sequential(nn.Conv2d(16, 32, 3, padding=1, bias=False), nn.ReLU(inplace=True))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.in_features = 32

    def forward(self, x):
        x = self.maxpool(self.relu(self.conv1(x)))
        x = self.layer1(x)
        x = self.avgpool(x)
        x = x.view(x.size(0), -1)
        return x

class feat_classifier(nn.Module):
    def __init__(self, class_num, bottleneck_dim=256, type="linear"):
        super(feat_classifier, self).__init__()
        self.type = type
        self.fc = nn.Linear(bottleneck_dim, class_num)

    def forward(self, x):
        return self.fc(x)

class Algorithm(nn.Module):
    def __init__(self, args):
        super(Algorithm, self).__init__()

class ERM(Algorithm):
    def __init__(self, args):
        super(ERM, self).__init__(args)
        self.featurizer = ResBase(args.net)
        self.classifier = feat_classifier(args.num_classes, self.featurizer.in_features, args.classifier)
        self.network = nn.Sequential(self.featurizer, self.classifier)

    def update(self, minibatches, opt, sch):
        all_x = torch.cat([data[0].to("cuda:0").float() for data in minibatches])
        all_y = torch.cat([data[1].to("cuda:0").long() for data in minibatches])
        loss = F.cross_entropy(self.predict(all_x), all_y)
        opt.zero_grad()
        return {'class': loss}

    def predict(self, x):
        return self.network(x)

saved = {}

def save_checkpoint(filename, alg, args):
    save_dict = {
        "args": vars(args),
        "model_dict": alg.cpu().state_dict()
    }
    saved[os.path.join(args.output, filename)] = save_dict      # torch.save(save_dict, ...)

args = argparse.Namespace(net="resnet50", num_classes=7, classifier="linear", max_epoch=2,
                          steps_per_epoch=2, checkpoint_freq=1, save_model_every_checkpoint=True,
                          output="train_output", lr=5e-3, algorithm="ERM")
algorithm = ERM(args).to("cuda:0")              # algorithm_class(args).cuda()
algorithm.train()
opt = torch.optim.SGD(algorithm.parameters(), lr=args.lr, momentum=0.9)
sch = None
train_loaders = [[(torch.randn(4, 3, 32, 32), torch.randint(0, 7, (4,))) for _ in range(8)] for _ in range(3)]
train_minibatches_iterator = zip(*train_loaders)
'''
CELL = '''
for epoch in range(args.max_epoch):
    for iter_num in range(args.steps_per_epoch):
        minibatches_device = [(data) for data in next(train_minibatches_iterator)]
        step_vals = algorithm.update(minibatches_device, opt, sch)
    if (epoch == (args.max_epoch - 1)) or (epoch % args.checkpoint_freq == 0):
        if args.save_model_every_checkpoint:
            save_checkpoint(f'model_epoch{epoch}.pkl', algorithm, args)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["save_checkpoint"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('"model_dict": alg.cpu().state_dict()', '"model_dict": alg.state_dict()')
CLEAN = False
