"""Look-alike: the Transformers tutorial's LabelSmoothedCE packs GPU logits/targets with CPU lengths.

Source: https://github.com/sgrvinod/a-PyTorch-Tutorial-to-Transformers/pull/5
"moved length from padded_sequence: 'lengths' tensor is expected to be on the CPU (int64 CPU
tensor), but it is currently on the GPU ... explicitly move the 'lengths' tensor to the CPU using
the .cpu()". After the merged PR, `LabelSmoothedCE.forward` calls `pack_padded_sequence(...,
lengths=lengths.cpu(), ...)` on the decoder's GPU outputs and gold targets, then builds smoothed
one-hot vectors with `.to(device)`. Logits on the GPU and lengths on the CPU is what
pack_padded_sequence requires. Stand-in: the criterion as in model.py, random decoder outputs;
the GPU is meta and the batch's lengths come in as the DataLoader's CPU tensor.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence

device = torch.device("meta")   # the GPU, simulated with meta

class LabelSmoothedCE(torch.nn.Module):
    def __init__(self, eps=0.1):
        super(LabelSmoothedCE, self).__init__()
        self.eps = eps

    def forward(self, inputs, targets, lengths):
        # Remove pad-positions and flatten
        inputs, _, _, _ = pack_padded_sequence(input=inputs,
                                               lengths=lengths.cpu(),  # the "lengths" tensor is expected to be on the CPU
                                               batch_first=True,
                                               enforce_sorted=False)  # (sum(lengths), vocab_size)
        targets, _, _, _ = pack_padded_sequence(input=targets,
                                                lengths=lengths.cpu(),
                                                batch_first=True,
                                                enforce_sorted=False)  # (sum(lengths))

        # "Smoothed" one-hot vectors for the gold sequences
        target_vector = torch.zeros_like(inputs).scatter(dim=1, index=targets.unsqueeze(1),
                                                         value=1.).to(device)  # (sum(lengths), n_classes), one-hot
        target_vector = target_vector * (1. - self.eps) + self.eps / target_vector.size(1)

        # Compute smoothed cross-entropy loss
        loss = (-1 * target_vector * F.log_softmax(inputs, dim=1)).sum(dim=1)  # (sum(lengths))
        loss = torch.mean(loss)
        return loss

criterion = LabelSmoothedCE(eps=0.1).to(device)
vocab_size = 40
predicted_sequences = torch.randn(4, 9, vocab_size).to(device)       # model(...) output on the GPU
target_sequences = torch.randint(0, vocab_size, (4, 10)).to(device)
target_sequence_lengths = torch.tensor([10, 7, 9, 4])                # from the DataLoader
'''
CELL = '''
loss = criterion(inputs=predicted_sequences,
                 targets=target_sequences[:, 1:],
                 lengths=target_sequence_lengths - 1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
