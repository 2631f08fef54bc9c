"""DQN learn step indexes Q-values with actions sampled from a float replay memory.

Source: https://github.com/philtabor/Deep-Q-Learning-Paper-To-Code/issues/2
`q_pred = self.q_eval.forward(states)[indices, actions]` raised "IndexError: tensors used as
indices must be long, byte or bool tensors": the maintainer traced it to the dtype of the action
memory / indices, which must be int64. Stand-in: a Q-network and a replay memory whose action
buffer was allocated with numpy's default float dtype.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

q_eval = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 6))
mem_size, batch_size = 100, 16
state_memory = np.random.rand(mem_size, 8).astype(np.float32)
action_memory = np.zeros(mem_size)
action_memory[:] = np.random.randint(0, 6, mem_size)
batch = np.random.choice(mem_size, batch_size, replace=False)
states = torch.tensor(state_memory[batch])
actions = torch.tensor(action_memory[batch])
indices = np.arange(batch_size)
'''
CELL = '''
q_pred = q_eval(states)[indices, actions]
'''
EXPECT_ERROR = "tensors used as indices must be long"
CULPRITS = ["actions"]
FIX = "namespace"
REFERENCE_FIX = '''
actions = actions.long()
'''
REFERENCE_EDIT = None
CLEAN = False
