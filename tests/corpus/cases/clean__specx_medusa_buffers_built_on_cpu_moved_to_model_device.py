"""Medusa tree buffers: the tree mask and index tensors are built on the CPU and moved to the base model's device before candidate generation.

Source: https://github.com/FasterDecoding/Medusa/blob/main/medusa/model/utils.py
`generate_medusa_buffers(medusa_choices, device="cuda")` fills `medusa_attn_mask = torch.eye(...)`,
`medusa_tree_indices`, `medusa_position_ids` and `retrieve_indices` on the CPU and ends with
`{k: v.clone().to(device) ...}`; `MedusaModel.medusa_generate` calls it with
`device=self.base_model.device`, and `generate_candidates` then indexes the cuda candidates with
those buffers (`candidates[tree_indices]`, `tree_candidates_ext[retrieve_indices]`). Look-alike: CPU
construction of index tensors, moved before use; it runs.
Stand-ins: Medusa's `pad_path`/`generate_medusa_buffers`/`generate_candidates` (TOPK=10), with cuda
logits standing for the base model's and the Medusa heads' outputs.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch

TOPK = 10

def pad_path(path, length, pad_value=-2):
    return path + [pad_value] * (length - len(path))

def generate_medusa_buffers(medusa_choices, device="cuda"):
    sorted_medusa_choices = sorted(medusa_choices, key=lambda x: (len(x), x))
    medusa_len = len(sorted_medusa_choices) + 1
    depth_counts = []
    prev_depth = 0
    for path in sorted_medusa_choices:
        depth = len(path)
        if depth != prev_depth:
            depth_counts.append(0)
        depth_counts[depth - 1] += 1
        prev_depth = depth
    medusa_attn_mask = torch.eye(medusa_len, medusa_len)
    medusa_attn_mask[:, 0] = 1
    start = 0
    for i in range(len(depth_counts)):
        for j in range(depth_counts[i]):
            cur_medusa_choice = sorted_medusa_choices[start + j]
            if len(cur_medusa_choice) == 1:
                continue
            ancestor_idx = []
            for c in range(len(cur_medusa_choice) - 1):
                ancestor_idx.append(sorted_medusa_choices.index(cur_medusa_choice[:c + 1]) + 1)
            medusa_attn_mask[j + start + 1, ancestor_idx] = 1
        start += depth_counts[i]
    medusa_tree_indices = torch.zeros(medusa_len, dtype=torch.long)
    medusa_tree_indices[0] = 0
    start = 0
    for i in range(len(depth_counts)):
        for j in range(depth_counts[i]):
            cur_medusa_choice = sorted_medusa_choices[start + j]
            medusa_tree_indices[start + j + 1] = cur_medusa_choice[-1] + TOPK * i + 1
        start += depth_counts[i]
    medusa_position_ids = torch.zeros(medusa_len, dtype=torch.long)
    start = 0
    for i in range(len(depth_counts)):
        medusa_position_ids[start + 1: start + depth_counts[i] + 1] = i + 1
        start += depth_counts[i]
    retrieve_indices_nest = []
    retrieve_paths = []
    for i in range(len(sorted_medusa_choices)):
        cur_medusa_choice = sorted_medusa_choices[-i - 1]
        retrieve_indice = []
        if cur_medusa_choice in retrieve_paths:
            continue
        for c in range(len(cur_medusa_choice)):
            retrieve_indice.append(sorted_medusa_choices.index(cur_medusa_choice[:c + 1]))
            retrieve_paths.append(cur_medusa_choice[:c + 1])
        retrieve_indices_nest.append(retrieve_indice)
    max_length = max([len(x) for x in retrieve_indices_nest])
    retrieve_indices = [pad_path(path, max_length) for path in retrieve_indices_nest]
    retrieve_indices = torch.tensor(retrieve_indices, dtype=torch.long)
    retrieve_indices = retrieve_indices + 1
    retrieve_indices = torch.cat([torch.zeros((retrieve_indices.shape[0], 1), dtype=torch.long),
                                  retrieve_indices], dim=1)
    medusa_buffers = {
        "medusa_attn_mask": medusa_attn_mask.unsqueeze(0).unsqueeze(0),
        "tree_indices": medusa_tree_indices,
        "medusa_position_ids": medusa_position_ids,
        "retrieve_indices": retrieve_indices,
    }
    medusa_buffers = {k: v.clone().to(device) if isinstance(v, torch.Tensor) else torch.tensor(v, device=device)
                      for k, v in medusa_buffers.items()}
    return medusa_buffers

def generate_candidates(medusa_logits, logits, tree_indices, retrieve_indices):
    candidates_logit = torch.argmax(logits[:, -1]).unsqueeze(0)
    candidates_medusa_logits = torch.topk(medusa_logits[:, 0, -1], TOPK, dim=-1).indices
    candidates = torch.cat([candidates_logit, candidates_medusa_logits.view(-1)], dim=-1)
    tree_candidates = candidates[tree_indices]
    tree_candidates_ext = torch.cat([tree_candidates, torch.zeros((1), dtype=torch.long,
                                                                  device=tree_candidates.device)], dim=0)
    cart_candidates = tree_candidates_ext[retrieve_indices]
    tree_candidates = tree_candidates.unsqueeze(0)
    return cart_candidates, tree_candidates

device = torch.device("meta")   # the GPU (base_model.device), simulated with meta
mc_sim_7b_63 = [[0], [0, 0], [1], [0, 1], [2], [0, 0, 0], [1, 0], [0, 2], [3], [0, 3]]
vocab = 100
logits = torch.randn(1, 6, vocab, device=device)             # base model logits
medusa_logits = torch.randn(4, 1, 6, vocab, device=device)   # 4 Medusa heads
'''
CELL = '''
medusa_buffers = generate_medusa_buffers(mc_sim_7b_63, device=device)
candidates, tree_candidates = generate_candidates(
    medusa_logits, logits, medusa_buffers["tree_indices"], medusa_buffers["retrieve_indices"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
