"""RelationalGraphLearning model-predictive policy on GPU: `JointState.to_tensor` calls `.to(device)` without keeping the result.

Source: https://github.com/ChanganVR/RelationalGraphLearning/issues/2
Running crowd_nav/train.py with `--gpu` failed inside `policy.predict(state)` -> `self.state_predictor(
state_tensor, action)` -> the RGL graph model (the human motion predictor's encoder) with a CPU/GPU
tensor mismatch. `JointState.to_tensor(add_batch_size=True, device=self.device)` builds the robot and
human state tensors on the CPU and then calls `robot_state_tensor.to(device)` /
`human_states_tensor.to(device)` without assigning the result, so the tensors stay on the CPU while the
model is on the GPU. The merged fix (PR #4, "Enabled proper gpu support") reassigns the moved tensors.
Stand-ins: crowd_sim's FullState/ObservableState/JointState, the RGL graph model (embedded-gaussian
similarity, no visualisation copy), StatePredictor with its human_motion_predictor, and a one-step
ModelPredictiveRL.predict whose V_planning is one value-network call (holonomic next-state written
without element assignment, `[:, 1:, :]` written as `narrow`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn import Parameter
from torch.nn.functional import softmax, relu
from collections import namedtuple

ActionXY = namedtuple("ActionXY", ["vx", "vy"])

def mlp(input_dim, mlp_dims, last_relu=False):
    layers = []
    mlp_dims = [input_dim] + mlp_dims
    for i in range(len(mlp_dims) - 1):
        layers.append(nn.Linear(mlp_dims[i], mlp_dims[i + 1]))
        if i != len(mlp_dims) - 2 or last_relu:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)

class FullState(object):
    def __init__(self, px, py, vx, vy, radius, gx, gy, v_pref, theta):
        self.px, self.py, self.vx, self.vy, self.radius = px, py, vx, vy, radius
        self.gx, self.gy, self.v_pref, self.theta = gx, gy, v_pref, theta

    def to_tuple(self):
        return self.px, self.py, self.vx, self.vy, self.radius, self.gx, self.gy, self.v_pref, self.theta

class ObservableState(object):
    def __init__(self, px, py, vx, vy, radius):
        self.px, self.py, self.vx, self.vy, self.radius = px, py, vx, vy, radius

    def to_tuple(self):
        return self.px, self.py, self.vx, self.vy, self.radius

class JointState(object):
    def __init__(self, robot_state, human_states):
        self.robot_state = robot_state
        self.human_states = human_states

    def to_tensor(self, add_batch_size=False, device=None):
        robot_state_tensor = torch.Tensor([self.robot_state.to_tuple()])
        human_states_tensor = torch.Tensor([human_state.to_tuple() for human_state in self.human_states])

        if add_batch_size:
            robot_state_tensor = robot_state_tensor.unsqueeze(0)
            human_states_tensor = human_states_tensor.unsqueeze(0)

        if device is not None:
            robot_state_tensor.to(device)
            human_states_tensor.to(device)

        return robot_state_tensor, human_states_tensor

class RGL(nn.Module):
    def __init__(self, robot_state_dim=9, human_state_dim=5, X_dim=32, num_layer=2, final_state_dim=32):
        super().__init__()
        self.X_dim, self.num_layer = X_dim, num_layer
        self.w_r = mlp(robot_state_dim, [64, X_dim], last_relu=True)
        self.w_h = mlp(human_state_dim, [64, X_dim], last_relu=True)
        self.w_a = Parameter(torch.randn(X_dim, X_dim))
        self.Ws = nn.ParameterList([Parameter(torch.randn(X_dim, X_dim)),
                                    Parameter(torch.randn(X_dim, final_state_dim))])

    def compute_similarity_matrix(self, X):
        A = torch.matmul(torch.matmul(X, self.w_a), X.permute(0, 2, 1))
        return softmax(A, dim=2)

    def forward(self, state):
        robot_state, human_states = state
        robot_state_embedings = self.w_r(robot_state)
        human_state_embedings = self.w_h(human_states)
        X = torch.cat([robot_state_embedings, human_state_embedings], dim=1)
        normalized_A = self.compute_similarity_matrix(X)
        next_H = H = X
        for i in range(self.num_layer):
            next_H = relu(torch.matmul(torch.matmul(normalized_A, H), self.Ws[i]))
            next_H += H
            H = next_H
        return next_H

class StatePredictor(nn.Module):
    def __init__(self, graph_model, time_step, X_dim=32):
        super().__init__()
        self.kinematics = "holonomic"
        self.graph_model = graph_model
        self.human_motion_predictor = mlp(X_dim, [64, 5])
        self.time_step = time_step

    def forward(self, state, action, detach=False):
        state_embedding = self.graph_model(state)
        if detach:
            state_embedding = state_embedding.detach()
        if action is None:
            next_robot_state = None
        else:
            next_robot_state = self.compute_next_state(state[0], action)
        next_human_states = self.human_motion_predictor(state_embedding)
        next_human_states = next_human_states.narrow(1, 1, next_human_states.size(1) - 1)   # [:, 1:, :]
        return [next_robot_state, next_human_states]

    def compute_next_state(self, robot_state, action):
        # px, py, vx, vy, radius, gx, gy, v_pref, theta (holonomic: move, then set velocity)
        keep = torch.tensor([1., 1., 0., 0., 1., 1., 1., 1., 1.], device=robot_state.device)
        step = torch.tensor([action.vx * self.time_step, action.vy * self.time_step, action.vx, action.vy,
                             0., 0., 0., 0., 0.], device=robot_state.device)
        return robot_state * keep + step

class ModelPredictiveRL(object):
    def __init__(self, state_predictor, value_estimator, device):
        self.state_predictor = state_predictor
        self.value_estimator = value_estimator
        self.device = device
        self.phase = "val"
        self.action_space = [ActionXY(0.0, 0.0), ActionXY(0.5, 0.0), ActionXY(0.0, 0.5)]

    def predict(self, state):
        values = []
        for action in self.action_space:
            state_tensor = state.to_tensor(add_batch_size=True, device=self.device)
            next_state = self.state_predictor(state_tensor, action)
            values.append(self.value_estimator(self.state_predictor.graph_model(next_state).select(1, 0)))
        return torch.cat(values)

device = torch.device("cuda:0")          # train.py --gpu
graph_model = RGL()
state_predictor = StatePredictor(graph_model, time_step=0.25).to(device)
value_estimator = mlp(32, [32, 1]).to(device)
policy = ModelPredictiveRL(state_predictor, value_estimator, device)

robot = FullState(0.0, -4.0, 0.0, 0.0, 0.3, 0.0, 4.0, 1.0, 1.57)
humans = [ObservableState(1.0, 0.5, -0.2, 0.1, 0.3), ObservableState(-1.5, 1.0, 0.3, 0.0, 0.3),
          ObservableState(0.5, 2.0, 0.0, -0.4, 0.3)]
state = JointState(robot, humans)
'''
CELL = '''
with torch.no_grad():
    values = policy.predict(state)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["state"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """            robot_state_tensor.to(device)
            human_states_tensor.to(device)""",
    """            robot_state_tensor = robot_state_tensor.to(device)
            human_states_tensor = human_states_tensor.to(device)""",
)
CLEAN = False
