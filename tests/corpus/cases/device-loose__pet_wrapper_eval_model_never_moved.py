"""PET `wrapper.eval(..., device='cuda')`: the batches are sent to the GPU, the wrapped model never was.

Source: https://github.com/timoschick/pet/issues/86
Predicting with a trained PET classifier through `TransformerModelWrapper.eval` raised "Expected
object of device type cuda but got device type cpu ... index_select": `eval` moves every batch
with `batch = {k: t.to(device) for k, t in batch.items()}`, but the loaded wrapper's
`model.model` was still on the CPU. Maintainer: "Did you move the model to GPU (`model.model.to('cuda')`)
before running the evaluation?" Stand-in: a tiny masked-LM in place of RoBERTa.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class RobertaForMaskedLM(nn.Module):
    def __init__(self, vocab_size=50, hidden=16):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids, attention_mask=None):
        h = torch.tanh(self.encoder(self.embeddings(input_ids)))
        if attention_mask is not None:
            h = h * attention_mask.unsqueeze(-1)
        return self.lm_head(h)

class TransformerModelWrapper:
    def __init__(self, model, label_token_ids):
        self.model = model
        self.label_token_ids = label_token_ids

    @staticmethod
    def from_pretrained(path):
        # the wrapper is rebuilt from the saved directory: everything stays on the CPU
        return TransformerModelWrapper(RobertaForMaskedLM(), torch.tensor([3, 7]))

    def eval(self, eval_batches, device):
        self.model.eval()
        preds, all_indices = [], []
        for batch in eval_batches:
            batch = {k: t.to(device) for k, t in batch.items()}
            indices = batch["idx"]
            with torch.no_grad():
                logits = self.model(batch["input_ids"], batch["attention_mask"])
                mask_logits = logits.select(1, 1)
                preds.append(mask_logits.index_select(1, self.label_token_ids.to(device)))
            all_indices.append(indices)
        return preds, all_indices

wrapper = TransformerModelWrapper.from_pretrained("output/final/p0-i0")
eval_data = [
    {"input_ids": torch.randint(0, 50, (4, 12)), "attention_mask": torch.ones(4, 12),
     "labels": torch.randint(0, 2, (4,)), "idx": torch.arange(4)}
    for _ in range(2)
]
'''
CELL = '''
preds, indices = wrapper.eval(eval_data, device="cuda:0")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["wrapper.model"]
FIX = "namespace"
REFERENCE_FIX = '''
wrapper.model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
