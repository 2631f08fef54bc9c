"""Show, Attend and Tell tutorial `caption.py`: the image is sent to the GPU before a torchvision `Normalize` that builds its mean/std on the CPU.

Source: https://github.com/sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning/issues/66
"Caption generation error": `caption_image_beam_search` does `img = torch.FloatTensor(img).to(device)`
and then `image = transform(img)`; torchvision's `F.normalize` (0.2.x) made
`mean = torch.tensor(mean, dtype=torch.float32)` on the CPU and ran `tensor.sub_(mean[:, None, None])`
on the CUDA image ("expected type torch.cuda.FloatTensor but got torch.FloatTensor"). The answer in
the thread: keep `img` a CPU `torch.FloatTensor(img)` and do `image = transform(img).to(device)`.
Stand-in: torchvision 0.2.x's `Normalize`/`Compose`/`F.normalize` (same code), the tutorial's
Encoder/Attention/DecoderWithAttention at toy size (ResNet-101 as two convolutions), the image as
an already resized array; `caption_image_beam_search` is kept up to the first decode step's scores
(the simulator cannot index fake GPU tensors, which the beam bookkeeping does).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

device = torch.device("cuda:0")   # torch.device("cuda" if torch.cuda.is_available() else "cpu")

# --- stand-in for torchvision 0.2.x transforms ---------------------------------------------
def _is_tensor_image(img):
    return torch.is_tensor(img) and img.ndimension() == 3

def normalize(tensor, mean, std, inplace=False):
    if not _is_tensor_image(tensor):
        raise TypeError("tensor is not a torch image.")
    if not inplace:
        tensor = tensor.clone()
    mean = torch.tensor(mean, dtype=torch.float32)
    std = torch.tensor(std, dtype=torch.float32)
    tensor.sub_(mean[:, None, None]).div_(std[:, None, None])
    return tensor

class Normalize(object):
    def __init__(self, mean, std, inplace=False):
        self.mean, self.std, self.inplace = mean, std, inplace
    def __call__(self, tensor):
        return normalize(tensor, self.mean, self.std, self.inplace)

class Compose(object):
    def __init__(self, transforms):
        self.transforms = transforms
    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

transforms = SimpleNamespace(Normalize=Normalize, Compose=Compose)

# --- the tutorial's models.py, toy size ------------------------------------------------------
class Encoder(nn.Module):
    def __init__(self, encoded_image_size=4):
        super(Encoder, self).__init__()
        self.enc_image_size = encoded_image_size
        self.resnet = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU(),
                                    nn.Conv2d(16, 32, 3, stride=4, padding=1))   # resnet101 children()[:-2]
        self.adaptive_pool = nn.AdaptiveAvgPool2d((encoded_image_size, encoded_image_size))
    def forward(self, images):
        out = self.resnet(images)
        out = self.adaptive_pool(out)
        out = out.permute(0, 2, 3, 1)
        return out

class Attention(nn.Module):
    def __init__(self, encoder_dim, decoder_dim, attention_dim):
        super(Attention, self).__init__()
        self.encoder_att = nn.Linear(encoder_dim, attention_dim)
        self.decoder_att = nn.Linear(decoder_dim, attention_dim)
        self.full_att = nn.Linear(attention_dim, 1)
        self.relu = nn.ReLU()
        self.softmax = nn.Softmax(dim=1)
    def forward(self, encoder_out, decoder_hidden):
        att1 = self.encoder_att(encoder_out)
        att2 = self.decoder_att(decoder_hidden)
        att = self.full_att(self.relu(att1 + att2.unsqueeze(1))).squeeze(2)
        alpha = self.softmax(att)
        attention_weighted_encoding = (encoder_out * alpha.unsqueeze(2)).sum(dim=1)
        return attention_weighted_encoding, alpha

class DecoderWithAttention(nn.Module):
    def __init__(self, attention_dim, embed_dim, decoder_dim, vocab_size, encoder_dim=32, dropout=0.5):
        super(DecoderWithAttention, self).__init__()
        self.encoder_dim = encoder_dim
        self.vocab_size = vocab_size
        self.attention = Attention(encoder_dim, decoder_dim, attention_dim)
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.dropout = nn.Dropout(p=dropout)
        self.decode_step = nn.LSTMCell(embed_dim + encoder_dim, decoder_dim, bias=True)
        self.init_h = nn.Linear(encoder_dim, decoder_dim)
        self.init_c = nn.Linear(encoder_dim, decoder_dim)
        self.f_beta = nn.Linear(decoder_dim, encoder_dim)
        self.sigmoid = nn.Sigmoid()
        self.fc = nn.Linear(decoder_dim, vocab_size)
    def init_hidden_state(self, encoder_out):
        mean_encoder_out = encoder_out.mean(dim=1)
        h = self.init_h(mean_encoder_out)
        c = self.init_c(mean_encoder_out)
        return h, c

def caption_image_beam_search(encoder, decoder, img, word_map, beam_size=3):
    k = beam_size
    vocab_size = len(word_map)

    # Read image and process (imread / imresize / transpose / 255. already done: img is (3, 256, 256))
    img = torch.FloatTensor(img).to(device)
    normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406],
                                     std=[0.229, 0.224, 0.225])
    transform = transforms.Compose([normalize])
    image = transform(img)  # (3, 256, 256)

    # Encode
    image = image.unsqueeze(0)  # (1, 3, 256, 256)
    encoder_out = encoder(image)  # (1, enc_image_size, enc_image_size, encoder_dim)
    encoder_dim = encoder_out.size(3)
    encoder_out = encoder_out.view(1, -1, encoder_dim)
    num_pixels = encoder_out.size(1)
    encoder_out = encoder_out.expand(k, num_pixels, encoder_dim)

    k_prev_words = torch.LongTensor([[word_map['<start>']]] * k).to(device)  # (k, 1)
    top_k_scores = torch.zeros(k, 1).to(device)  # (k, 1)

    h, c = decoder.init_hidden_state(encoder_out)
    embeddings = decoder.embedding(k_prev_words).squeeze(1)
    awe, alpha = decoder.attention(encoder_out, h)
    gate = decoder.sigmoid(decoder.f_beta(h))
    awe = gate * awe
    h, c = decoder.decode_step(torch.cat([embeddings, awe], dim=1), (h, c))
    scores = F.log_softmax(decoder.fc(h), dim=1)
    scores = top_k_scores.expand_as(scores) + scores
    return scores   # (the beam bookkeeping that follows is left out)

word_map = {w: i for i, w in enumerate(['<pad>', '<start>', '<end>', '<unk>', 'a', 'man', 'riding', 'horse'])}
encoder = Encoder().to(device).eval()
decoder = DecoderWithAttention(attention_dim=16, embed_dim=16, decoder_dim=24,
                               vocab_size=len(word_map)).to(device).eval()
img = np.random.rand(3, 256, 256)   # imresize(imread(args.img), (256, 256)).transpose(2, 0, 1) / 255.
'''
CELL = '''
scores = caption_image_beam_search(encoder, decoder, img, word_map, beam_size=5)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["img"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """    img = torch.FloatTensor(img).to(device)
    normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406],
                                     std=[0.229, 0.224, 0.225])
    transform = transforms.Compose([normalize])
    image = transform(img)  # (3, 256, 256)""",
    """    img = torch.FloatTensor(img)
    normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406],
                                     std=[0.229, 0.224, 0.225])
    transform = transforms.Compose([normalize])
    image = transform(img).to(device)  # (3, 256, 256)""",
)
CLEAN = False
