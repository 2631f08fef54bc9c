"""dl-chem-101 SMILES LSTM: a model saved without a GPU is scored on a GPU machine; `RNN.forward` puts its hidden state on the global device.

Source: https://github.com/rociomer/dl-chem-101/issues/10
"Possible mismatch between model device and tensors created when sampling": "When a GPU is
available but a saved model is loaded onto CPU, calling sample (or likelihood) can raise
device-mismatch errors because tensors created in the sampling functions are placed on the global
device (via get_device) while the model parameters live on another device. The fix needs to be in
RNN.forward() — instead of using get_device() to place the initial hidden state, it should infer
the device from the model's own parameters (e.g. next(self.parameters()).device or
input_vector.device)". Stand-in: RNN and SmilesLSTM.likelihood_smiles as in the repo (GRU cell),
a character vocabulary, the model built on the CPU as `torch.load` returns it.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def get_device():
    return "cuda:0"        # smiles_lstm.utils.misc: "cuda" if torch.cuda.is_available() else "cpu"

class Vocabulary:
    def __init__(self, tokens):
        self._tokens = {t: i for i, t in enumerate(tokens)}
    def __len__(self): return len(self._tokens)
    def __getitem__(self, t): return self._tokens[t]
    def encode(self, tokens): return [self._tokens[t] for t in tokens]

class SMILESTokenizer:
    def tokenize(self, smiles): return ["^"] + list(smiles) + ["$"]

class RNN(torch.nn.Module):
    def __init__(self, voc_size, layer_size=512, num_layers=3, cell_type='gru', embedding_layer_size=256,
                 dropout=0., layer_normalization=False):
        super(RNN, self).__init__()
        self._layer_size = layer_size
        self._num_layers = num_layers
        self._cell_type = cell_type.lower()
        self._layer_normalization = layer_normalization
        self._embedding = torch.nn.Embedding(voc_size, embedding_layer_size)
        self._rnn = torch.nn.GRU(embedding_layer_size, self._layer_size, num_layers=self._num_layers,
                                 dropout=dropout, batch_first=True)
        self._linear = torch.nn.Linear(self._layer_size, voc_size)

    def forward(self, input_vector, hidden_state=None):
        batch_size, seq_size = input_vector.size()
        _device = get_device()
        if hidden_state is None:
            size = (self._num_layers, batch_size, self._layer_size)
            hidden_state = torch.zeros(*size, device=_device)
        embedded_data = self._embedding(input_vector)
        output_vector, hidden_state_out = self._rnn(embedded_data, hidden_state)
        output_vector = output_vector.reshape(-1, self._layer_size)
        output_data = self._linear(output_vector).view(batch_size, seq_size, -1)
        return output_data, hidden_state_out

class SmilesLSTM():
    def __init__(self, vocabulary, tokenizer, network_params=None, max_sequence_length=256, device="cpu"):
        self.vocabulary = vocabulary
        self.tokenizer = tokenizer
        self.max_sequence_length = max_sequence_length
        self._device = device                    # get_device() on the machine that trained it
        self.network = RNN(len(self.vocabulary), **(network_params or {}))
        if self._device == "cuda":
            self.network.cuda()
        self._nll_loss = torch.nn.NLLLoss(reduction="none")

    def likelihood_smiles(self, smiles):
        tokens = [self.tokenizer.tokenize(smile) for smile in smiles]
        encoded = [self.vocabulary.encode(token) for token in tokens]
        sequences = [torch.tensor(encode, dtype=torch.long, device=self._device) for encode in encoded]
        max_length = max([seq.size(0) for seq in sequences])
        padded = torch.zeros(len(sequences), max_length, dtype=torch.long, device=self._device)
        for i, seq in enumerate(sequences):
            padded[i, :seq.size(0)] = seq
        return self.likelihood(padded)

    def likelihood(self, sequences):
        if self._device == "cuda":
            sequences = sequences.to("cuda")
        logits, _ = self.network(sequences[:, :-1])
        log_probs = logits.log_softmax(dim=2)
        return self._nll_loss(log_probs.transpose(1, 2), sequences[:, 1:]).sum(dim=1)

vocabulary = Vocabulary(["$", "^", "C", "O", "N", "c", "1", "(", ")", "=", "#"])
# model = SmilesLSTM.load_from_file("output/model.pth", sampling_mode=True): trained and saved on a CPU box
model = SmilesLSTM(vocabulary, SMILESTokenizer(), network_params={"layer_size": 64, "num_layers": 2,
                                                                   "embedding_layer_size": 32})
model.network.eval()
smiles = ["CCO", "c1ccccc1", "CC(=O)N"]
'''
CELL = '''
with torch.no_grad():
    nlls = model.likelihood_smiles(smiles)
'''
EXPECT_ERROR = "Input and hidden tensors are not at the same device"
CULPRITS = ["hidden_state"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        _device = get_device()\n", "        _device = input_vector.device\n")
CLEAN = False
