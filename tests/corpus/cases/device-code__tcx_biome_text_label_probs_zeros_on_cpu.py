"""biome-text TextClassification trained on a Colab GPU: the label/probability table pads the GPU probabilities with CPU zeros.

Source: https://github.com/argilla-io/biome-text/pull/159
PR #159 ("remove numpy from ClassificationHead to make it GPU compatible", for #145) replaced numpy in
`ClassificationHead.process_output` with torch: `labels_with_probabilities` became
`torch.cat([probabilities, torch.zeros(self.num_labels - len(probabilities))])`. Testing it on a GPU the
reviewer got "RuntimeError: All input tensors must be on the same device. Received cpu and cuda:0": the model's
probabilities are on cuda:0, the padding zeros are made on the CPU. The fix builds the zeros on the
probabilities' device (the merged code: `torch.zeros(self.num_labels, device=probabilities.get_device() ...)`).
Stand-in: a reduced backbone + TextClassification head and a Pipeline with `predict`; the dict of labels is
returned as tensors (no `.tolist()` on fake cuda).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from typing import List

class TaskOutput:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

class ClassificationHead(torch.nn.Module):
    """Stand-in for biome.text.modules.heads.classification.defs.ClassificationHead (PR #159 state), reduced."""
    def __init__(self, labels: List[str]):
        super().__init__()
        self.labels = labels
        self.num_labels = len(labels)

    def process_output(self, output: TaskOutput) -> TaskOutput:
        def labels_with_probabilities(probabilities: torch.Tensor):
            all_classes_probs = torch.cat(
                [probabilities, torch.zeros(self.num_labels - len(probabilities))]
            )
            sorted_indexes_by_prob = torch.argsort(all_classes_probs, descending=True)
            return sorted_indexes_by_prob, all_classes_probs

        output_map_probs = []
        for probs in output.probs:
            output_map_probs.append(labels_with_probabilities(probs))
        output.classes = output_map_probs
        return output

class TextClassification(ClassificationHead):
    def __init__(self, labels, vocab_size=5000, embedding_dim=32):
        super().__init__(labels)
        self.embedder = torch.nn.EmbeddingBag(vocab_size, embedding_dim)
        self._classification_layer = torch.nn.Linear(embedding_dim, self.num_labels)

    def forward(self, tokens):
        logits = self._classification_layer(self.embedder(tokens))
        return TaskOutput(logits=logits, probs=torch.nn.functional.softmax(logits, dim=-1))

class Pipeline:
    def __init__(self, head):
        self.head = head

    @property
    def device(self):
        return next(self.head.parameters()).device

    def _tokenize(self, texts):
        ids = [[(sum(map(ord, w)) % 4900) + 100 for w in t.split()][:6] for t in texts]
        return torch.tensor([x + [0] * (6 - len(x)) for x in ids])

    def predict(self, texts):
        output = self.head(self._tokenize(texts).to(self.device))
        return self.head.process_output(output)

pipeline = Pipeline(TextClassification(labels=["joy", "anger", "sadness", "fear"]))
pipeline.head.to("cuda:0")                     # trained on the Colab GPU
'''
CELL = '''
prediction = pipeline.predict(["I love this new phone", "worst service ever"])
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "All input tensors must be on the same device")
CULPRITS = ["pipeline.head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.zeros(self.num_labels - len(probabilities))",
    "torch.zeros(self.num_labels - len(probabilities), device=probabilities.device)",
)
CLEAN = False
