"""AgentFormer DLow: the frozen pretrained AgentFormer is kept in a plain list, and `set_device` moves it explicitly; per-agent CPU tensors are stacked and moved in `set_data`.

Source: https://github.com/Khrylx/AgentFormer/blob/main/model/dlow.py
DLow loads the pretrained trajectory model from a checkpoint (`map_location='cpu'`), puts it in eval
mode and stores it as `self.pred_model = [pred_model]`, a list, so it is not a registered submodule
(not trained, not saved with DLow). `DLow.set_device(device)` does `self.to(device)` and then
`self.pred_model[0].set_device(device)`; test.py calls `model.set_device(device)` and then
`model.set_data(data)`, where AgentFormer.set_data (model/agentformer.py) builds
`torch.stack(in_data['pre_motion_3D'], dim=0).to(device)` etc. from the preprocessor's per-agent CPU
tensors. Look-alike: a list-held submodule and list-held CPU agent tensors, both moved on purpose; it runs.
Stand-ins: AgentFormer reduced to set_data (eval path, no scene rotation), a one-layer context encoder
and a non-autoregressive future decoder; DLow's Q-net, `main` and `inference` as in dlow.py with a
Normal holder; random ETH-like scene with 3 pedestrians; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from collections import defaultdict
import numpy as np
import torch
from torch import nn

class Normal:
    def __init__(self, mu, logvar):
        self.mu, self.logvar = mu, logvar

class AgentFormer(nn.Module):
    def __init__(self, past_frames=8, future_frames=12, tf_model_dim=32, nz=8):
        super().__init__()
        self.device = torch.device('cpu')
        self.max_train_agent = 32
        self.rand_rot_scene = False
        self.future_frames = future_frames
        self.context_mlp = nn.Sequential(nn.Linear(past_frames * 4, tf_model_dim), nn.ReLU())
        self.decoder_mlp = nn.Linear(tf_model_dim + nz, future_frames * 2)

    def set_device(self, device):
        self.device = device
        self.to(device)

    def set_data(self, data):
        device = self.device
        in_data = data
        self.data = defaultdict(lambda: None)
        self.data['batch_size'] = len(in_data['pre_motion_3D'])
        self.data['agent_num'] = len(in_data['pre_motion_3D'])
        self.data['pre_motion'] = torch.stack(in_data['pre_motion_3D'], dim=0).to(device).transpose(0, 1).contiguous()
        self.data['fut_motion'] = torch.stack(in_data['fut_motion_3D'], dim=0).to(device).transpose(0, 1).contiguous()
        self.data['fut_motion_orig'] = torch.stack(in_data['fut_motion_3D'], dim=0).to(device)
        self.data['fut_mask'] = torch.stack(in_data['fut_motion_mask'], dim=0).to(device)
        self.data['pre_mask'] = torch.stack(in_data['pre_motion_mask'], dim=0).to(device)
        self.data['scene_orig'] = self.data['pre_motion'][-1].mean(dim=0)
        theta = torch.zeros(1).to(device)
        for key in ['pre_motion', 'fut_motion', 'fut_motion_orig']:
            self.data[f'{key}_scene_norm'] = self.data[key] - self.data['scene_orig']
        self.data['pre_vel'] = self.data['pre_motion'][1:] - self.data['pre_motion'][:-1, :]
        self.data['cur_motion'] = self.data['pre_motion'][[-1]]
        self.data['pre_motion_norm'] = self.data['pre_motion'][:-1] - self.data['cur_motion']

    def context_encoder(self, data):
        pos = data['pre_motion_scene_norm']                                      # past x agents x 2
        vel = torch.cat([data['pre_vel'][[0]], data['pre_vel']], dim=0)
        traj_in = torch.cat([pos, vel], dim=-1).transpose(0, 1).reshape(data['agent_num'], -1)
        data['agent_context'] = self.context_mlp(traj_in)
        data['context_enc'] = data['agent_context'].unsqueeze(0)

    def future_decoder(self, data, mode, sample_num=1, autoregress=True, z=None, need_weights=False):
        context = data['agent_context'].repeat_interleave(sample_num, dim=0)
        out = self.decoder_mlp(torch.cat([context, z], dim=-1)).view(data['agent_num'], sample_num, self.future_frames, 2)
        data[f'{mode}_dec_motion'] = out + data['cur_motion'].transpose(0, 1).unsqueeze(1)

class DLow(nn.Module):
    def __init__(self, pred_model, nk=5, nz=8, pred_model_dim=32):
        super().__init__()
        self.device = torch.device('cpu')
        self.nk, self.nz = nk, nz
        self.share_eps = True
        self.train_w_mean = False
        pred_model.eval()
        self.pred_model = [pred_model]
        self.q_mlp = nn.Sequential(nn.Linear(pred_model_dim, 64), nn.Tanh())
        self.q_A = nn.Linear(64, nk * nz)
        self.q_b = nn.Linear(64, nk * nz)

    def set_device(self, device):
        self.device = device
        self.to(device)
        self.pred_model[0].set_device(device)

    def set_data(self, data):
        self.pred_model[0].set_data(data)
        self.data = self.pred_model[0].data

    def main(self, mean=False, need_weights=False):
        pred_model = self.pred_model[0]
        pred_model.context_encoder(self.data)
        if not mean:
            eps = torch.randn([1, self.nz]).to(self.device)
            eps = eps.repeat((self.data['agent_num'] * self.nk, 1))
        qnet_h = self.q_mlp(self.data['agent_context'])
        A = self.q_A(qnet_h).view(-1, self.nz)
        b = self.q_b(qnet_h).view(-1, self.nz)
        z = b if mean else A * eps + b
        logvar = (A ** 2 + 1e-8).log()
        self.data['q_z_dist_dlow'] = Normal(mu=b, logvar=logvar)
        pred_model.future_decoder(self.data, mode='infer', sample_num=self.nk, autoregress=True, z=z, need_weights=need_weights)
        return self.data

    def inference(self, mode, sample_num, need_weights=False):
        self.main(mean=True, need_weights=need_weights)
        res = self.data['infer_dec_motion']
        if mode == 'recon':
            res = res[:, 0]
        return res, self.data

pred_model = AgentFormer()            # loaded with torch.load(cp_path, map_location='cpu') in dlow.py
model = DLow(pred_model, nk=5)
device = torch.device('meta')         # torch.device('cuda', index=args.gpu), simulated by meta
model.set_device(device)
model.eval()

# one scene from the data generator (preprocessor.py): lists of per-agent CPU tensors
data = {
    'pre_motion_3D': [torch.randn(8, 2) for _ in range(3)],
    'fut_motion_3D': [torch.randn(12, 2) for _ in range(3)],
    'pre_motion_mask': [torch.ones(8) for _ in range(3)],
    'fut_motion_mask': [torch.ones(12) for _ in range(3)],
    'heading': None,
    'seq': 'eth', 'frame': 780,
}
'''
CELL = '''
with torch.no_grad():
    model.set_data(data)
    sample_motion_3D, data_out = model.inference(mode='infer', sample_num=5, need_weights=False)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
