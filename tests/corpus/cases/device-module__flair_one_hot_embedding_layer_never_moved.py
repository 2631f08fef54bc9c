"""flair OneHotEmbeddings on the GPU: the token ids go to flair.device, the embedding layer stays on the CPU.

Source: https://github.com/flairNLP/flair/issues/1141
"Using One Hot Embeddings fails on gpu": `OneHotEmbeddings(corpus).embed(sentence)` raised a device
error. `_add_embeddings_internal` builds the index tensor with `.to(flair.device)`, but the
`torch.nn.Embedding` made in `__init__` was never moved (the user's workaround moved
`self.embedding_layer` to cuda; flair later added `self.to(flair.device)` to the constructor).
Stand-in: a reduced OneHotEmbeddings/Sentence/Token and a `flair` namespace holding `device`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import types
import torch

flair = types.SimpleNamespace(device=torch.device("cuda:0"))   # flair picks cuda when available

class Token:
    def __init__(self, text):
        self.text = text
        self.embeddings = {}

    def set_embedding(self, name, vector):
        self.embeddings[name] = vector

class Sentence:
    def __init__(self, text):
        self.tokens = [Token(t) for t in text.split()]

    def __iter__(self):
        return iter(self.tokens)

class OneHotEmbeddings(torch.nn.Module):
    """flair.embeddings.OneHotEmbeddings, 0.4.3 (reduced)."""
    def __init__(self, vocab, embedding_length=16):
        super().__init__()
        self.name = "one-hot"
        self.vocab = {w: i + 1 for i, w in enumerate(vocab)}     # 0 = <unk>
        self.embedding_layer = torch.nn.Embedding(len(self.vocab) + 1, embedding_length)
        torch.nn.init.xavier_uniform_(self.embedding_layer.weight)

    def embed(self, sentence):
        idxs = [self.vocab.get(t.text, 0) for t in sentence.tokens]
        one_hot_sentences = torch.tensor(idxs, dtype=torch.long).to(flair.device)
        embedded = self.embedding_layer.forward(one_hot_sentences)
        for i, token in enumerate(sentence):
            token.set_embedding(self.name, embedded.select(0, i))
        return sentence

corpus_vocab = "the grass is green and the sky is blue".split()
word_embedding = OneHotEmbeddings(corpus_vocab)
sentence = Sentence("the grass is green .")
'''
CELL = '''
word_embedding.embed(sentence)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["word_embedding"]
FIX = "namespace"
REFERENCE_FIX = '''
word_embedding.embedding_layer.to(flair.device)
'''
REFERENCE_EDIT = None
CLEAN = False
