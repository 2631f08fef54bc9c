"""Graph ConvNet TSP beam search: `prev_k = bestScoresId / self.num_nodes` is a float index for gather.

Source: https://github.com/chaitjo/graph-convnet-tsp/issues/11
"Error in beamsearch.py": running the tsp10 notebook, `self.mask = self.mask.gather(1, perm_mask)`
(Utils/beamsearch.py line 96) failed with "gather_out_gpu(): expected dtype int64 for index";
the reporter found `perm_mask` holds float values. It is built from `prev_k = bestScoresId /
self.num_nodes`, which newer PyTorch computes as true division (a float tensor); the maintainer
suggested a long cast. Stand-in: the repository's `Beamsearch` class (init, advance, update_mask)
on random edge logits, run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn.functional as F

class Beamsearch(object):
    def __init__(self, beam_size, batch_size, num_nodes,
                 dtypeFloat=torch.FloatTensor, dtypeLong=torch.LongTensor, probs_type='raw', random_start=False):
        self.batch_size = batch_size
        self.beam_size = beam_size
        self.num_nodes = num_nodes
        self.probs_type = probs_type
        self.dtypeFloat = dtypeFloat
        self.dtypeLong = dtypeLong
        self.start_nodes = torch.zeros(batch_size, beam_size).type(self.dtypeLong)
        if random_start == True:
            self.start_nodes = torch.randint(0, num_nodes, (batch_size, beam_size)).type(self.dtypeLong)
        self.mask = torch.ones(batch_size, beam_size, num_nodes).type(self.dtypeFloat)
        self.update_mask(self.start_nodes)
        self.scores = torch.zeros(batch_size, beam_size).type(self.dtypeFloat)
        self.all_scores = []
        self.prev_Ks = []
        self.next_nodes = [self.start_nodes]

    def get_current_state(self):
        return self.next_nodes[-1].unsqueeze(2).expand(self.batch_size, self.beam_size, self.num_nodes)

    def advance(self, trans_probs):
        if len(self.prev_Ks) > 0:
            beam_lk = trans_probs + self.scores.unsqueeze(2).expand_as(trans_probs)
        else:
            beam_lk = trans_probs
            beam_lk[:, 1:] = -1e20 * torch.ones(beam_lk[:, 1:].size()).type(self.dtypeFloat)
        beam_lk = beam_lk * self.mask
        beam_lk = beam_lk.view(self.batch_size, -1)
        bestScores, bestScoresId = beam_lk.topk(self.beam_size, 1, True, True)
        self.scores = bestScores
        prev_k = bestScoresId / self.num_nodes
        self.prev_Ks.append(prev_k)
        new_nodes = bestScoresId - prev_k * self.num_nodes
        self.next_nodes.append(new_nodes)
        perm_mask = prev_k.unsqueeze(2).expand_as(self.mask)
        self.mask = self.mask.gather(1, perm_mask)
        self.update_mask(new_nodes)

    def update_mask(self, new_nodes):
        arr = (torch.arange(0, self.num_nodes).unsqueeze(0).unsqueeze(1)
               .expand_as(self.mask).type(self.dtypeLong))
        new_nodes = new_nodes.unsqueeze(2).expand_as(self.mask)
        update_mask = 1 - torch.eq(arr, new_nodes).type(self.dtypeFloat)
        self.mask = self.mask * update_mask
        if self.probs_type == 'logits':
            self.mask[self.mask == 0] = 1e20

dtypeFloat, dtypeLong = torch.FloatTensor, torch.LongTensor
batch_size, num_nodes, beam_size = 2, 10, 4
y_pred_edges = torch.randn(batch_size, num_nodes, num_nodes, 2)
y = F.log_softmax(y_pred_edges, dim=3)[:, :, :, 1]
'''
CELL = '''
beamsearch = Beamsearch(beam_size, batch_size, num_nodes, dtypeFloat, dtypeLong, probs_type='logits')
trans_probs = y.gather(1, beamsearch.get_current_state())
for step in range(num_nodes - 1):
    beamsearch.advance(trans_probs)
    trans_probs = y.gather(1, beamsearch.get_current_state())
'''
EXPECT_ERROR = ("Expected dtype int32/int64 for index", "Expected dtype int64 for index")
CULPRITS = ["beamsearch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "prev_k = bestScoresId / self.num_nodes",
    "prev_k = bestScoresId // self.num_nodes",
)
CLEAN = False
