"""Look-alike: PyTorch-NEAT fills float64 weight matrices with an advanced-index put whose values are built with the matrix's own dtype, and casts every input to that dtype.

Source: https://github.com/uber-research/PyTorch-NEAT/blob/dee5f0adb22faf7d563c75ce28a8e3d6923d1b22/pytorch_neat/recurrent_net.py
`dense_from_coo` does `mat[torch.tensor(rows), torch.tensor(cols)] = torch.tensor(weights,
dtype=dtype)` into `torch.zeros(shape, dtype=dtype)` (float64 by default): an index put, which
requires the source dtype to match, is given a source made with the same `dtype`, and the
indices are int64 from NumPy. `RecurrentNet.activate` converts the observations (a float32 NumPy
batch here) with `torch.tensor(inputs, dtype=self.dtype)` before the float64 `mm`s. float64
weights, float32 observations and tensor indices, all consistent by construction.
Stand-in: `dense_from_coo`, `sigmoid_activation` and `RecurrentNet` (constructor arguments
given directly instead of `RecurrentNet.create(genome, config)`).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch


def sigmoid_activation(x):
    return torch.sigmoid(5 * x)


def dense_from_coo(shape, conns, dtype=torch.float64):
    mat = torch.zeros(shape, dtype=dtype)
    idxs, weights = conns
    if len(idxs) == 0:
        return mat
    rows, cols = np.array(idxs).transpose()
    mat[torch.tensor(rows), torch.tensor(cols)] = torch.tensor(
        weights, dtype=dtype)
    return mat


class RecurrentNet():
    def __init__(self, n_inputs, n_hidden, n_outputs,
                 input_to_hidden, hidden_to_hidden, output_to_hidden,
                 input_to_output, hidden_to_output, output_to_output,
                 hidden_responses, output_responses,
                 hidden_biases, output_biases,
                 batch_size=1,
                 use_current_activs=False,
                 activation=sigmoid_activation,
                 n_internal_steps=1,
                 dtype=torch.float64):

        self.use_current_activs = use_current_activs
        self.activation = activation
        self.n_internal_steps = n_internal_steps
        self.dtype = dtype

        self.n_inputs = n_inputs
        self.n_hidden = n_hidden
        self.n_outputs = n_outputs

        if n_hidden > 0:
            self.input_to_hidden = dense_from_coo(
                (n_hidden, n_inputs), input_to_hidden, dtype=dtype)
            self.hidden_to_hidden = dense_from_coo(
                (n_hidden, n_hidden), hidden_to_hidden, dtype=dtype)
            self.output_to_hidden = dense_from_coo(
                (n_hidden, n_outputs), output_to_hidden, dtype=dtype)
            self.hidden_to_output = dense_from_coo(
                (n_outputs, n_hidden), hidden_to_output, dtype=dtype)
        self.input_to_output = dense_from_coo(
            (n_outputs, n_inputs), input_to_output, dtype=dtype)
        self.output_to_output = dense_from_coo(
            (n_outputs, n_outputs), output_to_output, dtype=dtype)

        if n_hidden > 0:
            self.hidden_responses = torch.tensor(hidden_responses, dtype=dtype)
            self.hidden_biases = torch.tensor(hidden_biases, dtype=dtype)

        self.output_responses = torch.tensor(
            output_responses, dtype=dtype)
        self.output_biases = torch.tensor(output_biases, dtype=dtype)

        self.reset(batch_size)

    def reset(self, batch_size=1):
        if self.n_hidden > 0:
            self.activs = torch.zeros(
                batch_size, self.n_hidden, dtype=self.dtype)
        else:
            self.activs = None
        self.outputs = torch.zeros(
            batch_size, self.n_outputs, dtype=self.dtype)

    def activate(self, inputs):
        with torch.no_grad():
            inputs = torch.tensor(inputs, dtype=self.dtype)
            activs_for_output = self.activs
            if self.n_hidden > 0:
                for _ in range(self.n_internal_steps):
                    self.activs = self.activation(self.hidden_responses * (
                        self.input_to_hidden.mm(inputs.t()).t() +
                        self.hidden_to_hidden.mm(self.activs.t()).t() +
                        self.output_to_hidden.mm(self.outputs.t()).t()) +
                        self.hidden_biases)
                if self.use_current_activs:
                    activs_for_output = self.activs
            output_inputs = (self.input_to_output.mm(inputs.t()).t() +
                             self.output_to_output.mm(self.outputs.t()).t())
            if self.n_hidden > 0:
                output_inputs += self.hidden_to_output.mm(
                    activs_for_output.t()).t()
            self.outputs = self.activation(
                self.output_responses * output_inputs + self.output_biases)
        return self.outputs


net = RecurrentNet(
    n_inputs=3, n_hidden=2, n_outputs=1,
    input_to_hidden=([(0, 0), (1, 2)], [0.5, -1.2]),
    hidden_to_hidden=([(1, 0)], [0.3]),
    output_to_hidden=([], []),
    input_to_output=([(0, 1)], [0.8]),
    hidden_to_output=([(0, 0), (0, 1)], [1.0, -0.7]),
    output_to_output=([], []),
    hidden_responses=[1.0, 1.0], output_responses=[1.0],
    hidden_biases=[0.0, 0.1], output_biases=[-0.2],
    batch_size=4,
)
obs = np.random.RandomState(0).rand(4, 3).astype(np.float32)   # a gym-style float32 batch
'''
CELL = '''
outputs = net.activate(obs)
action = outputs[:, 0] > 0.5
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
