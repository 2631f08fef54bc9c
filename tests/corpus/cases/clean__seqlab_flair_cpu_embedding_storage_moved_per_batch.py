"""Look-alike: flair training with `embeddings_storage_mode="cpu"`: token embeddings parked in CPU memory between epochs, moved to `flair.device` when the tagger reads them.

Source: https://github.com/flairNLP/flair/blob/v0.8/flair/data.py
flair keeps embedded sentences in CPU memory on purpose (`store_embeddings(batch, "cpu")` in
flair/training_utils.py calls `sentence.to("cpu")`), and `Token.get_each_embedding` moves each
vector back with `.to(flair.device)` when `SequenceTagger.forward` concatenates the batch; alanakbik
in flairNLP/flair#348: "after generation we store the embeddings on CPU memory ... during downstream
task training, all embeddings only of the current mini-batch get temporarily moved to GPU". CPU
embeddings next to a GPU tagger, by design: nothing to report. Stand-ins: Token/Sentence,
`store_embeddings` (pinning left out), a static word embedding and the tagger's forward (no RNN);
equal-length sentences.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import types
from typing import List
import torch
import torch.nn as nn

flair = types.SimpleNamespace(device=torch.device("cuda:0"), embedding_storage_mode="cpu")

class Token:
    def __init__(self, text, tag):
        self.text, self.tag = text, tag
        self._embeddings = {}

    def set_embedding(self, name, vector):
        device = flair.device
        if (flair.embedding_storage_mode == "cpu") and len(self._embeddings.keys()) > 0:
            device = next(iter(self._embeddings.values())).device
        if device != vector.device:
            vector = vector.to(device)
        self._embeddings[name] = vector

    def to(self, device, pin_memory=False):
        for name, vector in self._embeddings.items():
            if str(vector.device) != str(device):
                self._embeddings[name] = vector.to(device, non_blocking=True)

    def get_each_embedding(self, embedding_names=None):
        embeddings = []
        for embed in sorted(self._embeddings.keys()):
            if embedding_names and embed not in embedding_names:
                continue
            embed = self._embeddings[embed].to(flair.device)
            if (flair.embedding_storage_mode == "cpu") and embed.device != flair.device:
                embed = embed.to(flair.device)
            embeddings.append(embed)
        return embeddings

class Sentence:
    def __init__(self, tagged):
        self.tokens = [Token(w, t) for w, t in tagged]
    def __len__(self):
        return len(self.tokens)
    def __iter__(self):
        return iter(self.tokens)
    def to(self, device, pin_memory=False):
        for token in self.tokens:
            token.to(device, pin_memory)

def store_embeddings(sentences, storage_mode):
    """flair.training_utils.store_embeddings, reduced (static embeddings only, no pinning)."""
    if storage_mode == "cpu":
        for sentence in sentences:
            sentence.to("cpu")

class WordEmbeddings(nn.Module):
    """flair.embeddings.WordEmbeddings reduced: a frozen lookup table."""
    name = "glove"
    static_embeddings = True
    def __init__(self, vocab, dim=8):
        super().__init__()
        self.vocab = vocab
        self.embedding_length = dim
        self.embedding = nn.Embedding(len(vocab) + 1, dim)

    def get_names(self):
        return [self.name]

    def embed(self, sentences):
        for sentence in sentences:
            for token in sentence:
                if self.name in token._embeddings:
                    continue
                idx = torch.tensor([self.vocab.get(token.text.lower(), len(self.vocab))], device=flair.device)
                token.set_embedding(self.name, self.embedding(idx).squeeze(0))
        return sentences

class Dictionary:
    def __init__(self, items):
        self.items = list(items)
    def get_idx_for_item(self, item):
        return self.items.index(item)
    def get_items(self):
        return self.items
    def __len__(self):
        return len(self.items)

class SequenceTagger(nn.Module):
    def __init__(self, embeddings, tag_dictionary, loss_weights=None):
        super().__init__()
        self.embeddings = embeddings
        self.tag_dictionary = tag_dictionary
        self.tagset_size = len(tag_dictionary)
        self.weight_dict = loss_weights
        if loss_weights is not None:
            n_classes = len(self.tag_dictionary)
            weight_list = [1. for i in range(n_classes)]
            for i, tag in enumerate(self.tag_dictionary.get_items()):
                if tag in loss_weights.keys():
                    weight_list[i] = loss_weights[tag]
            self.loss_weights = torch.FloatTensor(weight_list).to(flair.device)
        else:
            self.loss_weights = None
        self.linear = nn.Linear(embeddings.embedding_length, self.tagset_size)
        self.to(flair.device)

    def forward(self, sentences):
        self.embeddings.embed(sentences)
        names = self.embeddings.get_names()
        lengths: List[int] = [len(sentence.tokens) for sentence in sentences]
        longest_token_sequence_in_batch: int = max(lengths)
        pre_allocated_zero_tensor = torch.zeros(
            self.embeddings.embedding_length * longest_token_sequence_in_batch,
            dtype=torch.float,
            device=flair.device,
        )
        all_embs = list()
        for sentence in sentences:
            all_embs += [emb for token in sentence for emb in token.get_each_embedding(names)]
            nb_padding_tokens = longest_token_sequence_in_batch - len(sentence)
            if nb_padding_tokens > 0:
                t = pre_allocated_zero_tensor[: self.embeddings.embedding_length * nb_padding_tokens]
                all_embs.append(t)
        sentence_tensor = torch.cat(all_embs).view(
            [len(sentences), longest_token_sequence_in_batch, self.embeddings.embedding_length]
        )
        return self.linear(sentence_tensor)

    def _calculate_loss(self, features, sentences):
        lengths: List[int] = [len(sentence.tokens) for sentence in sentences]
        tag_list: List = []
        token_count = 0
        for s_id, sentence in enumerate(sentences):
            tag_idx: List[int] = [self.tag_dictionary.get_idx_for_item(token.tag) for token in sentence]
            token_count += len(tag_idx)
            tag = torch.tensor(tag_idx, device=flair.device)
            tag_list.append(tag)
        score = 0
        for sentence_feats, sentence_tags, sentence_length in zip(features, tag_list, lengths):
            sentence_feats = sentence_feats[:sentence_length]
            score += torch.nn.functional.cross_entropy(
                sentence_feats, sentence_tags, weight=self.loss_weights, reduction="sum",
            )
        return score, token_count

    def forward_loss(self, sentences):
        features = self.forward(sentences)
        return self._calculate_loss(features, sentences)

vocab = {"george": 0, "washington": 1, "went": 2, "to": 3, "paris": 4, "alice": 5, "lives": 6, "in": 7, "rome": 8, "now": 9}
tag_dictionary = Dictionary(["O", "B-PER", "I-PER", "B-LOC"])
tagger = SequenceTagger(WordEmbeddings(vocab), tag_dictionary)
batch = [
    Sentence([("George", "B-PER"), ("Washington", "I-PER"), ("went", "O"), ("to", "O"), ("Paris", "B-LOC")]),
    Sentence([("Alice", "B-PER"), ("lives", "O"), ("in", "O"), ("Rome", "B-LOC"), ("now", "O")]),
]
# epoch 1: the batch is embedded on the GPU, then ModelTrainer(embeddings_storage_mode="cpu")
# parks the (static) token embeddings in CPU memory
tagger.embeddings.embed(batch)
store_embeddings(batch, storage_mode="cpu")
'''
CELL = '''
# epoch 2: the stored CPU embeddings are reused and moved to flair.device token by token
features = tagger.forward(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
