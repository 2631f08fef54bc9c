"""unitree_sim_isaaclab G1 body-joint observation: the cached gather buffers follow `joint_pos` (still on the CPU) while `applied_torque` is on cuda:0.

Source: https://github.com/unitreerobotics/unitree_sim_isaaclab/pull/123
On Isaac Sim 6.0, building `Isaac-Move-Cylinder-G129-Dex3-Wholebody` with device cuda:0 failed in
`get_robot_boy_joint_states` at `torch.gather(joint_torque, 1, idx_batch, out=torque_buf)`:
"Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0".
During `ObservationManager._prepare_terms` (before any sim step) `data.joint_pos` still lives on the
CPU while `applied_torque` is already on cuda:0; the index tensor and the reusable output buffers
were created on `joint_pos.device`. The PR forces everything onto `env.device`. Stand-ins: the
env/scene/articulation-data objects and the module-level `_obs_cache`; the "GPU" is the meta device.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from types import SimpleNamespace

_obs_cache = {"device": None, "batch": None, "boy_idx_t": None, "boy_idx_batch": None,
              "pos_buf": None, "vel_buf": None, "torque_buf": None, "combined_buf": None}

def get_robot_boy_joint_states(env, enable_dds=False):
    joint_pos = env.scene["robot"].data.joint_pos
    joint_vel = env.scene["robot"].data.joint_vel
    joint_torque = env.scene["robot"].data.applied_torque
    device = joint_pos.device
    batch = joint_pos.shape[0]
    if _obs_cache["device"] != device or _obs_cache["boy_idx_t"] is None:
        boy_joint_indices = [0, 3, 6, 9, 13, 17, 1, 4, 7, 10, 14, 18, 2, 5, 8, 11, 15, 19, 21, 23, 25, 27, 12, 16, 20, 22, 24, 26, 28]
        _obs_cache["boy_idx_t"] = torch.tensor(boy_joint_indices, dtype=torch.long, device=device)
        _obs_cache["device"] = device
        _obs_cache["batch"] = None
    idx_t = _obs_cache["boy_idx_t"]
    n = idx_t.numel()
    if _obs_cache["batch"] != batch or _obs_cache["boy_idx_batch"] is None:
        _obs_cache["boy_idx_batch"] = idx_t.unsqueeze(0).expand(batch, n)
        _obs_cache["pos_buf"] = torch.empty(batch, n, device=device, dtype=joint_pos.dtype)
        _obs_cache["vel_buf"] = torch.empty(batch, n, device=device, dtype=joint_pos.dtype)
        _obs_cache["torque_buf"] = torch.empty(batch, n, device=device, dtype=joint_pos.dtype)
        _obs_cache["combined_buf"] = torch.empty(batch, n * 3, device=device, dtype=joint_pos.dtype)
        _obs_cache["batch"] = batch
    idx_batch = _obs_cache["boy_idx_batch"]
    pos_buf, vel_buf, torque_buf = _obs_cache["pos_buf"], _obs_cache["vel_buf"], _obs_cache["torque_buf"]
    combined_buf = _obs_cache["combined_buf"]
    torch.gather(joint_pos, 1, idx_batch, out=pos_buf)
    torch.gather(joint_vel, 1, idx_batch, out=vel_buf)
    torch.gather(joint_torque, 1, idx_batch, out=torque_buf)
    combined_buf[:, 0:n].copy_(pos_buf)
    combined_buf[:, n:2*n].copy_(vel_buf)
    combined_buf[:, 2*n:3*n].copy_(torque_buf)
    return combined_buf

# ArticulationData right after env construction on Isaac Sim 6.0, before the first sim step
robot_data = SimpleNamespace(
    joint_pos=torch.zeros(1, 43),                        # not yet moved to the sim device
    joint_vel=torch.zeros(1, 43),
    applied_torque=torch.zeros(1, 43, device="meta"),
)
env = SimpleNamespace(device="meta", num_envs=1, scene={"robot": SimpleNamespace(data=robot_data)})
'''
CELL = '''
obs = get_robot_boy_joint_states(env)     # ObservationManager._prepare_terms
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Expected out tensor to have device")   # meta: gather(out=) words it so
CULPRITS = ["env.scene['robot'].data.joint_pos"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    device = joint_pos.device\n",
                  "    device = env.device\n    joint_pos, joint_vel, joint_torque = joint_pos.to(device), joint_vel.to(device), joint_torque.to(device)\n")
CLEAN = False
