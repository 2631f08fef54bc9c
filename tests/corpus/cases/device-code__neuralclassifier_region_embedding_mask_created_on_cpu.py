"""Tencent NeuralClassifier's context-word region embedding builds its `mask` with `torch.ones(...)` on the CPU.

Source: https://blog.gitcode.com/854650b33965f886a11d9ef0f0df8cb4.html
Write-up of the NeuralNLP-NeuralClassifier report: TextCNN with `"embedding type": "region_embedding"`
on cuda fails with "Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu!". In `RegionEmbeddingLayer.forward` (model/embedding.py) the CW branch builds
`mask = torch.ones([self.region_size, self.region_size, self.embedding_dim])` and `neg_mask` from it
on the CPU and multiplies/adds them to the GPU `context_embedding`; the fix moves both masks to
`context_embedding.device`. Stand-in: the layer as in the repository (Embedding wrapper without
pretrained loading) inside a small TextCNN; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class Embedding(nn.Module):
    def __init__(self, vocab_size, embedding_dim, padding_idx=None, dropout=0.0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=padding_idx)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, vocab_ids):
        return self.dropout(self.embedding(vocab_ids))

class RegionEmbeddingLayer(nn.Module):
    def __init__(self, vocab_size, embedding_dim, region_size, padding=None, region_embedding_type="context_word"):
        super().__init__()
        self.region_embedding_type = region_embedding_type
        self.region_size = region_size
        assert self.region_size % 2 == 1
        self.radius = int(region_size / 2)
        self.embedding_dim = embedding_dim
        self.embedding = Embedding(vocab_size, embedding_dim, padding_idx=padding)
        self.context_embedding = Embedding(vocab_size, embedding_dim * region_size, padding_idx=padding)

    def forward(self, vocab_ids):
        seq_length = vocab_ids.size(1)
        actual_length = vocab_ids.size(1) - self.radius * 2
        trim_vocab_id = vocab_ids[:, self.radius:seq_length - self.radius]
        slice_vocabs = [vocab_ids[:, i:i + self.region_size] for i in range(actual_length)]
        slice_vocabs = torch.cat(slice_vocabs, 1)
        slice_vocabs = slice_vocabs.view(-1, actual_length, self.region_size)
        if self.region_embedding_type == "word_context":
            vocab_embedding = self.embedding(slice_vocabs)
            context_embedding = self.context_embedding(trim_vocab_id)
            context_embedding = context_embedding.view(-1, actual_length, self.region_size, self.embedding_dim)
            region_embedding = vocab_embedding * context_embedding
            region_embedding, _ = region_embedding.max(2)
        else:
            vocab_embedding = self.embedding(trim_vocab_id).unsqueeze(2)
            context_embedding = self.context_embedding(slice_vocabs)
            size = context_embedding.size()
            context_embedding = context_embedding.view(size[0], size[1], size[2], self.region_size, self.embedding_dim)
            mask = torch.ones([self.region_size, self.region_size, self.embedding_dim])
            for i in range(self.region_size):
                mask[i][self.region_size - i - 1] = 0.
            neg_mask = mask * -65500.0
            mask = mask.le(0).float()
            mask = mask.unsqueeze(0).unsqueeze(0)
            context_embedding = context_embedding * mask
            context_embedding = context_embedding + neg_mask
            context_embedding, _ = context_embedding.max(3)
            region_embedding = vocab_embedding * context_embedding
            region_embedding, _ = region_embedding.max(2)
        return region_embedding

class TextCNN(nn.Module):
    def __init__(self, vocab_size=500, embedding_dim=32, region_size=5, num_labels=6):
        super().__init__()
        self.token_embedding = RegionEmbeddingLayer(vocab_size, embedding_dim, region_size, padding=0)
        self.convs = nn.ModuleList([nn.Conv1d(embedding_dim, 16, k, padding=k // 2) for k in (2, 3, 4)])
        self.linear = nn.Linear(16 * 3, num_labels)

    def forward(self, doc_token):
        embedding = self.token_embedding(doc_token).transpose(1, 2)
        pooled = [torch.relu(conv(embedding)).max(dim=2)[0] for conv in self.convs]
        return self.linear(torch.cat(pooled, dim=1))

device = torch.device("meta")          # the GPU
model = TextCNN().to(device)
doc_token = torch.randint(1, 500, (8, 40)).to(device)
labels = torch.randint(0, 2, (8, 6)).float().to(device)
'''
CELL = '''
logits = model(doc_token)
loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, labels)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "mask = torch.ones([self.region_size, self.region_size, self.embedding_dim])",
    "mask = torch.ones([self.region_size, self.region_size, self.embedding_dim], device=context_embedding.device)",
)
CLEAN = False
