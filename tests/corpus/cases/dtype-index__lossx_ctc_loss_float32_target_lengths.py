"""CTCLoss called with `target_lengths` drawn as float32: "target_lengths must be integral".

Source: https://github.com/pytorch/pytorch/issues/92606
The reporter built the CTCLoss example with `target_lengths = torch.randint(low=S_min, high=S,
size=(N,), dtype=torch.float32)` and `ctc_loss(input, target, input_lengths, target_lengths)`
raised "RuntimeError: target_lengths must be integral"; as the report says, the cause is a tensor
of the wrong dtype passed as `target_lengths` (the lengths must be an integer tensor, e.g. long,
like `input_lengths`). The issue itself asked for a clearer wording of the message.
CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch

T, C, N, S, S_min = 50, 20, 16, 30, 10
input = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
target = torch.randint(low=1, high=C, size=(N, S), dtype=torch.long)
input_lengths = torch.full(size=(N,), fill_value=T, dtype=torch.long)
target_lengths = torch.randint(low=S_min, high=S, size=(N,), dtype=torch.float32)
ctc_loss = torch.nn.CTCLoss()
'''
CELL = '''
loss = ctc_loss(input, target, input_lengths, target_lengths)
loss.backward()
'''
EXPECT_ERROR = "target_lengths must be integ"
CULPRITS = ["target_lengths"]
FIX = "namespace"
REFERENCE_FIX = '''
target_lengths = target_lengths.long()
'''
REFERENCE_EDIT = None
CLEAN = False
