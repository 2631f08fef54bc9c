"""Look-alike: PyTorch speech-command tutorial: CPU collate of waveforms/labels, `Resample` moved once, batches moved in `train`.

Source: https://github.com/pytorch/tutorials/pull/1204
"Add new speech command recognition tutorial" (intermediate_source/speech_command_classification_with_torchaudio_tutorial.py):
`collate_fn` builds `tensors` and `targets` on the CPU (`label_to_index` returns `torch.tensor(labels.index(word))`),
`transform = torchaudio.transforms.Resample(orig_freq=sample_rate, new_freq=new_sample_rate)` is moved
with `transform = transform.to(device)`, and `train()` does `data = data.to(device)`, `target = target.to(device)`
before `data = transform(data)` and `model(data)` -> `F.nll_loss(output.squeeze(), target)`.
Stand-in: Resample as a module holding its sinc kernel buffer, M5 reduced to one conv block + fc.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

labels = ["backward", "bed", "bird", "cat", "dog", "down", "eight", "five", "follow", "forward"]

def label_to_index(word):
    return torch.tensor(labels.index(word))

def pad_sequence(batch):
    batch = [item.t() for item in batch]
    batch = torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=0.)
    return batch.permute(0, 2, 1)

def collate_fn(batch):
    tensors, targets = [], []
    for waveform, _, label, *_ in batch:
        tensors += [waveform]
        targets += [label_to_index(label)]
    tensors = pad_sequence(tensors)
    targets = torch.stack(targets)
    return tensors, targets

class Resample(nn.Module):
    def __init__(self, orig_freq=16000, new_freq=8000):
        super().__init__()
        self.stride = orig_freq // new_freq
        self.register_buffer("kernel", torch.hann_window(2 * self.stride + 1).view(1, 1, -1) / self.stride)

    def forward(self, waveform):
        return F.conv1d(waveform, self.kernel, stride=self.stride, padding=self.stride)

class M5(nn.Module):
    def __init__(self, n_input=1, n_output=35, n_channel=32):
        super().__init__()
        self.conv1 = nn.Conv1d(n_input, n_channel, kernel_size=80, stride=16)
        self.bn1 = nn.BatchNorm1d(n_channel)
        self.fc1 = nn.Linear(n_channel, n_output)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.avg_pool1d(x, x.shape[-1]).permute(0, 2, 1)
        return F.log_softmax(self.fc1(x), dim=2)

device = torch.device("cuda:0")
sample_rate, new_sample_rate = 16000, 8000
transform = Resample(orig_freq=sample_rate, new_freq=new_sample_rate)
transform = transform.to(device)
model = M5(n_input=1, n_output=len(labels))
model.to(device)
model.eval()
batch = [(torch.randn(1, 16000 - 800 * i), sample_rate, labels[i], "spk", 0) for i in range(4)]
data, target = collate_fn(batch)                     # from the DataLoader, on the CPU
'''
CELL = '''
data = data.to(device)
target = target.to(device)
with torch.no_grad():
    data = transform(data)
    output = model(data)
    loss = F.nll_loss(output.squeeze(), target)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
