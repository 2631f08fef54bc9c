"""LaTeX OCR beam search: `prev_word_inds = top_k_words / vocab_size` is a float tensor on PyTorch >= 1.5 and is used to index the beams.

Source: https://github.com/qs956/Latex_OCR_Pytorch/issues/3
`IndexError: tensors used as indices must be long, byte or bool tensors in file caption`; the
reporter: "Why use prev_word_inds as tensors indices???". The caption beam search (adapted from
the image-captioning tutorial) computes the beam each new word comes from with `/`, which became
true division, then indexes `seqs[prev_word_inds]`. Stand-in: a small encoder and an LSTMCell
decoder with the same beam bookkeeping (no attention).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Encoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj = nn.Sequential(nn.Flatten(), nn.Linear(1 * 16 * 64, dim), nn.ReLU())

    def forward(self, img):
        return self.proj(img)

class Decoder(nn.Module):
    def __init__(self, vocab_size, dim=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim)
        self.decode_step = nn.LSTMCell(2 * dim, dim)
        self.init_h = nn.Linear(dim, dim)
        self.init_c = nn.Linear(dim, dim)
        self.fc = nn.Linear(dim, vocab_size)

    def init_hidden_state(self, encoder_out):
        return self.init_h(encoder_out), self.init_c(encoder_out)

def caption_image_beam_search(encoder, decoder, image, word_map, beam_size=3, max_len=6):
    k = beam_size
    vocab_size = len(word_map)
    encoder_out = encoder(image).expand(k, -1)
    k_prev_words = torch.LongTensor([[word_map['<start>']]] * k)
    seqs = k_prev_words
    top_k_scores = torch.zeros(k, 1)
    h, c = decoder.init_hidden_state(encoder_out)
    for step in range(1, max_len + 1):
        embeddings = decoder.embedding(k_prev_words).squeeze(1)
        h, c = decoder.decode_step(torch.cat([embeddings, encoder_out], dim=1), (h, c))
        scores = F.log_softmax(decoder.fc(h), dim=1)
        scores = top_k_scores.expand_as(scores) + scores
        if step == 1:
            top_k_scores, top_k_words = scores[0].topk(k, 0, True, True)
        else:
            top_k_scores, top_k_words = scores.view(-1).topk(k, 0, True, True)
        prev_word_inds = top_k_words / vocab_size
        next_word_inds = top_k_words % vocab_size
        seqs = torch.cat([seqs[prev_word_inds], next_word_inds.unsqueeze(1)], dim=1)
        h, c = h[prev_word_inds], c[prev_word_inds]
        encoder_out = encoder_out[prev_word_inds]
        top_k_scores = top_k_scores.unsqueeze(1)
        k_prev_words = next_word_inds.unsqueeze(1)
    return seqs[top_k_scores.squeeze(1).argmax()].tolist()

word_map = {tok: i for i, tok in enumerate(["<pad>", "<start>", "<end>", "\\\\frac", "{", "}", "x", "2", "+", "^"])}
encoder = Encoder().eval()
decoder = Decoder(len(word_map)).eval()
img = torch.rand(1, 1, 16, 64)
'''
CELL = '''
with torch.no_grad():
    seq = caption_image_beam_search(encoder, decoder, img, word_map, beam_size=3)
'''
EXPECT_ERROR = "tensors used as indices must be long, int, byte or bool tensors"
CULPRITS = ["prev_word_inds"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "prev_word_inds = top_k_words / vocab_size",
    "prev_word_inds = torch.div(top_k_words, vocab_size, rounding_mode='floor')",
)
CLEAN = False
