"""sentence-transformers: a hand-written LossEvaluator (dev-set loss during fit) feeds CPU batches to the model on the GPU.

Source: https://github.com/huggingface/sentence-transformers/issues/336
In "Can it show the loss?" a user posted a `LossEvaluator(SentenceEvaluator)` that runs the training loss over a
dev DataLoader. Another user (training on SageMaker) got "RuntimeError: Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!": the loader's `smart_batching_collate` yields CPU
features and labels, while `fit` has put the model (and the loss model) on the GPU. The fix posted there moves
each batch in `__call__`: `sentence_features = list(map(lambda batch: batch_to_device(batch, self.device), ...))`
and `labels = labels.to(self.device)`. Stand-ins: SentenceTransformer, CosineSimilarityLoss, batch_to_device; the
loss is summed as a tensor (no `.item()` on fake cuda), no csv is written, and a plain sequential DataLoader
stands in for torch's (its iterator draws a random seed, which fake mode cannot).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class DataLoader:
    """Stand-in for torch.utils.data.DataLoader (sequential, no workers, no random base seed)."""
    def __init__(self, dataset, shuffle=False, batch_size=1, collate_fn=None):
        self.dataset, self.batch_size, self.collate_fn = dataset, batch_size, collate_fn

    def __len__(self):
        return (len(self.dataset) + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        for i in range(0, len(self.dataset), self.batch_size):
            yield self.collate_fn(self.dataset[i:i + self.batch_size])

def batch_to_device(batch, target_device):
    for key in batch:
        if isinstance(batch[key], torch.Tensor):
            batch[key] = batch[key].to(target_device)
    return batch

class InputExample:
    def __init__(self, texts, label=0.0):
        self.texts, self.label = texts, label

class SentenceTransformer(nn.Module):
    """Stand-in for sentence_transformers.SentenceTransformer (2.2): embedding + mean pooling."""
    def __init__(self, name, vocab_size=30527, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.dense = nn.Linear(dim, dim)

    def tokenize(self, texts):
        ids = [[(sum(map(ord, w)) % 30000) + 100 for w in t.split()][:8] for t in texts]
        return {"input_ids": torch.tensor([x + [0] * (8 - len(x)) for x in ids]),
                "attention_mask": torch.tensor([[1] * len(x) + [0] * (8 - len(x)) for x in ids])}

    def smart_batching_collate(self, batch):
        texts = [[ex.texts[i] for ex in batch] for i in range(len(batch[0].texts))]
        labels = torch.tensor([ex.label for ex in batch])
        return [self.tokenize(t) for t in texts], labels

    def forward(self, features):
        tok = torch.tanh(self.dense(self.embed(features["input_ids"])))
        mask = features["attention_mask"].unsqueeze(-1).float()
        return {"sentence_embedding": (tok * mask).sum(1) / mask.sum(1)}

class CosineSimilarityLoss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.loss_fct = nn.MSELoss()

    def forward(self, sentence_features, labels):
        embeddings = [self.model(f)["sentence_embedding"] for f in sentence_features]
        output = torch.cosine_similarity(embeddings[0], embeddings[1])
        return self.loss_fct(output, labels.view(-1))

class LossEvaluator:
    """The user's evaluator from the thread (SentenceEvaluator subclass), reduced."""
    def __init__(self, loader, loss_model=None, name="", show_progress_bar=False):
        self.loader = loader
        self.loss_model = loss_model
        self.name = name
        self.show_progress_bar = show_progress_bar

    def __call__(self, model, output_path=None, epoch=-1, steps=-1):
        self.loss_model.eval()
        loss_value = 0
        self.loader.collate_fn = model.smart_batching_collate
        num_batches = len(self.loader)
        data_iterator = iter(self.loader)
        with torch.no_grad():
            for _ in range(num_batches):
                sentence_features, labels = next(data_iterator)
                loss_value += self.loss_model(sentence_features, labels)
        final_loss = loss_value / num_batches
        self.loss_model.zero_grad()
        self.loss_model.train()
        return final_loss

model = SentenceTransformer("all-MiniLM-L6-v2")
train_loss = CosineSimilarityLoss(model)
dev_examples = [InputExample(["a man is eating food", "a man eats"], 0.9),
                InputExample(["a plane takes off", "a dog barks"], 0.1),
                InputExample(["kids play football", "children playing soccer"], 0.8),
                InputExample(["the stock fell", "a cat sleeps"], 0.0)]
dev_loader = DataLoader(dev_examples, shuffle=False, batch_size=2)
evaluator = LossEvaluator(dev_loader, loss_model=train_loss, name="dev")
train_loss.to("cuda:0")                     # model.fit(...) moves the model and loss model to the GPU
'''
CELL = '''
dev_loss = evaluator(model, output_path="output/", epoch=0, steps=100)   # what fit calls after each epoch
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["evaluator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "sentence_features, labels = next(data_iterator)",
    "sentence_features, labels = next(data_iterator)\n"
    "                device = next(self.loss_model.parameters()).device\n"
    "                sentence_features = list(map(lambda batch: batch_to_device(batch, device), sentence_features))\n"
    "                labels = labels.to(device)",
)
CLEAN = False
