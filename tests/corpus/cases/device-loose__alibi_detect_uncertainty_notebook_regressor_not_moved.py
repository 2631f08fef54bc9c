"""alibi-detect example notebook: the regressor is handed to `trainer(...)` without being moved to the GPU.

Source: https://github.com/SeldonIO/alibi-detect/issues/439
In cd_model_unc_cifar10_wine.ipynb the user trained the wine-quality regressor with
`trainer(reg, nn.MSELoss(), X_train_dl, device, torch.optim.Adam, learning_rate=0.001, epochs=30)`;
the trainer moves every batch to `device`, but `reg` was never moved, and the first batch failed
with "Expected all tensors to be on the same device, but found at least two devices, cpu and
cuda:0! (... argument mat1 in method wrapper_addmm)". The fix in the notebook: pass `reg.cuda()`.
alibi_detect.models.pytorch.trainer is stood in for by a copy of its loop; meta stands for the GPU.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

def trainer(model, loss_fn, dataloader, device, optimizer=torch.optim.Adam, learning_rate=1e-3,
            preprocess_fn=None, epochs=20, reg_loss_fn=(lambda model: 0), verbose=1):
    # alibi_detect.models.pytorch.trainer
    optimizer = optimizer(model.parameters(), lr=learning_rate)
    model.train()
    for epoch in range(epochs):
        for x, y in dataloader:
            if isinstance(preprocess_fn, type(lambda: 0)):
                x = preprocess_fn(x)
            x, y = x.to(device), y.to(device)
            y_hat = model(x)
            optimizer.zero_grad()
            loss = loss_fn(y_hat, y) + reg_loss_fn(model)
            loss.backward()
            optimizer.step()

device = torch.device('meta')   # torch.device('cuda' if torch.cuda.is_available() else 'cpu')

X_train = np.random.rand(256, 11).astype(np.float32)
y_train = np.random.rand(256, 1).astype(np.float32)
X_train_ds = TensorDataset(torch.from_numpy(X_train), torch.from_numpy(y_train))
X_train_dl = DataLoader(X_train_ds, batch_size=32, shuffle=True, drop_last=True)

reg = nn.Sequential(
    nn.Dropout(0.5),
    nn.Linear(11, 16),
    nn.ReLU(),
    nn.Dropout(0.5),
    nn.Linear(16, 1)
)
'''
CELL = '''
trainer(reg, nn.MSELoss(), X_train_dl, device, torch.optim.Adam, learning_rate=0.001, epochs=1)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["reg"]
FIX = "namespace"
REFERENCE_FIX = '''
reg = reg.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
