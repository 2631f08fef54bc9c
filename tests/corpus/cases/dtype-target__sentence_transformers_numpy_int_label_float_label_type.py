"""sentence-transformers SoftmaxLoss with numpy integer labels: SentencesDataset picks `torch.float` as the label type.

Source: https://github.com/huggingface/sentence-transformers/issues/418
"Error when label type is numpy integer type": labels read from a pandas column are `numpy.int64`;
`SentencesDataset` chose `torch.long` only for `isinstance(label, int)` and `torch.float` otherwise,
so the NLI-style SoftmaxLoss handed float labels to CrossEntropyLoss. Stand-in: the old
SentencesDataset/collate label typing and SoftmaxLoss (the sentence encoder is a mean-pooled
embedding table).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader

class InputExample:
    def __init__(self, guid="", texts=None, label=0):
        self.guid, self.texts, self.label = guid, texts, label

class TinySentenceEncoder(nn.Module):
    def __init__(self, vocab=500, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def tokenize(self, text):
        return torch.tensor([hash(w) % 500 for w in text.split()])

    def forward(self, features):
        return {"sentence_embedding": self.emb(features["input_ids"]).mean(1)}

    def get_sentence_embedding_dimension(self):
        return self.emb.embedding_dim

class SentencesDataset:
    def __init__(self, examples, model):
        self.model = model
        label_type = None
        texts, labels = [], []
        for example in examples:
            if label_type is None:
                if isinstance(example.label, int):
                    label_type = torch.long
                else:
                    label_type = torch.float
            texts.append(example.texts)
            labels.append(example.label)
        self.texts = texts
        self.labels = torch.tensor(labels, dtype=label_type)

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        return self.texts[i], self.labels[i]

def smart_batching_collate(batch):
    features = []
    for idx in range(2):
        toks = [model.tokenize(texts[idx]) for texts, _ in batch]
        n = max(len(t) for t in toks)
        features.append({"input_ids": torch.stack([nn.functional.pad(t, (0, n - len(t))) for t in toks])})
    return features, torch.stack([label for _, label in batch])

class SoftmaxLoss(nn.Module):
    def __init__(self, model, sentence_embedding_dimension, num_labels):
        super().__init__()
        self.model = model
        self.classifier = nn.Linear(3 * sentence_embedding_dimension, num_labels)
        self.loss_fct = nn.CrossEntropyLoss()

    def forward(self, sentence_features, labels):
        reps = [self.model(f)["sentence_embedding"] for f in sentence_features]
        rep_a, rep_b = reps
        output = self.classifier(torch.cat([rep_a, rep_b, torch.abs(rep_a - rep_b)], 1))
        return self.loss_fct(output, labels.view(-1))

df_labels = np.array([0, 1, 2, 1, 0, 2, 1, 0])            # df["label"].values -> numpy.int64
pairs = [("a man eats food", "someone is eating"), ("a dog runs", "the cat sleeps"),
         ("kids play football", "children are outside"), ("it rains", "the sun shines"),
         ("she reads a book", "a woman is reading"), ("a car drives", "nobody moves"),
         ("two men talk", "people speak"), ("the bird sings", "a bird makes noise")]
train_samples = [InputExample(texts=list(p), label=l) for p, l in zip(pairs, df_labels)]
model = TinySentenceEncoder()
train_data = SentencesDataset(train_samples, model)
train_dataloader = DataLoader(train_data, shuffle=False, batch_size=4, collate_fn=smart_batching_collate)
train_loss = SoftmaxLoss(model=model, sentence_embedding_dimension=model.get_sentence_embedding_dimension(),
                         num_labels=3)
'''
CELL = '''
features, labels = next(iter(train_dataloader))
loss_value = train_loss(features, labels)
loss_value.backward()
'''
EXPECT_ERROR = ("expected scalar type Long but found Float", "expected target dtype to be Long",
                "Found dtype Float but expected Long")
CULPRITS = ["labels"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("if isinstance(example.label, int):", "if isinstance(example.label, (int, np.integer)):")
CLEAN = False
