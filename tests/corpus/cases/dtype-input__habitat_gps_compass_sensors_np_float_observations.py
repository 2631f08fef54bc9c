"""habitat-lab ObjectNav DD-PPO: the GPS and compass sensors return float64 observations into a float32 policy.

Source: https://github.com/facebookresearch/habitat-lab/issues/604
"RuntimeError: expected scalar type Float but found Double for ObjectNav DDPPO training": "ObjectNav
DDPPO training and other tasks that uses GPS and Compass sensors are returning error ... That is
happening because for set of Compass/GPS sensors `np.float` is used instead of `np.float32`."
`batch_obs` turns each sensor's numpy array into a tensor of the same dtype, and the policy's
`compass_embedding`/`gps_embedding` Linear layers are float32. Stand-in: the two episodic sensors
(sharing one array helper; `np.float` is `np.float64`), `batch_obs`, and the goal-embedding part of
PointNavResNetNet with a GRU state encoder and the actor/critic heads.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def _sensor_array(values):
    return np.array(values, dtype=np.float64)            # habitat: dtype=np.float

class EpisodicCompassSensor:
    cls_uuid = "compass"
    def get_observation(self, agent_heading):
        return _sensor_array([agent_heading])

class EpisodicGPSSensor:
    cls_uuid = "gps"
    def get_observation(self, agent_position, origin):
        return _sensor_array([-(agent_position[2] - origin[2]), agent_position[0] - origin[0]])

class ObjectGoalSensor:
    cls_uuid = "objectgoal"
    def get_observation(self, goal_id):
        return np.array([goal_id], dtype=np.int64)

class VectorEnv:
    def __init__(self, num_envs):
        self.num_envs = num_envs
        self.rng = np.random.RandomState(0)
        self.compass, self.gps, self.goal = EpisodicCompassSensor(), EpisodicGPSSensor(), ObjectGoalSensor()

    def reset(self):
        obs = []
        for _ in range(self.num_envs):
            pos = self.rng.randn(3)
            obs.append({"rgb": self.rng.randint(0, 255, (32, 32, 3)).astype(np.uint8),
                        "compass": self.compass.get_observation(self.rng.uniform(-np.pi, np.pi)),
                        "gps": self.gps.get_observation(pos, np.zeros(3)),
                        "objectgoal": self.goal.get_observation(self.rng.randint(21))})
        return obs

def batch_obs(observations, device=None):
    batch = {}
    for sensor in observations[0]:
        batch[sensor] = torch.stack([torch.as_tensor(obs[sensor]) for obs in observations], dim=0).to(device)
    return batch

class PointNavResNetNet(nn.Module):
    def __init__(self, hidden_size=64, num_goals=21):
        super().__init__()
        self.visual_encoder = nn.Sequential(nn.Conv2d(3, 16, 4, stride=4), nn.ReLU(), nn.Flatten(),
                                            nn.Linear(16 * 8 * 8, hidden_size), nn.ReLU())
        self.obj_categories_embedding = nn.Embedding(num_goals, 32)
        self.compass_embedding = nn.Linear(2, 32)
        self.gps_embedding = nn.Linear(2, 32)
        self.state_encoder = nn.GRU(hidden_size + 32 * 3, hidden_size)

    def forward(self, observations, rnn_hidden_states):
        x = [self.visual_encoder(observations["rgb"].permute(0, 3, 1, 2).float() / 255.0)]
        x.append(self.obj_categories_embedding(observations["objectgoal"].long()).squeeze(dim=1))
        compass_observations = torch.stack([torch.cos(observations["compass"]),
                                            torch.sin(observations["compass"])], -1)
        x.append(self.compass_embedding(compass_observations.squeeze(dim=1)))
        x.append(self.gps_embedding(observations["gps"]))
        out = torch.cat(x, dim=1)
        out, rnn_hidden_states = self.state_encoder(out.unsqueeze(0), rnn_hidden_states)
        return out.squeeze(0), rnn_hidden_states

class PointNavResNetPolicy(nn.Module):
    def __init__(self, num_actions=6, hidden_size=64):
        super().__init__()
        self.net = PointNavResNetNet(hidden_size)
        self.action_distribution = nn.Linear(hidden_size, num_actions)
        self.critic = nn.Linear(hidden_size, 1)

    def act(self, observations, rnn_hidden_states, prev_actions, masks, deterministic=False):
        features, rnn_hidden_states = self.net(observations, rnn_hidden_states)
        logits = self.action_distribution(features)
        action = logits.argmax(-1, keepdim=True) if deterministic else torch.distributions.Categorical(logits=logits).sample().unsqueeze(-1)
        return self.critic(features), action, rnn_hidden_states

envs = VectorEnv(num_envs=4)
actor_critic = PointNavResNetPolicy()
recurrent_hidden_states = torch.zeros(1, envs.num_envs, 64)
prev_actions = torch.zeros(envs.num_envs, 1, dtype=torch.long)
not_done_masks = torch.zeros(envs.num_envs, 1, dtype=torch.bool)
'''
CELL = '''
observations = envs.reset()
batch = batch_obs(observations, device=torch.device("cpu"))
with torch.no_grad():
    values, actions, recurrent_hidden_states = actor_critic.act(
        batch, recurrent_hidden_states, prev_actions, not_done_masks, deterministic=False)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type Float but found Double",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["batch['compass']"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return np.array(values, dtype=np.float64)", "return np.array(values, dtype=np.float32)")
CLEAN = False
