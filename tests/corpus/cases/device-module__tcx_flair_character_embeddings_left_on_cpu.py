"""flair CharacterEmbeddings used on its own on a GPU machine: the char ids go to flair.device, the embedding layer stays on the CPU.

Source: https://github.com/flairNLP/flair/issues/421
"CUDA Error during CharacterEmbeddings": `embedding = CharacterEmbeddings(); embedding.embed(sentence)` on a
CUDA machine fails. `_add_embeddings_internal` builds the padded char-id tensor and sends it to `flair.device`,
but the `CharacterEmbeddings` object (its `char_embedding` and char RNN) was never moved: it stays on the CPU.
PR #434 closed the issue: "When initializing CharacterEmbeddings, the object now automatically gets put on CUDA";
for a user, `embedding.to(flair.device)` does the same. Stand-in: reduced CharacterEmbeddings/Sentence/Token and a
`flair` namespace holding `device`; the char LSTM is replaced by a max-pool over characters (fake cuda has no RNN).
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
        self._embeddings = {}

    def set_embedding(self, name, vector):
        self._embeddings[name] = vector

class Sentence:
    def __init__(self, text, use_tokenizer=True):
        self.tokens = [Token(t) for t in text.replace(".", " .").split()]

    def __iter__(self):
        return iter(self.tokens)

class CharacterEmbeddings(torch.nn.Module):
    """Stand-in for flair.embeddings.CharacterEmbeddings (flair master, January 2019), reduced."""
    def __init__(self, char_embedding_dim=25, hidden_size_char=25):
        super().__init__()
        self.name = "Char"
        self.char_dictionary = {c: i + 1 for i, c in enumerate("abcdefghijklmnopqrstuvwxyzáéíóúñ.,")}
        self.char_embedding_dim = char_embedding_dim
        self.hidden_size_char = hidden_size_char
        self.char_embedding = torch.nn.Embedding(len(self.char_dictionary) + 1, self.char_embedding_dim)
        self.char_proj = torch.nn.Linear(self.char_embedding_dim, 2 * self.hidden_size_char)

    def embed(self, sentence):
        return self._add_embeddings_internal([sentence])

    def _add_embeddings_internal(self, sentences):
        for sentence in sentences:
            tokens_char_indices = [[self.char_dictionary.get(c, 0) for c in t.text.lower()] for t in sentence.tokens]
            longest = max(len(x) for x in tokens_char_indices)
            tokens_mask = [x + [0] * (longest - len(x)) for x in tokens_char_indices]

            # chars for rnn processing
            chars = torch.LongTensor(tokens_mask)
            chars = chars.to(flair.device)

            character_embeddings = self.char_embedding(chars).transpose(0, 1)
            pooled = self.char_proj(character_embeddings).amax(dim=0)
            for i, token in enumerate(sentence.tokens):
                token.set_embedding(self.name, pooled[i])
        return sentences

sentence = Sentence("La casa es muy bonita.", use_tokenizer=True)
embedding = CharacterEmbeddings()
'''
CELL = '''
embedding.embed(sentence)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["embedding"]
FIX = "namespace"
REFERENCE_FIX = '''
embedding.to(flair.device)
'''
REFERENCE_EDIT = None
CLEAN = False
