"""Look-alike: the torchvision fine-tuning tutorial replaces the classifier head on the CPU, then moves the model.

Source: https://github.com/pytorch/tutorials/blob/main/beginner_source/finetuning_torchvision_models_tutorial.py
`initialize_model` loads a pretrained ResNet, freezes it with `set_parameter_requires_grad` when
feature-extracting, and replaces `model_ft.fc = nn.Linear(num_ftrs, num_classes)`, a fresh CPU layer;
only afterwards does the tutorial run `model_ft = model_ft.to(device)` and collect `params_to_update`.
A new head made on the CPU next to a GPU model is the usual fine-tuning bug, but here it is created
before the move. Stand-in: a small ResNet-like network for resnet18; validation phase (no grad); GPU
simulated (fake cuda:0).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class TinyResNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, 2, 1)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.avgpool(self.relu(self.bn1(self.conv1(x))))
        return self.fc(torch.flatten(x, 1))

def set_parameter_requires_grad(model, feature_extracting):
    if feature_extracting:
        for param in model.parameters():
            param.requires_grad = False

def initialize_model(model_name, num_classes, feature_extract, use_pretrained=True):
    model_ft = TinyResNet()                 # models.resnet18(pretrained=use_pretrained)
    set_parameter_requires_grad(model_ft, feature_extract)
    num_ftrs = model_ft.fc.in_features
    model_ft.fc = nn.Linear(num_ftrs, num_classes)
    return model_ft, 32

device = torch.device("cuda:0")             # "cuda:0" if torch.cuda.is_available() else "cpu"
model_ft, input_size = initialize_model("resnet", 2, feature_extract=True)
model_ft = model_ft.to(device)
params_to_update = [param for name, param in model_ft.named_parameters() if param.requires_grad]
optimizer_ft = torch.optim.SGD(params_to_update, lr=0.001, momentum=0.9)
criterion = nn.CrossEntropyLoss()
dataloaders = {"val": [(torch.randn(4, 3, 32, 32), torch.randint(0, 2, (4,))) for _ in range(2)]}
'''
CELL = '''
model_ft.eval()
running_corrects = 0
for inputs, labels in dataloaders['val']:
    inputs = inputs.to(device)
    labels = labels.to(device)
    with torch.no_grad():
        outputs = model_ft(inputs)
        loss = criterion(outputs, labels)
        _, preds = torch.max(outputs, 1)
    running_corrects += torch.sum(preds == labels.data)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
