"""OpenNMT-py `onmt_translate` on the GPU: the dynamic iterator yields CPU batches, and `IterOnDevice` moves each one before `_translate`.

Source: https://github.com/OpenNMT/OpenNMT-py/blob/v3.0.4/onmt/bin/translate.py
(with `IterOnDevice` from onmt/inputters/inputter.py of the same tag)
Look-alike: `infer_iter` holds CPU `LongTensor` batches made by `tensorify` while the model sits on
the GPU, which is exactly the server bug of issue #2325; the command-line path wraps it as
`infer_iter = IterOnDevice(infer_iter, opt.gpu)`, whose `__iter__` moves every batch to the GPU as it
is consumed, so nothing stray reaches the model. Stand-ins as in the server case (`torch.device(
device_id)` written `torch.device("cuda", device_id)`; the CPU simulator cannot resolve a bare index).
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        device = torch.device("cuda", device_id) if device_id >= 0 else torch.device('cpu')
        for key in tensor_batch.keys():
            if key != 'src_ex_vocab':
                tensor_batch[key] = tensor_batch[key].to(device)

    def __iter__(self):
        for tensor_batch in self.iterable:
            self.batch_to_device(tensor_batch, self.device_id)
            yield tensor_batch

def tensorify(vocab, minibatch):
    tbatchsrc = pad_sequence([torch.LongTensor(ex) for ex in minibatch], batch_first=True, padding_value=1)
    return {'src': tbatchsrc[:, :, None], 'srclen': torch.LongTensor([len(ex) for ex in minibatch]),
            'indices': torch.arange(len(minibatch))}

class NMTModel(nn.Module):
    def __init__(self, vocab=60, d=16):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, d, padding_idx=1)
        self.tgt_emb = nn.Embedding(vocab, d, padding_idx=1)
        self.generator = nn.Linear(d, vocab)

    def encoder(self, src, src_len):
        return torch.tanh(self.src_emb(src.squeeze(-1))), None, src_len

class Translator(object):
    def __init__(self, model, gpu=-1, max_length=4):
        self.model = model
        self._gpu = gpu
        self._use_cuda = gpu > -1
        self._dev = torch.device("cuda", self._gpu) if self._use_cuda else torch.device("cpu")
        self.max_length = max_length

    @torch.no_grad()
    def _translate(self, infer_iter):
        all_predictions = []
        for batch in infer_iter:
            enc_out, _, src_len = self.model.encoder(batch['src'], batch['srclen'])
            tgt = torch.full((enc_out.size(0), 1), 2, dtype=torch.long, device=enc_out.device)
            for _ in range(self.max_length):
                h = self.model.tgt_emb(tgt[:, -1:]) + enc_out.mean(1, keepdim=True)
                tgt = torch.cat([tgt, self.model.generator(h[:, -1]).argmax(-1, keepdim=True)], 1)
            all_predictions.append(tgt[:, 1:])
        return None, all_predictions

class opt:               # parsed onmt_translate options: -gpu 0
    gpu = 0

model = NMTModel().to("cuda:0")
translator = Translator(model, gpu=opt.gpu)
infer_iter = [tensorify(None, [[5, 7, 9], [11, 4]]), tensorify(None, [[8, 6, 5, 3]])]
if infer_iter is not None:
    infer_iter = IterOnDevice(infer_iter, opt.gpu)
'''
CELL = '''
_, predictions = translator._translate(infer_iter)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
