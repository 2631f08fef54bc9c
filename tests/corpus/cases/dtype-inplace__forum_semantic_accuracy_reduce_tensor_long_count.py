"""ImageNet-21K semantic-softmax accuracy: the integer count of valid targets is divided in place.

Source: https://github.com/Alibaba-MIIL/ImageNet21K/issues/34
"casting error in AccuracySemanticSoftmaxMet": in multi-GPU validation, `accumulate` passes
`num_valids_total` (a sum of `torch.sum(ind_valid)` counts, an int64 tensor) to `reduce_tensor`,
whose `rt /= n` raised "RuntimeError: result type Float can't be cast to the desired output type
Long". The reporter: "Adding `num_valids_total = num_valids_total.double()` after `detach()` solves
the problem." Stand-in: the metric class as in src_files/semantic/metrics.py; a two-level semantic
processor; `reduce_tensor` without the all_reduce (world size 2), as in distributed.py's division.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch

def num_distrib():
    return 2                                   # int(os.environ.get('WORLD_SIZE', 0)) on 2 GPUs

def reduce_tensor(tensor, n):
    rt = tensor.clone()
    # torch.distributed.all_reduce(rt, op=dist.ReduceOp.SUM)
    rt /= n
    return rt

class SemanticSoftmaxProcessor:
    def __init__(self, level_sizes=(5, 7)):
        self.level_sizes = list(level_sizes)

    def split_logits_to_semantic_logits(self, logits):
        return list(torch.split(logits, self.level_sizes, dim=1))

    def convert_targets_to_semantic_targets(self, targs):
        return targs                            # (N, levels), -1 where a level does not apply

class AccuracySemanticSoftmaxMet:
    "Average the values of `func` taking into account potential different batch sizes"

    def __init__(self, semantic_softmax_processor):
        self.semantic_softmax_processor = semantic_softmax_processor
        self.total, self.count = 0., 0

    def accumulate(self, logits, targs):
        with torch.no_grad():
            semantic_logit_list = self.semantic_softmax_processor.split_logits_to_semantic_logits(logits)
            semantic_targets_tensor = self.semantic_softmax_processor.convert_targets_to_semantic_targets(targs)
            accuracy_list = []
            accuracy_valid_list = []
            result = 0
            for i in range(len(semantic_logit_list)):  # scanning hirarchy_level_list
                logits_i = semantic_logit_list[i]
                targets_i = semantic_targets_tensor[:, i]
                pred_i = logits_i.argmax(dim=-1)
                ind_valid = (targets_i >= 0)
                num_valids = torch.sum(ind_valid)
                accuracy_valid_list.append(num_valids)
                if num_valids > 0:
                    accuracy_list.append((pred_i[ind_valid] == targets_i[ind_valid]).float().mean())
                else:
                    accuracy_list.append(0)
                result += accuracy_list[-1] * accuracy_valid_list[-1]
            num_valids_total = sum(accuracy_valid_list)

        result = result.detach()
        num_valids_total = num_valids_total.detach()
        if num_distrib() > 1:
            result = reduce_tensor(result, num_distrib())
            num_valids_total = reduce_tensor(num_valids_total, num_distrib())

        self.total += result.item()
        self.count += num_valids_total.item()

    @property
    def value(self):
        return self.total / self.count * 100 if self.count != 0 else None

met = AccuracySemanticSoftmaxMet(SemanticSoftmaxProcessor())
logits = torch.randn(16, 12)
targs = torch.stack([torch.randint(0, 5, (16,)), torch.randint(-1, 7, (16,))], dim=1)
'''
CELL = '''
met.accumulate(logits, targs)
print(met.value)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["met"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        num_valids_total = num_valids_total.detach()\n",
    "        num_valids_total = num_valids_total.detach()\n        num_valids_total = num_valids_total.double()\n",
)
CLEAN = False
