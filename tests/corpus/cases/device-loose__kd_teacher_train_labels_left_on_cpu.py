"""KnowledgeDistillation teacher training: the batch's token ids are on the GPU, its labels stay on the CPU.

Source: https://github.com/HoyTta0/KnowledgeDistillation/issues/10
Running distill.py raised "Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cpu! (when checking argument for argument target in method
wrapper_nll_loss_forward)". The dataset iterator moves the inputs to `config.device` but not the
labels; the maintainer's fix in `teacher_train`: `labels = labels.to(config.device)`.
Stand-in: the iterator's `_to_tensor` (ids, seq_len, mask moved; labels not) and a small
BERT-shaped teacher (embedding + pooled linear head).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Config:
    device = torch.device("cuda:0")
    num_classes = 10
    hidden_size = 32
    vocab_size = 100

config = Config()

class DatasetIterater:
    def __init__(self, batches, batch_size, device):
        self.batches, self.batch_size, self.device = batches, batch_size, device

    def _to_tensor(self, datas):
        x = torch.LongTensor([_[0] for _ in datas]).to(self.device)
        y = torch.LongTensor([_[1] for _ in datas])
        seq_len = torch.LongTensor([_[2] for _ in datas]).to(self.device)
        mask = torch.LongTensor([_[3] for _ in datas]).to(self.device)
        return (x, seq_len, mask), y

    def __iter__(self):
        for i in range(0, len(self.batches), self.batch_size):
            yield self._to_tensor(self.batches[i:i + self.batch_size])

class Teacher(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.fc = nn.Linear(config.hidden_size, config.num_classes)

    def forward(self, x):
        context, _, mask = x
        h = self.embed(context) * mask.unsqueeze(-1)
        return self.fc(h.mean(1))

data = [([3, 4, 5, 6, 0, 0], i % 10, 4, [1, 1, 1, 1, 0, 0]) for i in range(8)]
train_iter = DatasetIterater(data, 4, config.device)
model = Teacher(config).to(config.device)
trains, labels = next(iter(train_iter))
'''
CELL = '''
outputs = model(trains)
loss = F.cross_entropy(outputs, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.to(config.device)
'''
REFERENCE_EDIT = None
CLEAN = False
