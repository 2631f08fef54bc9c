"""CrossEntropyLoss(weight=...) built with class weights on the CPU, model output on the GPU.

Source: https://github.com/pytorch/pytorch/issues/122757
The user moved the model output and the labels to cuda, but the loss module was built with a CPU
`weights` tensor (kept as its `weight` buffer) and never moved: the error names no argument.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
model_output = torch.randn(10, 5, device="cuda:0")
labels = torch.randint(0, 5, (10,), device="cuda:0")
weights = torch.rand(5)
loss_fn = torch.nn.CrossEntropyLoss(weight=weights)
'''
CELL = '''
loss = loss_fn(input=model_output, target=labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["loss_fn"]
FIX = "namespace"
REFERENCE_FIX = '''
loss_fn.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
