"""IBM pytorch-seq2seq on a GPU with torchtext >= 0.3: `Evaluator.evaluate` builds its BucketIterator with `device=None`, so the batches stay on the CPU.

Source: https://github.com/IBM/pytorch-seq2seq/pull/191
"fix bug Expected object of backend CUDA but got backend CPU for argument #3 'index' when running
example.py" (issues #185, #161): the model is moved with `.cuda()`, but `Evaluator.evaluate` (and
`SupervisedTrainer._train_epoches`) pick `device = None if torch.cuda.is_available() else -1` for the
`torchtext.data.BucketIterator`; newer torchtext reads `None` as the CPU, so the encoder's embedding
gets CPU indices. The PR sets `device = torch.device("cuda" if torch.cuda.is_available() else "cpu")`.
Stand-ins: a BucketIterator that puts each batch on `device` (None = CPU), the Evaluator with
`torch.cuda.is_available()` read from a flag (the simulated machine has a GPU, the CPU build has
none; "cuda" written "cuda:0"), accuracy counted without `masked_select` and the lengths passed as a tensor (no `.tolist()` of a simulated tensor), and an encoder-decoder
whose recurrent cells are Linear layers (no GRU kernel on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

_cuda_available = True        # torch.cuda.is_available() on the user's GPU machine

class Batch:
    def __init__(self, src, src_lengths, tgt, device):
        dev = torch.device("cpu") if device in (None, -1) else device
        self.src = (src.to(dev), src_lengths)
        self.tgt = tgt.to(dev)

class BucketIterator:
    """Stand-in for torchtext.data.BucketIterator (0.3.x): batches are created on `device`, None -> CPU."""
    def __init__(self, dataset, batch_size, sort=True, sort_key=None, device=None, train=True, **kw):
        self.dataset, self.batch_size, self.device = dataset, batch_size, device
    def __iter__(self):
        for i in range(0, len(self.dataset["src"]), self.batch_size):
            yield Batch(self.dataset["src"][i:i + self.batch_size], self.dataset["src_len"][i:i + self.batch_size],
                        self.dataset["tgt"][i:i + self.batch_size], self.device)

class NLLLoss:
    def __init__(self, mask=None):
        self.mask = mask
        self.acc_loss = 0
        self.norm_term = 0
    def reset(self):
        self.acc_loss, self.norm_term = 0, 0
    def eval_batch(self, outputs, target):
        self.acc_loss = self.acc_loss + F.nll_loss(outputs, target, ignore_index=self.mask, reduction="sum")
        self.norm_term += target.numel()
    def get_loss(self):
        return self.acc_loss / self.norm_term

class EncoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.Linear(2 * hidden_size, hidden_size)
    def forward(self, input_var, input_lengths=None):
        embedded = self.embedding(input_var)
        h = torch.zeros(input_var.size(0), embedded.size(-1), device=embedded.device)
        outs = []
        for t in range(embedded.size(1)):
            h = torch.tanh(self.rnn(torch.cat([embedded[:, t], h], -1)))
            outs.append(h)
        return torch.stack(outs, 1), h.unsqueeze(0)

class DecoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.Linear(2 * hidden_size, hidden_size)
        self.out = nn.Linear(hidden_size, vocab_size)
    def forward(self, inputs, encoder_hidden, encoder_outputs):
        h = encoder_hidden[0]
        decoder_outputs = []
        for t in range(inputs.size(1) - 1):
            h = torch.tanh(self.rnn(torch.cat([self.embedding(inputs[:, t]), h], -1)))
            decoder_outputs.append(F.log_softmax(self.out(h), dim=-1))
        return decoder_outputs, h, {}

class Seq2seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder, self.decoder = encoder, decoder
    def forward(self, input_variable, input_lengths=None, target_variable=None, teacher_forcing_ratio=0):
        encoder_outputs, encoder_hidden = self.encoder(input_variable, input_lengths)
        return self.decoder(target_variable, encoder_hidden, encoder_outputs)

class Evaluator(object):
    """Stand-in for seq2seq.evaluator.Evaluator (pytorch-seq2seq 0.1.6)."""
    def __init__(self, loss=NLLLoss(), batch_size=64):
        self.loss = loss
        self.batch_size = batch_size

    def evaluate(self, model, data):
        model.eval()
        loss = self.loss
        loss.reset()
        match = 0
        total = 0
        device = None if _cuda_available else -1
        batch_iterator = BucketIterator(
            dataset=data, batch_size=self.batch_size,
            sort=True, sort_key=lambda x: len(x.src),
            device=device, train=False)
        pad = 1
        with torch.no_grad():
            for batch in batch_iterator:
                input_variables, input_lengths = batch.src
                target_variables = batch.tgt
                decoder_outputs, decoder_hidden, other = model(input_variables, input_lengths, target_variables)   # input_lengths.tolist()
                for step, step_output in enumerate(decoder_outputs):
                    target = target_variables[:, step + 1]
                    loss.eval_batch(step_output.view(target_variables.size(0), -1), target)
                    non_padding = target.ne(pad)
                    match = match + (step_output.argmax(-1).eq(target) & non_padding).sum()
                    total += target.numel()
        accuracy = match / total
        return loss.get_loss(), accuracy

# example.py: toy reverse task, model moved to the GPU
hidden_size = 32
encoder = EncoderRNN(20, hidden_size)
decoder = DecoderRNN(20, hidden_size)
seq2seq = Seq2seq(encoder, decoder)
if _cuda_available:
    seq2seq = seq2seq.to("cuda:0")                 # seq2seq.cuda()
dev = {"src": torch.randint(2, 20, (6, 7)), "src_len": torch.full((6,), 7),
       "tgt": torch.randint(2, 20, (6, 8))}
evaluator = Evaluator(loss=NLLLoss(mask=1), batch_size=4)
'''
CELL = '''
dev_loss, accuracy = evaluator.evaluate(seq2seq, dev)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["evaluator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        device = None if _cuda_available else -1\n",
                  "        device = torch.device(\"cuda:0\" if _cuda_available else \"cpu\")\n")
CLEAN = False
