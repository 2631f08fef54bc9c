"""Ham2Pose prediction: the first pose frame comes from the CPU dataset into the cuda model's generator.

Source: https://github.com/rotem-shalev/Ham2Pose/pull/6
`pred()` takes `first_pose = datum["pose"]["data"][0]` from the dataset (CPU) and iterates
`model.forward(text=..., first_pose=first_pose)`, a generator that builds
`pose_sequence["data"] = first_pose.expand(1, sequence_length, *self.pose_dims)` and refines it with
`self.pose_projection` on the GPU: "Expected all tensors to be on the same device, cpu and cuda:0
(... argument mat2 in method wrapper_CUDA_mm)". The PR moves `first_pose` to the device inside
`forward`. Simulated with meta as the accelerator; stand-ins: a tiny tokenizer/text encoder, and
the predicted sequence length (a `float()` of a tensor a simulator cannot read) is `min_seq_size`.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Tokenizer:
    pad_token_id = 0
    def __len__(self):
        return 32
    def __call__(self, texts, device):
        ids = torch.tensor([[(ord(c) % 31) + 1 for c in t[:12]] for t in texts]).to(device)
        return {"tokens_ids": ids,
                "positions": torch.arange(ids.shape[1], device=device).unsqueeze(0),
                "attention_mask": torch.zeros_like(ids, dtype=torch.bool)}

class IterativeTextGuidedPoseGenerationModel(nn.Module):
    def __init__(self, tokenizer, pose_dims=(17, 2), hidden_dim=32, num_steps=10, min_seq_size=8):
        super().__init__()
        self.tokenizer = tokenizer
        self.pose_dims = pose_dims
        self.num_steps = num_steps
        self.min_seq_size = min_seq_size
        pose_dim = pose_dims[0] * pose_dims[1]
        self.embedding = nn.Embedding(len(tokenizer), hidden_dim, padding_idx=tokenizer.pad_token_id)
        self.step_embedding = nn.Embedding(num_steps, hidden_dim)
        self.positional_embeddings = nn.Embedding(200, hidden_dim)
        self.pose_projection = nn.Linear(pose_dim, hidden_dim)
        self.step_encoder = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.SiLU())
        self.pose_diff_projection = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.SiLU(),
                                                  nn.Linear(hidden_dim, pose_dim))

    @property
    def device(self):
        return self.embedding.weight.device

    def encode_text(self, texts):
        tokenized = self.tokenizer(texts, device=self.device)
        embedding = self.embedding(tokenized["tokens_ids"]) + self.positional_embeddings(tokenized["positions"])
        return {"data": embedding, "mask": tokenized["attention_mask"]}

    def forward(self, text, first_pose, sequence_length=-1):
        text_encoding = self.encode_text([text])
        seq_len = self.min_seq_size
        sequence_length = seq_len if sequence_length == -1 else sequence_length
        pose_sequence = {
            "data": first_pose.expand(1, sequence_length, *self.pose_dims),
            "mask": torch.zeros([1, sequence_length], dtype=torch.bool, device=self.device),
        }
        step_num = 0
        while True:
            yield pose_sequence["data"][0]
            pose_sequence["data"] = self.refinement_step(step_num, pose_sequence, text_encoding)
            step_num += 1

    def refinement_step(self, step_num, pose_sequence, text_encoding):
        batch_size = pose_sequence["data"].shape[0]
        batch_step_num = torch.full((batch_size, 1), step_num, dtype=torch.long).to(self.device)
        step_encoding = self.step_encoder(self.step_embedding(batch_step_num))
        b, s = pose_sequence["data"].shape[:2]
        pose_embedding = self.pose_projection(pose_sequence["data"].reshape(b, s, -1))
        h = pose_embedding + text_encoding["data"].mean(1, keepdim=True) + step_encoding
        change_pred = self.pose_diff_projection(h).reshape(pose_sequence["data"].shape)
        return 0.9 * pose_sequence["data"] + 0.1 * change_pred

device = torch.device("meta")
model = IterativeTextGuidedPoseGenerationModel(Tokenizer()).to(device)
model.eval()
dataset = [{"id": f"s{i}", "text": "hamnosys sign", "pose": {"data": torch.randn(30, 17, 2)}}
           for i in range(2)]
'''
CELL = '''
with torch.no_grad():
    for i, datum in enumerate(dataset):
        first_pose = datum["pose"]["data"][0]
        seq_iter = model.forward(text=datum["text"], first_pose=first_pose)
        for j in range(model.num_steps):
            seq = next(seq_iter)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["first_pose"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('"data": first_pose.expand(1, sequence_length, *self.pose_dims),',
                  '"data": first_pose.to(self.device).expand(1, sequence_length, *self.pose_dims),')
CLEAN = False
