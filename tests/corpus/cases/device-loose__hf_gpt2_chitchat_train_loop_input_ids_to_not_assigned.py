"""GPT2-chitchat training on the GPU: the loop calls `input_ids.to(device)` without keeping the result.

Source: https://github.com/yangjianxin1/GPT2-chitchat/issues/8
Training the dialogue GPT2 (transformers GPT2LMHeadModel) on a GPU fails in `model.forward(input_ids=input_ids)`
at `self.wte(input_ids)` with "Expected object of device type cuda but got device type cpu for argument #3
'index'". The model was moved with `model.to(device)`, but the batch loop wrote `input_ids.to(device)` as a
statement: `Tensor.to` returns a copy, so the batch from the DataLoader stays on the CPU (the repository's
evaluate() still has the line). Stand-in: a tiny GPT2LMHeadModel (wte/wpe/block/lm_head), the repository's
collate_fn and calculate_loss_and_accuracy; the batch is collated directly
(a DataLoader iterator draws its seed with .item(), which the fake-CUDA simulation cannot run).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn
from torch.nn import CrossEntropyLoss
from torch.utils.data import Dataset

pad_id = 0

class GPT2LMHeadModel(nn.Module):
    def __init__(self, vocab_size=1000, n_ctx=64, n_embd=32):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(n_ctx, n_embd)
        self.h = nn.Sequential(nn.LayerNorm(n_embd), nn.Linear(n_embd, n_embd), nn.GELU())
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, input_ids):
        position_ids = torch.arange(input_ids.size(-1), device=input_ids.device).unsqueeze(0)
        hidden_states = self.wte(input_ids) + self.wpe(position_ids)
        return (self.lm_head(self.h(hidden_states)),)

def calculate_loss_and_accuracy(outputs, labels, device):
    logits = outputs[0]
    shift_logits = logits[..., :-1, :].contiguous()
    shift_labels = labels[..., 1:].contiguous().to(device)
    loss_fct = CrossEntropyLoss(ignore_index=pad_id, reduction='sum')
    loss = loss_fct(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
    return loss, None

class MyDataset(Dataset):
    def __init__(self, data_list):
        self.data_list = data_list
    def __getitem__(self, index):
        return [int(t) for t in self.data_list[index].strip().split()]
    def __len__(self):
        return len(self.data_list)

def collate_fn(batch):
    max_input_len = max(len(x) for x in batch)
    input_ids = [x + [pad_id] * (max_input_len - len(x)) for x in batch]
    return torch.tensor(input_ids, dtype=torch.long)

device = 'cuda:0'
model = GPT2LMHeadModel()
model.to(device)
train_list = ["101 23 45 67 102 88 12 102", "101 5 6 7 102 9 102", "101 44 45 102 46 47 48 102", "101 3 102 4 102"]
train_dataset = MyDataset(train_list)
input_ids = collate_fn([train_dataset[i] for i in range(4)])      # one batch of the DataLoader
input_ids.to(device)
'''
CELL = '''
outputs = model.forward(input_ids=input_ids)
loss, accuracy = calculate_loss_and_accuracy(outputs, labels=input_ids, device=device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_ids"]
FIX = "namespace"
REFERENCE_FIX = '''
input_ids = input_ids.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
