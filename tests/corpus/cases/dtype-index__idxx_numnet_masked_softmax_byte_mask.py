"""NumNet+ `masked_softmax` passes a `.byte()` mask to `masked_fill`: uint8 masks are no longer accepted.

Source: https://github.com/llamazing/numnet_plus/issues/16
While training, the reporter got an endless stream of "masked_fill_ received a mask with dtype
torch.uint8, this behavior is now deprecated, please use a mask with dtype torch.bool instead" and
the run timed out; they fixed it by replacing `mask = something.byte()` with `.bool()` in
`tools/allennlp.py`. Recent PyTorch turns the deprecation into an error ("masked_fill_ only
supports boolean masks, but got mask with dtype unsigned char"). The culprit is
`masked_softmax` (memory-efficient branch): `vector.masked_fill((1 - mask).byte(), ...)`.
Stand-in: `masked_softmax` as in numnet_plus `tools/allennlp.py`; the call made by
`mspan_roberta_gcn` (`passage_h2_weight = util.masked_softmax(sequence_h2_weight, passage_mask)`)
with the projection layer and a RoBERTa-sized output replaced by small random tensors.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn


def masked_softmax(vector: torch.Tensor,
                   mask: torch.Tensor,
                   dim: int = -1,
                   memory_efficient: bool = True,
                   mask_fill_value: float = -1e32) -> torch.Tensor:
    """Stand-in for numnet_plus tools/allennlp.py masked_softmax."""
    if mask is None:
        result = torch.nn.functional.softmax(vector, dim=dim)
    else:
        mask = mask.float()
        while mask.dim() < vector.dim():
            mask = mask.unsqueeze(1)
        if not memory_efficient:
            result = torch.nn.functional.softmax(vector * mask, dim=dim)
            result = result * mask
            result = result / (result.sum(dim=dim, keepdim=True) + 1e-13)
        else:
            masked_vector = vector.masked_fill((1 - mask).byte(), mask_fill_value)
            result = torch.nn.functional.softmax(masked_vector, dim=dim)
    return result


torch.manual_seed(0)
hidden_size = 32
_proj_sequence_h = nn.Linear(hidden_size, 1, bias=False)
sequence_output = torch.randn(2, 12, hidden_size)
passage_mask = torch.ones(2, 12, dtype=torch.long)
passage_mask[0, 9:] = 0
passage_mask[1, 7:] = 0
'''
CELL = '''
sequence_h2_weight = _proj_sequence_h(sequence_output).squeeze(-1)
passage_h2_weight = masked_softmax(sequence_h2_weight, passage_mask)
passage_h2 = (passage_h2_weight.unsqueeze(-1) * sequence_output).sum(1)
'''
EXPECT_ERROR = "masked_fill_ only supports boolean masks"
CULPRITS = ["masked_softmax"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "vector.masked_fill((1 - mask).byte(), mask_fill_value)",
    "vector.masked_fill((1 - mask).bool(), mask_fill_value)",
)
CLEAN = False
