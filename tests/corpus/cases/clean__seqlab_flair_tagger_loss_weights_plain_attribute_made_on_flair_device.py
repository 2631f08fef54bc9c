"""Look-alike: flair SequenceTagger (no CRF) with class loss weights: a CPU `FloatTensor` moved to `flair.device` and kept as a plain attribute.

Source: https://github.com/flairNLP/flair/blob/v0.8/flair/models/sequence_tagger_model.py
`SequenceTagger.__init__` turns `loss_weights={"B-PER": 5.0, ...}` into
`self.loss_weights = torch.FloatTensor(weight_list).to(flair.device)` - a plain tensor attribute that
`Module.to()` would not move, but it is created on `flair.device`, where the whole tagger lives
(`self.to(flair.device)`); the gold tags are built with `torch.tensor(tag_idx, device=flair.device)`
and the padding comes from a zero tensor pre-allocated on `flair.device`. Weighted
cross-entropy on the accelerator: nothing to report. Stand-ins: flair's Token/Sentence,
a static word embedding, and the tagger's forward/_calculate_loss (no RNN, no CRF); meta is
the accelerator (flair.device).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import types
from typing import List
import torch
import torch.nn as nn

flair = types.SimpleNamespace(device=torch.device("meta"), embedding_storage_mode="none")   # stands in for cuda:0

class Token:
    def __init__(self, text, tag):
        self.text, self.tag = text, tag
        self._embeddings = {}

    def set_embedding(self, name, vector):
        if flair.device != vector.device:
            vector = vector.to(flair.device)
        self._embeddings[name] = vector

    def get_each_embedding(self, embedding_names=None):
        embeddings = []
        for embed in sorted(self._embeddings.keys()):
            if embedding_names and embed not in embedding_names:
                continue
            embeddings.append(self._embeddings[embed].to(flair.device))
        return embeddings

class Sentence:
    def __init__(self, tagged):
        self.tokens = [Token(w, t) for w, t in tagged]
    def __len__(self):
        return len(self.tokens)
    def __iter__(self):
        return iter(self.tokens)

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

vocab = {"george": 0, "washington": 1, "went": 2, "to": 3, "paris": 4, "in": 5, "may": 6}
tag_dictionary = Dictionary(["O", "B-PER", "I-PER", "B-LOC"])
tagger = SequenceTagger(WordEmbeddings(vocab), tag_dictionary, loss_weights={"B-PER": 5.0, "I-PER": 5.0, "B-LOC": 3.0})
batch = [
    Sentence([("George", "B-PER"), ("Washington", "I-PER"), ("went", "O"), ("to", "O"), ("Paris", "B-LOC")]),
    Sentence([("in", "O"), ("May", "O")]),
]
'''
CELL = '''
loss, token_count = tagger.forward_loss(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
