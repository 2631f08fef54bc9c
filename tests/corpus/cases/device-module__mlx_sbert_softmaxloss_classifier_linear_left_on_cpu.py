"""sentence-transformers SoftmaxLoss built for a model already on CUDA: its classifier Linear stays on the CPU.

Source: https://github.com/huggingface/sentence-transformers/pull/2378
"Set the Linear device equal to the main model device in SoftmaxLoss": since #2351 a
SentenceTransformer loaded while CUDA is available is placed on CUDA immediately, but
`SoftmaxLoss(model, sentence_embedding_dimension, num_labels)` creates its `self.classifier =
nn.Linear(...)` on the default (CPU) device, so calling the loss on the NLI pair features gives a
cpu/cuda device mismatch in the classifier. The fix creates the Linear on `model.device`; moving the
loss's classifier to the model's device does the same in a session.
Stand-ins: SentenceTransformer reduced to an embedding + mean pooling with a `device` property;
SoftmaxLoss as in sentence_transformers/losses/SoftmaxLoss.py (v2.3).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class SentenceTransformer(nn.Sequential):
    """Stand-in: word embeddings + mean pooling; put on CUDA at load time as since v2.3."""
    def __init__(self, vocab_size=100, dim=32):
        super().__init__()
        self.add_module("0", nn.Embedding(vocab_size, dim))
        self.to(torch.device("cuda:0"))

    @property
    def device(self):
        return next(self.parameters()).device

    def get_sentence_embedding_dimension(self):
        return self[0].embedding_dim

    def forward(self, features):
        token_embeddings = self[0](features["input_ids"])
        mask = features["attention_mask"].unsqueeze(-1).to(token_embeddings.dtype)
        features["sentence_embedding"] = (token_embeddings * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return features

class SoftmaxLoss(nn.Module):
    def __init__(self, model, sentence_embedding_dimension, num_labels,
                 concatenation_sent_rep=True, concatenation_sent_difference=True,
                 concatenation_sent_multiplication=False, loss_fct=nn.CrossEntropyLoss()):
        super(SoftmaxLoss, self).__init__()
        self.model = model
        self.num_labels = num_labels
        self.concatenation_sent_rep = concatenation_sent_rep
        self.concatenation_sent_difference = concatenation_sent_difference
        self.concatenation_sent_multiplication = concatenation_sent_multiplication

        num_vectors_concatenated = 0
        if concatenation_sent_rep:
            num_vectors_concatenated += 2
        if concatenation_sent_difference:
            num_vectors_concatenated += 1
        if concatenation_sent_multiplication:
            num_vectors_concatenated += 1
        self.classifier = nn.Linear(num_vectors_concatenated * sentence_embedding_dimension, num_labels)
        self.loss_fct = loss_fct

    def forward(self, sentence_features, labels):
        reps = [self.model(sentence_feature)["sentence_embedding"] for sentence_feature in sentence_features]
        rep_a, rep_b = reps

        vectors_concat = []
        if self.concatenation_sent_rep:
            vectors_concat.append(rep_a)
            vectors_concat.append(rep_b)
        if self.concatenation_sent_difference:
            vectors_concat.append(torch.abs(rep_a - rep_b))
        if self.concatenation_sent_multiplication:
            vectors_concat.append(rep_a * rep_b)

        features = torch.cat(vectors_concat, 1)
        output = self.classifier(features)

        if labels is not None:
            loss = self.loss_fct(output, labels.view(-1))
            return loss
        else:
            return reps, output

model = SentenceTransformer()
train_loss = SoftmaxLoss(model=model, sentence_embedding_dimension=model.get_sentence_embedding_dimension(),
                         num_labels=3)
# premise / hypothesis features, tokenized and moved to the model's device (batch_to_device)
sentence_features = [
    {"input_ids": torch.randint(0, 100, (4, 12), device=model.device),
     "attention_mask": torch.ones(4, 12, dtype=torch.long, device=model.device)},
    {"input_ids": torch.randint(0, 100, (4, 9), device=model.device),
     "attention_mask": torch.ones(4, 9, dtype=torch.long, device=model.device)},
]
labels = torch.tensor([0, 1, 2, 1], device=model.device)     # entailment / neutral / contradiction
'''
CELL = '''
loss_value = train_loss(sentence_features, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["train_loss.classifier"]
FIX = "namespace"
REFERENCE_FIX = '''
train_loss.classifier.to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
