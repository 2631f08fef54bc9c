"""BindsNET batch_eth_mnist on the GPU: `label_tensor` built from the label list stays on the CPU.

Source: https://github.com/BindsNET/bindsnet/pull/667
The example collects `labels` from the DataLoader batches, builds `label_tensor = torch.tensor(labels)`
and compares it with `all_activity(spikes=spike_record, assignments=assignments, ...)`, whose
prediction lives on the GPU with `spike_record`: "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!". The PR adds `.to(device)` to the label tensor
(and the other tensors compared with the GPU records).
Stand-in: `all_activity` reduced to a dense form (one-hot assignment matrix instead of the
per-label nonzero loop); `spike_record` and `assignments` on cuda:0 as the example makes them.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch

def all_activity(spikes, assignments, n_labels):
    spikes = spikes.sum(1)
    assign = torch.nn.functional.one_hot(assignments.clamp(min=0), n_labels).to(spikes.dtype)
    n_assigns = assign.sum(0).clamp(min=1)
    rates = (spikes @ assign) / n_assigns
    return rates.argmax(dim=1)

device = torch.device("cuda:0")
n_neurons, n_classes, update_interval, time = 100, 10, 25, 50
spike_record = torch.zeros((update_interval, time, n_neurons), device=device)
assignments = torch.randint(0, n_classes, (n_neurons,), device=device)
labels = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3]
accuracy = {"all": [], "proportion": []}
# Convert the array of labels into a tensor
label_tensor = torch.tensor(labels)
'''
CELL = '''
all_activity_pred = all_activity(spikes=spike_record, assignments=assignments, n_labels=n_classes)
correct = torch.sum(label_tensor.long() == all_activity_pred)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["label_tensor"]
FIX = "namespace"
REFERENCE_FIX = '''
label_tensor = label_tensor.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
