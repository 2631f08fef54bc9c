"""Look-alike: WGAN-GP style gradient penalty under autocast + GradScaler (the AMP "gradient penalty" recipe).

Source: https://github.com/pytorch/pytorch/pull/44667
The AMP docs' gradient-penalty example (clarified in this PR, from a forum question on computing a
grad penalty with AMP) takes `torch.autograd.grad` of the *scaled* loss w.r.t. fp32 parameters,
unscales the grads by `1/scaler.get_scale()` outside autocast, and adds the norm penalty back inside
autocast. Activations are low precision while the parameters and grads stay fp32 on purpose, and it
runs. Reproduced on the CPU with bfloat16 autocast (CUDA/fp16 on the user's side); the critic is a
small stand-in.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
scaler = torch.amp.GradScaler("cpu")
loss_fn = nn.MSELoss()
input = torch.randn(8, 16)
target = torch.randn(8, 1)
'''
CELL = '''
optimizer.zero_grad()
with torch.autocast("cpu", dtype=torch.bfloat16):
    output = model(input)
    loss = loss_fn(output, target)

# Scales the loss for autograd.grad's backward pass, producing scaled_grad_params
scaled_grad_params = torch.autograd.grad(outputs=scaler.scale(loss),
                                         inputs=model.parameters(),
                                         create_graph=True)

# Creates unscaled grad_params before computing the penalty. scaled_grad_params are
# not owned by any optimizer, so ordinary division is used instead of scaler.unscale_:
inv_scale = 1. / scaler.get_scale()
grad_params = [p * inv_scale for p in scaled_grad_params]

# Computes the penalty term and adds it to the loss
with torch.autocast("cpu", dtype=torch.bfloat16):
    grad_norm = 0
    for grad in grad_params:
        grad_norm += grad.pow(2).sum()
    grad_norm = grad_norm.sqrt()
    loss = loss + grad_norm

scaler.scale(loss).backward()
scaler.step(optimizer)
scaler.update()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
