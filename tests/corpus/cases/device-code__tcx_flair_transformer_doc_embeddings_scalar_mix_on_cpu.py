"""flair TextClassifier with TransformerDocumentEmbeddings(use_scalar_mix=True) on cuda:0: the ScalarMix weights are made on the CPU.

Source: https://github.com/flairNLP/flair/issues/1567
"TransformerDocumentEmbedding does not take flair.device": with `flair.device = torch.device('cuda:0')`,
`TransformerDocumentEmbeddings('bert-base-uncased', use_scalar_mix=True)` and a `TextClassifier` (which moves
itself to flair.device), training fails with "expected device cpu but got device cuda:0". The maintainer's fix
(PR #1586, "init skalar mix on flair.device"): "Some parameters of ScalarMix were not initialized on
flair.device" - the ScalarMix built inside `_add_embeddings_internal` on every call creates its
`scalar_parameters` and `gamma` with `torch.FloatTensor([...])`, i.e. on the CPU, and mixes them with the GPU
hidden states. Stand-ins: a tiny "transformer" returning per-layer hidden states, ScalarMix, the document
embeddings and a TextClassifier reduced to `predict`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
from typing import List
import torch
from torch.nn import Parameter, ParameterList

flair = types.SimpleNamespace(device=torch.device("cuda:0"))

class Sentence:
    def __init__(self, text):
        self.text = text
        self.embedding = None
        self.labels = []

    def set_embedding(self, vector):
        self.embedding = vector

class ScalarMix(torch.nn.Module):
    """Stand-in for flair.embeddings ScalarMix (before PR #1586), from allennlp."""
    def __init__(self, mixture_size: int, trainable: bool = False) -> None:
        super(ScalarMix, self).__init__()
        self.mixture_size = mixture_size
        initial_scalar_parameters = [0.0] * mixture_size
        self.scalar_parameters = ParameterList(
            [Parameter(torch.FloatTensor([initial_scalar_parameters[i]]), requires_grad=trainable)
             for i in range(mixture_size)]
        )
        self.gamma = Parameter(torch.FloatTensor([1.0]), requires_grad=trainable)

    def forward(self, tensors: List[torch.Tensor]) -> torch.Tensor:
        normed_weights = torch.nn.functional.softmax(torch.cat([p for p in self.scalar_parameters]), dim=0)
        normed_weights = torch.split(normed_weights, split_size_or_sections=1)
        pieces = []
        for weight, tensor in zip(normed_weights, tensors):
            pieces.append(weight * tensor)
        return self.gamma * sum(pieces)

class TinyTransformer(torch.nn.Module):
    def __init__(self, vocab_size=30522, hidden=32, n_layers=4):
        super().__init__()
        self.embeddings = torch.nn.Embedding(vocab_size, hidden)
        self.layers = torch.nn.ModuleList([torch.nn.Linear(hidden, hidden) for _ in range(n_layers)])

    def forward(self, input_ids):
        hidden_states = [self.embeddings(input_ids)]
        for layer in self.layers:
            hidden_states.append(torch.tanh(layer(hidden_states[-1])))
        return hidden_states

class TransformerDocumentEmbeddings(torch.nn.Module):
    """Stand-in for flair.embeddings.TransformerDocumentEmbeddings (flair 0.5), reduced."""
    def __init__(self, model="bert-base-uncased", layers="-1,-2,-3,-4", use_scalar_mix=False):
        super().__init__()
        self.model = TinyTransformer()
        self.layer_indexes = [int(x) for x in layers.split(",")]
        self.use_scalar_mix = use_scalar_mix
        self.embedding_length = 32 if use_scalar_mix else 32 * len(self.layer_indexes)

    def _tokenize(self, text):
        return [101] + [(sum(map(ord, w)) % 30000) + 200 for w in text.split()][:10] + [102]

    def embed(self, sentences):
        return self._add_embeddings_internal(sentences)

    def _add_embeddings_internal(self, sentences):
        for sentence in sentences:
            input_ids = torch.tensor(self._tokenize(sentence.text), dtype=torch.long).unsqueeze(0).to(flair.device)
            hidden_states = self.model(input_ids)
            layers = [hidden_states[layer] for layer in self.layer_indexes]
            if self.use_scalar_mix:
                sm = ScalarMix(mixture_size=len(layers))
                embedding = sm(layers)
            else:
                embedding = torch.cat(layers, dim=-1)
            sentence.set_embedding(embedding.select(1, 0).squeeze(0))    # [CLS]
        return sentences

class TextClassifier(torch.nn.Module):
    def __init__(self, document_embeddings, label_dictionary, multi_label=False):
        super().__init__()
        self.document_embeddings = document_embeddings
        self.label_dictionary = label_dictionary
        self.decoder = torch.nn.Linear(document_embeddings.embedding_length, len(label_dictionary))
        torch.nn.init.xavier_uniform_(self.decoder.weight)
        self.to(flair.device)                         # the classifier moves itself to flair.device

    def forward(self, sentences):
        self.document_embeddings.embed(sentences)
        text_embedding_tensor = torch.stack([s.embedding for s in sentences])
        return self.decoder(text_embedding_tensor)

    def predict(self, sentences):
        with torch.no_grad():
            scores = self.forward(sentences)
            return torch.softmax(scores, dim=-1)

document_embeddings = TransformerDocumentEmbeddings("bert-base-uncased", use_scalar_mix=True)
label_dict = ["positive", "negative", "neutral"]
classifier = TextClassifier(document_embeddings, label_dictionary=label_dict, multi_label=False)
sentences = [Sentence("the movie was great"), Sentence("I did not like the ending at all")]
'''
CELL = '''
probs = classifier.predict(sentences)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["document_embeddings"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """[Parameter(torch.FloatTensor([initial_scalar_parameters[i]]), requires_grad=trainable)
             for i in range(mixture_size)]
        )
        self.gamma = Parameter(torch.FloatTensor([1.0]), requires_grad=trainable)""",
    """[Parameter(torch.tensor([initial_scalar_parameters[i]], dtype=torch.float, device=flair.device),
                       requires_grad=trainable)
             for i in range(mixture_size)]
        )
        self.gamma = Parameter(torch.tensor([1.0], dtype=torch.float, device=flair.device), requires_grad=trainable)""",
)
CLEAN = False
