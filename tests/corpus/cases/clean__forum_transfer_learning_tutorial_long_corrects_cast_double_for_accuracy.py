"""Look-alike: the transfer-learning tutorial sums correct predictions into a LongTensor and divides `.double()`.

Source: https://github.com/pytorch/tutorials/pull/227
"Fix epoch accuracy (avoiding integer division)": since 0.4, `running_corrects += torch.sum(preds
== labels.data)` makes `running_corrects` an int64 tensor, and dividing it by
`dataset_sizes[phase]` printed "Acc: 0.0000". The merged fix keeps the integer accumulator and
computes `epoch_acc = running_corrects.double() / dataset_sizes[phase]`. An int64 count next to a
float loss and a float64 accuracy is intended; nothing here is a dtype error. Stand-in: a small
CNN for the fine-tuned ResNet-18, one epoch over two random batches; the tutorial's device line
picks the CPU here.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim import lr_scheduler

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

model_ft = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
model_ft = model_ft.to(device)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model_ft.parameters(), lr=0.001, momentum=0.9)
scheduler = lr_scheduler.StepLR(optimizer, step_size=7, gamma=0.1)

dataloaders = {"train": [(torch.randn(4, 3, 32, 32), torch.randint(0, 2, (4,))) for _ in range(2)]}
dataset_sizes = {"train": 8}
'''
CELL = '''
for phase in ['train']:
    model_ft.train()
    running_loss = 0.0
    running_corrects = 0

    for inputs, labels in dataloaders[phase]:
        inputs = inputs.to(device)
        labels = labels.to(device)
        optimizer.zero_grad()
        with torch.set_grad_enabled(phase == 'train'):
            outputs = model_ft(inputs)
            _, preds = torch.max(outputs, 1)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
        running_loss += loss.item() * inputs.size(0)
        running_corrects += torch.sum(preds == labels.data)
    scheduler.step()

    epoch_loss = running_loss / dataset_sizes[phase]
    epoch_acc = running_corrects.double() / dataset_sizes[phase]
    print('{} Loss: {:.4f} Acc: {:.4f}'.format(phase, epoch_loss, epoch_acc))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
