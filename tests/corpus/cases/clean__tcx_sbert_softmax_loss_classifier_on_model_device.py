"""Look-alike: sentence-transformers SoftmaxLoss (NLI training) builds its classifier on the model's device, and the collated CPU batch is moved with batch_to_device before the loss runs.

Source: https://github.com/huggingface/sentence-transformers/blob/master/sentence_transformers/losses/SoftmaxLoss.py
Since the fix for the CPU classifier, `SoftmaxLoss.__init__` creates
`self.classifier = nn.Linear(num_vectors_concatenated * sentence_embedding_dimension, num_labels, device=model.device)`;
the training loop moves each (CPU) batch of features and labels with `batch_to_device` to the model's device.
The loss concatenates (u, v, |u-v|), classifies and applies CrossEntropyLoss, all on the GPU. Stand-ins: a
SentenceTransformer body, the collate step and batch_to_device; the Linear is built then moved (no in-place init
on fake cuda).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def batch_to_device(batch, target_device):
    for key in batch:
        if isinstance(batch[key], torch.Tensor):
            batch[key] = batch[key].to(target_device)
    return batch

class SentenceTransformer(nn.Module):
    def __init__(self, name, vocab_size=30527, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.dense = nn.Linear(dim, dim)

    @property
    def device(self):
        return next(self.parameters()).device

    def get_sentence_embedding_dimension(self):
        return self.dense.out_features

    def tokenize(self, texts):
        ids = [[(sum(map(ord, w)) % 30000) + 100 for w in t.split()][:8] for t in texts]
        return {"input_ids": torch.tensor([x + [0] * (8 - len(x)) for x in ids])}

    def forward(self, features):
        return {"sentence_embedding": torch.tanh(self.dense(self.embed(features["input_ids"]))).mean(dim=1)}

class SoftmaxLoss(nn.Module):
    """Stand-in for sentence_transformers.losses.SoftmaxLoss."""
    def __init__(self, model, sentence_embedding_dimension, num_labels, concatenation_sent_rep=True,
                 concatenation_sent_difference=True, concatenation_sent_multiplication=False):
        super().__init__()
        self.model = model
        self.num_labels = num_labels
        self.concatenation_sent_rep = concatenation_sent_rep
        self.concatenation_sent_difference = concatenation_sent_difference
        self.concatenation_sent_multiplication = concatenation_sent_multiplication
        num_vectors_concatenated = 2 * concatenation_sent_rep + concatenation_sent_difference + concatenation_sent_multiplication
        self.classifier = nn.Linear(num_vectors_concatenated * sentence_embedding_dimension, num_labels).to(model.device)
        self.loss_fct = nn.CrossEntropyLoss()

    def forward(self, sentence_features, labels):
        reps = [self.model(sentence_feature)["sentence_embedding"] for sentence_feature in sentence_features]
        rep_a, rep_b = reps
        vectors_concat = []
        if self.concatenation_sent_rep:
            vectors_concat.append(rep_a)
            vectors_concat.append(rep_b)
        if self.concatenation_sent_difference:
            vectors_concat.append(torch.abs(rep_a - rep_b))
        features = torch.cat(vectors_concat, 1)
        output = self.classifier(features)
        return self.loss_fct(output, labels.view(-1))

model = SentenceTransformer("distilroberta-base").to("cuda:0")
train_loss = SoftmaxLoss(model=model, sentence_embedding_dimension=model.get_sentence_embedding_dimension(), num_labels=3)
premises = ["A man inspects a uniform", "Two kids play in the park"]
hypotheses = ["The man is sleeping", "Children are outside"]
labels = torch.tensor([2, 0])                   # contradiction, entailment
'''
CELL = '''
features = [batch_to_device(model.tokenize(premises), model.device), batch_to_device(model.tokenize(hypotheses), model.device)]
loss_value = train_loss(features, labels.to(model.device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
