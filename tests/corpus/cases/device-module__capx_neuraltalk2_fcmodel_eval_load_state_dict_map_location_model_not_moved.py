"""NeuralTalk2 (ImageCaptioning.pytorch, "Deep Learning with PyTorch" ch. 2) `eval.py`: the FC captioner is loaded with `map_location=cuda` but never moved, while `eval_split` sends the features to the GPU.

Source: https://github.com/deep-learning-with-pytorch/ImageCaptioning.pytorch/pull/3
"added check for GPU into eval.py": running `eval.py` on CUDA 11 / PyTorch 1.9 failed with
"Tensor for 'out' is on CPU, Tensor for argument #1 'self' is on CPU, but expected them to be on GPU
(while checking arguments for addmm)". `eval.py` did `model = models.setup(opt)` and
`model.load_state_dict(torch.load(opt.model, map_location=torch.device(device)))` -- which copies the
checkpoint into the CPU parameters -- while `eval_utils.eval_split` moves `fc_feats`/`att_feats` with
`.to(device=device)`; the merged fix adds `model.to(device=device)` after loading. Stand-in: the
book's `FCModel`/`LSTMCore` at toy size with greedy `sample`, and `eval_split` reduced to its sampling
step on one raw-image batch (`DataLoaderRaw` features as arrays); the checkpoint is a state dict made
in SETUP; the early stop on `unfinished.sum() == 0` is left out (the simulator has no values) and
`state[0][-1]` is written `.select(0, -1)` and `x.new(...).zero_()` `x.new_zeros(...)`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

device = 'cuda:0'   # 'cuda' if torch.cuda.is_available() else 'cpu'

# --- models/FCModel.py --------------------------------------------------------------------------------
class LSTMCore(nn.Module):
    def __init__(self, opt):
        super(LSTMCore, self).__init__()
        self.input_encoding_size = opt.input_encoding_size
        self.rnn_size = opt.rnn_size
        self.drop_prob_lm = opt.drop_prob_lm
        self.i2h = nn.Linear(self.input_encoding_size, 5 * self.rnn_size)
        self.h2h = nn.Linear(self.rnn_size, 5 * self.rnn_size)
        self.dropout = nn.Dropout(self.drop_prob_lm)

    def forward(self, xt, state):
        all_input_sums = self.i2h(xt) + self.h2h(state[0].select(0, -1))
        sigmoid_chunk = all_input_sums.narrow(1, 0, 3 * self.rnn_size)
        sigmoid_chunk = torch.sigmoid(sigmoid_chunk)
        in_gate = sigmoid_chunk.narrow(1, 0, self.rnn_size)
        forget_gate = sigmoid_chunk.narrow(1, self.rnn_size, self.rnn_size)
        out_gate = sigmoid_chunk.narrow(1, self.rnn_size * 2, self.rnn_size)
        in_transform = torch.max(
            all_input_sums.narrow(1, 3 * self.rnn_size, self.rnn_size),
            all_input_sums.narrow(1, 4 * self.rnn_size, self.rnn_size))
        next_c = forget_gate * state[1].select(0, -1) + in_gate * in_transform
        next_h = out_gate * torch.tanh(next_c)
        next_h = self.dropout(next_h)
        output = next_h
        state = (next_h.unsqueeze(0), next_c.unsqueeze(0))
        return output, state

class FCModel(nn.Module):
    def __init__(self, opt):
        super(FCModel, self).__init__()
        self.vocab_size = opt.vocab_size
        self.input_encoding_size = opt.input_encoding_size
        self.rnn_type = opt.rnn_type
        self.rnn_size = opt.rnn_size
        self.num_layers = opt.num_layers
        self.drop_prob_lm = opt.drop_prob_lm
        self.seq_length = opt.seq_length
        self.fc_feat_size = opt.fc_feat_size
        self.ss_prob = 0.0
        self.img_embed = nn.Linear(self.fc_feat_size, self.input_encoding_size)
        self.core = LSTMCore(opt)
        self.embed = nn.Embedding(self.vocab_size + 1, self.input_encoding_size)
        self.logit = nn.Linear(self.rnn_size, self.vocab_size + 1)

    def init_hidden(self, bsz):
        weight = next(self.parameters()).data
        return (weight.new_zeros(self.num_layers, bsz, self.rnn_size),   # weight.new(...).zero_()
                weight.new_zeros(self.num_layers, bsz, self.rnn_size))

    def sample(self, fc_feats, att_feats, opt={}):
        sample_max = opt.get('sample_max', 1)
        batch_size = fc_feats.size(0)
        state = self.init_hidden(batch_size)
        seq = []
        seqLogprobs = []
        for t in range(self.seq_length + 2):
            if t == 0:
                xt = self.img_embed(fc_feats)
            else:
                if t == 1:  # input <bos>
                    it = fc_feats.data.new_zeros(batch_size, dtype=torch.long)
                else:
                    sampleLogprobs, it = torch.max(logprobs.data, 1)
                    it = it.view(-1).long()
                xt = self.embed(it)
            if t >= 2:
                if t == 2:
                    unfinished = it > 0
                else:
                    unfinished = unfinished * (it > 0)
                it = it * unfinished.type_as(it)
                seq.append(it)
                seqLogprobs.append(sampleLogprobs.view(-1))
            output, state = self.core(xt, state)
            logprobs = F.log_softmax(self.logit(output), dim=1)
        return torch.cat([_.unsqueeze(1) for _ in seq], 1), torch.cat([_.unsqueeze(1) for _ in seqLogprobs], 1)

def setup(opt):
    return FCModel(opt)

# --- eval_utils.py (the sampling step of eval_split) ----------------------------------------------------
def eval_split(model, loader, eval_kwargs={}):
    data = loader.get_batch('test')
    tmp = [data['fc_feats'], data['att_feats']]
    with torch.no_grad():
        tmp = [torch.from_numpy(_).to(device=device) for _ in tmp]
        fc_feats, att_feats = tmp
        seq, _ = model.sample(fc_feats, att_feats, eval_kwargs)
    return seq

class DataLoaderRaw:                  # ResNet-101 features of the images in --image_folder
    def __init__(self, opt):
        self.batch_size = opt['batch_size']
    def get_batch(self, split):
        return {'fc_feats': np.random.rand(self.batch_size, 64).astype(np.float32),
                'att_feats': np.random.rand(self.batch_size, 7, 7, 64).astype(np.float32)}

# --- eval.py ---------------------------------------------------------------------------------------------
opt = SimpleNamespace(vocab_size=50, input_encoding_size=32, rnn_type='lstm', rnn_size=32, num_layers=1,
                      drop_prob_lm=0.5, seq_length=6, fc_feat_size=64, batch_size=1, image_folder='./data')
checkpoint = FCModel(opt).state_dict()       # torch.load(opt.model, map_location=torch.device(device))

# Setup the model
model = setup(opt)
model.load_state_dict(checkpoint)
model.eval()

loader = DataLoaderRaw({'folder_path': opt.image_folder, 'batch_size': opt.batch_size})
eval_kwargs = {'sample_max': 1, 'beam_size': 1}
'''
CELL = '''
seq = eval_split(model, loader, eval_kwargs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device=device)
'''
REFERENCE_EDIT = None
CLEAN = False
