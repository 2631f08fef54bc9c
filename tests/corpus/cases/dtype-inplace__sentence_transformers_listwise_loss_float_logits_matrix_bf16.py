"""sentence-transformers PListMLELoss with a bf16 CrossEncoder: the float32 `logits_matrix` receives bf16 logits by index_put.

Source: https://github.com/huggingface/sentence-transformers/issues/3793
Training a reranker (bge-reranker-v2-m3) in bfloat16 with PListMLELoss/LambdaLoss failed at
`logits_matrix[batch_indices, doc_indices] = logits` with "Index put requires the source and
destination dtypes match, got Float for the destination and BFloat16 for the source": the matrix is
`torch.full((batch_size, max_docs), 1e-16, device=self.model.device)`, float32 by default. The fix
(PR 3800) casts the logits to float32 after the activation. Stand-in: a tiny bf16 cross-encoder and
the loss's matrix-building part; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class CrossEncoder(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.score = nn.Linear(dim, 1)

    @property
    def device(self):
        return self.score.weight.device

    def forward(self, pair_ids):
        return self.score(self.embed(pair_ids).mean(1))

class PListMLELoss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.activation_fn = nn.Identity()

    def forward(self, inputs, labels):
        batch_size = len(labels)
        max_docs = max(len(l) for l in labels)
        docs_per_query = [len(l) for l in labels]
        pair_ids = torch.cat(inputs)
        logits = self.model(pair_ids).view(-1)
        logits = self.activation_fn(logits)

        logits_matrix = torch.full((batch_size, max_docs), 1e-16, device=self.model.device)
        batch_indices = torch.repeat_interleave(torch.arange(batch_size), torch.tensor(docs_per_query))
        doc_indices = torch.cat([torch.arange(n) for n in docs_per_query])
        logits_matrix[batch_indices, doc_indices] = logits

        labels_matrix = torch.full_like(logits_matrix, float("-inf"))
        labels_matrix[batch_indices, doc_indices] = torch.cat(labels).float()
        order = labels_matrix.argsort(dim=1, descending=True)
        scores = logits_matrix.gather(1, order)
        return -(scores - scores.flip(1).logcumsumexp(1).flip(1)).mean()

model = CrossEncoder().to(torch.bfloat16)       # CrossEncoder(..., model_kwargs={"torch_dtype": bf16})
loss_fn = PListMLELoss(model)
inputs = [torch.randint(0, 100, (3, 8)), torch.randint(0, 100, (2, 8))]   # query/doc pairs per query
labels = [torch.tensor([2.0, 1.0, 0.0]), torch.tensor([1.0, 0.0])]
'''
CELL = '''
loss = loss_fn(inputs, labels)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "logits = self.activation_fn(logits)",
    "logits = self.activation_fn(logits).float()",
)
CLEAN = False
