"""Look-alike: the alibi-detect notebook passes `reg.cuda()` to `trainer`, which moves each CPU batch.

Source: https://github.com/SeldonIO/alibi-detect/issues/439
The corrected cell of cd_model_unc_cifar10_wine.ipynb: `trainer(reg.cuda(), nn.MSELoss(),
X_train_dl, device, ...)`. The DataLoader and its tensors stay on the CPU; the trainer's loop
sends each batch to `device`. CPU data next to a GPU model, on purpose. The trainer is a copy of
alibi_detect.models.pytorch.trainer's loop; meta stands for the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

def trainer(model, loss_fn, dataloader, device, optimizer=torch.optim.Adam, learning_rate=1e-3,
            preprocess_fn=None, epochs=20, reg_loss_fn=(lambda model: 0), verbose=1):
    optimizer = optimizer(model.parameters(), lr=learning_rate)
    model.train()
    for epoch in range(epochs):
        for x, y in dataloader:
            x, y = x.to(device), y.to(device)
            y_hat = model(x)
            optimizer.zero_grad()
            loss = loss_fn(y_hat, y) + reg_loss_fn(model)
            loss.backward()
            optimizer.step()

device = torch.device('meta')
X_train = torch.from_numpy(np.random.rand(256, 11).astype(np.float32))
y_train = torch.from_numpy(np.random.rand(256, 1).astype(np.float32))
X_train_dl = DataLoader(TensorDataset(X_train, y_train), batch_size=32, shuffle=True, drop_last=True)
reg = nn.Sequential(nn.Dropout(0.5), nn.Linear(11, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 1))
'''
CELL = '''
trainer(reg.to(device), nn.MSELoss(), X_train_dl, device, torch.optim.Adam, learning_rate=0.001, epochs=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
