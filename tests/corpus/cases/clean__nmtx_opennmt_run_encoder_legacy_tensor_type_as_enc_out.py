"""OpenNMT-py translator on the GPU: when the encoder returns no lengths, `_run_encoder` builds them with the legacy `torch.Tensor(batch_size)` and `.type_as(enc_out)`.

Source: https://github.com/OpenNMT/OpenNMT-py/blob/v3.0.4/onmt/translate/translator.py
Look-alike: `torch.Tensor(batch_size)` is a CPU tensor (the legacy constructor that broke joeynmt's
beam search on CUDA), but `_run_encoder` chains `.type_as(enc_out).long().fill_(enc_out.size(1))`, and
`type_as` a cuda tensor lands on the encoder output's GPU, so `src_len` matches the model. Stand-in:
`Translator._run_encoder` as in v3.0.4 and an encoder that, like OpenNMT's ensemble/image paths,
returns `src_len=None`; a short greedy decode that masks with `src_len`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def sequence_mask(lengths, max_len=None):
    batch_size = lengths.numel()
    max_len = max_len or lengths.max()
    return (torch.arange(0, max_len, device=lengths.device).type_as(lengths)
            .repeat(batch_size, 1).lt(lengths.unsqueeze(1)))

class CNNEncoder(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, d, padding_idx=1)
        self.cnn = nn.Linear(d, d)

    def forward(self, src, src_len=None):
        enc_out = torch.relu(self.cnn(self.embeddings(src.squeeze(-1))))
        return enc_out, enc_out.mean(1), None

class NMTModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = CNNEncoder()
        self.tgt_embeddings = nn.Embedding(50, 16, padding_idx=1)
        self.generator = nn.Linear(16, 50)

class Translator(object):
    def __init__(self, model, max_length=3):
        self.model = model
        self.max_length = max_length

    def _run_encoder(self, batch):
        src = batch['src']
        src_len = batch['srclen']
        batch_size = len(batch['srclen'])
        enc_out, enc_final_hs, src_len = self.model.encoder(src, src_len)
        if src_len is None:
            assert not isinstance(enc_out, tuple), "Ensemble decoding only supported for text data"
            src_len = (
                torch.Tensor(batch_size)
                .type_as(enc_out)
                .long()
                .fill_(enc_out.size(1))
            )
        return src, enc_final_hs, enc_out, src_len

    @torch.no_grad()
    def translate_batch(self, batch):
        src, enc_final_hs, enc_out, src_len = self._run_encoder(batch)
        mask = sequence_mask(src_len, max_len=enc_out.size(1)).unsqueeze(-1)
        memory = (enc_out * mask).sum(1, keepdim=True) / src_len.view(-1, 1, 1)
        tgt = torch.full((enc_out.size(0), 1), 2, dtype=torch.long, device=enc_out.device)
        for _ in range(self.max_length):
            h = self.model.tgt_embeddings(tgt[:, -1:]) + memory
            tgt = torch.cat([tgt, self.model.generator(h[:, -1]).argmax(-1, keepdim=True)], 1)
        return tgt[:, 1:]

model = NMTModel().to("cuda:0")
translator = Translator(model)
batch = {'src': torch.tensor([[[5], [7], [9]], [[11], [4], [1]]]).to("cuda:0"),
         'srclen': torch.tensor([3, 2]).to("cuda:0")}
'''
CELL = '''
predictions = translator.translate_batch(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
