"""HumanML3D evaluator wrapper in MDM: features go to the GPU, caption and motion lengths stay on the CPU.

Source: https://github.com/GuyTevet/motion-diffusion-model/blob/main/data_loaders/humanml/networks/evaluator_wrapper.py
`EvaluatorMDMWrapper.get_co_embeddings(word_embs, pos_ohot, cap_lens, motions, m_lens)` moves
`word_embs`, `pos_ohot` and `motions` to `self.device` but leaves `cap_lens`/`m_lens` as the loader's
CPU tensors: they are sorted with numpy (`np.argsort(m_lens.data.tolist())`), integer-divided by the
unit length and handed to the Text/Motion BiGRU encoders, which call `pack_padded_sequence(...,
lengths.data.tolist(), batch_first=True)`; packing wants CPU lengths. Look-alike: CPU length tensors
next to GPU features, by design; it runs.
Stand-in: the T2M MovementConvEncoder / TextEncoderBiGRUCo / MotionEncoderBiGRUCo with reduced hidden
sizes and random weights, built directly instead of build_evaluators(opt) loading checkpoints; the GPU
is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

class MovementConvEncoder(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv1d(input_size, hidden_size, 4, 2, 1), nn.Dropout(0.2, inplace=True), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv1d(hidden_size, output_size, 4, 2, 1), nn.Dropout(0.2, inplace=True), nn.LeakyReLU(0.2, inplace=True))
        self.out_net = nn.Linear(output_size, output_size)

    def forward(self, inputs):
        inputs = inputs.permute(0, 2, 1)
        outputs = self.main(inputs).permute(0, 2, 1)
        return self.out_net(outputs)

class TextEncoderBiGRUCo(nn.Module):
    def __init__(self, word_size, pos_size, hidden_size, output_size, device):
        super().__init__()
        self.device = device
        self.pos_emb = nn.Linear(pos_size, word_size)
        self.input_emb = nn.Linear(word_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True, bidirectional=True)
        self.output_net = nn.Sequential(nn.Linear(hidden_size * 2, hidden_size), nn.LayerNorm(hidden_size),
                                        nn.LeakyReLU(0.2, inplace=True), nn.Linear(hidden_size, output_size))
        self.hidden_size = hidden_size
        self.hidden = nn.Parameter(torch.randn((2, 1, self.hidden_size), requires_grad=True))

    def forward(self, word_embs, pos_onehot, cap_lens):
        num_samples = word_embs.shape[0]
        pos_embs = self.pos_emb(pos_onehot)
        inputs = word_embs + pos_embs
        input_embs = self.input_emb(inputs)
        hidden = self.hidden.repeat(1, num_samples, 1)
        cap_lens = cap_lens.data.tolist()
        emb = pack_padded_sequence(input_embs, cap_lens, batch_first=True)
        gru_seq, gru_last = self.gru(emb, hidden)
        gru_last = torch.cat([gru_last[0], gru_last[1]], dim=-1)
        return self.output_net(gru_last)

class MotionEncoderBiGRUCo(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, device):
        super().__init__()
        self.device = device
        self.input_emb = nn.Linear(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True, bidirectional=True)
        self.output_net = nn.Sequential(nn.Linear(hidden_size * 2, hidden_size), nn.LayerNorm(hidden_size),
                                        nn.LeakyReLU(0.2, inplace=True), nn.Linear(hidden_size, output_size))
        self.hidden_size = hidden_size
        self.hidden = nn.Parameter(torch.randn((2, 1, self.hidden_size), requires_grad=True))

    def forward(self, inputs, m_lens):
        num_samples = inputs.shape[0]
        input_embs = self.input_emb(inputs)
        hidden = self.hidden.repeat(1, num_samples, 1)
        cap_lens = m_lens.data.tolist()
        emb = pack_padded_sequence(input_embs, cap_lens, batch_first=True)
        gru_seq, gru_last = self.gru(emb, hidden)
        gru_last = torch.cat([gru_last[0], gru_last[1]], dim=-1)
        return self.output_net(gru_last)

class EvaluatorMDMWrapper(object):
    def __init__(self, dataset_name, device):
        opt = {'dataset_name': dataset_name, 'device': device, 'dim_word': 300, 'dim_pos_ohot': 15,
               'dim_pose': 263, 'dim_movement_enc_hidden': 64, 'dim_movement_latent': 64,
               'dim_text_hidden': 64, 'dim_motion_hidden': 64, 'dim_coemb_hidden': 32, 'unit_length': 4}
        self.movement_encoder = MovementConvEncoder(opt['dim_pose'] - 4, opt['dim_movement_enc_hidden'], opt['dim_movement_latent'])
        self.text_encoder = TextEncoderBiGRUCo(opt['dim_word'], opt['dim_pos_ohot'], opt['dim_text_hidden'], opt['dim_coemb_hidden'], device)
        self.motion_encoder = MotionEncoderBiGRUCo(opt['dim_movement_latent'], opt['dim_motion_hidden'], opt['dim_coemb_hidden'], device)
        self.opt = opt
        self.device = opt['device']
        self.text_encoder.to(opt['device'])
        self.motion_encoder.to(opt['device'])
        self.movement_encoder.to(opt['device'])
        self.text_encoder.eval()
        self.motion_encoder.eval()
        self.movement_encoder.eval()

    def get_co_embeddings(self, word_embs, pos_ohot, cap_lens, motions, m_lens):
        with torch.no_grad():
            word_embs = word_embs.detach().to(self.device).float()
            pos_ohot = pos_ohot.detach().to(self.device).float()
            motions = motions.detach().to(self.device).float()
            align_idx = np.argsort(m_lens.data.tolist())[::-1].copy()
            motions = motions[align_idx]
            m_lens = m_lens[align_idx]
            movements = self.movement_encoder(motions[..., :-4]).detach()
            m_lens = m_lens // self.opt['unit_length']
            motion_embedding = self.motion_encoder(movements, m_lens)
            text_embedding = self.text_encoder(word_embs, pos_ohot, cap_lens)
            text_embedding = text_embedding[align_idx]
        return text_embedding, motion_embedding

eval_wrapper = EvaluatorMDMWrapper('humanml', torch.device('meta'))    # 'cuda' in MDM; meta simulates it
bs = 4
word_embeddings = torch.randn(bs, 22, 300)                              # eval loader batch, on the CPU
pos_one_hots = torch.zeros(bs, 22, 15)
cap_lens = torch.tensor([22, 18, 12, 9])                                # loader sorts by caption length
motions = torch.randn(bs, 196, 263)
m_lens = torch.tensor([120, 196, 64, 160])
'''
CELL = '''
text_embeddings, motion_embeddings = eval_wrapper.get_co_embeddings(
    word_embs=word_embeddings, pos_ohot=pos_one_hots, cap_lens=cap_lens, motions=motions, m_lens=m_lens)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
