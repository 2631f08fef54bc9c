"""TextBrewer KD loss with `logits_mask`: `_select_logits_with_mask` builds a uint8 mask for `masked_select`.

Source: https://github.com/airaria/TextBrewer/issues/7
Distilling a token-level model with a `logits_mask` in the adaptor output, the reporter got
"masked_scatter_/masked_select received a mask with dtype torch.uint8 ... please use a mask with
dtype torch.bool instead" from `_select_logits_with_mask`, which expands the mask with
`mask.unsqueeze(-1).expand_as(logits).to(torch.uint8)` before `torch.masked_select`. Changing it to
`.to(torch.bool)` fixed it; the maintainer applied that fix (dd1ecbb). On current PyTorch the
uint8 mask is an error, not a warning.
Stand-ins: TextBrewer's `_select_logits_with_mask` and `kd_ce_loss`, the distiller's loss step
reduced to the logits part, tiny teacher/student token classifiers. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def kd_ce_loss(logits_S, logits_T, temperature=1):
    beta_logits_T = logits_T / temperature
    beta_logits_S = logits_S / temperature
    p_T = F.softmax(beta_logits_T, dim=-1)
    loss = -(p_T * F.log_softmax(beta_logits_S, dim=-1)).sum(dim=-1).mean()
    return loss

def _select_logits_with_mask(logits_list, masks_list):
    output_logits = []
    if len(masks_list) == len(logits_list):
        for logits, mask in zip(logits_list, masks_list):
            if len(logits.shape) == 3:
                mask = mask.unsqueeze(-1).expand_as(logits).to(torch.uint8)
                logits_select = torch.masked_select(logits, mask).view(-1, logits.size(-1))
            else:
                logits_select = logits
            output_logits.append(logits_select)
    elif len(masks_list) == 1:
        mask = masks_list[0]
        for logits in logits_list:
            if len(logits.shape) == 3:
                mask = mask.unsqueeze(-1).expand_as(logits).to(torch.uint8)
                logits_select = torch.masked_select(logits, mask).view(-1, logits.size(-1))
            else:
                logits_select = logits
            output_logits.append(logits_select)
    return output_logits

class TokenClassifier(nn.Module):
    def __init__(self, vocab=500, hidden=32, num_labels=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.cls = nn.Linear(hidden, num_labels)

    def forward(self, input_ids):
        return self.cls(self.emb(input_ids))

def simple_adaptor(batch, model_outputs):
    return {"logits": (model_outputs,), "logits_mask": (batch["attention_mask"],)}

teacher = TokenClassifier(hidden=64).eval()
student = TokenClassifier(hidden=16)
batch = {"input_ids": torch.randint(0, 500, (4, 12)),
         "attention_mask": (torch.arange(12)[None, :] < torch.tensor([12, 9, 7, 5])[:, None]).long()}
temperature, kd_loss_weight = 8, 1.0
'''
CELL = '''
with torch.no_grad():
    results_T = simple_adaptor(batch, teacher(batch["input_ids"]))
results_S = simple_adaptor(batch, student(batch["input_ids"]))
logits_list_T = _select_logits_with_mask(results_T["logits"], results_T["logits_mask"])
logits_list_S = _select_logits_with_mask(results_S["logits"], results_S["logits_mask"])
total_loss = 0
for l_T, l_S in zip(logits_list_T, logits_list_S):
    total_loss += kd_ce_loss(l_S, l_T, temperature) * kd_loss_weight
total_loss.backward()
'''
EXPECT_ERROR = ("expected BoolTensor for mask", "boolean mask", "Bool")
CULPRITS = ["_select_logits_with_mask"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        for logits, mask in zip(logits_list, masks_list):
            if len(logits.shape) == 3:
                mask = mask.unsqueeze(-1).expand_as(logits).to(torch.uint8)""",
                  """        for logits, mask in zip(logits_list, masks_list):
            if len(logits.shape) == 3:
                mask = mask.unsqueeze(-1).expand_as(logits).to(torch.bool)""")
CLEAN = False
