"""Captum ShapleyValueSampling on token ids: `total_attrib` inherits the Long dtype of the input.

Source: https://github.com/meta-pytorch/captum/issues/498
"In the attribute method of ShapleyValueSampling, the variable total_attrib is derived from the input
tensor and receives the input tensor's type" (`torch.zeros_like(input)`), so with a forward function
that takes token indices (a BERT-like model) `total_attrib[j] += (current_eval_diff * current_masks[j]
.float()).sum(dim=0)` raises "result type Float can't be cast to the desired output type Long". The
fix (meta-pytorch/captum#515) creates the accumulator with `dtype=torch.float`. Stand-in:
ShapleyValueSampling reduced to one input, one feature per token position, a baseline of token id 0
and fixed permutations instead of random ones.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class ShapleyValueSampling:
    """captum.attr.ShapleyValueSampling (0.2, reduced)."""
    def __init__(self, forward_func):
        self.forward_func = forward_func

    def permutation_generator(self, num_features, num_samples):
        for i in range(num_samples):
            yield [(j + i) % num_features for j in range(num_features)]

    def attribute(self, inputs, baselines=0, target=None, n_samples=3):
        with torch.no_grad():
            num_features = inputs.shape[1]
            baseline_input = torch.full_like(inputs, baselines)
            initial_eval = self.forward_func(baseline_input)[:, target]
            total_attrib = [torch.zeros_like(inputs)]
            iter_count = 0
            for feature_permutation in self.permutation_generator(num_features, n_samples):
                iter_count += 1
                prev_results = initial_eval
                current_input = baseline_input.clone()
                current_mask = torch.zeros_like(inputs, dtype=torch.bool)
                for feature in feature_permutation:
                    current_input[:, feature] = inputs[:, feature]
                    current_masks = [torch.zeros_like(current_mask)]
                    current_masks[0][:, feature] = True
                    modified_eval = self.forward_func(current_input)[:, target]
                    eval_diff = modified_eval - prev_results
                    prev_results = modified_eval
                    for j in range(len(total_attrib)):
                        current_eval_diff = eval_diff[:, None]
                        total_attrib[j] += (current_eval_diff * current_masks[j].float())
            return tuple(attrib / iter_count for attrib in total_attrib)

class BertLikeClassifier(nn.Module):
    def __init__(self, vocab=100, dim=16, num_labels=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids):
        return self.classifier(self.embeddings(input_ids).mean(1))

model = BertLikeClassifier().eval()
input_ids = torch.tensor([[101, 7, 42, 13, 102], [101, 55, 8, 61, 102]]) % 100   # tokenizer(...)["input_ids"]
svs = ShapleyValueSampling(model)
'''
CELL = '''
attributions = svs.attribute(input_ids, baselines=0, target=1, n_samples=3)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["svs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("total_attrib = [torch.zeros_like(inputs)]",
                  "total_attrib = [torch.zeros_like(inputs, dtype=torch.float)]")
CLEAN = False
