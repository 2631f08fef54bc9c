"""Look-alike: flair TextClassifier builds the gold label indices as CPU LongTensors and moves the concatenation to flair.device before the loss.

Source: https://github.com/flairNLP/flair/blob/v0.6.1/flair/models/text_classification_model.py
`_labels_to_indices` makes one `torch.LongTensor([...])` per sentence on the CPU and returns
`torch.cat(indices, 0).to(flair.device)`; the class weights are built as `torch.FloatTensor(weight_list).to(flair.device)`
for `nn.CrossEntropyLoss(weight=self.loss_weights)`. The scores come from the decoder on flair.device, so the
loss sees one device. Stand-ins: the document embeddings (an EmbeddingBag) and the classifier reduced to
`forward_loss`; a `flair` namespace holds `device`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import types
import torch

flair = types.SimpleNamespace(device=torch.device("cuda:0"))

class Label:
    def __init__(self, value):
        self.value = value

class Sentence:
    def __init__(self, text, label):
        self.text = text
        self.labels = [Label(label)]

    def get_labels(self, label_type=None):
        return self.labels

class Dictionary:
    def __init__(self, items):
        self.item2idx = {item: i for i, item in enumerate(items)}

    def get_idx_for_item(self, item):
        return self.item2idx[item]

    def __len__(self):
        return len(self.item2idx)

class DocumentPoolEmbeddings(torch.nn.Module):
    def __init__(self, vocab_size=20000, embedding_length=32):
        super().__init__()
        self.embedding_length = embedding_length
        self.bag = torch.nn.EmbeddingBag(vocab_size, embedding_length)

    def embed(self, sentences):
        ids = [[(sum(map(ord, w)) % 19000) + 1 for w in s.text.split()][:6] for s in sentences]
        ids = torch.tensor([x + [0] * (6 - len(x)) for x in ids]).to(flair.device)
        return self.bag(ids)

class TextClassifier(torch.nn.Module):
    """Stand-in for flair.models.TextClassifier (0.6), reduced."""
    def __init__(self, document_embeddings, label_dictionary, label_type="class", loss_weights=None):
        super().__init__()
        self.document_embeddings = document_embeddings
        self.label_dictionary = label_dictionary
        self.label_type = label_type
        if loss_weights is not None:
            weight_list = [loss_weights.get(label, 1.0) for label in label_dictionary.item2idx]
            self.loss_weights = torch.FloatTensor(weight_list).to(flair.device)
        else:
            self.loss_weights = None
        self.decoder = torch.nn.Linear(document_embeddings.embedding_length, len(label_dictionary))
        self.loss_function = torch.nn.CrossEntropyLoss(weight=self.loss_weights)
        self.to(flair.device)

    def forward(self, sentences):
        return self.decoder(self.document_embeddings.embed(sentences))

    def _labels_to_indices(self, sentences):
        indices = [
            torch.LongTensor([self.label_dictionary.get_idx_for_item(label.value)
                              for label in sentence.get_labels(self.label_type)])
            for sentence in sentences
        ]
        vec = torch.cat(indices, 0).to(flair.device)
        return vec

    def forward_loss(self, sentences):
        scores = self.forward(sentences)
        return self.loss_function(scores, self._labels_to_indices(sentences))

label_dict = Dictionary(["POSITIVE", "NEGATIVE"])
classifier = TextClassifier(DocumentPoolEmbeddings(), label_dictionary=label_dict, loss_weights={"NEGATIVE": 3.0})
batch = [Sentence("what a wonderful film", "POSITIVE"), Sentence("the plot was a mess", "NEGATIVE")]
'''
CELL = '''
loss = classifier.forward_loss(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
