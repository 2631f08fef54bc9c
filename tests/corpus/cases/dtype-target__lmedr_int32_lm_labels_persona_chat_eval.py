"""LMEDR PersonaChat evaluation: the LM labels reach the cross-entropy as int32.

Source: https://github.com/Chenrj233/LMEDR/issues/8
Running `python train_PersonaChat.py --load_from persona_original --eval` stopped with "Expected object
of scalar type Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss_forward":
the evaluation step returned `(tmp_lmlogits, cls_logits), (lmlabels, clslabel)` with `lmlabels` an
int32 tensor built from the cached dataset. The author's fix returns `lmlabels.long()`. Stand-in:
the output of the inference step and the ignite metric's cross-entropy.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

vocab_size, batch, seq = 500, 2, 24
tmp_lmlogits = torch.randn(batch * seq, vocab_size)
lmlabels_np = np.random.randint(0, vocab_size, size=(batch, seq)).astype(np.int32)
lmlabels_np[:, :6] = -100                       # persona/history positions are ignored
lmlabels = torch.from_numpy(lmlabels_np).view(-1)
cls_logits = torch.randn(batch, 2)
clslabel = torch.tensor([1, 0])
'''
CELL = '''
nll = F.cross_entropy(tmp_lmlogits, lmlabels, ignore_index=-100)
acc = (cls_logits.argmax(-1) == clslabel).float().mean()
'''
EXPECT_ERROR = ("expected scalar type Long but found Int",
                "expected target dtype to be Long or Byte, but got Int")
CULPRITS = ["lmlabels"]
FIX = "namespace"
REFERENCE_FIX = '''
lmlabels = lmlabels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
