"""OpenNMT-py 3.0.4 translation server on a GPU: the tensored text batch from `textbatch_to_tensor` is passed to `_translate` on the CPU.

Source: https://github.com/OpenNMT/OpenNMT-py/issues/2325
"Server doesn't work on GPU v3.0.4": `ServerModel.run` builds `infer_iter = textbatch_to_tensor(
self.translator.vocabs, texts_to_translate)` (a list of dict batches made with `torch.LongTensor`)
and calls `self.translator._translate(infer_iter)`; with the model on the GPU the encoder fails on
the CPU `src`. The reporter's fix wraps the batches as the command-line path does:
`IterOnDevice(infer_iter, self.translator._dev.index if self.translator._use_cuda else -1)`.
Stand-ins: `IterOnDevice` and `textbatch_to_tensor` as in v3.0.4 (vocab lookup by a dict), a
Translator with `_dev`/`_use_cuda` and a greedy `_translate`, a tiny transformer-like NMT model;
`torch.device(device_id)` is written `torch.device("cuda", device_id)` (the same device on a CUDA
machine; the CPU simulator cannot resolve a bare index).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

class IterOnDevice(torch.utils.data.IterableDataset):
    """Sent items from `iterable` on `device_id` and yield."""
    def __init__(self, iterable, device_id):
        super(IterOnDevice).__init__()
        self.iterable = iterable
        self.device_id = device_id

    @staticmethod
    def batch_to_device(tensor_batch, device_id):
        """Move `batch` to `device_id`, cpu if `device_id` < 0."""
        device = torch.device("cuda", device_id) if device_id >= 0 else torch.device('cpu')   # torch.device(device_id)
        for key in tensor_batch.keys():
            if key != 'src_ex_vocab':
                tensor_batch[key] = tensor_batch[key].to(device)

    def __iter__(self):
        for tensor_batch in self.iterable:
            self.batch_to_device(tensor_batch, self.device_id)
            yield tensor_batch

def textbatch_to_tensor(vocabs, batch, is_train=False):
    """transform a simple batch of texts into a tensored batch to pass through _translate()"""
    numeric = []
    for i, ex in enumerate(batch):
        toks = ex.strip("\\n").split()
        numeric.append({'src_ids': [vocabs['src'].get(t, 0) for t in toks], 'indices': i})
    numeric.sort(key=lambda ex: len(ex['src_ids']), reverse=True)
    tensor_batch = {}
    tbatchsrc = pad_sequence([torch.LongTensor(ex['src_ids']) for ex in numeric], batch_first=True,
                             padding_value=vocabs['src']['<blank>'])
    tensor_batch['src'] = tbatchsrc[:, :, None]
    tensor_batch['indices'] = torch.LongTensor([ex['indices'] for ex in numeric])
    tensor_batch['srclen'] = torch.LongTensor([len(ex['src_ids']) for ex in numeric])
    return [tensor_batch]

def sequence_mask(lengths, max_len=None):
    batch_size = lengths.numel()
    max_len = max_len or lengths.max()
    return (torch.arange(0, max_len, device=lengths.device).type_as(lengths)
            .repeat(batch_size, 1).lt(lengths.unsqueeze(1)))

class TransformerEncoder(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, d, padding_idx=1)
        self.layer = nn.Linear(d, d)
        self.layer_norm = nn.LayerNorm(d)

    def forward(self, src, src_len=None):
        enc_out = self.embeddings(src.squeeze(-1))
        mask = sequence_mask(src_len, max_len=src.size(1)).unsqueeze(-1)
        enc_out = torch.relu(self.layer(enc_out)) * mask
        return self.layer_norm(enc_out), None, src_len

class TransformerDecoder(nn.Module):
    def __init__(self, vocab=60, d=16):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, d, padding_idx=1)
        self.out = nn.Linear(d, d)

    def forward(self, tgt, enc_out):
        h = self.embeddings(tgt.squeeze(-1)) + enc_out.mean(1, keepdim=True)
        return torch.tanh(self.out(h))

class NMTModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = TransformerEncoder()
        self.decoder = TransformerDecoder()
        self.generator = nn.Linear(16, 60)

class Translator(object):
    """Stand-in for onmt.translate.Translator (v3.0.4), greedy decoding."""
    def __init__(self, model, vocabs, gpu=-1, max_length=4):
        self.model = model
        self.vocabs = vocabs
        self._gpu = gpu
        self._use_cuda = gpu > -1
        self._dev = torch.device("cuda", self._gpu) if self._use_cuda else torch.device("cpu")
        self.max_length = max_length

    def _run_encoder(self, batch):
        src = batch['src']
        src_len = batch['srclen']
        enc_out, enc_final_hs, src_len = self.model.encoder(src, src_len)
        return src, enc_final_hs, enc_out, src_len

    @torch.no_grad()
    def _translate(self, infer_iter):
        all_scores, all_predictions = [], []
        for batch in infer_iter:
            src, enc_final_hs, enc_out, src_len = self._run_encoder(batch)
            tgt = torch.full((src.size(0), 1, 1), 2, dtype=torch.long, device=enc_out.device)
            scores = torch.zeros(src.size(0), device=enc_out.device)
            for _ in range(self.max_length):
                dec_out = self.model.decoder(tgt[:, -1:], enc_out)
                log_probs = torch.log_softmax(self.model.generator(dec_out[:, -1]), -1)
                best, ids = log_probs.max(-1)
                scores = scores + best
                tgt = torch.cat([tgt, ids.view(-1, 1, 1)], 1)
            all_scores.append(scores)
            all_predictions.append(tgt[:, 1:, 0])
        return all_scores, all_predictions

# the server's model #100 loaded with "gpu": 0 in conf.json
model = NMTModel().to("cuda:0")
vocabs = {'src': {'<unk>': 0, '<blank>': 1, '▁Hello': 5, '▁world': 7, '▁how': 9, '▁are': 11, '▁you': 13}}
translator = Translator(model, vocabs, gpu=0)
texts_to_translate = ["▁Hello ▁world", "▁how ▁are ▁you"]
infer_iter = textbatch_to_tensor(translator.vocabs, texts_to_translate)
'''
CELL = '''
scores, predictions = translator._translate(infer_iter)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["infer_iter"]
FIX = "namespace"
REFERENCE_FIX = '''
infer_iter = IterOnDevice(infer_iter, translator._dev.index if translator._use_cuda else -1)
'''
REFERENCE_EDIT = None
CLEAN = False
