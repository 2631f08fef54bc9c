"""Look-alike: SetFit evaluation with a differentiable head on the GPU; `y_pred` is moved to the CPU before the metric compares it with the CPU labels (PR #363).

Source: https://github.com/huggingface/setfit/pull/363
"Normalize device to CPU when evaluating": with a differentiable head, `model.predict` returns a torch tensor on
the model's device, and custom metric functions compared it with labels that live on the CPU. After the PR the
trainer's evaluate does `y_pred = y_pred.cpu()` when it is a tensor, so the predictions come off the GPU on
purpose and the accuracy is computed on the CPU. Stand-ins: body + head on cuda:0, predict, evaluate with an
accuracy metric over torch tensors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class SetFitModel(nn.Module):
    def __init__(self, vocab_size=30527, dim=32, num_classes=3):
        super().__init__()
        self.model_body = nn.EmbeddingBag(vocab_size, dim)
        self.model_head = nn.Linear(dim, num_classes)
    @property
    def device(self):
        return self.model_head.weight.device
    def _tokenize(self, texts):
        ids = [[(sum(map(ord, w)) % 30000) + 100 for w in t.split()][:8] for t in texts]
        return torch.tensor([x + [0] * (8 - len(x)) for x in ids])
    @torch.no_grad()
    def predict(self, x_test):
        embeddings = self.model_body(self._tokenize(x_test).to(self.device))
        return self.model_head(embeddings).argmax(dim=-1)

def accuracy(y_pred, y_test):
    return (y_pred == y_test).float().mean()

class SetFitTrainer:
    def __init__(self, model, eval_dataset, metric=accuracy):
        self.model, self.eval_dataset, self.metric = model, eval_dataset, metric
    def evaluate(self):
        x_test, y_test = self.eval_dataset["text"], self.eval_dataset["label"]
        y_pred = self.model.predict(x_test)
        if isinstance(y_pred, torch.Tensor):
            y_pred = y_pred.cpu()
        return {"accuracy": self.metric(y_pred, y_test)}

model = SetFitModel().to("cuda:0")
eval_dataset = {"text": ["great movie", "awful plot", "it was fine", "loved it"],
                "label": torch.tensor([0, 1, 2, 0])}
trainer = SetFitTrainer(model=model, eval_dataset=eval_dataset)
'''
CELL = '''
metrics = trainer.evaluate()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
