"""Selene `AnalyzeSequences.get_predictions(seq)` calls `predict(self.model, seq_enc)` without `use_cuda`, so the one-hot batch stays on the CPU.

Source: https://github.com/FunctionLab/selene/pull/141
"Add missing cuda parameter to predict call": when `get_predictions` is given a sequence string
(no output_dir), it returns `predict(self.model, seq_enc)`; the call "does not specify whether to use
cuda or not, therefore systems which use cuda will not be able to use this feature since the default
is `False`". The model was moved by `AnalyzeSequences(..., use_cuda=True)`, the input is not. The
merged fix passes `use_cuda=self.use_cuda`. Stand-ins: AnalyzeSequences reduced to __init__,
get_predictions and padding, a one-hot Genome encoder, selene's `predict` (returns the CPU tensor
instead of `.numpy()`; `.cuda()` written `.to("cuda:0")` for the simulation), a small DeepSEA-like CNN.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Genome:
    """selene_sdk.sequences.Genome, reduced to its one-hot encoder."""
    BASES_ARR = np.array(["A", "C", "G", "T"])
    def sequence_to_encoding(self, sequence):
        encoding = np.zeros((len(sequence), 4), dtype=np.float32)
        for i, base in enumerate(sequence):
            if base in "ACGT":
                encoding[i, "ACGT".index(base)] = 1.0
            else:
                encoding[i, :] = 0.25
        return encoding

def predict(model, batch_sequences, use_cuda=False):
    """selene_sdk.predict._common.predict."""
    inputs = torch.Tensor(batch_sequences)
    if use_cuda:
        inputs = inputs.to("cuda:0")
    with torch.no_grad():
        outputs = model.forward(inputs.transpose(1, 2))
        return outputs.data.cpu()

class AnalyzeSequences(object):
    """selene_sdk.predict.AnalyzeSequences, reduced."""
    def __init__(self, model, sequence_length, features, batch_size=64,
                 use_cuda=False, reference_sequence=Genome()):
        self.model = model
        self.model.eval()
        self.use_cuda = use_cuda
        if self.use_cuda:
            self.model.to("cuda:0")
        self.sequence_length = sequence_length
        self._start_radius = sequence_length // 2
        self._end_radius = self._start_radius + sequence_length % 2
        self.batch_size = batch_size
        self.features = features
        self.reference_sequence = reference_sequence

    def _pad_or_truncate_sequence(self, sequence):
        if len(sequence) < self.sequence_length:
            return sequence + "N" * (self.sequence_length - len(sequence))
        mid = len(sequence) // 2
        return sequence[mid - self._start_radius:mid + self._end_radius]

    def get_predictions(self, input, output_dir=None, output_format="tsv", strand_index=None):
        if output_dir is None:
            sequence = self._pad_or_truncate_sequence(input)
            seq_enc = self.reference_sequence.sequence_to_encoding(sequence)
            seq_enc = np.expand_dims(seq_enc, axis=0)  # add batch size of 1
            return predict(self.model, seq_enc)
        raise NotImplementedError("FASTA / BED inputs are not part of this reproduction")

class DeeperDeepSEA(nn.Module):
    """selene's DeeperDeepSEA, reduced."""
    def __init__(self, sequence_length, n_targets):
        super().__init__()
        self.conv_net = nn.Sequential(
            nn.Conv1d(4, 16, kernel_size=8), nn.ReLU(inplace=True),
            nn.MaxPool1d(kernel_size=4, stride=4),
            nn.Conv1d(16, 32, kernel_size=8), nn.ReLU(inplace=True),
            nn.AdaptiveMaxPool1d(1))
        self.classifier = nn.Sequential(nn.Linear(32, n_targets), nn.Sigmoid())

    def forward(self, x):
        out = self.conv_net(x)
        return self.classifier(out.view(out.size(0), -1))

features = ["feature_%d" % i for i in range(919)]
analysis = AnalyzeSequences(DeeperDeepSEA(1000, 919), sequence_length=1000,
                            features=features, batch_size=64, use_cuda=True)
sequence = "ACGT" * 150
'''
CELL = '''
preds = analysis.get_predictions(sequence)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["analysis"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            return predict(self.model, seq_enc)\n",
                  "            return predict(self.model, seq_enc, use_cuda=self.use_cuda)\n")
CLEAN = False
