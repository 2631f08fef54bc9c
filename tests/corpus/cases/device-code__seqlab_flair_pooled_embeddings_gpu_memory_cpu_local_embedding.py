"""flair NER tagger with PooledFlairEmbeddings loaded on the GPU: the pooled memory is on cuda, each new token embedding on the CPU.

Source: https://github.com/flairNLP/flair/issues/620
"PooledFlairEmbeddings: expected type torch.cuda.FloatTensor but got torch.FloatTensor": loading a
trained tagger with PooledFlairEmbeddings on the GPU, `tagger.predict(sentence)` failed in
`_add_embeddings_internal` at `self.aggregate_op(self.word_embeddings[token.text], local_embedding)`.
The memory dict came back from the model file on the GPU, but `Token.set_embedding` stores every
embedding with `.cpu()`, so `local_embedding` is a CPU tensor. Fix (PR #625, "cuda fix for
PooledFlairEmbeddings"): `local_embedding = local_embedding.to(flair.device)`. Stand-ins: flair's
Token/Sentence, a small FlairEmbeddings-like contextual embedder, PooledFlairEmbeddings (March 2019)
and a SequenceTagger whose `load` maps everything, the memory dict included, to `flair.device`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
from typing import List
import torch
import torch.nn as nn

flair = types.SimpleNamespace(device=torch.device("cuda:0"))

class Token:
    def __init__(self, text, idx):
        self.text, self.idx = text, idx
        self._embeddings = {}

    def set_embedding(self, name, vector):
        self._embeddings[name] = vector.cpu()

    def get_embedding(self):
        return torch.cat([self._embeddings[k] for k in sorted(self._embeddings.keys())], 0)

class Sentence:
    def __init__(self, text, vocab):
        self.tokens = [Token(w, vocab.get(w.lower(), 0)) for w in text.split()]

class FlairEmbeddings(nn.Module):
    """Contextual string embeddings, reduced: an LSTM over the sentence, kept on flair.device."""
    def __init__(self, name="news-forward", vocab_size=50, dim=8):
        super().__init__()
        self.name = name
        self.embedding_length = dim
        self.encoder = nn.Embedding(vocab_size, dim)
        self.rnn = nn.LSTM(dim, dim)

    def embed(self, sentences):
        for sentence in sentences:
            ids = torch.tensor([t.idx for t in sentence.tokens]).to(flair.device)
            hidden_states, _ = self.rnn(self.encoder(ids).unsqueeze(1))
            for token, state in zip(sentence.tokens, hidden_states.squeeze(1).unbind(0)):
                token.set_embedding(self.name, state)
        return sentences

class PooledFlairEmbeddings(nn.Module):
    """flair.embeddings.PooledFlairEmbeddings as of March 2019 (reduced)."""
    def __init__(self, contextual_embeddings, pooling="min", only_capitalized=False):
        super().__init__()
        self.context_embeddings = contextual_embeddings
        self.embedding_length = self.context_embeddings.embedding_length * 2
        self.name = self.context_embeddings.name + "-context"
        # these fields are for the embedding memory
        self.word_embeddings = {}
        self.word_count = {}
        self.only_capitalized = only_capitalized
        self.static_embeddings = False
        self.pooling = pooling
        self.aggregate_op = {"mean": torch.add, "fade": torch.add, "max": torch.max, "min": torch.min}[pooling]

    def embed(self, sentences):
        return self._add_embeddings_internal(sentences)

    def _add_embeddings_internal(self, sentences: List[Sentence]) -> List[Sentence]:
        self.context_embeddings.embed(sentences)

        # if we keep a pooling, it needs to be updated continuously
        for sentence in sentences:
            for token in sentence.tokens:

                # update embedding
                local_embedding = token._embeddings[self.context_embeddings.name]

                if token.text[0].isupper() or not self.only_capitalized:

                    if token.text not in self.word_embeddings:
                        self.word_embeddings[token.text] = local_embedding
                        self.word_count[token.text] = 1
                    else:
                        aggregated_embedding = self.aggregate_op(self.word_embeddings[token.text], local_embedding)
                        if self.pooling == "fade":
                            aggregated_embedding /= 2
                        self.word_embeddings[token.text] = aggregated_embedding
                        self.word_count[token.text] += 1

        # add embeddings after updating
        for sentence in sentences:
            for token in sentence.tokens:
                if token.text in self.word_embeddings:
                    base = self.word_embeddings[token.text] / self.word_count[token.text] \\
                        if self.pooling == "mean" else self.word_embeddings[token.text]
                else:
                    base = token._embeddings[self.context_embeddings.name]
                token.set_embedding(self.name, base)
        return sentences

class SequenceTagger(nn.Module):
    def __init__(self, embeddings, tag_count=9):
        super().__init__()
        self.embeddings = embeddings
        self.linear = nn.Linear(embeddings.context_embeddings.embedding_length * 2, tag_count)

    @classmethod
    def load(cls, memory):
        # torch.load(model_file, map_location=flair.device): parameters and the pickled
        # PooledFlairEmbeddings memory dict both come back on the GPU
        tagger = cls(PooledFlairEmbeddings(FlairEmbeddings("news-forward")))
        tagger.embeddings.word_embeddings = {w: v.to(flair.device) for w, v in memory.items()}
        tagger.embeddings.word_count = {w: 3 for w in memory}
        return tagger.to(flair.device).eval()

    def predict(self, sentence):
        self.embeddings.embed([sentence])
        features = torch.stack([t.get_embedding() for t in sentence.tokens]).to(flair.device)
        return self.linear(features).argmax(-1)

vocab = {"george": 1, "washington": 2, "went": 3, "to": 4, "the": 5, "capitol": 6}
training_memory = {w: torch.randn(8) for w in ["George", "Washington", "Capitol"]}   # memory saved with the model
tagger = SequenceTagger.load(training_memory)
sentence = Sentence("George Washington went to the Capitol", vocab)
'''
CELL = '''
tags = tagger.predict(sentence)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["tagger.embeddings"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "                local_embedding = token._embeddings[self.context_embeddings.name]\n",
    "                local_embedding = token._embeddings[self.context_embeddings.name]\n"
    "                local_embedding = local_embedding.to(flair.device)\n",
)
CLEAN = False
