"""RoboVerse keyboard teleop with `--sim=mujoco`: the MuJoCo handler's robot states are CPU tensors, the keyboard deltas are on cuda:0.

Source: https://github.com/RoboVerseOrg/RoboVerse/issues/284
`python metasim/scripts/teleop_keyboard.py --sim=mujoco --task=PickCube` failed at
`ee_pos_target = curr_ee_pos + d_pos_tensor` with "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!". The script hard-codes `device = "cuda:0"` (cuRobo
IK runs on the GPU) and builds `d_pos_tensor` there, but the MuJoCo backend returns
`states.robots[...]` tensors on the CPU; switching `device` to cpu broke cuRobo instead. Stand-ins:
the states container (robots dict of joint_pos / body_state / root_state) and the quaternion helpers.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from dataclasses import dataclass, field

def quat_invert(q):
    return torch.cat([q[..., :1], -q[..., 1:]], dim=-1)

def quat_mul(a, b):
    w1, x1, y1, z1 = a.unbind(-1)
    w2, x2, y2, z2 = b.unbind(-1)
    return torch.stack([w1*w2 - x1*x2 - y1*y2 - z1*z2, w1*x2 + x1*w2 + y1*z2 - z1*y2,
                        w1*y2 - x1*z2 + y1*w2 + z1*x2, w1*z2 + x1*y2 - y1*x2 + z1*w2], dim=-1)

def quat_apply(q, v):
    xyz = q[..., 1:]
    t = 2 * torch.cross(xyz, v, dim=-1)
    return v + q[..., :1] * t + torch.cross(xyz, t, dim=-1)

@dataclass
class RobotState:
    joint_pos: torch.Tensor
    body_state: torch.Tensor
    root_state: torch.Tensor
    body_names: list

@dataclass
class EnvState:
    robots: dict = field(default_factory=dict)

def mujoco_handler_get_states(num_envs=1):
    """MujocoHandler.get_states(): tensors built from mjData on the CPU."""
    return EnvState(robots={"franka": RobotState(
        joint_pos=torch.zeros(num_envs, 9),
        body_state=torch.zeros(num_envs, 11, 13),
        root_state=torch.cat([torch.zeros(num_envs, 3), torch.tensor([[1.0, 0, 0, 0]]).repeat(num_envs, 1), torch.zeros(num_envs, 6)], dim=-1),
        body_names=[f"panda_link{i}" for i in range(8)] + ["panda_hand", "panda_leftfinger", "panda_rightfinger"],
    )})

device = "cuda:0"
robot_name, ee_body_name = "franka", "panda_hand"
states = mujoco_handler_get_states()
d_pos, d_rot_local = [0.01, 0.0, 0.0], [0.0, 0.0, 0.05]
'''
CELL = '''
ee_idx = states.robots[robot_name].body_names.index(ee_body_name)
robot_pos, robot_quat = states.robots[robot_name].root_state[0, :7].split([3, 4])
curr_ee_pos, curr_ee_quat = states.robots[robot_name].body_state[0, ee_idx, :7].split([3, 4])
curr_ee_pos = quat_apply(quat_invert(robot_quat), curr_ee_pos - robot_pos)
d_pos_tensor = torch.tensor(d_pos, dtype=torch.float32, device=device)
ee_pos_target = curr_ee_pos + d_pos_tensor
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["states"]
FIX = "namespace"
REFERENCE_FIX = '''
for rs in states.robots.values():
    rs.joint_pos, rs.body_state, rs.root_state = rs.joint_pos.to(device), rs.body_state.to(device), rs.root_state.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
