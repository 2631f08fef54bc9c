"""ChemBERTa regression: the label-normalisation stats are put on the GPU with `.cuda()`, i.e. on cuda:0, while the model trains on another GPU.

Source: https://github.com/seyonechithrananda/bert-loves-chemistry/pull/15
"register buffers for norm_mean and norm_std so they end up on the proper GPUs (.cuda() always puts
them on cuda:0 but the tensors they are interacting with aren't necessarily on that GPU when using
multiple GPUs)". `RobertaForRegression.__init__` stored `self.norm_mean`/`self.norm_std` as plain
`.cuda()` tensors and normalised the labels with them in forward. Stand-in: a tiny encoder in
place of RoBERTa; `.cuda()` is written `.to("cuda:0")`; the run shown trains on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class RegressionConfig:
    vocab_size = 60
    hidden_size = 16
    num_labels = 3
    norm_mean = [1.5, -0.2, 30.0]
    norm_std = [0.8, 1.1, 12.0]

class RobertaRegressionHead(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.out_proj = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, features):
        x = features.select(1, 0)                 # <s> token
        return self.out_proj(torch.relu(self.dense(x)))

class RobertaForRegression(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.encoder = nn.Linear(config.hidden_size, config.hidden_size)
        self.regression = RobertaRegressionHead(config)
        self.norm_mean = torch.tensor(config.norm_mean).to("cuda:0")    # .cuda()
        self.norm_std = torch.tensor(config.norm_std).to("cuda:0")      # .cuda()

    def forward(self, input_ids, attention_mask=None, labels=None):
        sequence_output = torch.tanh(self.encoder(self.embeddings(input_ids)))
        logits = self.regression(sequence_output)
        loss = None
        if labels is not None:
            normalized_labels = (labels - self.norm_mean) / self.norm_std
            loss = F.mse_loss(logits, normalized_labels)
        return loss, logits

device = torch.device("cuda:1")        # this worker's GPU
model = RobertaForRegression(RegressionConfig()).to(device)
batch = {"input_ids": torch.randint(0, 60, (4, 20)).to(device),
         "attention_mask": torch.ones(4, 20, dtype=torch.long).to(device),
         "labels": torch.randn(4, 3).to(device)}
'''
CELL = '''
loss, logits = model(**batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.norm_mean", "model.norm_std"]
FIX = "namespace"
REFERENCE_FIX = '''
model.norm_mean = model.norm_mean.to(device)
model.norm_std = model.norm_std.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
