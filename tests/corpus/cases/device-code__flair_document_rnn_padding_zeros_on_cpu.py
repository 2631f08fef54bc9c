"""flair DocumentRNNEmbeddings on the GPU: the padding rows for short sentences are made on the CPU.

Source: https://github.com/flairNLP/flair/pull/1416
"Padding entry conversion from CPU to flair_device to avoid CUDA embedding errors": in
`DocumentRNNEmbeddings._add_embeddings_internal` the token embeddings are on the GPU, but the
padding for sentences shorter than the longest one is `torch.zeros(self.length_of_all_token_embeddings,
dtype=torch.float)` with no device, so `torch.cat(word_embeddings, 0)` mixes devices. The PR moves
the padding to `flair.device`. Stand-in: that method reduced (RNN and reprojection left out).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
from typing import List
import torch

flair = types.SimpleNamespace(device=torch.device("cuda:0"))

class Token:
    def __init__(self, embedding):
        self._embedding = embedding

    def get_embedding(self):
        return self._embedding

class Sentence:
    def __init__(self, n_tokens, dim):
        self.tokens = [Token(torch.randn(dim, device=flair.device)) for _ in range(n_tokens)]

    def __len__(self):
        return len(self.tokens)

class DocumentRNNEmbeddings(torch.nn.Module):
    """flair.embeddings.DocumentRNNEmbeddings, 0.4.4 (reduced to the batch-building part)."""
    def __init__(self, length_of_all_token_embeddings=8, hidden_size=6):
        super().__init__()
        self.length_of_all_token_embeddings = length_of_all_token_embeddings
        self.rnn = torch.nn.GRU(length_of_all_token_embeddings, hidden_size)

    def _add_embeddings_internal(self, sentences):
        sentences.sort(key=lambda x: len(x), reverse=True)
        longest_token_sequence_in_batch: int = len(sentences[0])
        all_sentence_tensors = []
        lengths: List[int] = []
        for i, sentence in enumerate(sentences):
            lengths.append(len(sentence.tokens))
            word_embeddings = []
            for token in sentence.tokens:
                word_embeddings.append(token.get_embedding().unsqueeze(0))
            # PADDING: pad shorter sentences out
            for add in range(longest_token_sequence_in_batch - len(sentence.tokens)):
                word_embeddings.append(
                    torch.zeros(self.length_of_all_token_embeddings, dtype=torch.float).unsqueeze(0)
                )
            word_embeddings_tensor = torch.cat(word_embeddings, 0).to(flair.device)
            all_sentence_tensors.append(word_embeddings_tensor.unsqueeze(1))
        return torch.cat(all_sentence_tensors, 1), lengths

document_embeddings = DocumentRNNEmbeddings().to(flair.device)
sentences = [Sentence(5, 8), Sentence(3, 8), Sentence(4, 8)]
'''
CELL = '''
sentence_tensor, lengths = document_embeddings._add_embeddings_internal(sentences)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["word_embeddings"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.zeros(self.length_of_all_token_embeddings, dtype=torch.float).unsqueeze(0)",
    "torch.zeros(self.length_of_all_token_embeddings, dtype=torch.float).unsqueeze(0).to(flair.device)",
)
CLEAN = False
