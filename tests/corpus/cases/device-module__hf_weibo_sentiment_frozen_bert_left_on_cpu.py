"""WeiboSentiment notebook: the frozen BERT feature extractor stays on the CPU while the batch is sent to cuda:0.

Source: https://github.com/dengxiuqi/WeiboSentiment/issues/11
Training ran on the CPU; after switching `device` to cuda:0 the cell
`last_hidden_states = bert(input_ids=input_ids.to(device), attention_mask=attention_mask.to(device))` fails in
BertModel's embeddings ("Input, output and indices must be on the current device"; on current PyTorch "Expected
all tensors to be on the same device"). The notebook moves the classifier head `model` to `device` but the
`BertModel.from_pretrained(...)` used as a frozen feature extractor was never moved. Stand-ins: a tiny BertModel
(embeddings + one layer) and the notebook's linear classifier.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class BertModel(nn.Module):
    def __init__(self, vocab_size=21128, hidden_size=32, max_position=128):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.position_embeddings = nn.Embedding(max_position, hidden_size)
        self.layer = nn.Sequential(nn.LayerNorm(hidden_size), nn.Linear(hidden_size, hidden_size), nn.GELU())

    def forward(self, input_ids, attention_mask=None):
        position_ids = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        hidden = self.word_embeddings(input_ids) + self.position_embeddings(position_ids)
        hidden = self.layer(hidden) * attention_mask.unsqueeze(-1)
        return (hidden,)

class Net(nn.Module):
    def __init__(self, input_size=32):
        super().__init__()
        self.fc = nn.Linear(input_size, 1)
    def forward(self, x):
        return torch.sigmoid(self.fc(x))

device = torch.device("cuda:0")
bert = BertModel()                                # BertModel.from_pretrained("bert-base-chinese")
model = Net().to(device)
criterion = nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
input_ids = torch.randint(0, 21128, (8, 40))
attention_mask = torch.ones(8, 40, dtype=torch.long)
labels = torch.randint(0, 2, (8,)).float().to(device)
'''
CELL = '''
with torch.no_grad():
    last_hidden_states = bert(input_ids=input_ids.to(device), attention_mask=attention_mask.to(device))
    bert_output = last_hidden_states[0][:, 0]
output = model(bert_output)
loss = criterion(output.view(-1), labels.view(-1))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["bert"]
FIX = "namespace"
REFERENCE_FIX = '''
bert = bert.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
